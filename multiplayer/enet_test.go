package multiplayer

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"

	"github.com/gdvar/gdvar/enet"
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

// The Godot 4 dialect on the wire, as ENetMultiplayerPeer (4.x, put_packet
// and _store_packet) writes and reads it: no header; reliable packets on
// channel 0, unreliable ones on channel 1 (unsequenced, or sequenced when
// ordered) with UNRELIABLE_FRAGMENT, transfer channel n on ENet channel
// n+1 with the mode's flags; a client asks for 255 channels and sends its
// id as the connect data.
func TestENetWireGodot4(t *testing.T) {
	testENetWire(t, variant.Godot4, []wireCase{
		{Reliable, 0, 0, enet.Reliable},
		{Unreliable, 0, 1, enet.Unsequenced | enet.UnreliableFragment},
		{UnreliableOrdered, 0, 1, enet.UnreliableFragment},
		{Reliable, 3, 4, enet.Reliable},
		{Unreliable, 2, 3, enet.Unsequenced | enet.UnreliableFragment},
	}, 255)
}

// The Godot 3 dialect, as NetworkedMultiplayerENet (3.x put_packet)
// writes it: the 8-byte header; reliable packets on channel 1,
// unreliable ones on channel 2 (unsequenced, or sequenced when ordered),
// transfer channel n > 0 on ENet channel n; 3 channels by default.
func TestENetWireGodot3(t *testing.T) {
	testENetWire(t, variant.Godot3, []wireCase{
		{Reliable, 0, 1, enet.Reliable},
		{Unreliable, 0, 2, enet.Unsequenced},
		{UnreliableOrdered, 0, 2, 0},
	}, 3)
}

type wireCase struct {
	mode    TransferMode
	channel int
	enetCh  uint8
	flags   enet.Flags
}

func testENetWire(t *testing.T, fam variant.Family, cases []wireCase, channels int) {
	srv, err := enet.Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	link, err := DialENet(ctx, srv.LocalAddr().String(), ENetOptions{Godot: fam})
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	ev := nextENet(t, ctx, srv, enet.EventConnect)
	id := link.(ClientIDLink).ClientID()
	if PeerID(ev.Data) != id || id < 2 || ev.Peer.ChannelCount() != channels {
		t.Fatalf("connect data %d, link id %d, %d channels", ev.Data, id, ev.Peer.ChannelCount())
	}
	// The link first reads the id, and for Godot 3 the host, from the
	// connection itself.
	if f, err := link.ReadFrame(); err != nil || f.Kind != FrameAssignID || f.Peer != id {
		t.Fatalf("first frame %+v, %v", f, err)
	}
	if fam == variant.Godot3 {
		if f, err := link.ReadFrame(); err != nil || f.Kind != FramePeerAdded || f.Peer != HostID {
			t.Fatalf("second frame %+v, %v", f, err)
		}
	}
	for i, c := range cases {
		payload := []byte{byte(i), 0xaa}
		f := Frame{Kind: FrameData, From: id, To: HostID, Data: payload, Channel: c.channel, Mode: c.mode}
		if ch, flags := link.(*enetLink).channelFlags(f); ch != c.enetCh || flags != c.flags {
			t.Errorf("%v on transfer channel %d: sent on ENet channel %d with flags %d; want %d, %d", c.mode, c.channel, ch, flags, c.enetCh, c.flags)
		}
		if err := link.WriteFrame(f); err != nil {
			t.Fatal(err)
		}
		ev := nextENet(t, ctx, srv, enet.EventReceive)
		// A receiver sees Reliable and Unsequenced, not UnreliableFragment.
		c.flags &^= enet.UnreliableFragment
		want := payload
		if fam == variant.Godot3 {
			want = enet.AppendGodot3Packet(nil, int32(id), 1, payload)
		}
		if ev.Channel != c.enetCh || ev.Flags != c.flags || string(ev.Packet) != string(want) {
			t.Errorf("%v on transfer channel %d: ENet channel %d flags %d packet %x; want %d, %d, %x",
				c.mode, c.channel, ev.Channel, ev.Flags, ev.Packet, c.enetCh, c.flags, want)
		}
		// And back: the server sends the same way; the link reads the
		// mode and channel.
		if err := ev.Peer.Send(c.enetCh, ev.Packet, c.flags); err != nil {
			t.Fatal(err)
		}
		f, err := link.ReadFrame()
		if err != nil || f.Kind != FrameData || f.Mode != c.mode || f.Channel != c.channel || string(f.Data) != string(payload) {
			t.Errorf("read back %+v, %v; want %v on %d", f, err, c.mode, c.channel)
		}
	}
	if fam == variant.Godot3 {
		// The server's notices on channel 0.
		ev.Peer.Send(enet.Godot3ChannelConfig, enet.Godot3Notice(enet.Godot3AddPeer, 77), enet.Reliable)
		ev.Peer.Send(enet.Godot3ChannelConfig, enet.Godot3Notice(enet.Godot3RemovePeer, 77), enet.Reliable)
		for _, k := range []FrameKind{FramePeerAdded, FramePeerRemoved} {
			if f, err := link.ReadFrame(); err != nil || f.Kind != k || f.Peer != 77 {
				t.Errorf("notice read as %+v, %v", f, err)
			}
		}
	}
}

