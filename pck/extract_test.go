package pck

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

func TestExtract(t *testing.T) {
	data := build(t, WriterOptions{Key: testKey}, testFiles)
	r, err := NewReader(byteReader(data), int64(len(data)), &Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var calls int
	if err := r.Extract(dir, ExtractOptions{Progress: func(done, total int64) { calls++ }}); err != nil {
		t.Fatal(err)
	}
	if calls != len(testFiles) {
		t.Errorf("%d progress calls", calls)
	}
	for name, want := range testFiles {
		got, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
		if err != nil || string(got) != want {
			t.Errorf("%s: %q %v", name, got, err)
		}
	}
	if err := r.Extract(dir, ExtractOptions{}); !errors.Is(err, os.ErrExist) {
		t.Errorf("existing files: %v", err)
	}
	if err := r.Extract(dir, ExtractOptions{Overwrite: true, Match: func(e *Entry) bool { return e.Name == "icon.png" }}); err != nil {
		t.Error(err)
	}
}

func TestExtractRefusesEscapes(t *testing.T) {
	for _, p := range []string{"../evil", "/tmp/evil", `C:\evil`, "a/../../evil"} {
		data := rawV1(1, []rawEntry{{p, 0, 0}}, nil)
		r, err := open(data)
		if err != nil {
			t.Fatal(err)
		}
		dir := t.TempDir()
		if err := r.Extract(filepath.Join(dir, "out"), ExtractOptions{}); !errors.Is(err, ErrUnsafePath) {
			t.Errorf("%q: %v", p, err)
		}
		if _, err := os.Stat(filepath.Join(dir, "evil")); err == nil {
			t.Errorf("%q escaped", p)
		}
	}
}

// A pack with an unsafe path is refused before anything is written: not
// even the output directory is made, whatever entries come first.
func TestExtractRefusesBeforeWriting(t *testing.T) {
	data := rawV1(3, []rawEntry{{"res://a.txt", 0, 0}, {"res://b/c.txt", 0, 0}, {"../evil", 0, 0}}, nil)
	r, err := open(data)
	if err != nil {
		t.Fatal(err)
	}
	dir := filepath.Join(t.TempDir(), "out")
	if err := r.Extract(dir, ExtractOptions{}); !errors.Is(err, ErrUnsafePath) {
		t.Fatalf("extract: %v", err)
	}
	if _, err := os.Stat(dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("the output directory was made: %v", err)
	}
}

// A symbolic link already in the directory does not lead out of it.
func TestExtractSymlink(t *testing.T) {
	dir, outside := t.TempDir(), t.TempDir()
	if err := os.Symlink(outside, filepath.Join(dir, "link")); err != nil {
		t.Skip(err)
	}
	data := build(t, WriterOptions{}, map[string]string{"link/x.txt": "x"})
	r, err := open(data)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Extract(dir, ExtractOptions{}); err == nil {
		t.Error("extracted through a link")
	}
	if _, err := os.Stat(filepath.Join(outside, "x.txt")); err == nil {
		t.Error("wrote outside the directory")
	}
}

func TestExtractBadMD5(t *testing.T) {
	data := build(t, WriterOptions{}, map[string]string{"a.txt": "hello"})
	r, _ := open(data)
	data[r.Entries[0].Offset] ^= 1
	dir := t.TempDir()
	if err := r.Extract(dir, ExtractOptions{}); !errors.Is(err, ErrChecksum) {
		t.Fatalf("bad MD5: %v", err)
	}
	if _, err := os.Stat(filepath.Join(dir, "a.txt")); err == nil {
		t.Error("the damaged file stayed")
	}
}
