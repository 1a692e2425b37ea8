package multiplayer

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// rawClient is a hand-driven connection to a host: it gets its id and then
// sends whatever the test says.
func rawClient(t *testing.T, url string, fam variant.Family) (Link, PeerID) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	// The client side may write more than the host accepts.
	link, err := DialWebSocket(ctx, url, WebSocketOptions{Godot: fam, MaxPacketSize: 4 * DefaultMaxPacketSize})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { link.Close() })
	f, err := link.ReadFrame()
	if err != nil {
		t.Fatal(err)
	}
	if fam == variant.Godot3 {
		return link, f.Peer
	}
	return link, PeerID(binary.LittleEndian.Uint32(f.Data))
}

// closedWithin reports whether the host closes link within d.
func closedWithin(link Link, d time.Duration) bool {
	done := make(chan struct{})
	go func() {
		for {
			if _, err := link.ReadFrame(); err != nil {
				close(done)
				return
			}
		}
	}()
	select {
	case <-done:
		return true
	case <-time.After(d):
		link.Close()
		return false
	}
}

type eventLog struct {
	mu   sync.Mutex
	errs []error
}

func (l *eventLog) observe(e *Event) {
	if e.Err != nil {
		l.mu.Lock()
		l.errs = append(l.errs, e.Err)
		l.mu.Unlock()
	}
}

// has waits up to 5 s for an error matching target.
func (l *eventLog) has(target error) bool {
	for end := time.Now().Add(5 * time.Second); time.Now().Before(end); time.Sleep(5 * time.Millisecond) {
		l.mu.Lock()
		for _, e := range l.errs {
			if errors.Is(e, target) {
				l.mu.Unlock()
				return true
			}
		}
		l.mu.Unlock()
	}
	return false
}

// A client sending garbage, forged system packets, relays to unknown peers
// and a path cache flood is refused and then dropped; a well-behaved client
// goes on undisturbed.
func TestHostileClients(t *testing.T) {
	var ev eventLog
	hostLog := newChatLog()
	h, url := startHost(t, HostOptions{MaxErrors: 8, MaxPathCache: 16, Logger: quiet, Observe: ev.observe}, chatNode(hostLog))
	good := join(t, url, ClientOptions{Logger: quiet}, chatNode(newChatLog()))
	check := func(what string) {
		t.Helper()
		if err := good.Call(HostID, "Chat", "say", what, 1); err != nil {
			t.Fatal(err)
		}
		hostLog.wait(t, fmt.Sprintf("say %d %s 1", good.ID(), what))
	}

	t.Run("garbage", func(t *testing.T) {
		bad, _ := rawClient(t, url, variant.Godot4)
		for _, p := range [][]byte{{}, {0x30}, {0x20, 0xff}, {7, 9}, {7, 1, 5, 0, 0, 0}, {7, 2, 5, 0, 0, 0}, {3}, {0, 1, 0, 3, 0x3f}, {0x20, 0, 0, 0}, {7, 0, 1}} {
			bad.WriteFrame(Frame{Data: p})
		}
		if !closedWithin(bad, 5*time.Second) {
			t.Error("the host kept a client that sent only garbage")
		}
		if !ev.has(ErrUnknownCommand) || !ev.has(ErrTruncated) || !ev.has(ErrNotAllowed) {
			t.Errorf("refusals: %v", ev.errs)
		}
		check("after garbage")
	})
	t.Run("relay", func(t *testing.T) {
		bad, _ := rawClient(t, url, variant.Godot4)
		// To a peer that does not exist, to itself, and a SYS inside a relay.
		bad.WriteFrame(Frame{Data: AppendSys(nil, SysRelay, 999, AppendRaw(nil, variant.Godot4, []byte{1}))})
		bad.WriteFrame(Frame{Data: AppendSys(nil, SysRelay, 0, AppendSys(nil, SysAddPeer, 5, nil))})
		if !ev.has(ErrUnknownPeer) {
			t.Errorf("a relay to an unknown peer was not reported: %v", ev.errs)
		}
		check("after relay")
	})
	t.Run("path flood", func(t *testing.T) {
		bad, _ := rawClient(t, url, variant.Godot4)
		for i := range 100 {
			bad.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), uint32(i+1), fmt.Sprintf("N%d", i))})
		}
		if !closedWithin(bad, 5*time.Second) {
			t.Error("the host kept a client flooding its path cache")
		}
		check("after flood")
	})
	t.Run("slow reader", func(t *testing.T) {
		bad, id := rawClient(t, url, variant.Godot4)
		for range 2000 {
			if err := h.SendBytes(id, make([]byte, 32<<10), Reliable, 0); err != nil {
				break // dropped already
			}
		}
		waitGone := time.Now().Add(5 * time.Second)
		for slicesContains(h.Peers(), id) && time.Now().Before(waitGone) {
			time.Sleep(10 * time.Millisecond)
		}
		if slicesContains(h.Peers(), id) {
			t.Error("the host kept a client that reads nothing")
		}
		_ = bad
		check("after slow reader")
	})
	t.Run("too large", func(t *testing.T) {
		bad, _ := rawClient(t, url, variant.Godot4)
		bad.WriteFrame(Frame{Data: AppendRaw(nil, variant.Godot4, make([]byte, DefaultMaxPacketSize+1))})
		if !closedWithin(bad, 5*time.Second) {
			t.Error("the host kept a client that sent an oversized packet")
		}
		check("after too large")
	})
}

