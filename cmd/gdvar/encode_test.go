package main

import (
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/variant"
)

// fixtureValues returns the values the engine of family fam stored in the
// fixture file name.
func fixtureValues(t *testing.T, fam variant.Family, name string) []variant.Value {
	t.Helper()
	for _, fx := range filefixture.Load(t, fam) {
		if fx.File == name {
			return fx.EngineValues(t)
		}
	}
	t.Fatalf("no fixture %s", name)
	return nil
}

// encodeJob is one save file written by gdvar encode, and how the engine
// opens it.
type encodeJob struct {
	w    filefixture.Written
	args []string
	key  *gdfile.Key
	want gdfile.Container
}

func encodeJobs(fam variant.Family) []encodeJob {
	pass := gdfile.PasswordKey(filefixture.Password)
	k := gdfile.Key(filefixture.Key())
	jobs := []encodeJob{
		{filefixture.Written{Name: "plain.sav", How: "plain"}, []string{"--file"}, nil, gdfile.Container{Format: gdfile.Plain}},
		{filefixture.Written{Name: "password.sav", How: "password"}, []string{"--password", filefixture.Password}, &pass,
			gdfile.Container{Format: gdfile.Encrypted, Family: fam}},
		{filefixture.Written{Name: "key.sav", How: "key"}, []string{"--container", "encrypted", "--key", hex.EncodeToString(k[:])}, &k,
			gdfile.Container{Format: gdfile.Encrypted, Family: fam}},
	}
	for _, m := range []gdfile.Compression{gdfile.FastLZ, gdfile.Deflate, gdfile.Zstd, gdfile.Gzip} {
		jobs = append(jobs, encodeJob{filefixture.Written{Name: "compressed-" + m.String() + ".sav", How: "compressed", Mode: int(m)},
			[]string{"--container", m.String()}, nil,
			gdfile.Container{Format: gdfile.Compressed, Compression: m, BlockSize: gdfile.DefaultBlockSize}})
	}
	return jobs
}

// writeEncoded runs gdvar encode on the text of the values of the
// engine's plain-many.sav for every job, writes the files into dir, and
// checks them with gdfile.
func writeEncoded(t *testing.T, dir string, fam variant.Family) []filefixture.Written {
	t.Helper()
	values := fixtureValues(t, fam, "plain-many.sav")
	// Blank lines are skipped.
	text := "\n" + texts(t, fam, values) + "\n\n"
	var written []filefixture.Written
	for _, j := range encodeJobs(fam) {
		args := append([]string{"encode", "--godot", strconv.Itoa(int(fam))}, j.args...)
		status, out, stderr := gdvarProgram(t, text, args...)
		if status != 0 || stderr != "" {
			t.Fatalf("gdvar %s: status %d, %q", strings.Join(args, " "), status, stderr)
		}
		f, err := gdfile.Read([]byte(out), gdfile.Options{Key: j.key, Godot: fam})
		if err != nil {
			t.Fatalf("%s: %v", j.w.Name, err)
		}
		if f.Container.String() != j.want.String() || f.BigEndian || len(f.Values) != len(values) {
			t.Errorf("%s: %v, %d values", j.w.Name, f.Container, len(f.Values))
		}
		for i := range values {
			if i < len(f.Values) && !variant.Equal(f.Values[i], values[i]) {
				t.Errorf("%s: value %d differs", j.w.Name, i)
			}
		}
		// Also as text.
		_, hexOut, _ := gdvarProgram(t, text, append(args, "--hex")...)
		_, b64Out, _ := gdvarProgram(t, text, append(args, "--base64")...)
		if j.want.Format != gdfile.Encrypted && (hexOut != hex.EncodeToString([]byte(out))+"\n" ||
			b64Out != base64.StdEncoding.EncodeToString([]byte(out))+"\n") {
			t.Errorf("%s: --hex or --base64 differ from the bytes", j.w.Name)
		}
		if err := os.WriteFile(filepath.Join(dir, j.w.Name), []byte(out), 0o644); err != nil {
			t.Fatal(err)
		}
		j.w.Values = values
		written = append(written, j.w)
	}
	return written
}

