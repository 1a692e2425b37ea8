package main

import (
	"fmt"
	"io"
	"sync"
)

// checkedWriter is standard output as the commands see it: it remembers
// the first error a write returned, so that run can fail a command whose
// output was lost (a full disk, /dev/full, a closed pipe) however the
// command wrote it: directly, through a bufio.Writer whose deferred Flush
// drops the error, or from a server's goroutines.
type checkedWriter struct {
	w   io.Writer
	mu  sync.Mutex
	err error
}

func (c *checkedWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	if err != nil {
		c.mu.Lock()
		if c.err == nil {
			c.err = err
		}
		c.mu.Unlock()
	}
	return n, err
}

// Err returns the first write error.
func (c *checkedWriter) Err() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.err
}

// Unwrap returns the writer underneath, for isTerminal.
func (c *checkedWriter) Unwrap() io.Writer { return c.w }

// unwrapWriter returns what f writes to, for the tests that look at the
// file itself (isTerminal).
func unwrapWriter(f any) any {
	for {
		u, ok := f.(interface{ Unwrap() io.Writer })
		if !ok {
			return f
		}
		f = u.Unwrap()
	}
}

// checkOutput runs cmd with standard output checked: when a write to it
// failed, it says so on stderr and returns 1 instead of a success.
func checkOutput(stdout, stderr io.Writer, cmd func(stdout io.Writer) int) int {
	out := &checkedWriter{w: stdout}
	status := cmd(out)
	if err := out.Err(); err != nil {
		fmt.Fprintln(stderr, "gdvar: writing standard output:", err)
		if status == 0 {
			status = 1
		}
	}
	return status
}
