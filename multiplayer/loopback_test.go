package multiplayer

import (
	"context"
	"errors"
	"fmt"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// chatNode is a node both Go sides declare in the loopback tests.
type chatLog struct {
	mu   sync.Mutex
	got  []string
	cond chan struct{}
}

func newChatLog() *chatLog { return &chatLog{cond: make(chan struct{}, 64)} }

func (l *chatLog) add(s string) {
	l.mu.Lock()
	l.got = append(l.got, s)
	l.mu.Unlock()
	l.cond <- struct{}{}
}

// wait waits until want is logged.
func (l *chatLog) wait(t *testing.T, want string) {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		l.mu.Lock()
		for _, g := range l.got {
			if g == want {
				l.mu.Unlock()
				return
			}
		}
		got := fmt.Sprint(l.got)
		l.mu.Unlock()
		select {
		case <-l.cond:
		case <-deadline:
			t.Fatalf("waited for %q; have %s", want, got)
		}
	}
}

func chatNode(l *chatLog) Node {
	return Node{Path: "Chat", Methods: []Method{
		{Name: "say", Mode: AnyPeer, Transfer: Reliable, Handler: func(_ context.Context, from PeerID, text string, n int) {
			l.add(fmt.Sprintf("say %d %s %d", from, text, n))
		}},
		{Name: "announce", Mode: Authority, Transfer: Reliable, Handler: func(_ context.Context, from PeerID, text string) {
			l.add(fmt.Sprintf("announce %d %s", from, text))
		}},
	}}
}

func startHost(t *testing.T, o HostOptions, nodes ...Node) (*Host, string) {
	t.Helper()
	return startHostWSOptions(t, o, WebSocketOptions{}, nodes...)
}

// startHostWSOptions starts a host on a loopback WebSocket listener with
// wo (its Godot family that of o).
func startHostWSOptions(t *testing.T, o HostOptions, wo WebSocketOptions, nodes ...Node) (*Host, string) {
	t.Helper()
	h, err := NewHost(o, nodes...)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	wo.Godot = o.Godot
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", wo)
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(ctx, l)
	t.Cleanup(func() {
		cancel()
		h.Close()
	})
	return h, "ws://" + l.Addr().String()
}

func join(t *testing.T, url string, o ClientOptions, nodes ...Node) *Client {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	link, err := DialWebSocket(ctx, url, WebSocketOptions{Godot: o.Godot})
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

// Two Go clients and a Go host, for both engine families: calls to the
// host, from the host, between clients through the relay, raw bytes, and
// peer notifications.
func TestLoopback(t *testing.T) {
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		t.Run(fam.String(), func(t *testing.T) {
			var url string
			testLoopback(t, fam, func(o HostOptions, nodes ...Node) *Host {
				var h *Host
				h, url = startHost(t, o, nodes...)
				return h
			}, func(o ClientOptions, nodes ...Node) *Client {
				return join(t, url, o, nodes...)
			})
		})
	}
}

// testLoopback is TestLoopback's exchange over a transport: start starts
// the host, join joins it.
func testLoopback(t *testing.T, fam variant.Family, start func(HostOptions, ...Node) *Host, join func(ClientOptions, ...Node) *Client) {
	hostLog, aLog, bLog := newChatLog(), newChatLog(), newChatLog()
	h := start(HostOptions{Godot: fam, OnBytes: func(from PeerID, data []byte) {
		hostLog.add(fmt.Sprintf("bytes %d %x", from, data))
	}}, chatNode(hostLog))
	a := join(ClientOptions{Godot: fam, OnBytes: func(from PeerID, data []byte) {
		aLog.add(fmt.Sprintf("bytes %d %x", from, data))
	}}, chatNode(aLog))
	b := join(ClientOptions{Godot: fam, OnPeer: func(id PeerID, joined bool) {
		bLog.add(fmt.Sprintf("peer %d %v", id, joined))
	}}, chatNode(bLog))
	if err := a.Call(HostID, "Chat", "say", "hello host", 7); err != nil {
		t.Fatal(err)
	}
	hostLog.wait(t, fmt.Sprintf("say %d hello host %d", a.ID(), 7))
	if err := a.Call(HostID, "Chat", "say", "again", 1<<40); err != nil {
		t.Fatal(err)
	}
	hostLog.wait(t, fmt.Sprintf("say %d again %d", a.ID(), 1<<40))
	// Host → every client, once the host has admitted both (over ENet a
	// client is connected before the host has taken its link).
	for deadline := time.Now().Add(5 * time.Second); len(h.Peers()) < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if err := h.Call(Broadcast, "Chat", "announce", "welcome"); err != nil {
		t.Fatal(err)
	}
	aLog.wait(t, "announce 1 welcome")
	bLog.wait(t, "announce 1 welcome")
	// Client → client through the relay.
	for b.ID() != 0 && len(a.Peers()) < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	if err := a.Call(b.ID(), "Chat", "say", "hi b", 2); err != nil {
		t.Fatal(err)
	}
	bLog.wait(t, fmt.Sprintf("say %d hi b %d", a.ID(), 2))
	// An authority RPC from a client is refused by the other client.
	if err := a.Call(b.ID(), "Chat", "announce", "forged"); err != nil {
		t.Fatal(err)
	}
	if err := a.Call(b.ID(), "Chat", "say", "after", 3); err != nil {
		t.Fatal(err)
	}
	bLog.wait(t, fmt.Sprintf("say %d after %d", a.ID(), 3))
	bLog.mu.Lock()
	for _, g := range bLog.got {
		if g == fmt.Sprintf("announce %d forged", a.ID()) {
			t.Error("a client ran an authority RPC sent by another client")
		}
	}
	bLog.mu.Unlock()
	// Raw bytes: broadcast from b reaches the host and a.
	if err := b.SendBytes(Broadcast, []byte{1, 2}, Reliable, 0); err != nil {
		t.Fatal(err)
	}
	hostLog.wait(t, fmt.Sprintf("bytes %d 0102", b.ID()))
	aLog.wait(t, fmt.Sprintf("bytes %d 0102", b.ID()))
	if err := h.SendBytes(a.ID(), []byte{9}, Reliable, 0); err != nil {
		t.Fatal(err)
	}
	aLog.wait(t, "bytes 1 09")
	// a leaves: b is told.
	aID := a.ID()
	a.Close()
	bLog.wait(t, fmt.Sprintf("peer %d false", aID))
}