// gdvar encode --file writes, in every container, the save file that
// decodes as the values given; decode prints them back as the same text.
func TestEncodeSaveFiles(t *testing.T) {
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		dir := t.TempDir()
		for _, w := range writeEncoded(t, dir, fam) {
			args := []string{"decode", filepath.Join(dir, w.Name)}
			switch w.How {
			case "password":
				args = append(args, "--password", filefixture.Password)
			case "key":
				k := filefixture.Key()
				args = append(args, "--key", hex.EncodeToString(k[:]))
			}
			status, out, stderr := gdvarProgram(t, "", args...)
			if status != 0 || stderr != "" || out != texts(t, fam, w.Values) {
				t.Errorf("%v %s: decode: status %d, %q", fam, w.Name, status, stderr)
			}
		}
	}
	// The engine's plain file comes back byte for byte from its text
	// (Godot 4.6 zeroes NodePath padding in this file; Godot 3.2.3 leaves
	// memory there, so its files are compared as values above).
	engine, err := os.ReadFile(filepath.Join(filefixture.Root(), "godot4", "plain-many.sav"))
	if err != nil {
		t.Fatal(err)
	}
	_, text, _ := gdvarProgram(t, "", "decode", filepath.Join(filefixture.Root(), "godot4", "plain-many.sav"))
	if status, out, _ := gdvarProgram(t, text, "encode", "--file"); status != 0 || out != string(engine) {
		t.Errorf("encode --file of the engine's plain-many.sav: status %d, %d bytes (want %d)", status, len(out), len(engine))
	}
	// Full objects.
	_, text, _ = gdvarProgram(t, "", "decode", "--allow-objects", filepath.Join(filefixture.Root(), "godot4", "objects.sav"))
	status, out, stderr := gdvarProgram(t, text, "encode", "--file", "--full-objects")
	if f, err := gdfile.Read([]byte(out), gdfile.Options{Dec: variant.DecOptions{AllowObjects: true}}); status != 0 || err != nil || len(f.Values) != 2 {
		t.Errorf("--full-objects: status %d, %q, %v", status, stderr, err)
	}
	if status, _, stderr := gdvarProgram(t, text, "encode", "--file"); status != 1 || !strings.Contains(stderr, "(use --full-objects)") {
		t.Errorf("objects without --full-objects: %d %q", status, stderr)
	}

	cases := []struct {
		args   []string
		stdin  string
		status int
		stderr string
	}{
		{[]string{"encode", "--file"}, "1\n\n\"two\"\nVector2(1, \n4\n", 1, "gdvar: encode: text: line 4, column 12: "},
		{[]string{"encode", "--file", "--from", "json"}, "1\n{\n", 1, "gdvar: input line 2: encode: "},
		{[]string{"encode", "--file", "--godot", "4.2"}, "1\nArray[int]([1])\n", 1, "gdvar: encode: gdfile: value 1 at byte 12: "},
		{[]string{"encode", "--container", "encrypted"}, "1", 2, "gdvar encode: --container encrypted needs --password or --key\n"},
		{[]string{"encode", "--container", "zstd", "--password", "p"}, "1", 2, "--password and --key encrypt: they go with --container encrypted, not zstd"},
		{[]string{"encode", "--container", "brotli"}, "1", 2, "want one of plain, encrypted, fastlz, deflate, zstd, gzip"},
		{[]string{"encode", "--lines", "--file"}, "1", 2, "--lines writes one value a line"},
		{[]string{"encode", "--lines", "--password", "p"}, "1", 2, "--lines writes one value a line"},
		{[]string{"encode", "--key", "00"}, "1", 2, "64 hex digits"},
		{[]string{"encode"}, "1\n\"two\"\n", 1, "gdvar: encode: text: line 2, column 1: unexpected string after the value\n" +
			"gdvar: hint: the input holds one value a line: --file writes them as a save file, --lines writes each\n"},
	}
	for _, c := range cases {
		status, out, stderr := gdvarProgram(t, c.stdin, c.args...)
		if status != c.status || out != "" || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%v: status %d, stdout %q, stderr %q; want %d and %q", c.args, status, out, stderr, c.status, c.stderr)
		}
	}
}

// Raw bytes are not written to a terminal; /dev/null and files are fine.
func TestIsTerminal(t *testing.T) {
	f, err := os.Create(filepath.Join(t.TempDir(), "out"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer null.Close()
	if isTerminal(f) || isTerminal(null) || isTerminal(&strings.Builder{}) {
		t.Error("a file, the null device or a buffer taken for a terminal")
	}
	if tty, err := os.OpenFile("/dev/tty", os.O_WRONLY, 0); err == nil {
		defer tty.Close()
		if !isTerminal(tty) {
			t.Error("/dev/tty not taken for a terminal")
		}
	}
}

// Godot 3.2.3 reads the save files gdvar encode writes for it, in every
// container, as the values written.
func TestGodot3ReadsEncodedFiles(t *testing.T) {
	enginetest.Godot3(t)
	dir := t.TempDir()
	written := writeEncoded(t, dir, variant.Godot3)
	args := []string{dir}
	for _, w := range written {
		args = append(args, w.Spec())
	}
	out := enginetest.RunGodot3(t, filefixture.Script(variant.Godot3), args...)
	report := filefixture.CheckRead(t, variant.Godot3, written, out)
	t.Logf("Godot 3.2.3 read back:\n%s", report)
}

// Godot 4.6 reads the save files gdvar encode writes, in every container,
// as the values written.
func TestGodot4ReadsEncodedFiles(t *testing.T) {
	if testing.Short() {
		t.Skip("runs Godot 4 (about 8 s)")
	}
	godot4web.Skip(t)
	dir := t.TempDir()
	written := writeEncoded(t, dir, variant.Godot4)
	job := godot4web.Job{Script: filefixture.Script(variant.Godot4), Timeout: 3 * time.Minute}
	for _, w := range written {
		job.With = append(job.With, filepath.Join(dir, w.Name))
		job.Args = append(job.Args, w.Spec())
	}
	res := godot4web.Run(t, job)
	if res.Code != 0 {
		t.Fatalf("Godot 4 exited with %d\n%s", res.Code, res.Stderr)
	}
	report := filefixture.CheckRead(t, variant.Godot4, written, res.Stdout)
	t.Logf("Godot 4.6 read back:\n%s", report)
}
