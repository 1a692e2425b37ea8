package multiplayer

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/variant"
)

// lobby3Node declares testdata/lobby3.gd's RPCs on the Go side.
func lobby3Node(hello, blob, ping any) Node {
	return Node{Path: "Lobby", Methods: []Method{
		{Name: "hello", Mode: AnyPeer, Transfer: Reliable, Handler: hello},
		{Name: "blob", Mode: AnyPeer, Transfer: Reliable, Handler: blob},
		{Name: "ping", Mode: AnyPeer, Transfer: Reliable, Handler: ping},
		{Name: "only_host", Mode: Authority, Transfer: Reliable, Handler: func(context.Context, PeerID) {}},
		{Name: "welcome", Mode: Authority, Transfer: Reliable},
	}}
}

// A real Godot 3.2.3 client joins the Go host with WebSocketClient as its
// network_peer, calls RPCs with arguments of many types into Go handlers,
// is refused a puppet RPC, receives an RPC from Go and exchanges RAW
// packets.
func TestGodot3Client(t *testing.T) {
	enginetest.Godot3(t)
	testGodot3Client(t, func(ctx context.Context) (Listener, error) {
		return ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Godot: variant.Godot3})
	}, "godot3.2.3-client.txt")
}

// testGodot3Client is TestGodot3Client over the listener listen makes;
// the engine's client gets the extra arguments (its transport). The
// packets are written to captureFile, when set and asked for.
func testGodot3Client(t *testing.T, listen func(context.Context) (Listener, error), captureFile string, extra ...string) {
	var (
		mu      sync.Mutex
		args    []any
		from    = make(chan PeerID, 1)
		blobGot []byte
		pings   int
		refused []error
		rawIn   []byte
	)
	hello := func(ctx context.Context, id PeerID, name string, i8 int8, i16 int16, i32 int32, i64 int64,
		f float64, b bool, v2 variant.Vector2, v3 variant.Vector3, arr []any, dict map[any]any, pba []byte,
		nilv any, color variant.Color, psa []string) {
		mu.Lock()
		args = []any{name, i8, i16, i32, i64, f, b, v2, v3, arr, dict, pba, nilv, color, psa}
		mu.Unlock()
		from <- id
	}
	var h *Host
	var cap capture
	h, err := NewHost(HostOptions{
		Godot: variant.Godot3,
		Observe: func(e *Event) {
			cap.observe(e)
			if e.Err != nil {
				mu.Lock()
				refused = append(refused, e.Err)
				mu.Unlock()
			}
		},
		OnBytes: func(id PeerID, data []byte) {
			mu.Lock()
			rawIn = append([]byte(nil), data...)
			mu.Unlock()
			h.SendBytes(id, []byte{3, 2, 1}, Reliable, 0)
		},
	}, lobby3Node(hello, func(_ context.Context, _ PeerID, b []byte) {
		mu.Lock()
		blobGot = b
		mu.Unlock()
	}, func(context.Context, PeerID) {
		mu.Lock()
		pings++
		mu.Unlock()
	}))
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
	go func() {
		select {
		case id := <-from:
			if err := h.Call(id, "Lobby", "welcome", int(id), "hi from Go", variant.Vector2{X: 3, Y: 4}, map[string]any{"players": []int{int(id)}}); err != nil {
				t.Errorf("Call: %v", err)
			}
		case <-ctx.Done():
		}
	}()
	out := enginetest.RunGodot3(t, "testdata/client3.gd", append([]string{portOf(t, l)}, extra...)...)
	t.Logf("engine output:\n%s", out)
	t.Logf("packets: %s", cap.summary())
	if !strings.Contains(out, "DONE") {
		t.Fatal("the client did not finish")
	}
	mu.Lock()
	defer mu.Unlock()
	want := []any{"Ada", int8(-5), int16(1000), int32(-100000), int64(1 << 40), 2.5, true, variant.Vector2{X: 1.5, Y: -2}, variant.Vector3{X: 1, Y: 2, Z: 3}}
	for i, w := range want {
		if i >= len(args) || args[i] != w {
			t.Errorf("hello argument %d = %#v, want %#v", i, args[i], w)
		}
	}
	if len(args) == 15 && (hex.EncodeToString(args[11].([]byte)) != "090807" || args[12] != nil || args[13] != (variant.Color{R: 1, G: 0.5, B: 0.25, A: 1})) {
		t.Errorf("hello arguments = %#v", args)
	}
	if hex.EncodeToString(blobGot) != "01020304" || pings != 2 || hex.EncodeToString(rawIn) != "0a141e" {
		t.Errorf("blob %x, pings %d, raw %x", blobGot, pings, rawIn)
	}
	if len(refused) != 1 || !errors.Is(refused[0], ErrNotAllowed) {
		t.Errorf("refused = %v, want only_host refused", refused)
	}
	if !strings.Contains(out, "OK bytes from 1 [3, 2, 1]") || !strings.Contains(out, `"hi from Go", Vector2( 3, 4 )`) {
		t.Errorf("client output lacks the host's RPC or bytes")
	}
	// The host knows the client by the id the client knows itself by.
	var id int
	if i := strings.Index(out, "OK connected id="); i < 0 {
		t.Errorf("client did not print its id")
	} else if _, err := fmt.Sscanf(out[i:], "OK connected id=%d", &id); err != nil || !strings.Contains(out, fmt.Sprintf("OK welcome [ %d, ", id)) {
		t.Errorf("the host called the client by another id than its own (%d)", id)
	}
	if captureFile == "" {
		return
	}
	cap.write(t, captureFile, "# Packets a Godot 3.2.3 client (testdata/client3.gd) sent to the host,\n"+
		"# captured by: GDVAR_CAPTURE=1 go test -run TestGodot3Client ./multiplayer\n"+
		"# hex<TAB>what the host made of it\n")
}

