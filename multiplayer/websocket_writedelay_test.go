package multiplayer

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// With WriteDelay, a host relays every message, in order. Without the
// Poller, each waits the delay after the first of its batch was queued;
// with it, the host handles what arrives once per delay while it has
// work, as an engine once a frame: the first message of a quiet spell at
// once, those sent after it in the next frame.
func TestWebSocketWriteDelay(t *testing.T) {
	t.Run("Poller", func(t *testing.T) { testWriteDelay(t, false) })
	t.Run("NoPoller", func(t *testing.T) { testWriteDelay(t, true) })
}

func testWriteDelay(t *testing.T, noPoller bool) {
	const delay = 400 * time.Millisecond // long enough for "at once" to hold on a loaded machine
	h, err := NewHost(HostOptions{Godot: variant.Godot3, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ListenWebSocket(context.Background(), "127.0.0.1:0", WebSocketOptions{Godot: variant.Godot3, WriteDelay: delay, NoPoller: noPoller})
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(context.Background(), l)
	defer h.Close()
	cs := joinRawWS(t, func() int { return len(h.Peers()) }, l.Addr().String(), 2)
	ids := make([]PeerID, 2)
	for i, c := range cs {
		c.c.SetReadDeadline(time.Now().Add(10 * time.Second))
		for range 3 { // the id, the host, the other client
			m, err := c.recv()
			if err != nil {
				t.Fatal(err)
			}
			if m[0] == ws3SysID {
				ids[i] = PeerID(binary.LittleEndian.Uint32(m[ws3HeaderSize:]))
			}
		}
	}
	const n = 20
	first := 0
	if !noPoller {
		// The first message wakes the host, which handles it at once.
		time.Sleep(2 * delay) // a quiet spell
		if err := cs[0].send(ids[0], ids[1], AppendRaw(nil, variant.Godot3, []byte{0})); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		if m, err := cs[1].recv(); err != nil || m[len(m)-1] != 0 {
			t.Fatalf("message 0: %x, %v", m, err)
		}
		if d := time.Since(start); d >= delay {
			t.Errorf("the first message after a quiet spell took %v, the delay of %v or more", d, delay)
		}
		first = 1
	}
	start := time.Now()
	for i := first; i < n; i++ {
		if err := cs[0].send(ids[0], ids[1], AppendRaw(nil, variant.Godot3, []byte{byte(i)})); err != nil {
			t.Fatal(err)
		}
	}
	for i := first; i < n; i++ {
		m, err := cs[1].recv()
		if err != nil {
			t.Fatal(err)
		}
		if i == first {
			if d := time.Since(start); d < delay/2 {
				t.Errorf("message %d arrived after %v, before the delay of %v", i, d, delay)
			}
		}
		if m[len(m)-1] != byte(i) {
			t.Fatalf("message %d: %x", i, m)
		}
	}
	for _, c := range cs {
		c.c.Close() // first, so that the host's Close need not wait for their answers
	}
}
