package gdproject

import (
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/variant"
)

// Godot 3.2.3 loads a project.binary written by EncodeBinary (a project
// folder holding no project.godot).
func TestEngine3LoadsBinary(t *testing.T) {
	bin := enginetest.Godot3(t)
	s, err := DecodeBinary(read(t, "godot3.2.3-project.binary"), variant.Godot3)
	if err != nil {
		t.Fatal(err)
	}
	s.Settings = append(s.Settings,
		Setting{"application/config/name", variant.String("written by gdvar")},
		Setting{"gdvar/values/int", variant.Int(7)}) // the last one counts
	data, err := s.EncodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "project.binary"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	script, _ := filepath.Abs(filepath.Join("testdata", "read3.gd"))
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := exec.CommandContext(ctx, bin, "--path", dir, "--script", script).Output()
	if err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	for _, want := range []string{"name\twritten by gdvar\n", "int\t7\n", "vector\t(1.5, -2)\n"} {
		if !strings.Contains(string(out), want) {
			t.Errorf("engine printed %q, want %q in it", out, want)
		}
	}
}
