package multiplayer

import (
	"context"
	"testing"
	"time"

	"github.com/gdvar/gdvar/enet/godotcompress"
	"github.com/gdvar/gdvar/variant"
)

func startHostENet(t *testing.T, o HostOptions, eo ENetOptions, nodes ...Node) (*Host, string) {
	t.Helper()
	h, err := NewHost(o, nodes...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	eo.Godot = o.Godot
	l, err := ListenENet(ctx, "127.0.0.1:0", eo)
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(ctx, l)
	t.Cleanup(func() {
		cancel()
		h.Close()
	})
	return h, l.Addr().String()
}

func joinENet(t *testing.T, addr string, o ClientOptions, eo ENetOptions, nodes ...Node) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	eo.Godot = o.Godot
	link, err := DialENet(ctx, addr, eo)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Join(ctx, link, o, nodes...)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c
}

// TestLoopback's exchange over ENet, for both families (Godot 4's dialect:
// no header, its channel mapping, SceneMultiplayer's own peer notices;
// Godot 3's: the header and the server's notices), with and without
// compression.
func TestENetLoopback(t *testing.T) {
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		for _, mode := range []godotcompress.Mode{godotcompress.None, godotcompress.FastLZ, godotcompress.Zstd} {
			t.Run(fam.String()+"/"+mode.String(), func(t *testing.T) {
				eo := ENetOptions{Compression: mode}
				var addr string
				testLoopback(t, fam, func(o HostOptions, nodes ...Node) *Host {
					var h *Host
					h, addr = startHostENet(t, o, eo, nodes...)
					return h
				}, func(o ClientOptions, nodes ...Node) *Client {
					return joinENet(t, addr, o, eo, nodes...)
				})
			})
		}
	}
}
