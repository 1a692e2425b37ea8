package procstat

import (
	"syscall"
	"time"
)

// Self returns the CPU time this process has used, user and system, all
// threads (GetProcessTimes); 0 when the system does not say.
func Self() time.Duration {
	self, err := syscall.GetCurrentProcess()
	if err != nil {
		return 0
	}
	var creation, exit, kernel, user syscall.Filetime
	if syscall.GetProcessTimes(self, &creation, &exit, &kernel, &user) != nil {
		return 0
	}
	// Both are durations in units of 100 ns.
	ticks := func(f syscall.Filetime) time.Duration {
		return time.Duration(int64(f.HighDateTime)<<32|int64(f.LowDateTime)) * 100
	}
	return ticks(kernel) + ticks(user)
}
