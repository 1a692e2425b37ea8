package main

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// outputCommands write to standard output; each must fail, with a message,
// when that output is lost.
var outputCommands = []struct {
	stdin string
	args  []string
}{
	{"", []string{"decode", "../../testdata/sample/savegame.bin"}},
	{"050000000000803f00000040\n", []string{"decode", "--hex"}},
	{"050000000000803f00000040\n02000000 01000000\n", []string{"decode", "--hex", "--lines"}},
	{"", []string{"decode", "--to", "json", "../../testdata/sample/savegame.bin"}},
	{"Vector2(1, 2)\n", []string{"encode"}},
	{"Vector2(1, 2)\n", []string{"encode", "--hex"}},
	{"Vector2(1, 2)\n", []string{"encode", "--base64"}},
	{"1\n\"a\"\n", []string{"encode", "--file"}},
	{"1\n\"a\"\n", []string{"encode", "--lines"}},
	{"Vector2(1, 2)\n", []string{"convert", "--from", "text", "--to", "binary"}},
	{"Vector2(1, 2)\n", []string{"convert", "--from", "text", "--to", "typed-json"}},
	{"", []string{"convert", "--to", "text", "../../testdata/sample/savegame.bin"}},
	{"050000000000803f00000040\n", []string{"inspect", "--hex"}},
	{"", []string{"migrate", "SAVE3", "-"}},
	{"", []string{"--help"}},
	{"", []string{"help", "decode"}},
	{"", []string{"decode", "--help"}},
	{"", []string{"--version"}},
	{"", []string{"pck", "list", "../../pck/testdata/engine/godot3.2.3.pck"}},
	{"", []string{"pck", "list", "--json", "../../pck/testdata/engine/godot3.2.3.pck"}},
	{"", []string{"pck", "cat", "../../pck/testdata/engine/godot3.2.3.pck", "res://a.txt"}},
}

// TestLostOutputFails runs every command that writes to standard output
// with /dev/full as its standard output: each must exit non-zero and say
// why. (They all exited 0, with nothing written, when the buffered
// writer's error was dropped.)
func TestLostOutputFails(t *testing.T) {
	commands := outputCommandsIn(t)
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		t.Skipf("no /dev/full here: %v", err)
	}
	defer full.Close()
	for _, c := range commands {
		var errOut strings.Builder
		status := run(c.args, strings.NewReader(c.stdin), full, &errOut)
		if status == 0 || !strings.Contains(errOut.String(), "writing standard output") {
			t.Errorf("gdvar %s > /dev/full: status %d, stderr %q", strings.Join(c.args, " "), status, errOut.String())
		}
	}
	// The built program too: its standard output is the file itself.
	if testing.Short() {
		return
	}
	for _, c := range commands[:9] {
		status, stderr := gdvarTo(t, full, c.stdin, c.args...)
		if status == 0 || !strings.Contains(stderr, "no space left on device") {
			t.Errorf("program gdvar %s > /dev/full: status %d, stderr %q", strings.Join(c.args, " "), status, stderr)
		}
	}
}

// outputCommandsIn returns outputCommands with SAVE3 replaced by a Godot 3
// save file in a temporary folder.
func outputCommandsIn(t *testing.T) []struct {
	stdin string
	args  []string
} {
	status, save, stderr := gdvar(t, "1\n\"a\"\n", "encode", "--godot", "3", "--file")
	if status != 0 {
		t.Fatalf("encode --godot 3 --file: %d %s", status, stderr)
	}
	path := filepath.Join(t.TempDir(), "save3.bin")
	if err := os.WriteFile(path, []byte(save), 0o600); err != nil {
		t.Fatal(err)
	}
	commands := slices.Clone(outputCommands)
	for i, c := range commands {
		if i := slices.Index(c.args, "SAVE3"); i >= 0 {
			c.args = slices.Clone(c.args)
			c.args[i] = path
		}
		commands[i] = c
	}
	return commands
}

// failingWriter fails every write after the first n bytes.
type failingWriter struct{ n int }

func (w *failingWriter) Write(p []byte) (int, error) {
	if len(p) <= w.n {
		w.n -= len(p)
		return len(p), nil
	}
	n := w.n
	w.n = 0
	return n, errors.New("disk full")
}

// TestOutputLostHalfway fails the output after a few bytes, wherever the
// command is in its writing: a success must never be reported.
func TestOutputLostHalfway(t *testing.T) {
	for _, c := range outputCommandsIn(t) {
		for _, n := range []int{0, 1, 7} {
			var errOut strings.Builder
			status := run(c.args, strings.NewReader(c.stdin), &failingWriter{n: n}, &errOut)
			if status == 0 || !strings.Contains(errOut.String(), "disk full") {
				t.Errorf("gdvar %s, output lost after %d bytes: status %d, stderr %q", strings.Join(c.args, " "), n, status, errOut.String())
			}
		}
	}
}

// gdvarTo runs the built command with args and stdin and its standard
// output on out, returning its exit status and standard error.
func gdvarTo(t *testing.T, out *os.File, stdin string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(builtGdvar(t), args...)
	cmd.Stdin = strings.NewReader(stdin)
	var errOut strings.Builder
	cmd.Stdout, cmd.Stderr = out, &errOut
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatal(err)
	}
	return cmd.ProcessState.ExitCode(), errOut.String()
}
