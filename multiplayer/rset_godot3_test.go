package multiplayer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/enet/godotcompress"
	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/variant"
)

// Two real Godot 3.2.3 clients (testdata/rset3.gd) rset properties of
// /root/Game on the Go host, which checks each against its rset mode
// (remote and master accepted, puppet refused: the host is the master),
// rset each other through the host's relay, and receive the host's
// rset_id and rset_unreliable_id of a puppet and a remote property. Over
// WebSocket.
func TestGodot3Set(t *testing.T) {
	enginetest.Godot3(t)
	t.Parallel()
	cap := testGodot3Set(t, func(ctx context.Context) (Listener, error) {
		return ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Godot: variant.Godot3})
	})
	cap.write(t, "godot3.2.3-rset.txt", "# Packets two Godot 3.2.3 clients (testdata/rset3.gd) sent to the host or\n"+
		"# through its relay, captured by: GDVAR_CAPTURE=1 go test -run TestGodot3Set ./multiplayer\n"+
		"# hex<TAB>what the host made of it\n")
}

// TestGodot3Set over ENet (Zstandard compression).
func TestGodot3ENetSet(t *testing.T) {
	enginetest.Godot3(t)
	t.Parallel()
	testGodot3Set(t, listenENet3(godotcompress.Zstd), "enet", "4")
}

