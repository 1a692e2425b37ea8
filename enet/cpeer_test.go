package enet

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

// The reference ENet C library (Debian's libenet-dev) runs in these tests
// through testdata/enetpeer.c, built with gcc. They skip when either is
// missing.

var (
	cpeerOnce sync.Once
	cpeerPath string
	cpeerErr  string
	cpeerDir  string
)

func TestMain(m *testing.M) {
	code := m.Run()
	if cpeerDir != "" {
		os.RemoveAll(cpeerDir)
	}
	os.Exit(code)
}

// cpeer returns the path of the built enetpeer program, or skips.
func cpeer(t testing.TB) string {
	t.Helper()
	cpeerOnce.Do(func() {
		gcc, err := exec.LookPath("gcc")
		if err != nil {
			cpeerErr = "gcc not installed"
			return
		}
		if _, err := os.Stat("/usr/include/enet/enet.h"); err != nil {
			cpeerErr = "libenet-dev not installed (apt-get install libenet-dev)"
			return
		}
		dir, err := os.MkdirTemp("", "enetpeer")
		if err != nil {
			cpeerErr = err.Error()
			return
		}
		cpeerDir = dir
		out := filepath.Join(dir, "enetpeer")
		src, _ := filepath.Abs("testdata/enetpeer.c")
		cmd := exec.Command(gcc, "-O2", "-o", out, src, "-lenet")
		if b, err := cmd.CombinedOutput(); err != nil {
			cpeerErr = "building enetpeer: " + err.Error() + ": " + string(b)
			return
		}
		cpeerPath = out
	})
	if cpeerPath == "" {
		t.Skip(cpeerErr)
	}
	return cpeerPath
}

// cproc is a running enetpeer.
type cproc struct {
	t     testing.TB
	cmd   *exec.Cmd
	mu    sync.Mutex
	lines []string
	more  chan struct{}
	done  chan struct{}
	errb  bytes.Buffer
}

func startC(t testing.TB, args ...string) *cproc {
	t.Helper()
	return startCBin(t, cpeer(t), args...)
}

func startCBin(t testing.TB, bin string, args ...string) *cproc {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	p := &cproc{t: t, more: make(chan struct{}), done: make(chan struct{})}
	p.cmd = exec.CommandContext(ctx, bin, args...)
	p.cmd.Stderr = &p.errb
	out, err := p.cmd.StdoutPipe()
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	if err := p.cmd.Start(); err != nil {
		cancel()
		t.Fatal(err)
	}
	go func() {
		sc := bufio.NewScanner(out)
		for sc.Scan() {
			p.mu.Lock()
			p.lines = append(p.lines, sc.Text())
			close(p.more)
			p.more = make(chan struct{})
			p.mu.Unlock()
		}
		p.cmd.Wait()
		close(p.done)
	}()
	t.Cleanup(func() {
		cancel()
		<-p.done
	})
	return p
}

// waitLine waits for the next line starting with prefix after index
// *from, and returns it.
func (p *cproc) waitLine(from *int, prefix string, timeout time.Duration) string {
	p.t.Helper()
	deadline := time.After(timeout)
	for {
		p.mu.Lock()
		for ; *from < len(p.lines); *from++ {
			if strings.HasPrefix(p.lines[*from], prefix) {
				l := p.lines[*from]
				*from++
				p.mu.Unlock()
				return l
			}
		}
		more := p.more
		p.mu.Unlock()
		select {
		case <-more:
		case <-p.done:
			p.mu.Lock()
			n := len(p.lines)
			p.mu.Unlock()
			if *from >= n {
				p.t.Fatalf("enetpeer ended before printing %q; output %q; stderr %s", prefix, p.output(), p.errb.String())
			}
		case <-deadline:
			p.t.Fatalf("enetpeer printed no %q within %v; output %q", prefix, timeout, p.output())
		}
	}
}

func (p *cproc) output() []string {
	p.mu.Lock()
	defer p.mu.Unlock()
	if len(p.lines) > 40 {
		return append(append([]string(nil), p.lines[:20]...), p.lines[len(p.lines)-20:]...)
	}
	return append([]string(nil), p.lines...)
}

// fnv is the FNV-1a hash enetpeer prints.
func fnv(b []byte) uint32 {
	h := uint32(2166136261)
	for _, c := range b {
		h ^= uint32(c)
		h *= 16777619
	}
	return h
}

// fill is enetpeer's packet content.
func fill(n int, seed uint32) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(seed*131 + uint32(i)*7 + uint32(i>>8))
	}
	if n >= 4 {
		binary.LittleEndian.PutUint32(b, seed)
	}
	return b
}

// next returns the next event of h within timeout, failing the test
// otherwise.
func next(t testing.TB, h *Host, timeout time.Duration) Event {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	ev, err := h.Service(ctx)
	if err != nil {
		t.Fatalf("no event within %v: %v; host %s", timeout, err, h.debugState())
	}
	return ev
}

// nextOf skips events until one of type typ.
func nextOf(t testing.TB, h *Host, typ EventType, timeout time.Duration) Event {
	t.Helper()
	deadline := time.Now().Add(timeout)
	for {
		ev := next(t, h, time.Until(deadline))
		if ev.Type == typ {
			return ev
		}
	}
}

func (h *Host) debugState() string {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := fmt.Sprintf("%+v", h.stats)
	for _, p := range h.peers {
		if p == nil {
			continue
		}
		s += fmt.Sprintf("; peer %d state %d inTransit %d outgoing %d sendReliable %d sent %d rtt %d/%d window %d throttle %d waiting %d queued %d",
			p.id, p.state, p.reliableDataInTransit, len(p.outgoing), len(p.outgoingSendReliable), len(p.sentReliable), p.roundTripTime, p.roundTripTimeVariance, p.windowSize, p.packetThrottle, p.waiting, p.queued)
		for i, c := range p.channels {
			if c == nil {
				continue
			}
			s += fmt.Sprintf(" [ch%d in %d/%d rel %d unrel %d out %d/%d used %x]", i, c.incomingReliableSeq, c.incomingUnreliableSeq, len(c.incomingReliable), len(c.incomingUnreliable), c.outgoingReliableSeq, c.outgoingUnreliableSeq, c.usedReliableWindows)
		}
		if len(p.sentReliable) > 0 {
			o := p.sentReliable[0]
			s += fmt.Sprintf(" first sent: seq %d ch %d attempts %d rto %d", o.reliableSeq, o.cmd.channelID, o.sendAttempts, o.roundTripTimeout)
		}
	}
	return s
}
