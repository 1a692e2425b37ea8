//go:build !linux

package main

import (
	"os"
)

// isTerminal reports whether f (an io.Reader or io.Writer) is a
// character device other than the null device, which is as close to a
// terminal as the standard library tells.
func isTerminal(f any) bool {
	file, ok := unwrapWriter(f).(*os.File)
	if !ok {
		return false
	}
	st, err := file.Stat()
	if err != nil || st.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(st, null)
}
