//go:build unix

package procstat

import (
	"syscall"
	"time"
)

// Self returns the CPU time this process has used, user and system, all
// threads (getrusage); 0 when the system does not say.
func Self() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
