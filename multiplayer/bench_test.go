package multiplayer

import (
	"context"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// benchPacket is a REMOTE_CALL of nd's method "move" with args.
func benchPacket(b testing.TB, f variant.Family, nd *node, args ...variant.Value) []byte {
	enc := defaultEnc4
	if f == variant.Godot3 {
		enc = defaultEnc3
	}
	ab, raw, n, err := AppendArgs(nil, enc, args...)
	if err != nil {
		b.Fatal(err)
	}
	m := nd.method("move")
	return AppendCall(nil, f, Call{NodeID: nd.cacheID, Method: m.id, Name: m.Name, Raw: raw, ArgCount: n, Args: ab})
}

// BenchmarkParse: one REMOTE_CALL with a Vector2 and an int, parsed.
func BenchmarkParse(b *testing.B) {
	s, _ := newSession(variant.Godot4, false, []Node{{Path: "Main/Player", Methods: []Method{{Name: "move"}}}})
	pkt := benchPacket(b, variant.Godot4, s.nodes["Main/Player"], variant.Vector2{X: 1, Y: 2}, variant.Int(7))
	b.SetBytes(int64(len(pkt)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(variant.Godot4, pkt); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkDispatch: a REMOTE_CALL parsed, its node and method resolved
// through the path cache, its mode checked and its arguments converted
// into a typed Go handler: the host's work per RPC, without the network.
func BenchmarkDispatch(b *testing.B) {
	for _, f := range []variant.Family{variant.Godot4, variant.Godot3} {
		b.Run(f.String(), func(b *testing.B) {
			var sum float64
			s, err := newSession(f, false, []Node{{Path: "Main/Player", Methods: []Method{{Name: "move", Mode: AnyPeer,
				Handler: func(_ context.Context, from PeerID, pos variant.Vector2, n int) {
					sum += pos.X + float64(n)
				}}}}})
			if err != nil {
				b.Fatal(err)
			}
			nd := s.nodes["Main/Player"]
			r := newRemote(&pathBudget{maxPaths: 1 << 30, maxBytes: 1 << 62})
			r.setRecv(nd.cacheID, recvEntry{path: nd.path, node: nd})
			pkt := benchPacket(b, f, nd, variant.Vector2{X: 1, Y: 2}, variant.Int(7))
			ctx := context.Background()
			b.SetBytes(int64(len(pkt)))
			b.ReportAllocs()
			for b.Loop() {
				e := Event{From: 5}
				var err error
				if e.Packet, err = Parse(f, pkt); err != nil {
					b.Fatal(err)
				}
				nd, m, err := s.resolve(r, &e)
				if err != nil {
					b.Fatal(err)
				}
				if err := s.dispatch(ctx, HostID, nd, m, &e); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// BenchmarkDispatchError is BenchmarkDispatch with a handler that returns
// an error value: reflect allocates the result.
func BenchmarkDispatchError(b *testing.B) {
	s, _ := newSession(variant.Godot4, false, []Node{{Path: "P", Methods: []Method{{Name: "move", Mode: AnyPeer,
		Handler: func(_ context.Context, from PeerID, pos variant.Vector2, n int) error { return nil }}}}})
	nd := s.nodes["P"]
	r := newRemote(&pathBudget{maxPaths: 1 << 30, maxBytes: 1 << 62})
	r.setRecv(nd.cacheID, recvEntry{path: nd.path, node: nd})
	pkt := benchPacket(b, variant.Godot4, nd, variant.Vector2{X: 1, Y: 2}, variant.Int(7))
	b.ReportAllocs()
	for b.Loop() {
		e := Event{From: 5}
		e.Packet, _ = Parse(variant.Godot4, pkt)
		nd, m, _ := s.resolve(r, &e)
		if err := s.dispatch(context.Background(), HostID, nd, m, &e); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCallEncode: the host encoding an RPC with a Vector2 and an int.
func BenchmarkCallEncode(b *testing.B) {
	s, _ := newSession(variant.Godot4, false, []Node{{Path: "Main/Player", Methods: []Method{{Name: "move"}}}})
	b.ReportAllocs()
	for b.Loop() {
		if _, _, _, err := s.prepareCall("Main/Player", "move", []any{variant.Vector2{X: 1, Y: 2}, 7}); err != nil {
			b.Fatal(err)
		}
	}
}

// Dispatching an RPC whose arguments hold no pointers allocates nothing.
func TestDispatchAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, f := range []variant.Family{variant.Godot4, variant.Godot3} {
		s, err := newSession(f, false, []Node{{Path: "P", Methods: []Method{{Name: "move", Mode: AnyPeer,
			Handler: func(_ context.Context, from PeerID, pos variant.Vector2, n int, ok bool) {}}}}})
		if err != nil {
			t.Fatal(err)
		}
		nd := s.nodes["P"]
		r := newRemote(&pathBudget{maxPaths: 1 << 30, maxBytes: 1 << 62})
		r.setRecv(nd.cacheID, recvEntry{path: nd.path, node: nd})
		enc := defaultEnc4
		if f == variant.Godot3 {
			enc = defaultEnc3
		}
		ab, raw, n, _ := AppendArgs(nil, enc, variant.Vector2{X: 1, Y: 2}, variant.Int(1<<40), variant.Bool(true))
		pkt := AppendCall(nil, f, Call{NodeID: nd.cacheID, Name: "move", Raw: raw, ArgCount: n, Args: ab})
		ctx := context.Background()
		allocs := testing.AllocsPerRun(100, func() {
			e := Event{From: 5}
			e.Packet, _ = Parse(f, pkt)
			nd, m, err := s.resolve(r, &e)
			if err == nil {
				err = s.dispatch(ctx, HostID, nd, m, &e)
			}
			if err != nil {
				t.Fatal(err)
			}
		})
		if allocs != 0 {
			t.Errorf("%v: %v allocations per dispatch", f, allocs)
		}
	}
}

// BenchmarkLoopback: RPCs from 32 Go clients to a host over loopback
// WebSocket, end to end (encode, send, receive, parse, dispatch).
func BenchmarkLoopback(b *testing.B) {
	benchLoopback(b, func(ctx context.Context) (Listener, error) {
		return ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{})
	}, func(ctx context.Context, l Listener) (Link, error) {
		return DialWebSocket(ctx, "ws://"+l.Addr().String(), WebSocketOptions{})
	})
}

// BenchmarkLoopbackENet is BenchmarkLoopback over ENet (Godot 4's dialect,
// reliable), each client on its own UDP socket.
func BenchmarkLoopbackENet(b *testing.B) {
	benchLoopback(b, func(ctx context.Context) (Listener, error) {
		return ListenENet(ctx, "127.0.0.1:0", ENetOptions{})
	}, func(ctx context.Context, l Listener) (Link, error) {
		return DialENet(ctx, l.Addr().String(), ENetOptions{})
	})
}

func benchLoopback(b *testing.B, listen func(context.Context) (Listener, error), dial func(context.Context, Listener) (Link, error)) {
	const clients = 32
	var got atomic.Int64
	done := make(chan struct{})
	var target int64
	node := Node{Path: "P", Methods: []Method{{Name: "move", Mode: AnyPeer, Transfer: Reliable,
		Handler: func(_ context.Context, from PeerID, pos variant.Vector2, n int) {
			if got.Add(1) == atomic.LoadInt64(&target) {
				close(done)
			}
		}}}}
	h, err := NewHost(HostOptions{Logger: quiet}, node)
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	l, err := listen(ctx)
	if err != nil {
		b.Fatal(err)
	}
	go h.Serve(ctx, l)
	cs := make([]*Client, clients)
	for i := range cs {
		link, err := dial(ctx, l)
		if err != nil {
			b.Fatal(err)
		}
		if cs[i], err = Join(ctx, link, ClientOptions{Logger: quiet}, node); err != nil {
			b.Fatal(err)
		}
		defer cs[i].Close()
	}
	atomic.StoreInt64(&target, int64(b.N))
	b.ReportAllocs()
	b.ResetTimer()
	var wg sync.WaitGroup
	for i, c := range cs {
		n := b.N / clients
		if i < b.N%clients {
			n++
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range n {
				if err := c.Call(HostID, "P", "move", variant.Vector2{X: 1, Y: 2}, 7); err != nil {
					b.Error(err)
					return
				}
			}
		}()
	}
	wg.Wait()
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		b.Fatalf("%d of %d calls arrived", got.Load(), b.N)
	}
}