func nextENet(t *testing.T, ctx context.Context, h *enet.Host, want enet.EventType) enet.Event {
	t.Helper()
	for {
		ev, err := h.Service(ctx)
		if err != nil {
			t.Fatalf("waiting for %v: %v", want, err)
		}
		if ev.Type == want {
			return ev
		}
	}
}

// The listener refuses client ids below 2 and ids already taken, as both
// engines' servers do; a Godot 3 server's notices go to the others.
func TestENetListenerIDs(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	l, err := ListenENet(ctx, "127.0.0.1:0", ENetOptions{Godot: variant.Godot3})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	dial := func(id uint32) (*enet.Host, *enet.Peer) {
		h, p, err := enet.Dial(ctx, "udp4", l.Addr().String(), 3, id, nil)
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { h.Close() })
		return h, p
	}
	accept := func() Link {
		actx, acancel := context.WithTimeout(ctx, 300*time.Millisecond)
		defer acancel()
		lk, err := l.Accept(actx)
		if err != nil {
			return nil
		}
		return lk
	}
	dial(1)
	if lk := accept(); lk != nil {
		t.Fatalf("id 1 accepted")
	}
	dial(0)
	if lk := accept(); lk != nil {
		t.Fatalf("id 0 accepted")
	}
	ah, _ := dial(5)
	lk := accept()
	if lk == nil || lk.(ClientIDLink).ClientID() != 5 {
		t.Fatalf("id 5 not accepted: %v", lk)
	}
	dial(5)
	if lk := accept(); lk != nil {
		t.Fatalf("a taken id accepted")
	}
	// The host's own notice writes nothing; another peer's is 8 bytes on
	// channel 0.
	lk.WriteFrame(Frame{Kind: FramePeerAdded, Peer: HostID})
	lk.WriteFrame(Frame{Kind: FrameAssignID, Peer: 5})
	lk.WriteFrame(Frame{Kind: FramePeerAdded, Peer: 9})
	ev := nextENet(t, ctx, ah, enet.EventReceive)
	if ev.Channel != enet.Godot3ChannelConfig || ev.Flags != enet.Reliable || string(ev.Packet) != string(enet.Godot3Notice(enet.Godot3AddPeer, 9)) {
		t.Errorf("notice on channel %d flags %d: %x", ev.Channel, ev.Flags, ev.Packet)
	}
}

// FuzzENetDecode: any packet on any channel, from either side and in
// either dialect, becomes a frame or an error, never a panic; a data
// frame's payload is the packet less Godot 3's header.
func FuzzENetDecode(f *testing.F) {
	f.Add([]byte{1, 0, 0, 0, 9, 0, 0, 0, 2, 1}, uint8(1), uint8(1), true, true)
	f.Add([]byte{0, 0, 0, 0, 77, 0, 0, 0}, uint8(0), uint8(1), true, false)
	f.Add([]byte{7}, uint8(0), uint8(2), false, true)
	f.Fuzz(func(t *testing.T, pkt []byte, ch, flags uint8, godot3, server bool) {
		l := &enetLink{godot3: godot3, server: server, id: 5}
		fr, ok, err := l.decode(enet.Event{Type: enet.EventReceive, Channel: ch, Packet: pkt, Flags: enet.Flags(flags)})
		if err != nil || !ok || fr.Kind != FrameData {
			return
		}
		want := len(pkt)
		if godot3 {
			want -= 8
		}
		if len(fr.Data) != want || fr.Channel < 0 {
			t.Fatalf("%d-byte packet gave %d bytes on channel %d", len(pkt), len(fr.Data), fr.Channel)
		}
	})
}

// TestENetHostNoGoroutinePerClient: a Host serving ENet clients reads,
// handles and relays their packets on the ENet host's goroutine, with no
// goroutine of its own per client.
func TestENetHostNoGoroutinePerClient(t *testing.T) {
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		t.Run(fam.String(), func(t *testing.T) {
			h, addr := startHostENet(t, HostOptions{Godot: fam}, ENetOptions{})
			logs := make([]*chatLog, 4)
			cs := make([]*Client, 4)
			for i := range cs {
				l := newChatLog()
				logs[i] = l
				cs[i] = joinENet(t, addr, ClientOptions{Godot: fam, OnBytes: func(from PeerID, data []byte) {
					l.add(fmt.Sprintf("bytes %d %x", from, data))
				}}, ENetOptions{})
			}
			for deadline := time.Now().Add(5 * time.Second); len(h.Peers()) < len(cs) && time.Now().Before(deadline); {
				time.Sleep(5 * time.Millisecond)
			}
			checkBroadcast(t, cs, logs)
			for fn, n := range hostGoroutines() {
				if n > 0 {
					t.Errorf("%d goroutines in %s with %d ENet clients", n, fn, len(cs))
				}
			}
		})
	}
}