// Godot 4 authentication: a client that authenticates is admitted; one
// that does not is dropped after the timeout; nothing else is accepted
// from a pending peer.
func TestAuth(t *testing.T) {
	hostLog := newChatLog()
	_, url := startHost(t, HostOptions{
		AuthTimeout: 300 * time.Millisecond,
		Auth: func(_ context.Context, a *Auth, data []byte) error {
			if string(data) != "secret" {
				return errors.New("wrong password")
			}
			if err := a.Send([]byte("ok")); err != nil {
				return err
			}
			return a.Complete()
		},
	}, chatNode(hostLog))
	var reply []byte
	c := join(t, url, ClientOptions{Auth: func(_ context.Context, a *Auth, data []byte) error {
		if data == nil {
			return a.Send([]byte("secret"))
		}
		reply = data
		return a.Complete()
	}}, chatNode(newChatLog()))
	if string(reply) != "ok" {
		t.Errorf("host's auth reply %q", reply)
	}
	if err := c.Call(HostID, "Chat", "say", "in", 1); err != nil {
		t.Fatal(err)
	}
	hostLog.wait(t, fmt.Sprintf("say %d in 1", c.ID()))

	// A client without credentials: its calls are refused, then it is
	// dropped when the timeout expires.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	link, err := DialWebSocket(ctx, url, WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	f, err := link.ReadFrame()
	if err != nil || len(f.Data) != 4 {
		t.Fatalf("no id: %v", err)
	}
	raw := AppendCall(nil, variant.Godot4, Call{Path: "Chat", Method: 1, ArgCount: 2, Args: []byte{4, 0, 0, 0, 1, 0, 0, 0, 'x', 0, 0, 0, 2, 1}})
	if err := link.WriteFrame(Frame{Data: raw}); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	for {
		if _, err := link.ReadFrame(); err != nil {
			break
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("the unauthenticated client stayed %v", d)
	}
	hostLog.mu.Lock()
	defer hostLog.mu.Unlock()
	for _, g := range hostLog.got {
		if g != fmt.Sprintf("say %d in 1", c.ID()) {
			t.Errorf("the host ran %q", g)
		}
	}
}

// Host.Handler serves clients from an existing HTTP server.
func TestHandler(t *testing.T) {
	log := newChatLog()
	h, err := NewHost(HostOptions{Logger: quiet}, chatNode(log))
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	srv := httptest.NewServer(h.Handler(WebSocketOptions{}))
	defer srv.Close()
	c := join(t, "ws"+strings.TrimPrefix(srv.URL, "http")+"/game", ClientOptions{Logger: quiet}, chatNode(newChatLog()))
	if err := c.Call(HostID, "Chat", "say", "via http", 5); err != nil {
		t.Fatal(err)
	}
	log.wait(t, fmt.Sprintf("say %d via http 5", c.ID()))
}

// An earlier Godot 4 client confirms a path by name rather than by cache
// id: the host accepts both.
func TestConfirmPathByName(t *testing.T) {
	var ev eventLog
	h, url := startHost(t, HostOptions{Logger: quiet, Observe: ev.observe}, chatNode(newChatLog()))
	link, id := rawClient(t, url, variant.Godot4)
	if err := h.Call(id, "Chat", "say", "x", 1); err != nil {
		t.Fatal(err)
	}
	for range 2 { // SIMPLIFY_PATH, then the call with the path
		if _, err := link.ReadFrame(); err != nil {
			t.Fatal(err)
		}
	}
	link.WriteFrame(Frame{Data: append([]byte{2, 1}, "Chat\x00"...)})
	for i := 0; ; i++ {
		if err := h.Call(id, "Chat", "say", "y", 2); err != nil {
			t.Fatal(err)
		}
		f, err := link.ReadFrame()
		if err != nil {
			t.Fatal(err)
		}
		p, err := Parse(variant.Godot4, f.Data)
		if err == nil && p.Path == nil && p.NodeID == 1 {
			return // the host now sends the cache id
		}
		if i == 100 {
			t.Fatalf("the host never used the cache id: %x (refusals %v)", f.Data, ev.errs)
		}
		time.Sleep(10 * time.Millisecond)
	}
}
