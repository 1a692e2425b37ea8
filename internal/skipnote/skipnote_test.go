package skipnote

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestNoteOncePerThing(t *testing.T) {
	var b strings.Builder
	mu.Lock()
	output, noted = &b, map[string]bool{}
	mu.Unlock()
	t.Cleanup(func() { mu.Lock(); output, noted = nil, map[string]bool{}; mu.Unlock() })

	note("TestA", "Godot 9", "godot9 not found", "apt-get install godot9")
	note("TestB", "Godot 9", "godot9 not found", "apt-get install godot9")
	note("TestC", "libfoo", "foo.h missing", "apt-get install libfoo-dev")
	got := b.String()
	want := "skip\tgithub.com/gdvar/gdvar/internal/skipnote\ttests that need Godot 9 (first: TestA): godot9 not found; install: apt-get install godot9\n" +
		"skip\tgithub.com/gdvar/gdvar/internal/skipnote\ttests that need libfoo (first: TestC): foo.h missing; install: apt-get install libfoo-dev\n"
	if got != want {
		t.Errorf("notices:\n%s\nwant:\n%s", got, want)
	}
}

// The notice goes only where it cannot be overwritten: a pipe, or a file
// written in append mode, but not a file written at its own offset.
func TestShareable(t *testing.T) {
	if _, err := os.Stat("/proc/self/fdinfo"); err != nil {
		t.Skip("no /proc/self/fdinfo here: the notice is not written to the go command's output")
	}
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	name := filepath.Join(t.TempDir(), "log")
	plain, err := os.Create(name)
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	appending, err := os.OpenFile(name, os.O_WRONLY|os.O_APPEND, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer appending.Close()
	for _, c := range []struct {
		what string
		f    *os.File
		want bool
	}{{"a pipe", w, true}, {"a file", plain, false}, {"a file in append mode", appending, true}} {
		if got := shareable(os.Getpid(), int(c.f.Fd())); got != c.want {
			t.Errorf("%s: shareable %v, want %v", c.what, got, c.want)
		}
	}
	if shareable(os.Getpid(), 1<<20) {
		t.Error("a descriptor that is not open is shareable")
	}
}
