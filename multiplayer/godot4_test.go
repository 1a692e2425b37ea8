package multiplayer

import (
	"context"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// lobbyNode declares testdata/lobby4.gd's RPCs on the Go side.
func lobbyNode(hello, blob, ping any) Node {
	return Node{Path: "Lobby", Methods: []Method{
		{Name: "hello", Mode: AnyPeer, Transfer: Reliable, Handler: hello},
		{Name: "blob", Mode: AnyPeer, Transfer: Reliable, Handler: blob},
		{Name: "ping", Mode: AnyPeer, Handler: ping},
		{Name: "only_host", Mode: Authority, Transfer: Reliable, Handler: func(context.Context, PeerID) {}},
		{Name: "welcome", Mode: Authority, Transfer: Reliable},
	}}
}

// helloArgs receives hello's 16 arguments.
type helloArgs struct {
	name  string
	i8    int8
	i64   int64
	f     float64
	b     bool
	v2    variant.Vector2
	v3    variant.Vector3
	arr   []any
	dict  map[any]any
	pba   []byte
	nilv  any
	color variant.Color
	sn    string
	psa   []string
	i16v  int16
	i32v  int32
}

// capture records the packets a host receives, in hex, for the golden
// files under testdata/capture.
type capture struct {
	mu     sync.Mutex
	lines  []string
	golden []string
	from   []PeerID
	only   PeerID // when set, write keeps the packets of this peer only
}

func (c *capture) observe(e *Event) {
	c.mu.Lock()
	defer c.mu.Unlock()
	line := e.Packet.Command.String()
	if e.Node != "" {
		line += " " + e.Node
	}
	if e.Method != "" {
		line += "." + e.Method
	}
	if e.Err != nil {
		line += " refused"
	}
	c.lines = append(c.lines, line)
	c.golden = append(c.golden, hex.EncodeToString(e.Data)+"\t"+line)
	c.from = append(c.from, e.From)
}

// summary lists the packets seen so far.
func (c *capture) summary() string {
	c.mu.Lock()
	defer c.mu.Unlock()
	return strings.Join(c.lines, " | ")
}

// write saves the captured packets as a golden file when GDVAR_CAPTURE is
// set: GDVAR_CAPTURE=1 go test -run TestGodot4Client ./multiplayer
func (c *capture) write(t *testing.T, name, header string) {
	if os.Getenv("GDVAR_CAPTURE") == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	var keep []string
	for i, g := range c.golden {
		if c.only == 0 || c.from[i] == c.only {
			keep = append(keep, g)
		}
	}
	body := header + strings.Join(keep, "\n") + "\n"
	if err := os.WriteFile(filepath.Join("testdata", "capture", name), []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
}

// A real Godot 4.6 client joins the Go host with WebSocketMultiplayerPeer,
// is assigned an id, authenticates (its auth_callback against the host's
// AuthFunc), calls RPCs with arguments of many types into Go
// handlers (the raw PackedByteArray and no-argument forms too), is refused
// an authority RPC, receives an RPC from Go, and exchanges RAW packets.
func TestGodot4Client(t *testing.T) {
	godot4web.Skip(t)
	t.Parallel() // the two engine runs share the wait
	var (
		mu       sync.Mutex
		got      helloArgs
		gotHello = make(chan PeerID, 1)
		gotBlob  []byte
		pings    int
		refused  []error
		rawIn    []byte
	)
	var h *Host
	hello := func(ctx context.Context, from PeerID, name string, i8 int8, i16 int16, i32 int32, i64 int64,
		f float64, b bool, v2 variant.Vector2, v3 variant.Vector3, arr []any, dict map[any]any, pba []byte,
		nilv any, color variant.Color, sn string, psa []string) error {
		mu.Lock()
		got = helloArgs{name: name, i8: i8, i16v: i16, i32v: i32, i64: i64, f: f, b: b, v2: v2, v3: v3, arr: arr, dict: dict, pba: pba, nilv: nilv, color: color, sn: sn, psa: psa}
		mu.Unlock()
		gotHello <- from
		return nil
	}
	blob := func(ctx context.Context, from PeerID, data []byte) {
		mu.Lock()
		gotBlob = data
		mu.Unlock()
	}
	ping := func(ctx context.Context, from PeerID) {
		mu.Lock()
		pings++
		mu.Unlock()
	}
	var cap capture
	h, err := NewHost(HostOptions{
		Auth: func(_ context.Context, a *Auth, data []byte) error {
			if string(data) != "secret" {
				return fmt.Errorf("wrong secret %q", data)
			}
			if err := a.Send([]byte("welcome")); err != nil {
				return err
			}
			return a.Complete()
		},
		Observe: func(e *Event) {
			cap.observe(e)
			if e.Err != nil {
				mu.Lock()
				refused = append(refused, e.Err)
				mu.Unlock()
			}
		},
		OnBytes: func(from PeerID, data []byte) {
			mu.Lock()
			rawIn = append([]byte(nil), data...)
			mu.Unlock()
			h.SendBytes(from, []byte{3, 2, 1}, Reliable, 0)
		},
	}, lobbyNode(hello, blob, ping))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Peer: peer.Options{WebSocket: peer.WebSocketOptions{Origins: []string{"127.0.0.1:*"}}}})
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(ctx, l)
	go func() {
		select {
		case from := <-gotHello:
			if err := h.Call(from, "Lobby", "welcome", int(from), "hi from Go", variant.Vector2{X: 3, Y: 4}, map[string]any{"players": []int{int(from)}}); err != nil {
				t.Errorf("Call: %v", err)
			}
		case <-ctx.Done():
		}
	}()
	r := godot4web.Run(t, godot4web.Job{
		Script:  "testdata/client4.gd",
		With:    []string{"testdata/lobby4.gd"},
		Args:    []string{portOf(t, l)},
		Timeout: time.Minute,
	})
	t.Logf("engine output:\n%s", r.Stdout)
	if r.Code != 0 || !strings.Contains(r.Stdout, "DONE") {
		t.Fatalf("the client failed (code %d):\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	mu.Lock()
	defer mu.Unlock()
	want := helloArgs{name: "Ada", i8: -5, i16v: 1000, i32v: -100000, i64: 1 << 40, f: 2.5, b: true}
	if got.name != want.name || got.i8 != want.i8 || got.i16v != want.i16v || got.i32v != want.i32v || got.i64 != want.i64 || got.f != want.f || !got.b {
		t.Errorf("hello scalars = %+v", got)
	}
	if got.v2 != (variant.Vector2{X: 1.5, Y: -2}) || got.v3 != (variant.Vector3{X: 1, Y: 2, Z: 3}) {
		t.Errorf("hello vectors = %v %v", got.v2, got.v3)
	}
	if len(got.arr) != 3 || got.dict["k"] != "v" || hex.EncodeToString(got.pba) != "090807" || got.nilv != nil || got.sn != "sn" || strings.Join(got.psa, ",") != "x,y" {
		t.Errorf("hello containers = %#v %#v %x %#v %q %q", got.arr, got.dict, got.pba, got.nilv, got.sn, got.psa)
	}
	if got.color != (variant.Color{R: 1, G: 0.5, B: 0.25, A: 1}) {
		t.Errorf("color = %v", got.color)
	}
	if strings.Contains(r.Stderr, "checksum failed") {
		t.Errorf("the engine refused the host's RPC checksum:\n%s", r.Stderr)
	}
	if hex.EncodeToString(gotBlob) != "01020304" || pings != 2 || hex.EncodeToString(rawIn) != "0a141e" {
		t.Errorf("blob %x, pings %d, raw %x", gotBlob, pings, rawIn)
	}
	if len(refused) != 1 || !errors.Is(refused[0], ErrNotAllowed) {
		t.Errorf("refused = %v, want only_host refused", refused)
	}
	if !strings.Contains(r.Stdout, "OK auth from 1 welcome") {
		t.Errorf("the client did not get the host's authentication answer")
	}
	if !strings.Contains(r.Stdout, "OK bytes from 1 [3, 2, 1]") || !strings.Contains(r.Stdout, `"hi from Go", Vector2(3, 4)`) {
		t.Errorf("client output lacks the host's RPC or bytes")
	}
	t.Logf("packets: %s", cap.summary())
	cap.write(t, "godot4.6-client.txt", "# Packets a Godot 4.6 client (testdata/client4.gd, web build) sent to the host,\n"+
		"# captured by: GDVAR_CAPTURE=1 go test -run TestGodot4Client ./multiplayer\n"+
		"# hex<TAB>what the host made of it\n")
}

func portOf(t testing.TB, l Listener) string {
	a := l.Addr().String()
	i := strings.LastIndexByte(a, ':')
	if _, err := strconv.Atoi(a[i+1:]); err != nil {
		t.Fatal(a)
	}
	return a[i+1:]
}

// Two real Godot 4.6 clients and a Go client talk through the Go host's
// relay: the engines learn of the others from ADD_PEER, call them through
// SYS RELAY, and receive their calls relayed back with the right source.
func TestGodot4Relay(t *testing.T) {
	godot4web.Skip(t)
	t.Parallel()
	var cap capture
	h, err := NewHost(HostOptions{Observe: cap.observe})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Peer: peer.Options{WebSocket: peer.WebSocketOptions{Origins: []string{"127.0.0.1:*"}}}})
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(ctx, l)
	var mu sync.Mutex
	heard := map[PeerID]string{}
	var c *Client
	ready := make(chan struct{})
	link, err := DialWebSocket(ctx, "ws://"+l.Addr().String(), WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err = Join(ctx, link, ClientOptions{}, Node{Path: "Relay", Methods: []Method{{Name: "chat", Mode: AnyPeer, Transfer: Reliable,
		Handler: func(_ context.Context, from PeerID, text string) error {
			<-ready
			mu.Lock()
			heard[from] = text
			mu.Unlock()
			return c.Call(from, "Relay", "chat", "hi from Go")
		}}}})
	if err != nil {
		t.Fatal(err)
	}
	close(ready)
	defer c.Close()
	// The first engine's packets are the ones kept in the capture.
	go func() {
		for len(h.Peers()) < 2 {
			select {
			case <-ctx.Done():
				return
			case <-time.After(20 * time.Millisecond):
			}
		}
		cap.mu.Lock()
		for _, id := range h.Peers() {
			if id != c.ID() && cap.only == 0 {
				cap.only = id
			}
		}
		cap.mu.Unlock()
	}()
	results := make([]godot4web.Result, 2)
	var wg sync.WaitGroup
	for i := range results {
		wg.Add(1)
		go func() {
			defer wg.Done()
			results[i] = godot4web.Run(t, godot4web.Job{Script: "testdata/relay4.gd", Args: []string{portOf(t, l), "2"}, Timeout: time.Minute})
		}()
	}
	wg.Wait()
	t.Logf("packets: %s", cap.summary())
	var godotIDs []string
	for i, r := range results {
		t.Logf("engine %d output:\n%s", i, r.Stdout)
		if r.Code != 0 {
			t.Errorf("engine %d failed (%d):\n%s", i, r.Code, r.Stderr)
		}
		if !strings.Contains(r.Stdout, fmt.Sprintf("OK said %d hi from Go", c.ID())) {
			t.Errorf("engine %d did not hear the Go client as %d", i, c.ID())
		}
		if strings.Count(r.Stdout, "hi from Godot") != 1 {
			t.Errorf("engine %d did not hear the other engine once", i)
		}
		for _, line := range strings.Split(r.Stdout, "\n") {
			if f := strings.Fields(line); len(f) == 7 && f[3] == "hi" && f[5] == "Godot" {
				godotIDs = append(godotIDs, f[2]+"="+f[6]) // the sender id as received = as it says
			}
		}
	}
	for _, pair := range godotIDs {
		if a, b, _ := strings.Cut(pair, "="); a != b {
			t.Errorf("an engine heard %s, which says it is %s", a, b)
		}
	}
	mu.Lock()
	if len(heard) != 2 {
		t.Errorf("the Go client heard %v", heard)
	}
	mu.Unlock()
	cap.write(t, "godot4.6-relay.txt", "# Packets a Godot 4.6 client (testdata/relay4.gd, web build) sent to the host\n"+
		"# for the other clients, captured by: GDVAR_CAPTURE=1 go test -run TestGodot4Relay ./multiplayer\n"+
		"# hex<TAB>what the host made of the relayed packet\n")
}
