// Package procstat reads a process's CPU time and resident memory from
// Linux's /proc, for the benchmark programs that measure a server running
// in another process, and this process's own CPU time (Self) for
// benchmarks. Limits: but for Self, Linux only: elsewhere every call
// fails.
package procstat

import (
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"
)

// ticksPerSecond is the unit of the CPU times in /proc/PID/stat (USER_HZ,
// 100 on every Linux architecture Go supports).
const ticksPerSecond = 100

// CPU returns the user and system CPU time process pid has used
// (/proc/PID/stat fields 14 and 15).
func CPU(pid int) (time.Duration, error) {
	user, sys, err := Times(pid)
	return user + sys, err
}

// Times returns the user and the system CPU time process pid has used,
// apart (/proc/PID/stat fields 14 and 15): the system time of a network
// server is mostly the kernel's work for its sockets.
func Times(pid int) (user, sys time.Duration, err error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/stat", pid))
	if err != nil {
		return 0, 0, err
	}
	// The command name (field 2) may hold spaces: count from after it.
	s := string(b)
	i := strings.LastIndexByte(s, ')')
	if i < 0 {
		return 0, 0, fmt.Errorf("/proc/%d/stat: no command name", pid)
	}
	f := strings.Fields(s[i+1:]) // f[0] is field 3
	if len(f) < 13 {
		return 0, 0, fmt.Errorf("/proc/%d/stat: %d fields", pid, len(f)+2)
	}
	ut, err1 := strconv.ParseInt(f[11], 10, 64)
	st, err2 := strconv.ParseInt(f[12], 10, 64)
	if err := errors.Join(err1, err2); err != nil {
		return 0, 0, fmt.Errorf("/proc/%d/stat: %w", pid, err)
	}
	return time.Duration(ut) * time.Second / ticksPerSecond, time.Duration(st) * time.Second / ticksPerSecond, nil
}

// RSS returns the resident set of process pid in bytes (/proc/PID/status,
// VmRSS).
func RSS(pid int) (int64, error) { return statusBytes(pid, "VmRSS") }

// RSSAnon returns the anonymous part of process pid's resident set in
// bytes (/proc/PID/status, RssAnon): its heap, stacks and other private
// memory, without the program's code and other pages of files, which the
// first use of a code path brings in once and which are shared and
// evictable.
func RSSAnon(pid int) (int64, error) { return statusBytes(pid, "RssAnon") }

// statusBytes reads a field of /proc/PID/status given in kB.
func statusBytes(pid int, field string) (int64, error) {
	b, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", pid))
	if err != nil {
		return 0, err
	}
	for _, l := range strings.Split(string(b), "\n") {
		if v, ok := strings.CutPrefix(l, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(v), " kB"), 10, 64)
			if err != nil {
				return 0, fmt.Errorf("/proc/%d/status: %s: %w", pid, field, err)
			}
			return kb << 10, nil
		}
	}
	return 0, fmt.Errorf("/proc/%d/status: no %s", pid, field)
}
