package multiplayer

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/gdvar/gdvar/enet/godotcompress"
	"github.com/gdvar/gdvar/internal/enginetest"
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

func listenENet3(mode godotcompress.Mode) func(context.Context) (Listener, error) {
	return func(ctx context.Context) (Listener, error) {
		return ListenENet(ctx, "127.0.0.1:0", ENetOptions{Godot: variant.Godot3, Compression: mode})
	}
}

// A real Godot 3.2.3 client joins the Go host with NetworkedMultiplayerENet
// (Zstandard compression), is admitted with the id it chose, calls RPCs
// into Go handlers and receives the host's RPC and bytes.
func TestGodot3ENetClient(t *testing.T) {
	enginetest.Godot3(t)
	t.Parallel()
	testGodot3Client(t, listenENet3(godotcompress.Zstd), "", "enet", strconv.Itoa(int(godotcompress.Zstd)))
}

// Two Godot 3.2.3 clients talk through the Go host over ENet (FastLZ
// compression): the host's add-peer notices, then RPCs it relays.
func TestGodot3ENetRelay(t *testing.T) {
	enginetest.Godot3(t)
	t.Parallel()
	testGodot3Relay(t, listenENet3(godotcompress.FastLZ), "enet", strconv.Itoa(int(godotcompress.FastLZ)))
}

// The Go client joins a real Godot 3.2.3 host (NetworkedMultiplayerENet
// create_server) and exchanges RPCs and bytes.
func TestGodot3ENetHost(t *testing.T) {
	enginetest.Godot3(t)
	t.Parallel()
	c, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(c.LocalAddr().(*net.UDPAddr).Port)
	c.Close()
	testGodot3Host(t, port, func(ctx context.Context) (Link, error) {
		return DialENet(ctx, "127.0.0.1:"+port, ENetOptions{Godot: variant.Godot3})
	}, "", "enet", "0")
}
