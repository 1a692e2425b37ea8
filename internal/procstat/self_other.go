//go:build !unix && !windows

package procstat

import "time"

// Self returns the CPU time this process has used; 0 here, where the
// system does not say.
func Self() time.Duration { return 0 }
