// Package godot4web runs GDScript in a real Godot 4.6 from tests: the
// official web export template, in Debian's headless Chromium, driven by
// run.mjs (Node and playwright-core). install.sh fetches the engine and the
// driver; .ci/run calls it. Tests that need the engine skip, saying what is
// missing, when it is not installed.
//
// The engine runs single-threaded in the browser: a script must not wait
// in a loop for the network, but poll in _process() and quit(code) when
// done. Connections to anything but loopback are neither needed nor made.
package godot4web

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/skipnote"
)

// dir is the folder of this package's files.
func dir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Dir(file)
}

// Setup is what running the engine needs.
type Setup struct {
	Node     string // node binary
	Runner   string // run.mjs
	Engine   string // folder holding index.wasm and index.js
	Chromium string // browser binary
}

// Find locates what running the engine needs, or says what is missing.
// $GDVAR_GODOT4WEB_ENGINE and $GDVAR_CHROMIUM override the engine folder
// (default .cache/godot beside this package) and the browser (default
// /usr/bin/chromium).
func Find() (Setup, error) {
	d := dir()
	s := Setup{
		Runner:   filepath.Join(d, "run.mjs"),
		Engine:   os.Getenv("GDVAR_GODOT4WEB_ENGINE"),
		Chromium: os.Getenv("GDVAR_CHROMIUM"),
	}
	if s.Engine == "" {
		s.Engine = filepath.Join(d, ".cache", "godot")
	}
	if s.Chromium == "" {
		s.Chromium = "/usr/bin/chromium"
	}
	var missing []string
	node, err := exec.LookPath("node")
	if err != nil {
		missing = append(missing, "node (not on PATH)")
	}
	s.Node = node
	if _, err := os.Stat(s.Chromium); err != nil {
		missing = append(missing, "chromium ("+s.Chromium+")")
	}
	for _, f := range []string{"index.wasm", "index.js"} {
		if _, err := os.Stat(filepath.Join(s.Engine, f)); err != nil {
			missing = append(missing, "the engine ("+filepath.Join(s.Engine, f)+")")
			break
		}
	}
	if _, err := os.Stat(filepath.Join(d, "node_modules", "playwright-core", "package.json")); err != nil {
		missing = append(missing, "playwright-core ("+filepath.Join(d, "node_modules")+")")
	}
	if len(missing) > 0 {
		return s, errors.New("missing " + strings.Join(missing, ", "))
	}
	return s, nil
}

// Skip skips the test when the engine cannot run here.
func Skip(t testing.TB) Setup {
	t.Helper()
	s, err := Find()
	if err != nil {
		skipnote.Skip(t, "Godot 4.6 (web build in headless Chromium)", err.Error(),
			"apt-get install chromium nodejs npm, then internal/godot4web/install.sh (.ci/run does both)")
	}
	return s
}

// Result is how a script ended.
type Result struct {
	Stdout string // what the script printed
	Stderr string // engine errors, printerr, and the driver's notes
	Code   int    // the script's quit code; 124 time limit, 125 engine failure
}

// Job is one run of a script.
type Job struct {
	Script string   // the GDScript file
	With   []string // files put beside it (res://<name>), for preload
	Args   []string // its OS.get_cmdline_user_args()
	// MainPack, when set, is the pack the engine starts from instead of
	// the one run.mjs builds: it must hold the script (res://<Script's
	// base name>) and make it the main loop, as pck.mjs's project does.
	MainPack string
	Timeout  time.Duration // 0 means 2 minutes
}

// Run runs a job and returns how it ended. It skips the test when the
// engine is not installed, and fails it when the engine could not be run
// at all.
func Run(t testing.TB, job Job) Result {
	t.Helper()
	s := Skip(t)
	if job.Timeout <= 0 {
		job.Timeout = 2 * time.Minute
	}
	ctx, cancel := context.WithTimeout(context.Background(), job.Timeout+30*time.Second)
	defer cancel()
	cmdArgs := []string{s.Runner, "--timeout", fmt.Sprint(int(job.Timeout.Seconds() + 0.5))}
	for _, f := range job.With {
		cmdArgs = append(cmdArgs, "--with", f)
	}
	if job.MainPack != "" {
		cmdArgs = append(cmdArgs, "--main-pack", job.MainPack)
	}
	cmdArgs = append(cmdArgs, job.Script)
	if len(job.Args) > 0 {
		cmdArgs = append(append(cmdArgs, "--"), job.Args...)
	}
	cmd := exec.CommandContext(ctx, s.Node, cmdArgs...)
	cmd.Env = append(os.Environ(), "GDVAR_GODOT4WEB_ENGINE="+s.Engine, "GDVAR_CHROMIUM="+s.Chromium)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	r := Result{Stdout: stdout.String(), Stderr: stderr.String()}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && exit.ExitCode() >= 0:
		r.Code = exit.ExitCode()
	default:
		t.Fatalf("godot4web: %v\n%s", err, stderr.String())
	}
	return r
}
