package multiplayer

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// A project that is not a folder is an error that names it.
func TestLoadProjectNotADirectory(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "project.godot")
	if err := os.WriteFile(file, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadProject(file, variant.Godot4); err == nil || !strings.Contains(err.Error(), file+" is not a directory") {
		t.Errorf("a file: %v", err)
	}
	missing := filepath.Join(dir, "nothere")
	if _, err := LoadProject(missing, variant.Godot4); !errors.Is(err, fs.ErrNotExist) || !strings.Contains(err.Error(), missing) {
		t.Errorf("missing: %v", err)
	}
}
