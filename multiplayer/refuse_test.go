package multiplayer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// A client the host refuses for capacity is told why, with the WebSocket
// close status 1008 (policy violation) and a reason, rather than closed as
// if all were well.
func TestRefusedClientTold(t *testing.T) {
	for _, c := range []struct {
		name string
		o    HostOptions
		why  string
	}{
		{"per address", HostOptions{MaxPeersPerIP: 2, Logger: quiet}, "too many peers from your address"},
		{"full", HostOptions{MaxPeers: 2, Logger: quiet}, "server full"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, url := startHost(t, c.o)
			for range 2 {
				rawClient(t, url, 0)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			link, err := DialWebSocket(ctx, url, WebSocketOptions{})
			if err != nil {
				t.Fatal(err)
			}
			defer link.Close()
			f, err := link.ReadFrame()
			if err == nil {
				t.Fatalf("a third client was admitted: %v", f)
			}
			if !strings.Contains(err.Error(), "1008") || !strings.Contains(err.Error(), c.why) {
				t.Errorf("the refused client read %v, want status 1008 and %q", err, c.why)
			}
		})
	}
}

// A real Godot 3.2.3 client refused by a full host is told: the engine
// reports the close frame's status and reason, then a failed connection.
// (With status 1013 it reported nothing and stayed connected.) Refused
// by the listener for its address, it is answered 503 at its handshake
// and reports a failed connection at once.
func TestRefusedGodot3Told(t *testing.T) {
	enginetest.Godot3(t)
	for _, c := range []struct {
		name  string
		host  HostOptions
		peer  peer.Options
		wants []string
	}{
		{"host full", HostOptions{MaxPeers: 1}, peer.Options{}, []string{"CLOSE 1008 server full", "FAILED"}},
		{"listener per address", HostOptions{}, peer.Options{MaxConnsPerIP: 1}, []string{"FAILED"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithCancel(context.Background())
			defer cancel()
			c.host.Godot, c.host.Logger = variant.Godot3, quiet
			h, err := NewHost(c.host)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Godot: variant.Godot3, Peer: c.peer})
			if err != nil {
				t.Fatal(err)
			}
			go h.Serve(ctx, l)
			rawClient(t, "ws://"+l.Addr().String(), variant.Godot3)
			out := enginetest.RunGodot3(t, "testdata/refused3.gd", portOf(t, l))
			t.Logf("the engine printed:\n%s", out)
			if strings.TrimSpace(out) != strings.Join(c.wants, "\n") {
				t.Errorf("the engine printed %q, want %q", out, strings.Join(c.wants, "\n"))
			}
		})
	}
}
