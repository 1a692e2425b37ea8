package pck

import (
	"errors"
	"io/fs"
	"path/filepath"
	"testing"
)

func TestReadFile(t *testing.T) {
	p := filepath.Join("testdata", "engine", "godot4.6-encfiles.pck")
	b, err := ReadFile(p, "res://dir/sub/c.txt", &Options{Key: testKey})
	if err != nil || string(b) != "deeper" {
		t.Fatalf("%q %v", b, err)
	}
	if _, err := ReadFile(p, "nope", &Options{Key: testKey}); !errors.Is(err, fs.ErrNotExist) {
		t.Fatal(err)
	}
	if _, err := ReadFile(p, "a.txt", nil); !errors.Is(err, ErrNeedKey) {
		t.Fatal(err)
	}
	for _, s := range []string{"game.pck", `C:\x`, ""} {
		if _, _, ok := SplitPath(s); ok {
			t.Errorf("%q split", s)
		}
	}
	if p, n, ok := SplitPath("dir/game.pck:icon.png"); !ok || p != "dir/game.pck" || n != "icon.png" {
		t.Errorf("%q %q", p, n)
	}
}
