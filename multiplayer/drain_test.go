package multiplayer

import (
	"context"
	"sync/atomic"
	"testing"
	"time"
)

// Host.Shutdown on its own: what was queued before is delivered, the
// client sees a clean close, Serve returns, new clients are refused.
func TestHostShutdown(t *testing.T) {
	h, err := NewHost(HostOptions{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx, l) }()
	var got atomic.Int32
	link, err := DialWebSocket(ctx, "ws://"+l.Addr().String(), WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := Join(ctx, link, ClientOptions{OnBytes: func(PeerID, []byte) { got.Add(1) }})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const n = 3000
	for range n {
		if err := h.SendBytes(0, make([]byte, 256), Reliable, 0); err != nil {
			t.Fatal(err)
		}
	}
	if err := h.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	<-c.Done()
	if err := c.Err(); err != nil {
		t.Errorf("client saw %v, want a clean close", err)
	}
	if g := got.Load(); g != n {
		t.Errorf("client got %d of %d packets", g, n)
	}
	if err := <-served; err != ErrClosed {
		t.Errorf("Serve returned %v", err)
	}
	if link, err := DialWebSocket(ctx, "ws://"+l.Addr().String(), WebSocketOptions{}); err == nil {
		link.Close()
		t.Error("connected to a host that was shut down")
	}
}
