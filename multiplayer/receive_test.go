package multiplayer

import (
	"bytes"
	"context"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// A host with no Observe allocates nothing for a call it runs (a handler
// whose parameters hold no pointers) or relays, in steady state: the
// Event of each packet lives on the receiving goroutine's stack.
func TestReceiveAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, c := range receiveCases {
		t.Run(c.name, func(t *testing.T) {
			h, ps := receiveHost(t, c.fam, 4, true, HostOptions{})
			f := c.frame(t, ps)
			allocs := testing.AllocsPerRun(200, func() {
				if err := h.onFrame(ps[0], f, nil); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per message", allocs)
			}
		})
	}
}

// Observe is given an Event of its own for each packet, which it may keep:
// the host does not reuse it for later packets.
func TestObserveKeepsEvents(t *testing.T) {
	for _, c := range receiveCases {
		t.Run(c.name, func(t *testing.T) {
			var kept []*Event
			h, ps := receiveHost(t, c.fam, 3, true, HostOptions{Observe: func(e *Event) { kept = append(kept, e) }})
			kept = nil
			f := c.frame(t, ps)
			const n = 3
			for range n {
				if err := h.onFrame(ps[0], f, nil); err != nil {
					t.Fatal(err)
				}
			}
			// A bad packet after them.
			bad := f
			bad.Data = []byte{0xff}
			if c.fam == variant.Godot3 {
				bad.To = HostID
			}
			if err := h.onFrame(ps[0], bad, nil); err != nil {
				t.Fatal(err)
			}
			if len(kept) != n+1 {
				t.Fatalf("Observe saw %d events, want %d", len(kept), n+1)
			}
			for i, e := range kept[:n] {
				for _, o := range kept[:i] {
					if o == e {
						t.Fatalf("event %d is an earlier one again", i)
					}
				}
				if e.From != ps[0].id || e.Err != nil || e.Packet.Command != CmdRemoteCall || len(e.Args) != 1 || e.Args[0] != variant.Int(7) {
					t.Errorf("event %d: %+v", i, e)
				}
				// Relayed to one client, the call names a node the sender
				// announced to that client only (here: none).
				if c.to != "one" && (e.Node != "Bench" || e.Method != "ping") || c.to == "one" && (!e.Relayed || e.To != ps[1].id) {
					t.Errorf("event %d: %+v", i, e)
				}
			}
			if e := kept[n]; e.Err == nil || e.From != ps[0].id {
				t.Errorf("the bad packet's event: %+v", e)
			}
		})
	}
}

// recordLink records the data frames written to it (copies), but for
// Godot 4's SYS packets other than RELAY (the notices of joining), with no
// batch writes or queue of its own: the host queues frames for it and
// gives it a buffer of their own (not pooled).
type recordLink struct {
	mu   sync.Mutex
	data [][]byte
}

func (l *recordLink) ReadFrame() (Frame, error) { return Frame{}, net.ErrClosed }
func (l *recordLink) RemoteAddr() net.Addr      { return nil }
func (l *recordLink) Close() error              { return nil }
func (l *recordLink) WriteFrame(f Frame) error {
	if f.Kind == FrameData && !(len(f.Data) >= 2 && f.Data[0] == 7 && f.Data[1] != byte(SysRelay)) {
		l.mu.Lock()
		l.data = append(l.data, bytes.Clone(f.Data))
		l.mu.Unlock()
	}
	return nil
}

func (l *recordLink) got() [][]byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.data
}

// recordBatch is a recordLink written in batches (batchLink): its queue's
// frames are in pooled buffers, given back once written. Its writer waits
// 50 ms before it writes (gatherLink), so that what a test sends is
// queued meanwhile.
type recordBatch struct{ *recordLink }

func (l recordBatch) gatherDelay() time.Duration { return 50 * time.Millisecond }

func (l recordBatch) writeFrames(fs []Frame) error {
	for _, f := range fs {
		l.WriteFrame(f)
	}
	return nil
}

// recordDirect is a recordLink that queues frames itself (queuer), as
// ENet's: the host hands it the data of a relayed message as received,
// or built in a scratch of its own.
type recordDirect struct{ *recordLink }

func (l recordDirect) queueFrame(f Frame) error { return l.WriteFrame(f) }

