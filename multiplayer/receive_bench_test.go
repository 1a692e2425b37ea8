package multiplayer

import (
	"context"
	"fmt"
	"net"
	"sync/atomic"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// sinkLink is an in-process client link that takes what the host writes
// and throws it away: with direct set it queues frames itself (queuer),
// as ENet's link does, so the host hands it each frame with no queue of
// its own; otherwise the host queues them and a writer goroutine writes
// them, as for a WebSocket client.
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
func (l *sinkLink) RemoteAddr() net.Addr      { return nil }
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