func slicesContains(ids []PeerID, id PeerID) bool {
	for _, x := range ids {
		if x == id {
			return true
		}
	}
	return false
}

// Godot 3: a message claiming another sender is refused.
func TestHostileGodot3(t *testing.T) {
	var ev eventLog
	hostLog := newChatLog()
	_, url := startHost(t, HostOptions{Godot: variant.Godot3, Logger: quiet, Observe: ev.observe}, chatNode(hostLog))
	good := join(t, url, ClientOptions{Godot: variant.Godot3, Logger: quiet}, chatNode(newChatLog()))
	bad, _ := rawClient(t, url, variant.Godot3)
	args, _, n, _ := AppendArgs(nil, defaultEnc3, variant.String("forged"), variant.Int(1))
	call := AppendCall(nil, variant.Godot3, Call{Path: "Chat", Name: "say", ArgCount: n, Args: args})
	bad.WriteFrame(Frame{From: good.ID(), To: HostID, Data: call})
	if err := good.Call(HostID, "Chat", "say", "real", 1); err != nil {
		t.Fatal(err)
	}
	hostLog.wait(t, fmt.Sprintf("say %d real 1", good.ID()))
	if !ev.has(ErrNotAllowed) {
		t.Errorf("refusals: %v", ev.errs)
	}
	hostLog.mu.Lock()
	defer hostLog.mu.Unlock()
	for _, g := range hostLog.got {
		if g == fmt.Sprintf("say %d forged 1", good.ID()) {
			t.Error("a forged sender id was believed")
		}
	}
}

// One address cannot take more than MaxPeersPerIP places.
func TestPeersPerIP(t *testing.T) {
	_, url := startHost(t, HostOptions{MaxPeersPerIP: 3, Logger: quiet})
	for range 3 {
		rawClient(t, url, variant.Godot4)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	link, err := DialWebSocket(ctx, url, WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	if f, err := link.ReadFrame(); err == nil {
		t.Errorf("a fourth client from the same address got %x", f.Data)
	}
}

// Replication packets a client sends the host (SYNC from a client with
// authority over a synchronizer) and calls the host refuses (nodes it does
// not declare, authority RPCs) are dropped without counting against it.
func TestReplicationIgnored(t *testing.T) {
	hostLog := newChatLog()
	_, url := startHost(t, HostOptions{MaxErrors: 2, Logger: quiet}, chatNode(hostLog))
	c := join(t, url, ClientOptions{Logger: quiet}, chatNode(newChatLog()))
	link, _ := rawClient(t, url, variant.Godot4)
	for range 20 {
		link.WriteFrame(Frame{Data: []byte{6, 1, 0, 1, 0, 0, 0, 4, 0, 0, 0, 1, 0, 0, 0}})
		// rpc() on a node the host does not declare, and an authority RPC.
		link.WriteFrame(Frame{Data: AppendCall(nil, variant.Godot4, Call{Path: "World/Enemy", Method: 0, Raw: true})})
		link.WriteFrame(Frame{Data: AppendCall(nil, variant.Godot4, Call{Path: "Chat", Method: 0, ArgCount: 1, Args: []byte{4, 0, 0, 0, 1, 0, 0, 0, 'x', 0, 0, 0}})})
	}
	if closedWithin(link, 300*time.Millisecond) {
		t.Error("the host dropped a client for its SYNC packets or refused calls")
	}
	if err := c.Call(HostID, "Chat", "say", "still here", 1); err != nil {
		t.Fatal(err)
	}
	hostLog.wait(t, fmt.Sprintf("say %d still here 1", c.ID()))
}
