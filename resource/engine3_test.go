package resource

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/internal/enginetest"
)

// TestGodot3LoadsConversions: Godot 3.2.3 loads every file gdvar converts
// from the engine's corpus to a resource equal, property by property and
// for scenes node by node, to the one it loads from its own file. The
// files are named in a list (pairs.txt) in a folder given as the one
// argument: the engine would take a bare .res/.scn argument for a scene
// to run.
func TestGodot3LoadsConversions(t *testing.T) {
	enginetest.Godot3(t)
	dir := t.TempDir()
	_, pairs := conversions(t, "godot3", dir)
	if err := os.WriteFile(filepath.Join(dir, "pairs.txt"), []byte(strings.Join(pairs, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	script, err := filepath.Abs("testdata/check3.gd")
	if err != nil {
		t.Fatal(err)
	}
	checkResults(t, enginetest.RunGodot3(t, script, dir), len(pairs))
}
