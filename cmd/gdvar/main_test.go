package main

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"runtime/debug"
	"sort"
	"strings"
	"sync"
	"testing"
)

func TestMain(m *testing.M) {
	status := m.Run()
	if built.dir != "" {
		os.RemoveAll(built.dir)
	}
	os.Exit(status)
}

// built is the command, built once for the tests that run it as a
// program.
var built struct {
	once      sync.Once
	dir, path string
	err       error
}

// gdvarProgram runs the command as a program (gdvarBuilt), or in -short
// mode in this process (gdvar). Tests that run it many times on files use
// it: a program's memory does not add to this process's, whose peak the
// RSS test's children inherit.
func gdvarProgram(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	if testing.Short() {
		return gdvar(t, stdin, args...)
	}
	return gdvarBuilt(t, stdin, args...)
}

// builtGdvar builds the command once for the tests that run it as a
// program, and returns its path. It skips the test in -short mode.
func builtGdvar(t *testing.T) string {
	t.Helper()
	if testing.Short() {
		t.Skip("builds the command")
	}
	built.once.Do(func() {
		if built.dir, built.err = os.MkdirTemp("", "gdvar-test-"); built.err != nil {
			return
		}
		built.path = filepath.Join(built.dir, "gdvar")
		if out, err := exec.Command("go", "build", "-o", built.path, ".").CombinedOutput(); err != nil {
			built.err = errors.New("go build: " + err.Error() + "\n" + string(out))
		}
	})
	if built.err != nil {
		t.Fatal(built.err)
	}
	return built.path
}

// gdvarBuilt runs the built command with args and stdin, returning its
// exit status, standard output and standard error. It skips the test in
// -short mode.
func gdvarBuilt(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	bin := builtGdvar(t)
	cmd := exec.Command(bin, args...)
	cmd.Stdin = strings.NewReader(stdin)
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), out.String(), errOut.String()
}

// gdvar runs the command with args and stdin, returning its exit status,
// standard output and standard error.
func gdvar(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errOut bytes.Buffer
	status := run(args, strings.NewReader(stdin), &out, &errOut)
	return status, out.String(), errOut.String()
}

func TestDecodeSampleAndEncodeBack(t *testing.T) {
	sample, err := os.ReadFile("../../testdata/sample/savegame.bin")
	if err != nil {
		t.Fatal(err)
	}
	status, text, stderr := gdvar(t, "", "decode", "../../testdata/sample/savegame.bin")
	if status != 0 || stderr != "" {
		t.Fatalf("decode: status %d, stderr %q", status, stderr)
	}
	if strings.Count(text, "\n") != 1 || !strings.Contains(text, `"name": "Ada Lovelace"`) ||
		!strings.Contains(text, `Array[int]([1, 2, 3, 5, 8])`) {
		t.Errorf("decode printed %q", text)
	}
	// The text encodes back to the very bytes Godot wrote.
	status, raw, stderr := gdvar(t, text, "encode")
	if status != 0 || raw != string(sample) {
		t.Errorf("encode of the decoded text: status %d, stderr %q, %d bytes (want %d)", status, stderr, len(raw), len(sample))
	}
	status, hexOut, _ := gdvar(t, text, "encode", "--hex")
	if status != 0 || hexOut != hex.EncodeToString(sample)+"\n" {
		t.Errorf("encode --hex: %q", hexOut)
	}
	// Same through standard input, with flags after the file name.
	status, text2, _ := gdvar(t, hex.EncodeToString(sample), "decode", "-", "--hex")
	if status != 0 || text2 != text {
		t.Errorf("decode --hex from stdin: %q", text2)
	}
}

func TestLines(t *testing.T) {
	in := "050000000000803f00000040\n0500 0000\nnot hex\n\n02000000 01000000\n"
	status, out, _ := gdvar(t, in, "decode", "--hex", "--lines")
	lines := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if status != 1 || len(lines) != 5 {
		t.Fatalf("status %d, %d lines: %q", status, len(lines), out)
	}
	if lines[0] != "Vector2(1, 2)" || lines[4] != "1" {
		t.Errorf("values: %q", lines)
	}
	for _, i := range []int{1, 2, 3} {
		if !strings.HasPrefix(lines[i], "ERROR ") {
			t.Errorf("line %d: %q, want an ERROR line", i+1, lines[i])
		}
	}
	if !strings.Contains(lines[1], "byte 0 (Vector2): data truncated") {
		t.Errorf("truncation error: %q", lines[1])
	}

	status, out, _ = gdvar(t, "Vector2(1, 2)\n[1, \"a\"]\nVector2(\n", "encode", "--lines")
	lines = strings.Split(strings.TrimSuffix(out, "\n"), "\n")
	if status != 1 || len(lines) != 3 || lines[0] != "050000000000803f00000040" ||
		lines[1] != "1c000000020000000200000001000000040000000100000061000000" ||
		!strings.HasPrefix(lines[2], "ERROR ") {
		t.Errorf("encode --lines: status %d, %q", status, out)
	}
}

