package multiplayer

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/enet"
	"github.com/gdvar/gdvar/variant"
)

// sinkLink is an in-process client link that takes what the host writes
// and throws it away: with direct set it queues frames itself (queuer),
// as ENet's link does, so the host hands it each frame with no queue of
// its own; otherwise the host queues them and a writer goroutine writes
// them in batches (batchLink), as for a WebSocket client.
type sinkLink struct {
	direct bool
	frames atomic.Int64
	closed chan struct{}
}

func newSinkLink(direct bool) *sinkLink {
	return &sinkLink{direct: direct, closed: make(chan struct{})}
}

func (l *sinkLink) ReadFrame() (Frame, error) { <-l.closed; return Frame{}, net.ErrClosed }
func (l *sinkLink) WriteFrame(Frame) error    { l.frames.Add(1); return nil }
func (l *sinkLink) writeFrames(fs []Frame) error {
	l.frames.Add(int64(len(fs)))
	return nil
}
func (l *sinkLink) RemoteAddr() net.Addr { return nil }
func (l *sinkLink) Close() error {
	select {
	case <-l.closed:
	default:
		close(l.closed)
	}
	return nil
}

// sinkQueuer is a sinkLink the host hands frames to directly.
type sinkQueuer struct{ *sinkLink }

func (l sinkQueuer) queueFrame(f Frame) error { return l.WriteFrame(f) }

// receiveHost is a host of family fam with n peers on sink links, each
// of which has registered the path of the node Bench (whose method ping
// takes an int) in the host's path cache, as a game's client does before
// its first call. It returns the host and its peers.
func receiveHost(tb testing.TB, fam variant.Family, n int, direct bool, o HostOptions) (*Host, []*hostPeer) {
	o.Godot, o.Logger = fam, quiet
	o.MaxPeersPerIP = n
	h, err := NewHost(o, Node{Path: "Bench", Methods: []Method{{Name: "ping", Mode: AnyPeer, Transfer: Reliable,
		Handler: func(_ context.Context, _ PeerID, _ int) {}}}})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { h.Close() })
	ps := make([]*hostPeer, n)
	for i := range ps {
		var link Link = newSinkLink(direct)
		if direct {
			link = sinkQueuer{link.(*sinkLink)}
		}
		if ps[i], err = h.join(link); err != nil {
			tb.Fatal(err)
		}
		nd := h.nodes["Bench"]
		simplify := AppendSimplifyPath(nil, fam, nd.checksum, 1, "Bench")
		if err := h.onFrame(ps[i], Frame{Kind: FrameData, From: ps[i].id, To: HostID, Data: simplify, Mode: Reliable}, nil); err != nil {
			tb.Fatal(err)
		}
	}
	return h, ps
}

// receiveCase is a message a client sends the host: a Godot 3 or Godot 4
// call of Bench.ping(7) addressed to the host alone, to every peer (the
// host runs it and relays it), or to one other client (relayed only).
type receiveCase struct {
	name string
	fam  variant.Family
	to   string // "host", "all", "one"
}

var receiveCases = []receiveCase{
	{"godot3/host", variant.Godot3, "host"},
	{"godot3/all", variant.Godot3, "all"},
	{"godot3/one", variant.Godot3, "one"},
	{"godot4/host", variant.Godot4, "host"},
	{"godot4/all", variant.Godot4, "all"},
	{"godot4/one", variant.Godot4, "one"},
}

// frame returns the frame peer ps[0] sends for c.
func (c receiveCase) frame(tb testing.TB, ps []*hostPeer) Frame {
	enc := defaultEnc4
	if c.fam == variant.Godot3 {
		enc = defaultEnc3
	}
	args, raw, n, err := AppendArgs(nil, enc, variant.Int(7))
	if err != nil {
		tb.Fatal(err)
	}
	call := AppendCall(nil, c.fam, Call{NodeID: 1, Method: 0, Name: "ping", Raw: raw, ArgCount: n, Args: args})
	f := Frame{Kind: FrameData, From: ps[0].id, To: HostID, Data: call, Mode: Reliable}
	to := HostID
	switch c.to {
	case "all":
		to = Broadcast
	case "one":
		to = ps[1].id
	}
	switch {
	case c.fam == variant.Godot3:
		f.To = to
	case to != HostID:
		f.Data = AppendSys(nil, SysRelay, to, call)
	}
	return f
}

// nopMeter is a Meter that counts nothing.
type nopMeter struct{}

func (nopMeter) PacketIn(Command, int)  {}
func (nopMeter) PacketOut(Command, int) {}
func (nopMeter) Relayed(int)            {}
func (nopMeter) Refused(string)         {}
func (nopMeter) Dropped(string)         {}
func (nopMeter) Joined()                {}
func (nopMeter) Left()                  {}
func (nopMeter) RPC(time.Duration)      {}

