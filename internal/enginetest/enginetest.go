// Package enginetest runs a real Godot engine from tests: Godot 3 headless
// (Debian's godot3-server). Tests that use it skip when the engine is not
// installed; .ci/run installs it.
package enginetest

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// Godot3 returns the path of the Godot 3 headless binary ($GODOT3, else
// godot3-server on PATH), or skips the test when there is none.
func Godot3(t testing.TB) string {
	t.Helper()
	name := os.Getenv("GODOT3")
	if name == "" {
		name = "godot3-server"
	}
	path, err := exec.LookPath(name)
	if err != nil {
		t.Skipf("Godot 3 engine not installed (%s not found; .ci/run installs Debian's godot3-server)", name)
	}
	return path
}

// RunGodot3 runs script (a GDScript that extends SceneTree and calls quit)
// in a throw-away project with args after it, and returns what the script
// printed, without the engine's banner. The engine's messages go to the
// test log when the run fails.
func RunGodot3(t testing.TB, script string, args ...string) string {
	t.Helper()
	bin := Godot3(t)
	abs, err := filepath.Abs(script)
	if err != nil {
		t.Fatal(err)
	}
	project := t.TempDir()
	// No file logging; user:// is the project folder.
	config := "config_version=4\n\n[logging]\n\nfile_logging/enable_file_logging=false\nfile_logging/enable_file_logging.pc=false\n"
	if err := os.WriteFile(filepath.Join(project, "project.godot"), []byte(config), 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, append([]string{"--path", project, "--script", abs}, args...)...)
	cmd.Env = append(os.Environ(), "LANG=en_US.UTF-8", "LC_ALL=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("Godot 3 (%s %s): %v\n%s", bin, filepath.Base(script), err, stderr.String())
	}
	if strings.Contains(stderr.String(), "SCRIPT ERROR") {
		t.Fatalf("Godot 3 script error:\n%s", stderr.String())
	}
	var out []string
	for _, line := range strings.Split(stdout.String(), "\n") {
		if strings.HasPrefix(line, "Godot Engine v") || line == " " {
			continue // the start-up banner
		}
		out = append(out, line)
	}
	return strings.Join(out, "\n")
}