func TestFamiliesAndOptions(t *testing.T) {
	// Godot 3 numbering and text form.
	status, out, _ := gdvar(t, "0a0000000000803f000000400000404000008040", "decode", "--godot", "3", "--hex")
	if status != 0 || !strings.HasPrefix(out, "Quat(") {
		t.Errorf("godot 3 Quat: %d %q", status, out)
	}
	status, out, _ = gdvar(t, "PoolIntArray( 1, 2 )", "encode", "--godot=3", "--hex")
	if status != 0 || out != "15000000020000000100000002000000\n" {
		t.Errorf("godot 3 PoolIntArray: %d %q", status, out)
	}
	// Strict decoding refuses trailing bytes the engine would ignore.
	if status, out, _ := gdvar(t, "0200000001000000f", "decode", "--hex"); status != 1 || out != "" {
		t.Errorf("odd hex digit: %d %q", status, out)
	}
	if status, out, _ := gdvar(t, "0200000001000000ffffffff", "decode", "--hex"); status != 0 || out != "1\n" {
		t.Errorf("trailing bytes: %d %q", status, out)
	}
	status, _, stderr := gdvar(t, "0200000001000000ffffffff", "decode", "--hex", "--strict")
	if status != 1 || !strings.Contains(stderr, "byte 8: not the engine's canonical encoding: 4 bytes after the value") {
		t.Errorf("--strict: %d %q", status, stderr)
	}
	// Double precision.
	status, out, _ = gdvar(t, "Vector2(1, 2)", "encode", "--double", "--hex")
	if status != 0 || out != "05000100000000000000f03f0000000000000040\n" {
		t.Errorf("--double: %d %q", status, out)
	}
	// A 4.2 peer cannot read typed arrays.
	status, _, stderr = gdvar(t, "Array[int]([1])", "encode", "--godot", "4.2")
	if status != 1 || !strings.Contains(stderr, "before Godot 4.3") {
		t.Errorf("--godot 4.2: %d %q", status, stderr)
	}
	// Full objects need the flags, both ways.
	obj := `Object(Resource,"resource_name":"x","script":null)`
	status, _, stderr = gdvar(t, obj, "encode")
	if status != 1 || !strings.Contains(stderr, "FullObjects") {
		t.Errorf("object without --full-objects: %d %q", status, stderr)
	}
	status, objHex, _ := gdvar(t, obj, "encode", "--full-objects", "--hex")
	if status != 0 {
		t.Fatalf("--full-objects: %d", status)
	}
	status, _, stderr = gdvar(t, objHex, "decode", "--hex")
	if status != 1 || !strings.Contains(stderr, "full objects not allowed") {
		t.Errorf("object without --allow-objects: %d %q", status, stderr)
	}
	status, out, _ = gdvar(t, objHex, "decode", "--hex", "--allow-objects")
	if status != 0 || !strings.Contains(out, "Object(Resource") {
		t.Errorf("--allow-objects: %d %q", status, out)
	}
	// --classes: the engine's list, or a file of names.
	status, out, _ = gdvar(t, objHex, "decode", "--hex", "--allow-objects", "--classes", "engine")
	if status != 0 || !strings.Contains(out, "Object(Resource") {
		t.Errorf("--classes engine: %d %q", status, out)
	}
	list := filepath.Join(t.TempDir(), "classes.txt")
	if err := os.WriteFile(list, []byte("Node\nCurve\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	status, _, stderr = gdvar(t, objHex, "decode", "--hex", "--allow-objects", "--classes", list)
	if status != 1 || !strings.Contains(stderr, `class "Resource" cannot be instantiated`) {
		t.Errorf("--classes FILE: %d %q", status, stderr)
	}
	_, unknown, _ := gdvar(t, `Object(NoSuchClass,"script":null)`, "encode", "--full-objects", "--hex")
	status, _, stderr = gdvar(t, unknown, "decode", "--hex", "--allow-objects", "--classes", "engine")
	if status != 1 || !strings.Contains(stderr, `class "NoSuchClass" cannot be instantiated`) {
		t.Errorf("--classes engine, unknown class: %d %q", status, stderr)
	}
}

func TestUsageAndBadInput(t *testing.T) {
	if status, out, _ := gdvar(t, "", "--help"); status != 0 || !strings.Contains(out, "gdvar decode") {
		t.Errorf("--help: %d", status)
	}
	for _, cmd := range []string{"decode", "encode"} {
		if status, out, _ := gdvar(t, "", cmd, "--help"); status != 0 || !strings.Contains(out, "Examples:") {
			t.Errorf("%s --help: %d %q", cmd, status, out)
		}
	}
	cases := []struct {
		args   []string
		stdin  string
		status int
		errHas string
	}{
		{nil, "", 2, "Usage"},
		{[]string{"frobnicate"}, "", 2, "unknown command"},
		{[]string{"decode", "--godot", "5"}, "", 2, "want 3 or 4"},
		{[]string{"decode", "a", "b"}, "", 2, "one input at most"},
		{[]string{"decode", "/nonexistent/file"}, "", 1, "no such file"},
		{[]string{"decode", "--hex"}, "abc", 1, "odd number of hex digits"},
		{[]string{"decode"}, "\x1c\x00\x00\x00\xff\xff\xff\x7f", 1, "byte 8, [0]: data truncated"},
		{[]string{"decode", "--hex"}, "04000000 ffffff7f", 1, "byte 4 (String)"},
		{[]string{"encode"}, "Vector2(1, ", 1, "line 1"},
		{[]string{"encode", "--godot", "3"}, "Vector2i(1, 2)", 1, "Vector2i"},
	}
	for _, c := range cases {
		status, out, stderr := gdvar(t, c.stdin, c.args...)
		if status != c.status || !strings.Contains(stderr, c.errHas) {
			t.Errorf("%v: status %d, stderr %q, want %d and %q", c.args, status, stderr, c.status, c.errHas)
		}
		if c.status == 1 && (out != "" || strings.Count(stderr, "\n") != 1 || strings.Contains(stderr, "goroutine")) {
			t.Errorf("%v: want one error line, got stdout %q stderr %q", c.args, out, stderr)
		}
	}
}

// Every value the real Godot 4.6 encoded goes through decode and encode
// --lines and comes back as the bytes the engine writes for it.
func TestLinesOverGoldenFixtures(t *testing.T) {
	for _, fam := range []string{"4", "3"} {
		f, err := os.Open("../../testdata/golden/godot" + fam + ".jsonl")
		if err != nil {
			t.Fatal(err)
		}
		var hexes, want []string
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var l struct {
				Expr, Hex, Reencoded string
				Objects              bool
			}
			if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
				t.Fatal(err)
			}
			if l.Objects || strings.Contains(l.Expr, "make(") {
				continue // objects need flags; instance IDs change in the engine
			}
			hexes = append(hexes, l.Hex)
			want = append(want, l.Reencoded)
		}
		f.Close()
		status, texts, _ := gdvar(t, strings.Join(hexes, "\n"), "decode", "--godot", fam, "--hex", "--lines")
		if status != 0 {
			t.Fatalf("godot %s decode --lines failed: %s", fam, texts)
		}
		status, out, _ := gdvar(t, texts, "encode", "--godot", fam, "--lines")
		got := strings.Split(strings.TrimSuffix(out, "\n"), "\n")
		if status != 0 || len(got) != len(want) {
			t.Fatalf("godot %s encode --lines: status %d, %d lines for %d", fam, status, len(got), len(want))
		}
		for i := range got {
			if got[i] != want[i] {
				t.Errorf("godot %s line %d:\ngot  %s\nwant %s", fam, i+1, got[i], want[i])
			}
		}
	}
}

