package multiplayer

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// A client of one family joining a host of the other fails its handshake
// with an error that names the family to use.
func TestJoinOtherFamilyHint(t *testing.T) {
	for _, c := range []struct {
		host, client variant.Family
		want         string
	}{
		{variant.Godot3, variant.Godot4, "the first message has 13 bytes, not the 4 of a peer id (13 bytes is a Godot 3 host's SYS_ID: join a Godot 3 host as Godot 3"},
		{variant.Godot4, variant.Godot3, "(a Godot 4 host's first message is a 4-byte peer id: join a Godot 4 host as Godot 4"},
	} {
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		h, err := NewHost(HostOptions{Godot: c.host})
		if err != nil {
			t.Fatal(err)
		}
		l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Godot: c.host})
		if err != nil {
			t.Fatal(err)
		}
		go h.Serve(ctx, l)
		link, err := DialWebSocket(ctx, "ws://"+l.Addr().String(), WebSocketOptions{Godot: c.client})
		if err != nil {
			t.Fatal(err)
		}
		cl, err := Join(ctx, link, ClientOptions{Godot: c.client})
		if err == nil {
			cl.Close()
		}
		if !errors.Is(err, ErrHandshake) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Godot %d client, Godot %d host: %v, want it to hold %q", c.client, c.host, err, c.want)
		}
		link.Close()
		h.Close()
		l.Close()
		cancel()
	}
}
