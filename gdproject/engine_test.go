package gdproject

import (
	"bytes"
	"context"
	"encoding/base64"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/godot4web"
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

// The engines still save the golden files (GDVAR_UPDATE_GOLDEN=1 rewrites
// them).
func TestEngine3SavesGoldens(t *testing.T) {
	enginetest.Godot3(t)
	dir := t.TempDir()
	if out := enginetest.RunGodot3(t, filepath.Join("testdata", "settings3.gd"), dir); strings.TrimSpace(out) != "done" {
		t.Fatalf("engine: %q", out)
	}
	for _, ext := range []string{"binary", "godot"} {
		got, err := os.ReadFile(filepath.Join(dir, "project."+ext))
		if err != nil {
			t.Fatal(err)
		}
		compareGolden(t, "godot3.2.3-project."+ext, got)
	}
}

func TestEngine4SavesGoldens(t *testing.T) {
	res := godot4web.Run(t, godot4web.Job{Script: filepath.Join("testdata", "settings4.gd")})
	if res.Code != 0 {
		t.Fatalf("engine: %d\n%s", res.Code, res.Stderr)
	}
	for _, line := range strings.Split(res.Stdout, "\n") {
		kind, b64, ok := strings.Cut(line, " ")
		if !ok {
			continue
		}
		got, err := base64.StdEncoding.DecodeString(b64)
		if err != nil {
			t.Fatal(err)
		}
		ext := map[string]string{"binary": "binary", "text": "godot"}[kind]
		compareGolden(t, "godot4.6-project."+ext, got)
	}
}

func compareGolden(t *testing.T, name string, got []byte) {
	t.Helper()
	p := filepath.Join("testdata", name)
	if os.Getenv("GDVAR_UPDATE_GOLDEN") != "" {
		if err := os.WriteFile(p, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return
	}
	if want, err := os.ReadFile(p); err != nil || !bytes.Equal(want, got) {
		t.Errorf("%s: the engine saved something else (%v)\n%s", name, err, got)
	}
}
