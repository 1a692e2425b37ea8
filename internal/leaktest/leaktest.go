// Package leaktest checks, for tests and benchmarks, that everything a
// piece of code started (goroutines, open files) is gone once it is
// closed.
package leaktest

import (
	"os"
	"runtime"
	"testing"
	"time"
)

// Baseline is what the process had running before the code under test
// started.
type Baseline struct {
	goroutines, files int
}

// Take returns the process's current goroutines and open files.
func Take() Baseline {
	return Baseline{runtime.NumGoroutine(), OpenFiles()}
}

// Check waits up to wait for the goroutines and open files to fall back
// to the baseline, and fails tb (with every goroutine's stack) if they do
// not.
func (b Baseline) Check(tb testing.TB, wait time.Duration) {
	tb.Helper()
	deadline := time.Now().Add(wait)
	for (runtime.NumGoroutine() > b.goroutines || OpenFiles() > b.files) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > b.goroutines {
		buf := make([]byte, 1<<16)
		tb.Fatalf("%d goroutines left after Close (%d before):\n%s", n, b.goroutines, buf[:runtime.Stack(buf, true)])
	}
	if n := OpenFiles(); n > b.files {
		tb.Fatalf("%d files open after Close (%d before)", n, b.files)
	}
}

// OpenFiles is the number of the process's open files, or 0 where
// /proc/self/fd is not there.
func OpenFiles() int {
	es, _ := os.ReadDir("/proc/self/fd")
	return len(es)
}
