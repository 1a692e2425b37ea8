package godot4web

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// A script runs with its arguments, its quit code and the files given
// With beside it.
func TestRun(t *testing.T) {
	d := t.TempDir()
	script := filepath.Join(d, "hello.gd")
	os.WriteFile(script, []byte("extends SceneTree\n\nconst Lib = preload(\"lib.gd\")\n\nfunc _initialize():\n"+
		"\tprint(Engine.get_version_info().string)\n"+
		"\tprint(var_to_bytes(Vector2i(1, 2)).hex_encode(), \" \", OS.get_cmdline_user_args(), \" \", Lib.answer())\n"+
		"\tquit(3)\n"), 0o644)
	lib := filepath.Join(d, "lib.gd")
	os.WriteFile(lib, []byte("extends RefCounted\n\nstatic func answer():\n\treturn 42\n"), 0o644)
	r := Run(t, Job{Script: script, With: []string{lib}, Args: []string{"a", "b c"}, Timeout: time.Minute})
	want := "4.6-stable (official)\n060000000100000002000000 [\"a\", \"b c\"] 42\n"
	if r.Stdout != want || r.Code != 3 {
		t.Errorf("got %q, code %d, want %q, code 3\n%s", r.Stdout, r.Code, want, r.Stderr)
	}
}

func TestParseErrorIsReported(t *testing.T) {
	script := filepath.Join(t.TempDir(), "bad.gd")
	os.WriteFile(script, []byte("extends SceneTree\n\nfunc _initialize(:\n"), 0o644)
	r := Run(t, Job{Script: script, Timeout: time.Minute})
	if r.Code != 125 || !strings.Contains(r.Stderr, "Parse Error") {
		t.Errorf("code %d, stderr:\n%s", r.Code, r.Stderr)
	}
}

func TestFindSaysWhatIsMissing(t *testing.T) {
	t.Setenv("GDVAR_GODOT4WEB_ENGINE", filepath.Join(t.TempDir(), "none"))
	t.Setenv("GDVAR_CHROMIUM", filepath.Join(t.TempDir(), "no-chromium"))
	_, err := Find()
	if err == nil || !strings.Contains(err.Error(), "the engine (") || !strings.Contains(err.Error(), "chromium (") {
		t.Errorf("Find: %v", err)
	}
}
