// Package skipnote skips a test that needs something not installed here (a
// real engine, a C library) and says so where a plain `go test ./...` shows
// it: one line per package and missing thing, such as
//
//	skip	github.com/gdvar/gdvar/multiplayer	tests that need Godot 4.6 (web build) (first: TestGodot4Client): missing chromium; install: internal/godot4web/install.sh
//
// Limits: go test shows a passing package's own output only with -v, so
// without -v the line goes to the go command's standard output
// (/proc/<parent>/fd/1, Linux only; elsewhere only the skip message of -v
// tells), or to its standard error when the output is a file it does not
// append to (go test > log, whose next lines would overwrite the notice);
// when both are such files (> log 2>&1) only -v tells. A result that go test takes from its cache repeats no line:
// `go test -count=1 ./...` runs everything again.
package skipnote

import (
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
)

var (
	mu     sync.Mutex
	noted  = map[string]bool{}
	output io.Writer // nil: the go command's standard output
)

// Skip skips t because what (such as "Godot 3.2.3 (godot3-server)") is not
// available for reason, and install says how to get it. The first such skip
// in the test binary for each what prints the notice line.
func Skip(t testing.TB, what, reason, install string) {
	t.Helper()
	note(t.Name(), what, reason, install)
	t.Skipf("%s not available: %s (install: %s)", what, reason, install)
}

func note(test, what, reason, install string) {
	mu.Lock()
	defer mu.Unlock()
	if noted[what] {
		return
	}
	noted[what] = true
	if testing.Verbose() && output == nil {
		return // -v shows the skip message itself
	}
	line := fmt.Sprintf("skip\t%s\ttests that need %s (first: %s): %s; install: %s\n",
		pkgPath(), what, test, reason, install)
	w := output
	if w == nil {
		f := goOutput(os.Getppid())
		if f == nil {
			fmt.Fprint(os.Stderr, line)
			return
		}
		defer f.Close()
		w = f
	}
	io.WriteString(w, line)
}

// goOutput opens the go command's standard output for the notice, or its
// standard error when the output cannot take it; nil when neither can.
func goOutput(ppid int) *os.File {
	for _, fd := range []int{1, 2} {
		if !shareable(ppid, fd) {
			continue
		}
		if f, err := os.OpenFile(fmt.Sprintf("/proc/%d/fd/%d", ppid, fd), os.O_WRONLY|os.O_APPEND, 0); err == nil {
			return f
		}
	}
	return nil
}

// shareable reports whether a line written to process pid's descriptor fd,
// opened anew, leaves that process's own writes intact: a terminal or a
// pipe, or a regular file the process writes in append mode (go test >>
// log). A file it writes at its own offset (go test > log) is not: its
// next write would land over the line.
func shareable(pid, fd int) bool {
	fi, err := os.Stat(fmt.Sprintf("/proc/%d/fd/%d", pid, fd))
	if err != nil {
		return false
	}
	if !fi.Mode().IsRegular() {
		return true
	}
	info, err := os.ReadFile(fmt.Sprintf("/proc/%d/fdinfo/%d", pid, fd))
	if err != nil {
		return false
	}
	for _, l := range strings.Split(string(info), "\n") {
		if v, ok := strings.CutPrefix(l, "flags:"); ok {
			flags, err := strconv.ParseUint(strings.TrimSpace(v), 8, 64)
			return err == nil && flags&syscall.O_APPEND != 0
		}
	}
	return false
}

// pkgPath is the import path of the package under test, from the module's
// go.mod above the working directory (go test runs a package's tests in
// its folder); the folder itself if there is none.
func pkgPath() string {
	wd, err := os.Getwd()
	if err != nil {
		return "?"
	}
	for d := wd; ; d = filepath.Dir(d) {
		if mod, err := os.ReadFile(filepath.Join(d, "go.mod")); err == nil {
			for _, l := range strings.Split(string(mod), "\n") {
				if p, ok := strings.CutPrefix(strings.TrimSpace(l), "module "); ok {
					rel, _ := filepath.Rel(d, wd)
					if rel == "." {
						return strings.TrimSpace(p)
					}
					return strings.TrimSpace(p) + "/" + filepath.ToSlash(rel)
				}
			}
		}
		if filepath.Dir(d) == d {
			return wd
		}
	}
}
