package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
)

// syscallCounter counts a process's system calls with perf stat on the
// kernel's syscall tracepoints: counts, not times, so they hold on a
// loaded machine.
type syscallCounter struct {
	cmd *exec.Cmd
	out string
}

type syscallCounts struct {
	all, send, receive uint64
	// datagrams counts the packets the process queued to a network
	// device (net:net_dev_queue): on loopback, its datagrams sent.
	datagrams uint64
}

var (
	sendCalls    = []string{"sendto", "sendmsg", "sendmmsg", "write", "writev"}
	receiveCalls = []string{"recvfrom", "recvmsg", "recvmmsg", "read", "readv"}
)

func countSyscalls(pid int) (*syscallCounter, error) {
	f, err := os.CreateTemp("", "relay-perf-*.csv")
	if err != nil {
		return nil, err
	}
	f.Close()
	events := []string{"raw_syscalls:sys_enter", "net:net_dev_queue"}
	for _, c := range append(append([]string{}, sendCalls...), receiveCalls...) {
		events = append(events, "syscalls:sys_enter_"+c)
	}
	cmd := exec.Command("perf", "stat", "-x,", "-o", f.Name(), "-e", strings.Join(events, ","), "-p", strconv.Itoa(pid))
	cmd.Stderr = os.Stderr
	if err := cmd.Start(); err != nil {
		os.Remove(f.Name())
		return nil, fmt.Errorf("perf: %w", err)
	}
	return &syscallCounter{cmd: cmd, out: f.Name()}, nil
}

func (c *syscallCounter) stop() (syscallCounts, error) {
	defer os.Remove(c.out)
	var n syscallCounts
	c.cmd.Process.Signal(syscall.SIGINT)
	c.cmd.Wait()
	b, err := os.ReadFile(c.out)
	if err != nil {
		return n, err
	}
	for _, line := range bytes.Split(b, []byte("\n")) {
		f := strings.Split(string(line), ",")
		if len(f) < 3 {
			continue
		}
		v, err := strconv.ParseUint(f[0], 10, 64)
		if err != nil {
			continue
		}
		name := strings.TrimPrefix(f[2], "syscalls:sys_enter_")
		switch {
		case f[2] == "raw_syscalls:sys_enter":
			n.all = v
		case f[2] == "net:net_dev_queue":
			n.datagrams = v
		case contains(sendCalls, name):
			n.send += v
		case contains(receiveCalls, name):
			n.receive += v
		}
	}
	if n.all == 0 {
		return n, fmt.Errorf("perf counted no system calls: %s", b)
	}
	return n, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}
