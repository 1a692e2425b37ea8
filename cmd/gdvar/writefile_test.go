package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/inspect"
	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/variant"
)

// halfWriter writes half of what it is given, then fails as a full disk
// does.
type halfWriter struct{ w io.Writer }

var errDiskFull = errors.New("no space left on device")

func (h halfWriter) Write(p []byte) (int, error) {
	n, _ := h.w.Write(p[:len(p)/2])
	return n, errDiskFull
}

// snapshot returns the names and contents of the files in dir.
func snapshot(t *testing.T, dir string) map[string]string {
	t.Helper()
	m := map[string]string{}
	entries, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		m[e.Name()] = string(b)
	}
	return m
}

func sameSnapshot(a, b map[string]string) bool {
	if len(a) != len(b) {
		return false
	}
	for k, v := range a {
		if w, ok := b[k]; !ok || w != v {
			return false
		}
	}
	return true
}

func TestWriteFileSafely(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "save.sav")
	if err := writeFileSafely(path, []byte("one"), writeOptions{}); err != nil {
		t.Fatal(err)
	}
	// 0666 less the umask (TestWriteFileSafelyModes sets one).
	if fi, _ := os.Stat(path); fi.Mode().Perm()&^0o666 != 0 {
		t.Errorf("a new file has mode %v", fi.Mode())
	}
	// An existing file is refused without force, and left alone.
	if err := writeFileSafely(path, []byte("two"), writeOptions{}); !errors.Is(err, errExists) {
		t.Errorf("overwrite without force: %v", err)
	}
	// Replaced, it keeps its mode.
	os.Chmod(path, 0o600)
	if err := writeFileSafely(path, []byte("two"), writeOptions{force: true}); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(path); fi.Mode().Perm() != 0o600 {
		t.Errorf("a replaced file has mode %v, want 0600", fi.Mode())
	}
	// With a backup, the old content stays in .bak; a second time the
	// backup is refused without force.
	if err := writeFileSafely(path, []byte("three"), writeOptions{backup: true}); err != nil {
		t.Fatal(err)
	}
	if got := snapshot(t, dir); !sameSnapshot(got, map[string]string{"save.sav": "three", "save.sav.bak": "two"}) {
		t.Errorf("after a backup: %v", got)
	}
	if err := writeFileSafely(path, []byte("four"), writeOptions{backup: true}); !errors.Is(err, errExists) {
		t.Errorf("a second backup: %v", err)
	}
	// Through a symbolic link, the file it names is replaced; the link
	// stays a link.
	link := filepath.Join(dir, "link.sav")
	os.Symlink("save.sav", link)
	if err := writeFileSafely(link, []byte("five"), writeOptions{force: true}); err != nil {
		t.Fatal(err)
	}
	if b, _ := os.ReadFile(path); string(b) != "five" {
		t.Errorf("through a link: %q", b)
	}
	if fi, _ := os.Lstat(link); fi.Mode()&os.ModeSymlink == 0 {
		t.Errorf("the link was replaced by a file")
	}

	// A write that fails half-way leaves every file as it was and no
	// temporary file behind: a new output, a replaced one, one with a
	// backup.
	before := snapshot(t, dir)
	wrapWriter = func(w io.Writer) io.Writer { return halfWriter{w} }
	defer func() { wrapWriter = nil }()
	for _, c := range []struct {
		path string
		o    writeOptions
	}{
		{filepath.Join(dir, "new.sav"), writeOptions{}},
		{path, writeOptions{force: true}},
		{path, writeOptions{force: true, backup: true}},
	} {
		err := writeFileSafely(c.path, bytes.Repeat([]byte("x"), 1<<16), c.o)
		if !errors.Is(err, errDiskFull) || !strings.Contains(err.Error(), "unchanged") {
			t.Errorf("%s %+v: %v", c.path, c.o, err)
		}
		if after := snapshot(t, dir); !sameSnapshot(after, before) {
			t.Errorf("%s %+v: the files changed: %v", c.path, c.o, after)
		}
	}
}