// Help goes once to standard output with status 0; a usage error is one
// line and a pointer to --help on standard error with status 2.
func TestHelpAndUsageErrors(t *testing.T) {
	names := make([]string, 0, len(commands))
	for name := range commands {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, args := range [][]string{{"--help"}, {"-h"}, {"help"}, {"help", "help"}} {
		status, out, stderr := gdvarBuilt(t, "", args...)
		if status != 0 || out != usage || stderr != "" {
			t.Errorf("gdvar %s: status %d, stdout %d bytes, stderr %q", args[0], status, len(out), stderr)
		}
	}
	for _, name := range names {
		if !strings.Contains(usage, "\n  gdvar "+name+" ") || !strings.Contains(usage, "\n  "+name+" ") {
			t.Errorf("gdvar --help does not show %s", name)
		}
		var help string
		for _, args := range [][]string{{name, "--help"}, {name, "-h"}, {"help", name}} {
			status, out, stderr := gdvarBuilt(t, "", args...)
			if status != 0 || !strings.HasPrefix(out, "Usage: gdvar "+name+" ") || stderr != "" {
				t.Errorf("gdvar %s: status %d, stdout %.40q…, stderr %q", strings.Join(args, " "), status, out, stderr)
			}
			if help == "" {
				help = out
			} else if out != help {
				t.Errorf("gdvar %s: not the same help as gdvar %s --help", strings.Join(args, " "), name)
			}
		}
		status, out, stderr := gdvarBuilt(t, "", name, "--bogus")
		want := "gdvar " + name + ": flag provided but not defined: -bogus\nRun 'gdvar " + name + " --help' for usage.\n"
		if status != 2 || out != "" || stderr != want {
			t.Errorf("gdvar %s --bogus: status %d, stdout %q, stderr %q", name, status, out, stderr)
		}
	}
	for _, c := range []struct {
		args   []string
		stderr string
	}{
		{[]string{"frobnicate"}, "gdvar: unknown command \"frobnicate\"\nRun 'gdvar --help' for usage.\n"},
		{[]string{"help", "frobnicate"}, "gdvar help: unknown command \"frobnicate\"\nRun 'gdvar --help' for usage.\n"},
		{[]string{"decode", "--godot", "5"}, "gdvar decode: invalid value \"5\" for flag -godot: want 3 or 4 (or a version such as 4.2), got \"5\"\nRun 'gdvar decode --help' for usage.\n"},
		{[]string{"decode", "a", "b"}, "gdvar decode: one input at most, got a b\nRun 'gdvar decode --help' for usage.\n"},
		{[]string{"migrate", "a"}, "gdvar migrate: want IN OUT, --out-dir DIR FILES... or --in-place FILES..., got 1 arguments\nRun 'gdvar migrate --help' for usage.\n"},
		{[]string{"encode", "--hex", "--base64"}, "gdvar encode: --hex or --base64, not both\nRun 'gdvar encode --help' for usage.\n"},
	} {
		status, out, stderr := gdvarBuilt(t, "", c.args...)
		if status != 2 || out != "" || stderr != c.stderr {
			t.Errorf("gdvar %s: status %d, stdout %q, stderr %q; want 2 and %q", strings.Join(c.args, " "), status, out, stderr, c.stderr)
		}
	}
	// Without arguments: the help, on standard error, as a usage error.
	if status, out, stderr := gdvarBuilt(t, ""); status != 2 || out != "" || stderr != usage {
		t.Errorf("gdvar: status %d, stdout %q, stderr %d bytes", status, out, len(stderr))
	}
}

func TestVersion(t *testing.T) {
	for _, arg := range []string{"--version", "-version", "version"} {
		status, out, stderr := gdvarBuilt(t, "", arg)
		// Built from this checkout: "devel", or a pseudo-version where the
		// toolchain stamps one from the commit.
		devel := strings.HasPrefix(out, "gdvar devel, built from a checkout") || strings.HasPrefix(out, "gdvar v")
		if status != 0 || stderr != "" || strings.Count(out, "\n") != 1 || !devel ||
			!strings.HasSuffix(out, " ("+runtime.Version()+" "+runtime.GOOS+"/"+runtime.GOARCH+")\n") {
			t.Errorf("gdvar %s: status %d, stdout %q, stderr %q", arg, status, out, stderr)
		}
	}
	info := func(version string, settings ...string) *debug.BuildInfo {
		bi := &debug.BuildInfo{GoVersion: "go1.26.0", Main: debug.Module{Path: "github.com/gdvar/gdvar", Version: version}}
		for i := 0; i+1 < len(settings); i += 2 {
			bi.Settings = append(bi.Settings, debug.BuildSetting{Key: settings[i], Value: settings[i+1]})
		}
		return bi
	}
	platform := runtime.GOOS + "/" + runtime.GOARCH
	for _, c := range []struct {
		info *debug.BuildInfo
		want string
	}{
		{info("v1.2.3"), "gdvar v1.2.3 (go1.26.0 " + platform + ")"},
		{info("v0.0.0-20261124160000-b48f72cbdbe7", "vcs.revision", "b48f72cbdbe7ab2de7ab1417606b468518134620"),
			"gdvar v0.0.0-20261124160000-b48f72cbdbe7 (go1.26.0 " + platform + ")"},
		{info("(devel)"), "gdvar devel, built from a checkout (go1.26.0 " + platform + ")"},
		{info("(devel)", "vcs.revision", "b48f72cbdbe7ab2de7ab1417606b468518134620", "vcs.time", "2026-11-24T16:00:00Z", "vcs.modified", "true"),
			"gdvar devel, built from a checkout, commit b48f72cbdbe7 of 2026-11-24T16:00:00Z with local changes (go1.26.0 " + platform + ")"},
	} {
		if got := versionLine(c.info, true); got != c.want {
			t.Errorf("versionLine:\ngot  %s\nwant %s", got, c.want)
		}
	}
	if got := versionLine(nil, false); !strings.HasPrefix(got, "gdvar (version unknown") {
		t.Errorf("versionLine without build info: %s", got)
	}
}
