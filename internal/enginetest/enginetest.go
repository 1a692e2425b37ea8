// Package enginetest runs a real Godot engine from tests: Godot 3 headless
// (Debian's godot3-server). Tests that use it skip when the engine is not
// installed; .ci/run installs it. Its Process also runs the other programs
// tests talk to while they run (Start), such as a C reference peer.
package enginetest

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/skipnote"
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
		skipnote.Skip(t, "Godot 3.2.3 (godot3-server)", name+" not found on PATH",
			"apt-get install godot3-server (Debian), or set $GODOT3; .ci/run installs it")
	}
	return path
}

// RunGodot3 runs script (a GDScript that extends SceneTree and calls quit)
// in a throw-away project with args after it, and returns what the script
// printed, without the engine's banner. The engine's messages go to the
// test log when the run fails.
func RunGodot3(t testing.TB, script string, args ...string) string {
	t.Helper()
	return StartGodot3(t, script, args...).Wait()
}

// Process is a program (a Godot 3 engine running a script, or another
// program) running while the test goes on, whose output lines the test
// can wait for.
type Process struct {
	t      testing.TB
	name   string // for messages: "Godot 3 (client.gd)"
	banner bool   // the engine's start-up banner is left out of lines
	cmd    *exec.Cmd
	cancel context.CancelFunc
	stderr bytes.Buffer

	mu    sync.Mutex
	lines []string      // the output so far, without the engine's banner
	more  chan struct{} // closed and replaced when a line arrives
	done  chan struct{} // closed when the output has ended
	err   error         // how the program ended, once done is closed
}

// StartGodot3 starts script as RunGodot3 does, but returns at once, so the
// test can talk to the engine while it runs. Call Wait (or WaitLine and
// then Wait) before the test ends; the engine is killed after 2 minutes.
func StartGodot3(t testing.TB, script string, args ...string) *Process {
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
	return start(t, "Godot 3 ("+filepath.Base(script)+")", true, []string{"LANG=en_US.UTF-8", "LC_ALL="},
		bin, append([]string{"--path", project, "--script", abs}, args...)...)
}

// Start starts the program bin with args and returns at once, as
// StartGodot3 does for the engine; the program is killed after 2 minutes
// or when the test ends.
func Start(t testing.TB, bin string, args ...string) *Process {
	t.Helper()
	return start(t, filepath.Base(bin), false, nil, bin, args...)
}

func start(t testing.TB, name string, banner bool, env []string, bin string, args ...string) *Process {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	p := &Process{t: t, name: name, banner: banner, cancel: cancel, more: make(chan struct{}), done: make(chan struct{})}
	p.cmd = exec.CommandContext(ctx, bin, args...)
	if env != nil {
		p.cmd.Env = append(os.Environ(), env...)
	}
	p.cmd.Stderr = &p.stderr
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		cancel()
		t.Fatalf("%s: %s: %v", name, bin, err)
	}
	t.Cleanup(func() {
		cancel()
		<-p.done
	})
	go p.read(out)
	return p
}

func (p *Process) read(out io.Reader) {
	sc := bufio.NewScanner(out)
	sc.Buffer(nil, 64<<20)
	for sc.Scan() {
		line := sc.Text()
		if p.banner && (strings.HasPrefix(line, "Godot Engine v") || line == " ") {
			continue // the start-up banner
		}
		p.mu.Lock()
		p.lines = append(p.lines, line)
		close(p.more)
		p.more = make(chan struct{})
		p.mu.Unlock()
	}
	err := p.cmd.Wait()
	p.mu.Lock()
	p.err = err
	p.mu.Unlock()
	close(p.done)
}

// WaitLine waits, at most timeout, for an output line that starts with
// prefix and returns it. It fails the test when the program ends or the
// time runs out first.
func (p *Process) WaitLine(prefix string, timeout time.Duration) string {
	p.t.Helper()
	seen := 0
	return p.Next(&seen, prefix, timeout)
}

// Next is WaitLine for the lines after the first *from: it returns the
// next line that starts with prefix and moves *from past it, so that a
// test can follow the output line by line.
func (p *Process) Next(from *int, prefix string, timeout time.Duration) string {
	p.t.Helper()
	deadline := time.After(timeout)
	for {
		p.mu.Lock()
		for ; *from < len(p.lines); *from++ {
			if strings.HasPrefix(p.lines[*from], prefix) {
				line := p.lines[*from]
				*from++
				p.mu.Unlock()
				return line
			}
		}
		more := p.more
		p.mu.Unlock()
		select {
		case <-more:
		case <-p.done:
			p.mu.Lock()
			n := len(p.lines)
			p.mu.Unlock()
			if *from >= n {
				p.fail("ended before printing a line starting with %q", prefix)
			}
		case <-deadline:
			p.cancel()
			<-p.done
			p.fail("printed no line starting with %q within %v", prefix, timeout)
		}
	}
}

// Wait waits for the engine to end and returns what the script printed. It
// fails the test if the engine failed or reported a script error.
func (p *Process) Wait() string {
	p.t.Helper()
	<-p.done
	p.cancel()
	if p.err != nil {
		p.fail("%v", p.err)
	}
	if strings.Contains(p.stderr.String(), "SCRIPT ERROR") {
		p.fail("script error")
	}
	return p.output()
}

func (p *Process) output() string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.lines) == 0 {
		return ""
	}
	return strings.Join(p.lines, "\n") + "\n"
}

// excerpt is the output for a failure message: its first and last 20
// lines when it is longer.
func (p *Process) excerpt() string {
	out := p.output()
	lines := strings.SplitAfter(out, "\n")
	if len(lines) <= 41 {
		return out
	}
	return strings.Join(lines[:20], "") + "…\n" + strings.Join(lines[len(lines)-21:], "")
}

func (p *Process) fail(format string, args ...any) {
	p.t.Helper()
	var stderr string
	select {
	case <-p.done:
		stderr = p.stderr.String()
	default:
	}
	p.t.Fatalf("%s: "+format+"\nstdout:\n%s\nstderr:\n%s", append([]any{p.name}, append(args, p.excerpt(), stderr)...)...)
}