// Relayed messages reach every target intact, whichever way the host
// holds their data (none for a transport that copies it, a pooled buffer
// shared by batch writers, a copy shared by other queues), from
// messages of many sizes, one after the other, to all and to one.
func TestRelayData(t *testing.T) {
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		t.Run(fam.String(), func(t *testing.T) {
			h, err := NewHost(HostOptions{Godot: fam, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			recs := make([]*recordLink, 7)
			ps := make([]*hostPeer, len(recs))
			for i := range recs {
				recs[i] = &recordLink{}
				var link Link = recs[i]
				switch i % 3 {
				case 1:
					link = recordBatch{recs[i]}
				case 2:
					link = recordDirect{recs[i]}
				}
				if ps[i], err = h.join(link); err != nil {
					t.Fatal(err)
				}
			}
			want := make([][][]byte, len(recs))
			for i, n := range []int{1, 10, 63, 64, 65, 200, 1000, 4095, 4096, 4200, 70000, 3, 100} {
				raw := AppendRaw(nil, fam, bytes.Repeat([]byte{byte(i + 1)}, n))
				for _, to := range []PeerID{Broadcast, ps[1+i%(len(ps)-1)].id, -ps[2].id} {
					f := Frame{Kind: FrameData, From: ps[0].id, To: to, Data: bytes.Clone(raw), Mode: Reliable}
					out := raw
					if fam == variant.Godot4 {
						f.To = HostID
						f.Data = AppendSys(nil, SysRelay, to, raw)
						out = AppendSys(nil, SysRelay, ps[0].id, raw)
					}
					if err := h.onFrame(ps[0], f, nil); err != nil {
						t.Fatal(err)
					}
					clear(f.Data) // the transport's buffer, reused for the next packet
					for j, p := range ps {
						if j != 0 && (to == Broadcast || to == p.id || to < 0 && -to != p.id) {
							want[j] = append(want[j], out)
						}
					}
				}
			}
			for _, p := range ps {
				p.q.close()
				p.q.wait()
			}
			for j, r := range recs {
				got := r.got()
				if len(got) != len(want[j]) {
					t.Errorf("peer %d (%T): %d messages, want %d", j, ps[j].link, len(got), len(want[j]))
					continue
				}
				for k := range got {
					if !bytes.Equal(got[k], want[j][k]) {
						t.Errorf("peer %d (%T), message %d: %d bytes %x…, want %d bytes %x…", j, ps[j].link, k,
							len(got[k]), got[k][:min(len(got[k]), 8)], len(want[j][k]), want[j][k][:min(len(want[j][k]), 8)])
					}
				}
			}
		})
	}
}

// blockLink is a client's link that reads the given frames, then waits
// until it is closed, and discards what is written.
type blockLink struct {
	frames []Frame
	closed chan struct{}
	once   sync.Once
}

func (l *blockLink) ReadFrame() (Frame, error) {
	if len(l.frames) > 0 {
		f := l.frames[0]
		l.frames = l.frames[1:]
		return f, nil
	}
	<-l.closed
	return Frame{}, net.ErrClosed
}
func (l *blockLink) WriteFrame(Frame) error { return nil }
func (l *blockLink) RemoteAddr() net.Addr   { return nil }
func (l *blockLink) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

// A client with no Observe allocates nothing for a call from the host it
// runs (a handler whose parameters hold no pointers): its Event lives on
// the stack, and the arguments are decoded for Observe only.
func TestClientReceiveAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		t.Run(fam.String(), func(t *testing.T) {
			calls := 0
			node := Node{Path: "Bench", Methods: []Method{{Name: "ping", Mode: AnyPeer, Transfer: Reliable,
				Handler: func(_ context.Context, _ PeerID, n int) { calls += n }}}}
			link := &blockLink{frames: []Frame{{Kind: FrameAssignID, Peer: 77}, {Kind: FramePeerAdded, Peer: HostID}}, closed: make(chan struct{})}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
			defer cancel()
			c, err := Join(ctx, link, ClientOptions{Godot: fam, Logger: quiet}, node)
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			nd := c.nodes["Bench"]
			c.receive(HostID, AppendSimplifyPath(nil, fam, nd.checksum, 1, "Bench"), false)
			enc := defaultEnc4
			if fam == variant.Godot3 {
				enc = defaultEnc3
			}
			args, raw, n, _ := AppendArgs(nil, enc, variant.Int(7))
			call := AppendCall(nil, fam, Call{NodeID: 1, Name: "ping", Raw: raw, ArgCount: n, Args: args})
			allocs := testing.AllocsPerRun(100, func() { c.receive(HostID, call, false) })
			if calls != 7*101 {
				t.Fatalf("the handler got %d, want %d", calls, 7*101)
			}
			if allocs != 0 {
				t.Errorf("%v allocations per call", allocs)
			}
		})
	}
}

// A client's Observe is given an Event of its own for each packet, with
// the call's arguments decoded, which it may keep.
func TestClientObserveKeepsEvents(t *testing.T) {
	var kept []*Event
	node := Node{Path: "Bench", Methods: []Method{{Name: "ping", Mode: AnyPeer, Handler: func(context.Context, PeerID, int) {}}}}
	link := &blockLink{frames: []Frame{{Kind: FrameAssignID, Peer: 77}}, closed: make(chan struct{})}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, err := Join(ctx, link, ClientOptions{Logger: quiet, Observe: func(e *Event) { kept = append(kept, e) }}, node)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.receive(HostID, AppendSimplifyPath(nil, variant.Godot4, c.nodes["Bench"].checksum, 1, "Bench"), false)
	kept = nil
	for i := range 3 {
		args, raw, n, _ := AppendArgs(nil, nil, variant.Int(i))
		c.receive(HostID, AppendCall(nil, variant.Godot4, Call{NodeID: 1, Raw: raw, ArgCount: n, Args: args}), false)
	}
	if len(kept) != 3 {
		t.Fatalf("Observe saw %d events, want 3", len(kept))
	}
	for i, e := range kept {
		if e.Node != "Bench" || e.Method != "ping" || len(e.Args) != 1 || e.Args[0] != variant.Int(i) || e.Err != nil {
			t.Errorf("event %d: %+v", i, e)
		}
	}
}
