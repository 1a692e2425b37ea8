package main

import (
	"context"
	"encoding/binary"
	"flag"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/peer"
)

func TestServeLimitFlags(t *testing.T) {
	parse := func(args ...string) peer.Options {
		t.Helper()
		fs := flag.NewFlagSet("serve", flag.ContinueOnError)
		mc := fs.Int("max-conns", peer.DefaultMaxConns, "")
		mi := fs.Int("max-per-ip", peer.DefaultMaxConnsPerIP, "")
		it := fs.Duration("idle-timeout", peer.DefaultIdleTimeout, "")
		ft := fs.Duration("frame-timeout", peer.DefaultFrameTimeout, "")
		wt := fs.Duration("write-timeout", peer.DefaultWriteTimeout, "")
		mb := fs.Int64("max-buffered", 0, "")
		if err := fs.Parse(args); err != nil {
			t.Fatal(err)
		}
		o, err := serveLimits(*mc, *mi, *it, *ft, *wt, *mb, fs)
		if err != nil {
			t.Fatal(err)
		}
		return o
	}
	if o := parse(); o.MaxConns != peer.DefaultMaxConns || o.MaxConnsPerIP != peer.DefaultMaxConnsPerIP || o.IdleTimeout != peer.DefaultIdleTimeout ||
		o.FrameTimeout != peer.DefaultFrameTimeout || o.WriteTimeout != peer.DefaultWriteTimeout || o.BufferBudget != 0 {
		t.Errorf("defaults: %+v", o)
	}
	if o := parse("--max-conns", "0", "--max-per-ip", "0", "--idle-timeout", "0", "--frame-timeout", "0", "--write-timeout", "0", "--max-buffered", "0"); o.MaxConns != -1 || o.MaxConnsPerIP != -1 ||
		o.IdleTimeout != -1 || o.FrameTimeout != -1 || o.WriteTimeout != -1 || o.BufferBudget != -1 {
		t.Errorf("all off: %+v", o)
	}
	if o := parse("--max-conns", "5", "--max-per-ip", "3", "--idle-timeout", "2s", "--frame-timeout", "300ms", "--max-buffered", "9000000"); o.MaxConns != 5 || o.MaxConnsPerIP != 3 ||
		o.IdleTimeout != 2*time.Second || o.FrameTimeout != 300*time.Millisecond || o.BufferBudget != 9000000 {
		t.Errorf("set: %+v", o)
	}
	for _, args := range [][]string{
		{"serve", "--max-conns", "-1"},
		{"serve", "--idle-timeout", "-1s"},
		{"serve", "--write-timeout", "-1s"},
		{"serve", "--max-buffered", "1000"}, // below --max-size
	} {
		if status, _, _ := gdvar(t, "", args...); status != 2 {
			t.Errorf("%q: status %d, want 2", args, status)
		}
	}
}

// 50 silent connections against --max-conns 10: 40 are closed at once,
// the 10 others at the idle timeout; a value dribbled a byte at a time is
// cut at the frame timeout.
func TestServeLimits(t *testing.T) {
	var stdout, stderr syncBuffer
	cfg := serveConfig{
		tcp: "127.0.0.1:0",
		opts: peer.Options{MaxConns: 10, IdleTimeout: 500 * time.Millisecond, FrameTimeout: 200 * time.Millisecond,
			CloseTimeout: 100 * time.Millisecond},
		text: gdtext.Options{},
	}
	s, err := startServer(context.Background(), cfg, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	defer s.shutdown()
	addr := s.tcp.Addr().String()

	start := time.Now()
	var conns []net.Conn
	for range 50 {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			continue // reset before the dial returned
		}
		defer nc.Close()
		conns = append(conns, nc)
	}
	closedAt := make(chan time.Duration, len(conns))
	for _, nc := range conns {
		go func() {
			nc.SetReadDeadline(time.Now().Add(10 * time.Second))
			nc.Read(make([]byte, 1))
			closedAt <- time.Since(start)
		}()
	}
	early, late := 0, 0
	for range conns {
		if d := <-closedAt; d < 400*time.Millisecond {
			early++
		} else if d < 5*time.Second {
			late++
		}
	}
	if early != len(conns)-10 || late != 10 {
		t.Errorf("%d closed at once, %d at the idle timeout; want %d and 10", early, late, len(conns)-10)
	}
	waitFor(t, &stderr, `idle timeout: nothing received for 500ms; closing`)

	nc, err := net.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.Write([]byte{100, 0, 0, 0})
	go func() {
		for range 100 {
			time.Sleep(20 * time.Millisecond)
			if _, err := nc.Write([]byte{0}); err != nil {
				return
			}
		}
	}()
	waitFor(t, &stderr, `frame at byte 0: peer: frame not complete in time; closing`)
}

// gdvar serve holds no more than its buffer budget for clients parked
// behind nearly complete 8 MiB values: 30 of them raise its peak memory
// (VmHWM, from what it was once listening) by less than 160 MB with the
// default budget of 64 MiB (the budget, the buffers a growth replaced
// until they are collected, and the collector's headroom; measured
// 125–148 MB), against about 490 MB without a budget.
func TestServeMemoryParkedFrames(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command and moves 240 MiB over loopback")
	}
	if _, err := os.Stat("/proc/self/status"); err != nil {
		t.Skip("needs /proc")
	}
	bin := filepath.Join(t.TempDir(), "gdvar")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	var stderr syncBuffer
	cmd := exec.Command(bin, "serve", "--tcp", "127.0.0.1:0")
	cmd.Stderr = &stderr
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Wait()
	defer cmd.Process.Kill()
	addr := waitFor(t, &stderr, `listening on tcp (127\.0\.0\.1:\d+)`)[1]
	hwm0 := peakRSS(t, cmd.Process.Pid)
	const n, size = 30, 8 << 20
	payload := make([]byte, size-1)
	done := make(chan struct{}, n)
	for range n {
		nc, err := net.Dial("tcp", addr)
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		go func() {
			defer func() { done <- struct{}{} }()
			nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := nc.Write(binary.LittleEndian.AppendUint32(nil, size)); err == nil {
				nc.Write(payload)
			}
		}()
	}
	for range n {
		<-done
	}
	refused := regexp.MustCompile(`memory budget exhausted; closing`)
	waitFor(t, &stderr, `memory budget exhausted; closing`)
	time.Sleep(300 * time.Millisecond)
	hwm := peakRSS(t, cmd.Process.Pid) - hwm0
	t.Logf("%d clients parked behind 8 MiB values: peak RSS +%d MB, %d refused", n, hwm>>10,
		len(refused.FindAllString(stderr.String(), -1)))
	if hwm > 160<<10 {
		t.Errorf("peak RSS grew by %d MB with a 64 MiB budget", hwm>>10)
	}
	if strings.Count(stderr.String(), "budget exhausted") < n-8 {
		t.Errorf("fewer than %d refused:\n%s", n-8, stderr.String())
	}
}

// peakRSS is the process's peak resident set (VmHWM), in KiB.
func peakRSS(t *testing.T, pid int) int {
	t.Helper()
	status, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/status")
	if err != nil {
		t.Fatal(err)
	}
	m := regexp.MustCompile(`VmHWM:\s+(\d+) kB`).FindSubmatch(status)
	if m == nil {
		t.Fatalf("no VmHWM in\n%s", status)
	}
	kb, _ := strconv.Atoi(string(m[1]))
	return kb
}
