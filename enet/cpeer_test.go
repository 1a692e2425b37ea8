package enet

import (
	"context"
	"encoding/binary"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/skipnote"
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
			cpeerErr = "/usr/include/enet/enet.h not found"
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
		skipnote.Skip(t, "the C ENet library (libenet)", cpeerErr, "apt-get install libenet-dev gcc libc6-dev")
	}
	return cpeerPath
}

// startC starts the built enetpeer with args.
func startC(t testing.TB, args ...string) *enginetest.Process {
	t.Helper()
	return enginetest.Start(t, cpeer(t), args...)
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
			p.id, p.state, p.reliableDataInTransit, p.outgoing.len(), p.outgoingSendReliable.len(), p.sentReliable.len(), p.roundTripTime, p.roundTripTimeVariance, p.windowSize, p.packetThrottle, p.waiting, p.queued)
		for i, c := range p.channels {
			if c == nil {
				continue
			}
			s += fmt.Sprintf(" [ch%d in %d/%d rel %d unrel %d out %d/%d used %x]", i, c.incomingReliableSeq, c.incomingUnreliableSeq, c.incomingReliable.n, len(c.incomingUnreliable), c.outgoingReliableSeq, c.outgoingUnreliableSeq, c.usedReliableWindows)
		}
		if o := p.sentReliable.head; o != nil {
			s += fmt.Sprintf(" first sent: seq %d ch %d attempts %d rto %d", o.reliableSeq, o.channelID, o.sendAttempts, o.roundTripTimeout)
		}
	}
	return s
}
