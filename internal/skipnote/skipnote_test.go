package skipnote

import (
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