// runBuilt runs the built command; script, when set, is a shell prefix
// such as "ulimit -f 4;".
func runBuilt(t *testing.T, script string, args ...string) (int, string, string) {
	t.Helper()
	bin := builtGdvar(t)
	var cmd *exec.Cmd
	if script == "" {
		cmd = exec.Command(bin, args...)
	} else {
		cmd = exec.Command("sh", append([]string{"-c", script + ` exec "$0" "$@"`, bin}, args...)...)
	}
	var out, errOut bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errOut
	err := cmd.Run()
	status := 0
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		status = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return status, out.String(), errOut.String()
}

func copyFile(t *testing.T, from, to string) {
	t.Helper()
	b, err := os.ReadFile(from)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(to, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

// readG4 reads a migrated file and returns its values.
func readG4(t *testing.T, path string) []variant.Value {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	f, err := gdfile.Read(b, gdfile.Options{Godot: variant.Godot4, Dec: variant.DecOptions{AllowObjects: true}})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	return f.Values
}

// gdvar migrate never destroys a file: it refuses an existing OUT without
// --force and IN as OUT (also through a hard or symbolic link) without
// --in-place, and a write cut short by the file size limit leaves every
// file as it was.
func TestMigrateNeverDestroys(t *testing.T) {
	g3 := filepath.Join(filefixture.Root(), "godot3")
	dir := t.TempDir()
	in := filepath.Join(dir, "save.sav")
	copyFile(t, filepath.Join(g3, "plain-many.sav"), in)
	out := filepath.Join(dir, "out.sav")
	os.WriteFile(out, []byte("precious"), 0o600)
	os.Link(in, filepath.Join(dir, "hard.sav"))
	os.Symlink("save.sav", filepath.Join(dir, "soft.sav"))
	before := snapshot(t, dir)
	for _, c := range []struct {
		args   []string
		errHas string
	}{
		{[]string{in, out}, "exists (--force replaces it)"},
		{[]string{in, in}, "are the same file (--in-place"},
		{[]string{in, filepath.Join(dir, "hard.sav")}, "are the same file"},
		{[]string{filepath.Join(dir, "soft.sav"), in}, "are the same file"},
		{[]string{"--force", in, filepath.Join(dir, "hard.sav")}, "are the same file"},
	} {
		status, _, stderr := runBuilt(t, "", append([]string{"migrate"}, c.args...)...)
		if status != 1 || !strings.Contains(stderr, c.errHas) {
			t.Errorf("%v: %d %q", c.args, status, stderr)
		}
		if after := snapshot(t, dir); !sameSnapshot(after, before) {
			t.Fatalf("%v changed the files", c.args)
		}
	}
	// A file size limit of 4 KiB (ulimit -f 8: 512-byte blocks) cuts the
	// 40 KB output short: the old OUT stays whole.
	status, _, stderr := runBuilt(t, "ulimit -f 8;", "migrate", "--force", in, out)
	if status != 1 || !strings.Contains(stderr, "file too large") || !strings.Contains(stderr, "unchanged") {
		t.Errorf("ulimit -f: %d %q", status, stderr)
	}
	if after := snapshot(t, dir); !sameSnapshot(after, before) {
		t.Fatalf("a failed write changed the files")
	}
	// --force replaces OUT, keeping its mode.
	if status, _, stderr := runBuilt(t, "", "migrate", "--force", in, out); status != 0 {
		t.Fatalf("--force: %d %q", status, stderr)
	}
	if fi, _ := os.Stat(out); fi.Mode().Perm() != 0o600 || len(readG4(t, out)) == 0 {
		t.Errorf("--force: mode %v", fi.Mode())
	}
	// --in-place with IN as OUT replaces IN and keeps IN.bak.
	if status, _, stderr := runBuilt(t, "", "migrate", "--in-place", in, filepath.Join(dir, "hard.sav")); status != 0 {
		t.Fatalf("--in-place: %d %q", status, stderr)
	}
	if bak, _ := os.ReadFile(in + ".bak"); string(bak) != before["save.sav"] || len(readG4(t, in)) == 0 {
		t.Errorf("--in-place: the backup differs from the original")
	}
}

// gdvar migrate --out-dir takes files and directories, goes on past a file
// that fails and sums up; --in-place converts files where they are.
func TestMigrateManyFiles(t *testing.T) {
	g3 := filepath.Join(filefixture.Root(), "godot3")
	src := t.TempDir()
	os.Mkdir(filepath.Join(src, "slots"), 0o755)
	copyFile(t, filepath.Join(g3, "plain-many.sav"), filepath.Join(src, "a.sav"))
	copyFile(t, filepath.Join(g3, "objects-renamed.sav"), filepath.Join(src, "slots", "b.sav"))
	copyFile(t, filepath.Join(g3, "compressed-zstd.sav"), filepath.Join(src, "slots", "c.sav"))
	os.WriteFile(filepath.Join(src, "slots", "notes.txt"), []byte("not a save"), 0o644)
	one := filepath.Join(t.TempDir(), "one.sav")
	copyFile(t, filepath.Join(g3, "plain-one.sav"), one)

	out := filepath.Join(t.TempDir(), "out")
	status, stdout, stderr := runBuilt(t, "", "migrate", "--out-dir", out, src, one)
	if status != 1 || stdout != "" {
		t.Errorf("status %d (want 1: notes.txt fails), stdout %q", status, stdout)
	}
	for _, want := range []string{
		"notes.txt: gdfile: ",                     // the failure, named
		"a.sav -> " + filepath.Join(out, "a.sav"), // one line per file
		"5 files (4 migrated, 1 failed), ",        // the summary
		"class Spatial is called Node3D in Godot 4: ",
	} {
		if !strings.Contains(stderr, want) {
			t.Errorf("stderr lacks %q:\n%s", want, stderr)
		}
	}
	if strings.Contains(stderr, "[1/5]") {
		t.Errorf("progress on a pipe:\n%s", stderr)
	}
	for _, name := range []string{"a.sav", "slots/b.sav", "slots/c.sav", "one.sav"} {
		if len(readG4(t, filepath.Join(out, name))) == 0 {
			t.Errorf("%s: no values", name)
		}
	}
	if _, err := os.Stat(filepath.Join(out, "slots", "notes.txt")); err == nil {
		t.Errorf("a file that failed was written")
	}
	// Again: the outputs exist now.
	status, _, stderr = runBuilt(t, "", "migrate", "--out-dir", out, one)
	if status != 1 || !strings.Contains(stderr, "exists (--force replaces it)") {
		t.Errorf("again: %d %q", status, stderr)
	}

	// In place: each file replaced, its original kept as .bak.
	orig, _ := os.ReadFile(filepath.Join(src, "a.sav"))
	status, _, stderr = runBuilt(t, "", "migrate", "--in-place", "--quiet",
		filepath.Join(src, "a.sav"), filepath.Join(src, "slots", "c.sav"))
	if status != 0 || stderr != "" {
		t.Errorf("--in-place: %d %q", status, stderr)
	}
	if bak, _ := os.ReadFile(filepath.Join(src, "a.sav.bak")); !bytes.Equal(bak, orig) {
		t.Errorf("--in-place: no backup")
	}
	if len(readG4(t, filepath.Join(src, "slots", "c.sav"))) == 0 {
		t.Errorf("--in-place: c.sav not migrated")
	}

	// On a terminal, progress: one line per file.
	if _, err := exec.LookPath("script"); err == nil {
		out2 := filepath.Join(t.TempDir(), "out")
		cmd := exec.Command("script", "-qec", builtGdvar(t)+" migrate --out-dir "+out2+" "+one+" "+filepath.Join(g3, "plain-many.sav"), "/dev/null")
		tty, _ := cmd.CombinedOutput()
		if !strings.Contains(string(tty), "[1/2] "+one) || !strings.Contains(string(tty), "[2/2] ") {
			t.Errorf("no progress on a terminal:\n%s", tty)
		}
	}
}

// A file of more values than the budget still looks like a file to
// inspect.
func TestLooksLikeFilePastTheBudget(t *testing.T) {
	b := make([]byte, 8*(4096+1))
	for i := 0; i < len(b); i += 8 {
		b[i] = 4
	}
	o := inspect.Options{MaxSize: 64 << 10} // a budget of 4096 values
	if !looksLikeFile(b, o) {
		t.Errorf("4097 Nils are not a file")
	}
	if looksLikeFile([]byte{2, 0, 0, 0, 7, 0, 0, 0}, o) {
		t.Errorf("an int is a file")
	}
}