// A message broadcast by one client of an ENet host reaches every other
// client with the bytes the engine's server relays (Godot 3: its header,
// sender and target; Godot 4: SYS RELAY from the sender), in order, while
// the host queues it for all of them at once with one shared copy (a
// copy reused too early would change what arrives); a target that takes
// nothing (its ENet host gone without a word) runs out of budget
// (MaxOutgoingData: its sends fail, ENet keeps the peer) and is
// dropped alone, and the others go on receiving.
func TestENetRelayShared(t *testing.T) {
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		t.Run(fam.String(), func(t *testing.T) {
			const clients = 4
			h, addr := startHostENet(t, HostOptions{Godot: fam, Logger: quiet, MaxPeersPerIP: clients},
				ENetOptions{ENet: enet.Config{MaxPeersPerIP: clients, MaxOutgoingData: 64 << 10}})
			cs := make([]*rawENet, clients)
			for i := range cs {
				cs[i] = dialRawENet(t, addr, fam, PeerID(100+i))
			}
			waitPeers(t, h, clients)
			send := func(i, size int) []byte {
				t.Helper()
				raw := AppendRaw(nil, fam, bytes.Repeat([]byte{byte(i)}, size))
				var pkt, want []byte
				ch := uint8(enet.Godot4ChannelReliable)
				if fam == variant.Godot3 {
					ch = enet.Godot3ChannelReliable
					pkt = enet.AppendGodot3Packet(nil, int32(cs[0].id), int32(Broadcast), raw)
					want = pkt
				} else {
					pkt = AppendSys(nil, SysRelay, Broadcast, raw)
					want = AppendSys(nil, SysRelay, cs[0].id, raw)
				}
				if err := cs[0].p.Send(ch, pkt, enet.Reliable); err != nil {
					t.Fatal(err)
				}
				return want
			}
			for i := range 200 {
				want := send(i, 40)
				for _, c := range cs[1:] {
					if got := c.next(t, fam); !bytes.Equal(got, want) {
						t.Fatalf("message %d: client %d got % x, want % x", i, c.id, got, want)
					}
				}
			}
			// The last client's host vanishes: what it is sent piles up
			// in ENet until its budget (64 KiB) is spent and the Host
			// drops it; the other two still get every message.
			cs[clients-1].h.Close()
			for i := 0; len(h.Peers()) == clients; i++ {
				if i == 200 {
					t.Fatal("a client that acknowledges nothing was not dropped after 200 messages of 2 KB")
				}
				want := send(i, 2000)
				for _, c := range cs[1 : clients-1] {
					if got := c.next(t, fam); !bytes.Equal(got, want) {
						t.Fatalf("message %d of 2 KB: client %d got %d bytes", i, c.id, len(got))
					}
				}
			}
		})
	}
}

// next returns a copy of the client's next data packet (notices of peers
// joining or leaving are skipped: the host may drop a peer, and tell the
// others, between two messages).
func (c *rawENet) next(t *testing.T, fam variant.Family) []byte {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	for {
		ev, err := c.h.Service(ctx)
		if err != nil {
			t.Fatalf("client %d: %v", c.id, err)
		}
		if ev.Type != enet.EventReceive {
			continue
		}
		if !isPeerNotice(fam, ev) {
			return ev.Packet
		}
	}
}

// ListenENet runs its host in frames of DefaultENetFrame unless Frame or
// FlushDelay says otherwise; DialENet does not.
func TestENetListenFrames(t *testing.T) {
	for _, c := range []struct {
		cfg   enet.Config
		frame time.Duration
	}{
		{enet.Config{}, DefaultENetFrame},
		{enet.Config{Frame: 7 * time.Millisecond}, 7 * time.Millisecond},
		{enet.Config{FlushDelay: 3 * time.Millisecond}, 0},
		{enet.Config{FlushDelay: -1}, 0},
	} {
		cfg, err := ENetOptions{ENet: c.cfg}.listenConfig()
		if err != nil || cfg.Frame != c.frame {
			t.Errorf("%+v: frame %v, %v; want %v", c.cfg, cfg.Frame, err, c.frame)
		}
		if cfg, _ := (ENetOptions{ENet: c.cfg}).config(); cfg.Frame != c.cfg.Frame {
			t.Errorf("%+v: a dialled link's frame %v", c.cfg, cfg.Frame)
		}
	}
}
