package multiplayer

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// With WriteDelay, a host relays every message, in order, each no sooner
// than the delay after the first of its batch was queued.
func TestWebSocketWriteDelay(t *testing.T) {
	const delay = 100 * time.Millisecond
	h, err := NewHost(HostOptions{Godot: variant.Godot3, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	l, err := ListenWebSocket(context.Background(), "127.0.0.1:0", WebSocketOptions{Godot: variant.Godot3, WriteDelay: delay})
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
	start := time.Now()
	for i := range n {
		if err := cs[0].send(ids[0], ids[1], AppendRaw(nil, variant.Godot3, []byte{byte(i)})); err != nil {
			t.Fatal(err)
		}
	}
	for i := range n {
		m, err := cs[1].recv()
		if err != nil {
			t.Fatal(err)
		}
		if i == 0 {
			if d := time.Since(start); d < delay {
				t.Errorf("the first message arrived after %v, before the delay of %v", d, delay)
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
