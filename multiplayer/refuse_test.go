package multiplayer

import (
	"context"
	"strings"
	"testing"
	"time"
)

// A client the host refuses for capacity is told why, with the WebSocket
// close status 1013 (try again later) and a reason, rather than closed as
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
			if !strings.Contains(err.Error(), "1013") || !strings.Contains(err.Error(), c.why) {
				t.Errorf("the refused client read %v, want status 1013 and %q", err, c.why)
			}
		})
	}
}
