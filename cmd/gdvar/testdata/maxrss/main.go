//go:build linux

// Command maxrss runs a command and writes the peak resident set size of
// that command, in KiB, to a file:
//
//	maxrss OUTFILE COMMAND [ARG...]
//
// The command's standard streams are maxrss's, and maxrss exits with its
// status. A process's peak RSS, as the kernel counts it, includes the
// memory of the process that started it, up to the moment it started the
// program: started from a small process like this one, the command's own
// peak shows, not that of a large (say race-instrumented) test binary.
package main

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

func main() {
	if len(os.Args) < 3 {
		fmt.Fprintln(os.Stderr, "usage: maxrss OUTFILE COMMAND [ARG...]")
		os.Exit(2)
	}
	cmd := exec.Command(os.Args[2], os.Args[3:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := cmd.Run()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(2)
	}
	rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
	if err := os.WriteFile(os.Args[1], []byte(strconv.FormatInt(rss, 10)), 0o644); err != nil {
		fmt.Fprintln(os.Stderr, "maxrss:", err)
		os.Exit(2)
	}
	os.Exit(cmd.ProcessState.ExitCode())
}