// testGodot3Set runs the exchange over the listener listen makes (the
// engine's clients get the extra arguments) and returns the packets the
// host saw.
func testGodot3Set(t *testing.T, listen func(context.Context) (Listener, error), extra ...string) *capture {
	var (
		mu      sync.Mutex
		got     []string
		refused []error
		h       *Host
	)
	record := func(s string) {
		mu.Lock()
		got = append(got, s)
		mu.Unlock()
	}
	node := Node{Path: "Game", Properties: []Property{
		{Name: "score", Mode: AnyPeer, Handler: func(_ context.Context, from PeerID, v int) {
			record(fmt.Sprintf("score %d", v))
		}},
		{Name: "nick", Mode: Master, Handler: func(_ context.Context, from PeerID, v string) {
			record("nick " + v)
			if err := h.Set(from, "Game", "pos", variant.Vector2{X: 5, Y: 6}); err != nil {
				t.Errorf("Set: %v", err)
			}
			if err := h.SetUnreliable(from, "Game", "hp", 77); err != nil {
				t.Errorf("SetUnreliable: %v", err)
			}
		}},
		{Name: "pos", Mode: Authority, Handler: func(context.Context, PeerID, variant.Vector2) {
			record("pos accepted")
		}},
		{Name: "hp", Mode: AnyPeer},
	}}
	cap := new(capture)
	var err error
	h, err = NewHost(HostOptions{Godot: variant.Godot3, Observe: func(e *Event) {
		cap.observe(e)
		if e.Err != nil {
			mu.Lock()
			refused = append(refused, e.Err)
			mu.Unlock()
		}
	}}, node)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	l, err := listen(ctx)
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(ctx, l)
	a := enginetest.StartGodot3(t, "testdata/rset3.gd", append([]string{portOf(t, l), "ann", "10"}, extra...)...)
	b := enginetest.StartGodot3(t, "testdata/rset3.gd", append([]string{portOf(t, l), "bob", "20"}, extra...)...)
	outA, outB := a.Wait(), b.Wait()
	t.Logf("packets: %s", cap.summary())
	for _, c := range []struct{ out, other string }{{outA, "20"}, {outB, "10"}} {
		if !strings.Contains(c.out, "DONE") || !strings.Contains(c.out, "OK pos (5, 6) from 1") ||
			!strings.Contains(c.out, "OK hp 77 from 1") || !strings.Contains(c.out, "OK score "+c.other+" from ") {
			t.Errorf("client:\n%s", c.out)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	all := strings.Join(got, "|")
	for _, w := range []string{"score 10", "score 20", "nick ann", "nick bob"} {
		if !strings.Contains(all, w) {
			t.Errorf("the host got %q, not %q", all, w)
		}
	}
	if strings.Contains(all, "pos accepted") {
		t.Error("the host accepted a puppet rset from a client")
	}
	n := 0
	for _, err := range refused {
		switch {
		case errors.Is(err, ErrNotAllowed):
			n++
		case errors.Is(err, ErrUnknownPeer):
			// A client's last rset relayed to the other, which has just
			// finished and left: refused as the engine's relay refuses it.
		default:
			t.Errorf("refused: %v", err)
		}
	}
	if n != 2 {
		t.Errorf("%d puppet rsets refused, want 2", n)
	}
	return cap
}

// A Go client joins a real Godot 3.2.3 host (testdata/rset3_host.gd),
// receives its rset_id of a puppet variable and rset_unreliable_id of a
// remote one, and rsets the host: a remote and a master variable (set),
// a puppet one (refused by the engine: the host is its master). Over
// WebSocket.
func TestGodot3HostSet(t *testing.T) {
	enginetest.Godot3(t)
	t.Parallel()
	port := freePort(t)
	testGodot3HostSet(t, port, func(ctx context.Context) (Link, error) {
		return DialWebSocket(ctx, "ws://127.0.0.1:"+port, WebSocketOptions{Godot: variant.Godot3})
	})
}

// TestGodot3HostSet over ENet (FastLZ compression).
func TestGodot3ENetHostSet(t *testing.T) {
	enginetest.Godot3(t)
	t.Parallel()
	port := freeUDPPort(t)
	testGodot3HostSet(t, port, func(ctx context.Context) (Link, error) {
		return DialENet(ctx, "127.0.0.1:"+port, ENetOptions{Godot: variant.Godot3, Compression: godotcompress.FastLZ})
	}, "enet", "2")
}

func freePort(t *testing.T) string {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
}

func freeUDPPort(t *testing.T) string {
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return strconv.Itoa(c.LocalAddr().(*net.UDPAddr).Port)
}

func testGodot3HostSet(t *testing.T, port string, dial func(context.Context) (Link, error), extra ...string) {
	p := enginetest.StartGodot3(t, "testdata/rset3_host.gd", append([]string{port}, extra...)...)
	p.WaitLine("LISTENING", 30*time.Second)
	got := make(chan string, 4)
	node := Node{Path: "Game", Properties: []Property{
		{Name: "pos", Mode: Authority, Handler: func(_ context.Context, from PeerID, v variant.Vector2) {
			got <- fmt.Sprintf("pos %d %v", from, v)
		}},
		{Name: "hp", Mode: AnyPeer, Handler: func(_ context.Context, from PeerID, v int) {
			got <- fmt.Sprintf("hp %d %d", from, v)
		}},
		{Name: "score", Mode: AnyPeer},
		{Name: "nick", Mode: Master},
	}}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	link, err := dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Join(ctx, link, ClientOptions{Godot: variant.Godot3}, node)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	seen := map[string]bool{}
	for len(seen) < 2 {
		select {
		case s := <-got:
			seen[s] = true
		case <-ctx.Done():
			t.Fatalf("the host's rsets: got %v", seen)
		}
	}
	if !seen["pos 1 Vector2(5, 6)"] || !seen["hp 1 77"] {
		t.Errorf("the host's rsets: %v", seen)
	}
	for _, s := range []struct {
		prop string
		v    any
	}{{"pos", variant.Vector2{X: 1, Y: 2}}, {"score", 10}, {"nick", "gopher"}} {
		if err := c.Set(HostID, "Game", s.prop, s.v); err != nil {
			t.Fatal(err)
		}
	}
	out := p.Wait()
	t.Logf("engine output:\n%s", out)
	id := strconv.Itoa(int(c.ID()))
	for _, want := range []string{"OK score 10 from " + id, "OK nick gopher from " + id, "OK pos still (0, 0)", "DONE"} {
		if !strings.Contains(out, want) {
			t.Errorf("the engine did not print %q", want)
		}
	}
}
