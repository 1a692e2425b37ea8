package enet

import (
	"bytes"
	"fmt"
	"net"
	"runtime"
	"testing"
	"time"
)

// TestFrameBatches: a host that runs frames answers packets that come a
// few milliseconds apart in order, in a datagram or two a frame, not one
// each.
func TestFrameBatches(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("frames run on Linux; elsewhere Frame is a FlushDelay")
	}
	srv, cli, _, cp := pair(t, &Config{Frame: 50 * time.Millisecond}, nil, 1)
	srv.Handle(func(ev Event) {
		if ev.Type == EventReceive {
			ev.Peer.Send(0, append([]byte("re:"), ev.Packet...), Reliable)
		}
	})
	const n = 20
	before := srv.Stats()
	for i := range n {
		if err := cp.Send(0, fmt.Appendf(nil, "%02d", i), Reliable); err != nil {
			t.Fatal(err)
		}
		cli.Flush()
		time.Sleep(2 * time.Millisecond)
	}
	for i := range n {
		ev := nextOf(t, cli, EventReceive, 5*time.Second)
		if want := fmt.Sprintf("re:%02d", i); string(ev.Packet) != want {
			t.Fatalf("got %q, want %q", ev.Packet, want)
		}
	}
	after := srv.Stats()
	// 20 answers and 20 acknowledgements: a datagram or two for each
	// frame the 40 ms of packets spanned, against 20 or more without
	// frames.
	if sent := after.DatagramsSent - before.DatagramsSent; sent > 8 {
		t.Errorf("the host sent %d datagrams for a burst of %d packets", sent, n)
	}
	if got := after.DatagramsReceived - before.DatagramsReceived; got == 0 {
		t.Error("no datagram counted as received")
	}
}

// TestFrameWake: a host idle between frames sends at once what another
// goroutine queues: it waits for a wake, not for its next service tick
// (an hour away here).
func TestFrameWake(t *testing.T) {
	cfg := &Config{Frame: 5 * time.Millisecond, ServiceInterval: time.Hour, PingInterval: time.Hour}
	srv, cli, sp, _ := pair(t, cfg, nil, 1)
	for i := range 3 {
		time.Sleep(50 * time.Millisecond) // the host is idle, waiting
		start := time.Now()
		msg := []byte{byte(i)}
		if err := sp.Send(0, msg, Reliable); err != nil {
			t.Fatal(err)
		}
		ev := nextOf(t, cli, EventReceive, 5*time.Second)
		if !bytes.Equal(ev.Packet, msg) {
			t.Fatalf("got %v", ev.Packet)
		}
		if d := time.Since(start); d > 2*time.Second {
			t.Fatalf("a packet queued while the host was idle took %v", d)
		}
	}
	if srv.LocalAddr() == nil {
		t.Error("no local address")
	}
}

// TestFrameClose: Close ends a host in the middle of a long frame or of
// an idle wait at once, and closes its socket.
func TestFrameClose(t *testing.T) {
	for _, busy := range []bool{false, true} {
		srv, err := Listen("udp4", "127.0.0.1:0", &Config{Frame: time.Hour})
		if err != nil {
			t.Fatal(err)
		}
		if busy {
			// A datagram read makes the frame busy: it sleeps an hour.
			c, err := net.Dial("udp4", srv.LocalAddr().String())
			if err != nil {
				t.Fatal(err)
			}
			c.Write([]byte("not enet"))
			c.Close()
			for srv.Stats().DatagramsReceived == 0 {
				time.Sleep(time.Millisecond)
			}
		}
		start := time.Now()
		done := make(chan error, 1)
		go func() { done <- srv.Close() }()
		select {
		case err := <-done:
			if err != nil {
				t.Fatal(err)
			}
		case <-time.After(10 * time.Second):
			t.Fatalf("busy %v: Close still waiting after %v", busy, time.Since(start))
		}
		if err := srv.Close(); err != nil {
			t.Fatal("second Close:", err)
		}
		srv.Flush() // writes nothing: the descriptor's number may be another file's by now
		// The port is free again: the socket was closed.
		c, err := net.ListenPacket("udp4", srv.LocalAddr().String())
		if err != nil {
			t.Fatalf("busy %v: the host's port is still taken: %v", busy, err)
		}
		c.Close()
	}
}

// TestFrameOneGoroutine: a host that runs frames has one goroutine,
// where the other has two.
func TestFrameOneGoroutine(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("frames run on Linux")
	}
	// Goroutines of earlier tests may still be ending or starting: a
	// few tries for the count wanted.
	count := func(cfg *Config, want int) int {
		n := 0
		for range 5 {
			before := runtime.NumGoroutine()
			h, err := Listen("udp4", "127.0.0.1:0", cfg)
			if err != nil {
				t.Fatal(err)
			}
			n = runtime.NumGoroutine() - before
			h.Close()
			if n == want {
				break
			}
		}
		return n
	}
	if loops, frames := count(nil, 2), count(&Config{Frame: time.Millisecond}, 1); loops != 2 || frames != 1 {
		t.Errorf("goroutines: %d without Frame, %d with (want 2 and 1)", loops, frames)
	}
	if _, err := Listen("udp4", "127.0.0.1:0", &Config{Frame: -1}); err == nil {
		t.Error("a negative Frame was taken")
	}
}
