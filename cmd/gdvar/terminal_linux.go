package main

import (
	"os"
	"syscall"
	"unsafe"
)

// isTerminal reports whether f (an io.Reader or io.Writer) is a terminal.
func isTerminal(f any) bool {
	file, ok := unwrapWriter(f).(*os.File)
	if !ok {
		return false
	}
	var t syscall.Termios
	_, _, errno := syscall.Syscall(syscall.SYS_IOCTL, file.Fd(), syscall.TCGETS, uintptr(unsafe.Pointer(&t)))
	return errno == 0
}