// The Go client joins a real Godot 3.2.3 host (WebSocketServer as its
// network_peer), calls an RPC with arguments of many types, receives the
// host's RPC and raw bytes, and answers with raw bytes.
func TestGodot3Host(t *testing.T) {
	enginetest.Godot3(t)
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	l.Close()
	testGodot3Host(t, port, func(ctx context.Context) (Link, error) {
		return DialWebSocket(ctx, "ws://127.0.0.1:"+port, WebSocketOptions{Godot: variant.Godot3})
	}, "godot3.2.3-host.txt")
}

// testGodot3Host is TestGodot3Host with the engine's host on port, joined
// with the link dial makes; the engine gets the extra arguments.
func testGodot3Host(t *testing.T, port string, dial func(context.Context) (Link, error), captureFile string, extra ...string) {
	p := enginetest.StartGodot3(t, "testdata/host3.gd", append([]string{port}, extra...)...)
	p.WaitLine("LISTENING", 30*time.Second)

	welcome := make(chan []any, 1)
	gotBytes := make(chan []byte, 1)
	var cap capture
	node := lobby3Node(nil, nil, nil)
	for i := range node.Methods {
		if node.Methods[i].Name == "welcome" {
			node.Methods[i].Handler = func(_ context.Context, from PeerID, id int64, msg string, pos variant.Vector2, data map[string]int) {
				welcome <- []any{from, id, msg, pos, data["n"]}
			}
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	link, err := dial(ctx)
	if err != nil {
		t.Fatal(err)
	}
	c, err := Join(ctx, link, ClientOptions{
		Godot:   variant.Godot3,
		Observe: cap.observe,
		OnBytes: func(from PeerID, data []byte) { gotBytes <- append([]byte(nil), data...) },
	}, node)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if c.ID() < 2 {
		t.Errorf("id %d", c.ID())
	}
	err = c.Call(HostID, "Lobby", "hello", "Ada", -5, 1000, -100000, int64(1)<<40, 2.5, true,
		variant.Vector2{X: 1.5, Y: -2}, variant.Vector3{X: 1, Y: 2, Z: 3}, []any{1, "two", 3.0}, map[string]any{"k": "v"},
		[]byte{9, 8, 7}, nil, variant.Color{R: 1, G: 0.5, B: 0.25, A: 1}, []string{"x", "y"})
	if err != nil {
		t.Fatal(err)
	}
	select {
	case w := <-welcome:
		if w[0] != HostID || w[1] != int64(c.ID()) || w[2] != "hi from Godot" || w[3] != (variant.Vector2{X: 3, Y: 4}) || w[4] != 15 {
			t.Errorf("welcome %v", w)
		}
	case <-ctx.Done():
		t.Fatal("no welcome from the Godot host")
	}
	select {
	case b := <-gotBytes:
		if string(b) != "\x07\x07" {
			t.Errorf("bytes %x", b)
		}
	case <-ctx.Done():
		t.Fatal("no bytes from the Godot host")
	}
	if err := c.SendBytes(HostID, []byte{5, 6}, Reliable, 0); err != nil {
		t.Fatal(err)
	}
	out := p.Wait()
	t.Logf("engine output:\n%s", out)
	if !strings.Contains(out, `OK hello from `+strconv.Itoa(int(c.ID()))+` [ "Ada", -5, 1000, -100000, 1099511627776, 2.5, true, Vector2( 1.5, -2 ), Vector3( 1, 2, 3 ), [ 1, "two", 3.0 ]`) ||
		!strings.Contains(out, "OK bytes from "+strconv.Itoa(int(c.ID()))+" [5, 6]") {
		t.Errorf("the host did not see the call or the bytes as sent")
	}
	if captureFile == "" {
		return
	}
	cap.write(t, captureFile, "# Packets a Godot 3.2.3 host (testdata/host3.gd) sent to a Go client,\n"+
		"# captured by: GDVAR_CAPTURE=1 go test -run TestGodot3Host ./multiplayer\n"+
		"# hex<TAB>what the client made of it\n")
}

// Two Godot 3.2.3 clients talk through the Go host: each learns of the
// other from the host's SYS_ADD and calls it, the host relaying.
func TestGodot3Relay(t *testing.T) {
	enginetest.Godot3(t)
	testGodot3Relay(t, func(ctx context.Context) (Listener, error) {
		return ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Godot: variant.Godot3})
	})
}

// testGodot3Relay is TestGodot3Relay over the listener listen makes; the
// engine's clients get the extra arguments.
func testGodot3Relay(t *testing.T, listen func(context.Context) (Listener, error), extra ...string) {
	var cap capture
	h, err := NewHost(HostOptions{Godot: variant.Godot3, Observe: cap.observe})
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
	a := enginetest.StartGodot3(t, "testdata/relay3.gd", append([]string{portOf(t, l), "ann"}, extra...)...)
	b := enginetest.StartGodot3(t, "testdata/relay3.gd", append([]string{portOf(t, l), "bob"}, extra...)...)
	outA, outB := a.Wait(), b.Wait()
	t.Logf("packets: %s", cap.summary())
	if !strings.Contains(outA, "hi from bob") || !strings.Contains(outB, "hi from ann") {
		t.Errorf("ann:\n%s\nbob:\n%s", outA, outB)
	}
}
