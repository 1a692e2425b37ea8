//go:build unix

package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/gdvar/gdvar/internal/filefixture"
)

// TestMigrateKeepsFilesPrivate: under umask 077, the plaintext of a 0600
// encrypted save (--container plain) was written 0644. The output never
// has a permission its input lacks, and a new one honours the umask.
func TestMigrateKeepsFilesPrivate(t *testing.T) {
	g3 := filepath.Join(filefixture.Root(), "godot3")
	dir := t.TempDir()
	in := filepath.Join(dir, "secret.sav")
	copyFile(t, filepath.Join(g3, "encrypted-password.sav"), in)
	if err := os.Chmod(in, 0o600); err != nil {
		t.Fatal(err)
	}
	mode := func(path string) fs.FileMode {
		t.Helper()
		fi, err := os.Stat(path)
		if err != nil {
			t.Fatal(err)
		}
		return fi.Mode().Perm()
	}
	migrate := func(umask string, args ...string) {
		t.Helper()
		args = append([]string{"migrate", "--password", filefixture.Password, "--container", "plain"}, args...)
		if status, _, stderr := runBuilt(t, "umask "+umask+";", args...); status != 0 {
			t.Fatalf("umask %s, gdvar %v: status %d, %s", umask, args, status, stderr)
		}
	}
	for _, c := range []struct {
		umask string
		in    fs.FileMode
		want  fs.FileMode
	}{
		{"077", 0o600, 0o600}, // the report: was 0644
		{"022", 0o600, 0o600}, // the input's mode bounds the output
		{"022", 0o640, 0o640},
		{"027", 0o644, 0o640}, // the umask bounds a new file
		{"002", 0o664, 0o664},
	} {
		os.Chmod(in, c.in)
		out := filepath.Join(dir, "plain-"+c.umask+"-"+c.in.String()+".sav")
		migrate(c.umask, in, out)
		if got := mode(out); got != c.want {
			t.Errorf("umask %s, input %v: a new output has mode %v, want %v", c.umask, c.in, got, c.want)
		}
	}
	// Replacing an existing output with --force: it keeps its mode, less
	// what the input lacks.
	out := filepath.Join(dir, "public.sav")
	if err := os.WriteFile(out, []byte("old"), 0o644); err != nil {
		t.Fatal(err)
	}
	os.Chmod(out, 0o644)
	os.Chmod(in, 0o600)
	migrate("022", "--force", in, out)
	if got := mode(out); got != 0o600 {
		t.Errorf("a 0644 output replaced from a 0600 input has mode %v, want 0600", got)
	}
	// --out-dir writes new files the same way.
	outDir := filepath.Join(dir, "out")
	migrate("077", "--out-dir", outDir, in)
	if got := mode(filepath.Join(outDir, "secret.sav")); got != 0o600 {
		t.Errorf("--out-dir: mode %v, want 0600", got)
	}
}

// TestWriteFileSafelyModes checks writeFileSafely in this process: a new
// file gets 0666 less the umask less what the input lacks.
func TestWriteFileSafelyModes(t *testing.T) {
	umask := syscall.Umask(0o027)
	defer syscall.Umask(umask)
	dir := t.TempDir()
	for i, c := range []struct {
		o    writeOptions
		want fs.FileMode
	}{
		{writeOptions{}, 0o640},
		{writeOptions{from: 0o600, fromFile: true}, 0o600},
		{writeOptions{from: 0o755, fromFile: true}, 0o640},
		{writeOptions{from: 0o444, fromFile: true}, 0o440},
		{writeOptions{from: 0, fromFile: true}, 0},
	} {
		path := filepath.Join(dir, "f"+string(rune('a'+i)))
		if err := writeFileSafely(path, []byte("x"), c.o); err != nil {
			t.Fatal(err)
		}
		if fi, _ := os.Stat(path); fi.Mode().Perm() != c.want {
			t.Errorf("case %d: mode %v, want %v", i, fi.Mode().Perm(), c.want)
		}
	}
}