// BenchmarkHostReceiveObserved is BenchmarkHostReceive (direct links)
// with an Observe that keeps nothing and a Meter that counts nothing: what
// tracing and metrics cost per message.
func BenchmarkHostReceiveObserved(b *testing.B) {
	for _, c := range receiveCases {
		b.Run(c.name, func(b *testing.B) {
			h, ps := receiveHost(b, c.fam, 10, true, HostOptions{Observe: func(*Event) {}, Meter: nopMeter{}})
			f := c.frame(b, ps)
			b.ReportAllocs()
			for b.Loop() {
				if err := h.onFrame(ps[0], f, nil); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

// The host's work for one message a client sends, without the network:
// the frame handed to the host as its link would (onFrame), with 10
// clients on in-process links that discard what they are sent. direct:
// the links queue frames themselves, as ENet's does; queued: the host
// queues them and writer goroutines write them, as for WebSocket.
// allocs/op are the host's allocations per received message.
func BenchmarkHostReceive(b *testing.B) {
	for _, direct := range []bool{true, false} {
		link := "queued"
		if direct {
			link = "direct"
		}
		for _, c := range receiveCases {
			b.Run(fmt.Sprintf("%s/%s", link, c.name), func(b *testing.B) {
				h, ps := receiveHost(b, c.fam, 10, direct, HostOptions{})
				f := c.frame(b, ps)
				b.ReportAllocs()
				for b.Loop() {
					if err := h.onFrame(ps[0], f, nil); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// rawENet is a client of raw ENet (the enet package, no multiplayer
// Link or Client): it sends Godot's packets as they are on the wire and
// gives each received packet back to ENet at once, so that in steady
// state it allocates nothing and what a benchmark counts is the host's.
type rawENet struct {
	h  *enet.Host
	p  *enet.Peer
	id PeerID
}

func dialRawENet(tb testing.TB, addr string, fam variant.Family, id PeerID) *rawENet {
	ch := enet.Godot4ChannelCount
	if fam == variant.Godot3 {
		ch = enet.Godot3ChannelCount
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h, p, err := enet.Dial(ctx, "udp", addr, ch, uint32(id), &enet.Config{FlushDelay: -1})
	if err != nil {
		tb.Fatal(err)
	}
	tb.Cleanup(func() { h.Close() })
	return &rawENet{h: h, p: p, id: id}
}

// isPeerNotice reports whether ev is the notice of a peer joining or
// leaving: Godot 3's on their channel, Godot 4's SYS ADD_PEER and
// DEL_PEER.
func isPeerNotice(fam variant.Family, ev enet.Event) bool {
	return fam == variant.Godot3 && ev.Channel == enet.Godot3ChannelConfig ||
		fam == variant.Godot4 && len(ev.Packet) >= 2 && ev.Packet[0] == byte(CmdSys) &&
			(ev.Packet[1] == byte(SysAddPeer) || ev.Packet[1] == byte(SysDelPeer))
}

// recv waits for the next data packet (the notices of peers joining or
// leaving are skipped: Godot 3's on their channel, Godot 4's SYS
// ADD_PEER and DEL_PEER) and returns its length; the packet goes back
// to ENet.
func (c *rawENet) recv(fam variant.Family) (int, error) {
	for {
		ev, err := c.h.Service(context.Background())
		if err != nil {
			return 0, err
		}
		if ev.Type != enet.EventReceive {
			continue
		}
		n := len(ev.Packet)
		notice := isPeerNotice(fam, ev)
		c.h.ReleasePacket(ev.Packet)
		if notice {
			continue
		}
		return n, nil
	}
}

// A client's RAW packet (40 bytes) relayed by the host over ENet to the
// other clients, reliable: to one (its id), and to 9 (a broadcast, which
// the host also processes), in Godot 3's dialect (the packet's 8-byte
// header names the target) and Godot 4's (a SYS RELAY). One operation is
// one message sent and received by every target. The clients are raw ENet
// hosts in the same process, which allocate nothing per packet they send
// or receive, so allocs/op are the host's (ENet's and the multiplayer
// Host's).
func BenchmarkRelayENet(b *testing.B) {
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		for _, targets := range []int{1, 9} {
			b.Run(fmt.Sprintf("%v/targets=%d", fam, targets), func(b *testing.B) {
				h, err := NewHost(HostOptions{Godot: fam, Logger: quiet, MaxPeersPerIP: targets + 1})
				if err != nil {
					b.Fatal(err)
				}
				b.Cleanup(func() { h.Close() })
				o := ENetOptions{Godot: fam}
				o.ENet.MaxPeersPerIP = targets + 1
				l, err := ListenENet(context.Background(), "127.0.0.1:0", o)
				if err != nil {
					b.Fatal(err)
				}
				go h.Serve(context.Background(), l)
				cs := make([]*rawENet, targets+1)
				for i := range cs {
					cs[i] = dialRawENet(b, l.Addr().String(), fam, PeerID(1000+i))
				}
				for deadline := time.Now().Add(10 * time.Second); len(h.Peers()) < len(cs); time.Sleep(time.Millisecond) {
					if time.Now().After(deadline) {
						b.Fatalf("%d clients joined of %d", len(h.Peers()), len(cs))
					}
				}
				to := cs[1].id
				if targets > 1 {
					to = Broadcast
				}
				raw := AppendRaw(nil, fam, []byte("a relayed packet of 40 bytes, or nearly"))
				var pkt []byte
				ch := uint8(enet.Godot4ChannelReliable)
				want := len(raw)
				if fam == variant.Godot3 {
					pkt = enet.AppendGodot3Packet(nil, int32(cs[0].id), int32(to), raw)
					ch = enet.Godot3ChannelReliable
					want += 8
				} else {
					pkt = AppendSys(nil, SysRelay, to, raw)
					want = len(pkt)
				}
				b.ReportAllocs()
				b.ResetTimer()
				for range b.N {
					if err := cs[0].p.Send(ch, pkt, enet.Reliable); err != nil {
						b.Fatal(err)
					}
					for _, c := range cs[1:] {
						n, err := c.recv(fam)
						if err != nil {
							b.Fatal(err)
						}
						if n != want {
							b.Fatalf("got %d bytes, want %d", n, want)
						}
					}
				}
				b.ReportMetric(float64(targets), "deliveries/op")
			})
		}
	}
}
