//go:build unix

package multiplayer

import (
	"syscall"
	"testing"
)

// raiseOpenFiles raises the soft limit on open files to n if it is lower,
// within the hard limit, or skips the benchmark.
func raiseOpenFiles(b *testing.B, n uint64) {
	var lim syscall.Rlimit
	if err := syscall.Getrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		b.Skipf("open file limit unknown: %v", err)
	}
	if uint64(lim.Cur) >= n {
		return
	}
	if uint64(lim.Max) < n {
		b.Skipf("needs %d open files, the hard limit is %d (raise it with ulimit -Hn)", n, lim.Max)
	}
	old := lim.Cur
	setLimit(&lim.Cur, n)
	if err := syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim); err != nil {
		b.Skipf("needs %d open files, the limit is %d: %v", n, old, err)
	}
	b.Cleanup(func() {
		lim.Cur = old
		syscall.Setrlimit(syscall.RLIMIT_NOFILE, &lim)
	})
}

// setLimit sets a limit of syscall.Rlimit, whose type is uint64 on most
// systems and int64 on some (FreeBSD).
func setLimit[T int64 | uint64](p *T, n uint64) { *p = T(n) }
