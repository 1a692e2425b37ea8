package multiplayer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"slices"
	"sync"
	"time"

	"github.com/gdvar/gdvar/enet"
	"github.com/gdvar/gdvar/enet/godotcompress"
	"github.com/gdvar/gdvar/variant"
)

// ENet links: Godot's ENet multiplayer peers, NetworkedMultiplayerENet
// (Godot 3, modules/enet/networked_multiplayer_enet.cpp) and
// ENetMultiplayerPeer (Godot 4, modules/enet/enet_multiplayer_peer.cpp).
// Package enet's godot.go holds the facts of both: the client's id as the
// connect data, Godot 3's 8-byte header and server notices, each family's
// channels. Here they become Frames:
//
//   - a client picks its id and sends it with the CONNECT; the listener
//     resets a connection whose id is below 2 or taken, as the engine's
//     server does, and the Host takes the link's id (ClientID);
//   - the client knows the server as peer 1 from the connection itself:
//     FrameAssignID and the host's own FramePeerAdded write nothing, and
//     a dialled link reads them first, made up from the connection;
//   - Godot 3: FramePeerAdded and FramePeerRemoved of other peers are the
//     server's notices on channel 0; every packet carries From and To;
//   - transfer modes and channels map to ENet channels and flags as each
//     engine's put_packet maps them, both ways.

// ENetOptions configures ENet links.
type ENetOptions struct {
	// Godot is the engine family of the other side: 0 or 4 for Godot 4's
	// ENetMultiplayerPeer, 3 for Godot 3's NetworkedMultiplayerENet.
	Godot variant.Family
	// Compression is the compression mode, which must be the other side's
	// (NetworkedMultiplayerENet.compression_mode, ENetConnection.compress).
	Compression godotcompress.Mode
	// ENet holds the settings of the ENet host: PeerLimit (the engine's
	// max_clients, default 32), bandwidth, MTU, timeouts and budgets. Its
	// MaxPacketSize defaults to DefaultENetMaxPacketSize here; its
	// MaxPeersPerIP to DefaultMaxPeersPerIP, so that one address cannot
	// take every peer slot before a Host's own limit per address is
	// checked; and its MaxPeerMemory (everything ENet holds for one peer,
	// both ways) to MaxQueuedBytes and two packets of MaxPacketSize, so
	// that ENet's queues hold about what the link's own budget says. Its
	// Compression and Compressor are set from Compression. ListenENet
	// runs its host in frames (Frame) of DefaultENetFrame unless Frame or
	// FlushDelay is set.
	ENet enet.Config
	// Channels is the number of channels a dialled link asks for; 0 means
	// the engine's default (Godot 3: 3, Godot 4: 255).
	Channels int
	// MaxQueuedBytes bounds what a link holds received and not yet read;
	// 0 means DefaultMaxQueuedBytes. A peer that sends faster than the
	// link is read is disconnected.
	MaxQueuedBytes int
}

// DefaultENetMaxPacketSize is the default largest ENet packet of a link:
// 1 MiB and Godot 3's 8-byte header. The engine accepts up to ENet's 32
// MiB; raise ENetOptions.ENet.MaxPacketSize (and MaxQueuedBytes) for games
// that send more in one packet.
const DefaultENetMaxPacketSize = 1<<20 + 8

// DefaultENetFrame is the frame a ListenENet host runs in by default
// (enet.Config.Frame): it reads, handles and sends once a millisecond
// while busy, as the engine services ENet once a frame, which costs a
// quarter to a third less CPU per relayed message than reading and
// flushing as datagrams come (docs/performance.md). What it sends waits at
// most that millisecond, as with ENet's default FlushDelay, and the first
// datagram after a quiet spell is handled at once.
const DefaultENetFrame = time.Millisecond

// listenConfig is config with ListenENet's frames.
func (o ENetOptions) listenConfig() (*enet.Config, error) {
	cfg, err := o.config()
	if err == nil && cfg.Frame == 0 && cfg.FlushDelay == 0 {
		cfg.Frame = DefaultENetFrame
	}
	return cfg, err
}

func (o ENetOptions) config() (*enet.Config, error) {
	cfg := o.ENet
	if cfg.MaxPacketSize == 0 {
		cfg.MaxPacketSize = DefaultENetMaxPacketSize
	}
	if cfg.MaxPeersPerIP == 0 {
		cfg.MaxPeersPerIP = DefaultMaxPeersPerIP
	}
	if cfg.MaxPeerMemory == 0 {
		q := o.MaxQueuedBytes
		if q <= 0 {
			q = DefaultMaxQueuedBytes
		}
		cfg.MaxPeerMemory = q + 2*cfg.MaxPacketSize
	}
	if err := godotcompress.Configure(&cfg, o.Compression); err != nil {
		return nil, err
	}
	return &cfg, nil
}

// enetLink is one ENet connection as a Link.
type enetLink struct {
	peer   *enet.Peer
	godot3 bool
	server bool   // the link is the host's side
	id     PeerID // host side: the client's id; client side: our own id
	max    int
	// channels is the peer's channel count, asked once (it takes the
	// ENet host's lock).
	channels int
	host     *enet.Host    // client side: the host the link owns
	stop     func()        // client side: ends the service loop
	done     chan struct{} // client side: the service loop has ended

	held []byte // the packet of the frame ReadFrame returned last, given back to ENet at the next read

	mu     sync.Mutex
	pre    []Frame      // frames read before anything received
	q      []enet.Event // received, not yet read or handled: q[qHead:]
	qHead  int
	qBytes int
	err    error         // set when the connection has ended
	wake   chan struct{} // made by the first ReadFrame (a link delivering to a Host reads none)

	// Delivery to a Host (deliver), the host's side only.
	handle func(Frame, error) error
	fin    func(error) // nil once called
	busy   bool        // a goroutine is handling the link's packets
}

func newENetLink(p *enet.Peer, o ENetOptions, server bool, id PeerID) *enetLink {
	m := o.MaxQueuedBytes
	if m <= 0 {
		m = DefaultMaxQueuedBytes
	}
	l := &enetLink{peer: p, godot3: o.Godot == variant.Godot3, server: server, id: id, max: m}
	if p != nil {
		l.channels = p.ChannelCount() // fixed once connected
	}
	return l
}

// ClientID is the id the client chose (its connect data). A Host admits
// the client with it.
func (l *enetLink) ClientID() PeerID { return l.id }

func (l *enetLink) RemoteAddr() net.Addr { return l.peer.Addr() }

// push queues a received packet; a peer over its budget is disconnected.
func (l *enetLink) push(ev enet.Event) {
	l.mu.Lock()
	if l.err != nil {
		l.mu.Unlock()
		return
	}
	if l.qBytes+len(ev.Packet) > l.max {
		l.mu.Unlock()
		l.end(fmt.Errorf("%w: more than %d bytes received and not yet read", ErrBudget, l.max))
		l.peer.DisconnectNow(0)
		return
	}
	l.q = append(l.q, ev)
	l.qBytes += len(ev.Packet)
	l.mu.Unlock()
	l.signal()
}

func (l *enetLink) signal() {
	l.mu.Lock()
	w := l.wake
	l.mu.Unlock()
	if w == nil {
		return // nobody reads yet: ReadFrame looks at the queue before it waits
	}
	select {
	case w <- struct{}{}:
	default:
	}
}

// end records why the connection ended; the first reason stays. A link
// delivering to a Host tells it, once the packet being handled (if any)
// has been.
func (l *enetLink) end(err error) {
	l.mu.Lock()
	if l.err == nil {
		l.err = err
		l.q, l.qHead, l.qBytes = nil, 0, 0
	}
	fin := l.takeFinLocked()
	l.mu.Unlock()
	l.signal()
	if fin != nil {
		fin(l.err)
	}
}

// takeFinLocked returns the Host's end function when it is due (the link
// has ended and no packet is being handled), once.
func (l *enetLink) takeFinLocked() func(error) {
	if l.err == nil || l.busy || l.fin == nil {
		return nil
	}
	fin := l.fin
	l.fin = nil
	return fin
}

// deliver (deliverer) hands the link's packets to handle from now on: on
// the ENet host's goroutine as they arrive (receive), or here for those
// that came first.
func (l *enetLink) deliver(handle func(Frame, error) error, end func(error)) {
	l.mu.Lock()
	l.handle, l.fin = handle, end
	if fin := l.takeFinLocked(); fin != nil {
		l.mu.Unlock()
		fin(l.err)
		return
	}
	l.run()
}

// receive is a packet of the link, on the ENet host's goroutine: handled
// now when the link delivers to a Host and nothing is ahead of it,
// queued otherwise.
func (l *enetLink) receive(ev enet.Event) {
	l.mu.Lock()
	if l.handle == nil || l.busy || l.qHead < len(l.q) {
		l.mu.Unlock()
		l.push(ev)
		return
	}
	if l.err != nil {
		l.mu.Unlock()
		l.peer.Host().ReleasePacket(ev.Packet)
		return
	}
	l.busy = true
	l.mu.Unlock()
	l.handleEvent(ev)
	l.mu.Lock()
	l.busy = false
	l.run()
}

// run handles the queued packets until there are none, with l.mu held on
// entry; it returns with it released. One goroutine handles the link's
// packets at a time (busy).
func (l *enetLink) run() {
	if l.busy || l.handle == nil {
		l.mu.Unlock()
		return
	}
	l.busy = true
	for l.err == nil {
		ev, ok := l.pop()
		if !ok {
			break
		}
		l.mu.Unlock()
		l.handleEvent(ev)
		l.mu.Lock()
	}
	l.busy = false
	fin := l.takeFinLocked()
	l.mu.Unlock()
	if fin != nil {
		fin(l.err)
	}
}

// handleEvent gives a received packet to the Host, then back to ENet.
func (l *enetLink) handleEvent(ev enet.Event) {
	f, ok, err := l.decode(ev)
	var stop error
	if err != nil || ok {
		stop = l.handle(f, err)
	}
	// The frame's data is the packet's, which the Host is done with.
	l.peer.Host().ReleasePacket(ev.Packet)
	if stop != nil {
		l.end(stop)
	}
}

// pop takes the oldest queued packet, under l.mu.
func (l *enetLink) pop() (enet.Event, bool) {
	if l.qHead >= len(l.q) {
		return enet.Event{}, false
	}
	ev := l.q[l.qHead]
	l.q[l.qHead] = enet.Event{}
	l.qHead++
	if l.qHead == len(l.q) {
		l.q, l.qHead = l.q[:0], 0
	}
	l.qBytes -= len(ev.Packet)
	return ev, true
}

func (l *enetLink) ReadFrame() (Frame, error) {
	if l.held != nil {
		// A frame's data is valid until the next read: its buffer goes
		// back to ENet for later packets.
		l.peer.Host().ReleasePacket(l.held)
		l.held = nil
	}
	for {
		l.mu.Lock()
		if l.wake == nil {
			l.wake = make(chan struct{}, 1)
		}
		if len(l.pre) > 0 {
			f := l.pre[0]
			l.pre = l.pre[1:]
			l.mu.Unlock()
			return f, nil
		}
		if ev, ok := l.pop(); ok {
			l.mu.Unlock()
			f, ok, err := l.decode(ev)
			if ok && f.Kind == FrameData {
				l.held = ev.Packet
			} else {
				l.peer.Host().ReleasePacket(ev.Packet)
			}
			if err != nil || ok {
				return f, err
			}
			continue
		}
		if err := l.err; err != nil {
			l.mu.Unlock()
			l.signal() // for a later read
			return Frame{}, err
		}
		w := l.wake
		l.mu.Unlock()
		<-w
	}
}

// modeOf is the transfer mode of a packet received with flags.
func modeOf(flags enet.Flags) TransferMode {
	switch {
	case flags&enet.Reliable != 0:
		return Reliable
	case flags&enet.Unsequenced != 0:
		return Unreliable
	}
	return UnreliableOrdered
}

// decode makes a Frame of a received packet; ok is false for one that is
// ignored.
func (l *enetLink) decode(ev enet.Event) (f Frame, ok bool, err error) {
	f = Frame{Kind: FrameData, Mode: modeOf(ev.Flags)}
	if !l.godot3 {
		f.Data = ev.Packet
		if ev.Channel > enet.Godot4ChannelUnreliable {
			f.Channel = int(ev.Channel) - 1
		}
		f.From, f.To = HostID, l.id
		if l.server {
			f.From, f.To = l.id, HostID
		}
		return f, true, nil
	}
	if ev.Channel == enet.Godot3ChannelConfig {
		if l.server {
			// The engine's server ignores it (only a server sends notices).
			return f, false, perr(0, CmdUnknown, ErrNotAllowed, "a client sent on Godot 3's ENet system channel")
		}
		msg, id, err := enet.ParseGodot3Notice(ev.Packet)
		if err != nil {
			return f, false, perr(len(ev.Packet), CmdUnknown, ErrTruncated, "Godot 3 ENet notice shorter than 8 bytes")
		}
		switch msg {
		case enet.Godot3AddPeer:
			return Frame{Kind: FramePeerAdded, Peer: PeerID(id)}, true, nil
		case enet.Godot3RemovePeer:
			return Frame{Kind: FramePeerRemoved, Peer: PeerID(id)}, true, nil
		}
		return f, false, nil // the engine ignores other notices
	}
	src, dst, payload, err := enet.ParseGodot3Packet(ev.Packet)
	if err != nil {
		return f, false, perr(len(ev.Packet), CmdUnknown, ErrTruncated, "Godot 3 ENet packet shorter than its 8-byte header")
	}
	f.From, f.To, f.Data = PeerID(src), PeerID(dst), payload
	if ev.Channel > enet.Godot3ChannelUnreliable {
		f.Channel = int(ev.Channel)
	}
	return f, true, nil
}

// channelFlags returns the ENet channel and flags of a frame, as the
// engine's put_packet chooses them. A transfer channel the connection
// does not have falls back to the mode's channel.
func (l *enetLink) channelFlags(f Frame) (uint8, enet.Flags) {
	n := l.channels
	if !l.godot3 {
		ch, flags := enet.Godot4Channel(f.Channel, f.Mode == Reliable, f.Mode == UnreliableOrdered)
		if int(ch) >= n {
			ch, flags = enet.Godot4Channel(0, f.Mode == Reliable, f.Mode == UnreliableOrdered)
		}
		return ch, flags
	}
	ch, flags := uint8(enet.Godot3ChannelReliable), enet.Reliable
	switch f.Mode {
	case Unreliable:
		ch, flags = enet.Godot3ChannelUnreliable, enet.Unsequenced
	case UnreliableOrdered:
		ch, flags = enet.Godot3ChannelUnreliable, 0
	}
	if f.Channel > enet.Godot3ChannelConfig && f.Channel < n {
		ch = uint8(f.Channel)
	}
	return ch, flags
}

func (l *enetLink) WriteFrame(f Frame) error {
	switch f.Kind {
	case FrameData:
	case FramePeerAdded, FramePeerRemoved:
		if !l.godot3 || !l.server || f.Peer == HostID {
			return nil
		}
		msg := int32(enet.Godot3AddPeer)
		if f.Kind == FramePeerRemoved {
			msg = enet.Godot3RemovePeer
		}
		var notice [8]byte
		return l.peer.SendPrefixed(enet.Godot3ChannelConfig, enet.AppendGodot3Notice(notice[:0], msg, int32(f.Peer)), nil, enet.Reliable)
	default:
		return nil // the client chose its id
	}
	ch, flags := l.channelFlags(f)
	var head [8]byte
	return l.sent(l.peer.SendPrefixed(ch, l.prefix(&head, f), f.Data, flags)) // copies both
}

// prefix is the header a data frame's packet starts with: Godot 3's 8
// bytes (sender and target), built in head, or none.
func (l *enetLink) prefix(head *[8]byte, f Frame) []byte {
	if !l.godot3 {
		return nil
	}
	return enet.AppendGodot3Packet(head[:0], int32(f.From), int32(f.To), nil)
}

// sent is WriteFrame's result for a packet that ENet's send answered with
// err.
func (l *enetLink) sent(err error) error {
	if errors.Is(err, enet.ErrQueueFull) {
		// The peer does not take what is sent (or the ENet host's budget
		// is spent): the link ends, and what ENet holds for it goes now
		// rather than when a graceful disconnection would drain it.
		l.peer.Disconnect(0)
	}
	return err
}

// queueFor returns, under h.mu, the queue of a peer reached through link:
// its own, or for a link that queues its frames itself (queuer: an ENet
// link) the Host's one closed queue, which holds nothing, so that such a
// peer costs no queue.
func (h *Host) queueFor(link Link, fail func(error)) *outQueue {
	if _, ok := link.(queuer); !ok {
		return newOutQueue(h.o.MaxQueuedBytes, link, fail)
	}
	if h.noQ == nil {
		h.noQ = newOutQueue(0, nil, nil)
		h.noQ.close()
	}
	return h.noQ
}

// queueFrame is WriteFrame for the host's side of the link: ENet's Send
// queues without blocking, charged to the peer's MaxPeerMemory (which
// ENetOptions sizes from MaxQueuedBytes), so a multiplayer Host needs no
// queue or goroutine of its own for the peer, nor a copy of each frame.
func (l *enetLink) queueFrame(f Frame) error {
	return queued(l.WriteFrame(f))
}

// queued is queueFrame's result for a frame that WriteFrame answered with
// err.
func queued(err error) error {
	if errors.Is(err, enet.ErrNotConnected) {
		// The peer has gone, and the ENet event that says so is on its
		// way to the Host, which lets the client go then: the frame
		// goes nowhere, and the client is not dropped for it.
		return nil
	}
	if errors.Is(err, enet.ErrQueueFull) {
		return fmt.Errorf("%w: %w", ErrBudget, err)
	}
	return err
}

// enetBatch gathers the ENet targets of one relayed message, under the
// Host's lock, so that the message is queued for those that share an ENet
// host, a channel, flags and a Godot 3 header with one enet.Host.SendMany:
// one lock of the ENet host and one copy of the packet for all of them,
// where a frame each would take the lock and copy the packet once per
// target.
type enetBatch struct {
	host   *enet.Host
	ch     uint8
	flags  enet.Flags
	head   [8]byte
	prefix []byte // head's Godot 3 header, or nil
	data   []byte
	to     []*hostPeer
	peers  []*enet.Peer
	errs   []error
}

// add queues f for o, whose link is l, with the targets gathered so far
// when they share its ENet host, channel, flags, header and data, or
// after sending those (flush) when not.
func (b *enetBatch) add(h *Host, o *hostPeer, l *enetLink, f Frame) {
	ch, flags := l.channelFlags(f)
	var head [8]byte
	prefix := l.prefix(&head, f)
	host := l.peer.Host()
	if len(b.to) > 0 && (b.host != host || b.ch != ch || b.flags != flags || !bytes.Equal(b.prefix, prefix) ||
		len(b.data) != len(f.Data) || len(f.Data) > 0 && &b.data[0] != &f.Data[0]) {
		b.flush(h)
	}
	if len(b.to) == 0 {
		b.host, b.ch, b.flags, b.data = host, ch, flags, f.Data
		b.head = head
		b.prefix = b.head[:len(prefix)]
		if prefix == nil {
			b.prefix = nil
		}
	}
	b.to = append(b.to, o)
	b.peers = append(b.peers, l.peer)
}

// flush queues the gathered message for its targets, and deals with
// each target's failure as Host.queueLocked does.
func (b *enetBatch) flush(h *Host) {
	if len(b.to) == 0 {
		return
	}
	b.errs = slices.Grow(b.errs[:0], len(b.to))[:len(b.to)]
	b.host.SendMany(b.peers, b.ch, b.prefix, b.data, b.flags, b.errs)
	for i, o := range b.to {
		err := queued(o.link.(*enetLink).sent(b.errs[i]))
		h.queuedLocked(o, FrameData, b.data, err)
	}
	clear(b.to)
	clear(b.peers)
	clear(b.errs)
	b.to, b.peers, b.errs = b.to[:0], b.peers[:0], b.errs[:0]
	b.data = nil
}

func (l *enetLink) Close() error {
	l.end(net.ErrClosed)
	if l.server {
		// Queued packets still go out; the listener forgets the link when
		// the disconnection completes or times out.
		l.peer.DisconnectLater(0)
		return nil
	}
	l.peer.DisconnectLater(0)
	select {
	case <-l.peer.Done():
	case <-time.After(time.Second):
	}
	l.stop()
	<-l.done
	return l.host.Close()
}

// ListenENet listens on addr ("host:port"; port 0 picks one) for Godot
// clients that join with NetworkedMultiplayerENet.create_client (Godot 3)
// or ENetMultiplayerPeer.create_client (Godot 4). Its links share its
// socket: closing the listener ends them too. ctx is not used after
// ListenENet returns.
func ListenENet(ctx context.Context, addr string, o ENetOptions) (Listener, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	cfg, err := o.listenConfig()
	if err != nil {
		return nil, err
	}
	h, err := enet.Listen("udp", addr, cfg)
	if err != nil {
		return nil, err
	}
	// Every link waiting to be accepted holds one of the host's peer
	// slots, so a queue as long as PeerLimit never overflows: the only
	// shared capacity is the slots, which the host hands out after its
	// limits per address.
	slots := cfg.PeerLimit
	if slots == 0 {
		slots = enet.DefaultPeerLimit
	}
	l := &enetListener{h: h, o: o, accept: make(chan *enetLink, slots), links: map[*enet.Peer]*enetLink{}, ids: map[PeerID]*enetLink{}, done: make(chan struct{})}
	// The listener takes ENet's events on ENet's own goroutine: a packet
	// is read, handled by the Host and relayed there, with no hand-off.
	h.Handle(l.handle)
	return l, nil
}

type enetListener struct {
	h      *enet.Host
	o      ENetOptions
	accept chan *enetLink
	done   chan struct{}
	once   sync.Once

	mu    sync.Mutex
	links map[*enet.Peer]*enetLink
	ids   map[PeerID]*enetLink
}

// handle is an event of the ENet host.
func (l *enetListener) handle(ev enet.Event) {
	l.mu.Lock()
	lk := l.links[ev.Peer]
	switch ev.Type {
	case enet.EventConnect:
		// NetworkedMultiplayerENet::poll and ENetMultiplayerPeer's
		// connect event: ids below 2 and taken ids are reset.
		if !enet.ValidGodotClientID(ev.Data, func(id uint32) bool { return l.ids[PeerID(id)] != nil }) {
			l.mu.Unlock()
			ev.Peer.Reset()
			return
		}
		lk = newENetLink(ev.Peer, l.o, true, PeerID(ev.Data))
		l.links[ev.Peer], l.ids[lk.id] = lk, lk
		l.mu.Unlock()
		select {
		case l.accept <- lk:
		default: // cannot happen (see ListenENet); refuse, and say so
			l.remove(lk)
			ev.Peer.DisconnectNow(0)
		}
	case enet.EventReceive:
		l.mu.Unlock()
		if lk != nil {
			lk.receive(ev)
		} else {
			l.h.ReleasePacket(ev.Packet)
		}
	case enet.EventDisconnect:
		l.mu.Unlock()
		if lk != nil {
			l.remove(lk)
			lk.end(io.EOF)
		}
	default:
		l.mu.Unlock()
	}
}

func (l *enetListener) remove(lk *enetLink) {
	l.mu.Lock()
	if l.links[lk.peer] == lk {
		delete(l.links, lk.peer)
		delete(l.ids, lk.id)
	}
	l.mu.Unlock()
}

func (l *enetListener) Accept(ctx context.Context) (Link, error) {
	select {
	case lk := <-l.accept:
		return lk, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-l.done:
		return nil, net.ErrClosed
	}
}

func (l *enetListener) Close() error {
	err := l.h.Close()
	l.once.Do(func() {
		close(l.done)
		l.mu.Lock()
		links := make([]*enetLink, 0, len(l.links))
		for _, lk := range l.links {
			links = append(links, lk)
		}
		l.mu.Unlock()
		for _, lk := range links {
			lk.end(io.EOF)
		}
	})
	return err
}

func (l *enetListener) Addr() net.Addr { return l.h.LocalAddr() }

// DialENet connects to a multiplayer host at addr ("host:port") over
// ENet: a Godot server (NetworkedMultiplayerENet.create_server in Godot 3,
// ENetMultiplayerPeer.create_server in Godot 4) or a Host listening with
// ListenENet. The link picks a random id, as the engine's client does, and
// sends it with the connection. ctx bounds the connection only.
func DialENet(ctx context.Context, addr string, o ENetOptions) (Link, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	ch := o.Channels
	if ch <= 0 {
		ch = enet.Godot4ChannelCount
		if o.Godot == variant.Godot3 {
			ch = enet.Godot3ChannelCount
		}
	}
	id := enet.NewGodotPeerID()
	h, p, err := enet.Dial(ctx, "udp", addr, ch, id, cfg)
	if err != nil {
		return nil, err
	}
	l := newENetLink(p, o, false, PeerID(id))
	l.host = h
	l.pre = []Frame{{Kind: FrameAssignID, Peer: l.id}}
	if l.godot3 {
		l.pre = append(l.pre, Frame{Kind: FramePeerAdded, Peer: HostID})
	}
	sctx, cancel := context.WithCancel(context.Background())
	l.stop, l.done = cancel, make(chan struct{})
	go func() {
		defer close(l.done)
		for {
			ev, err := h.Service(sctx)
			if err != nil {
				l.end(io.EOF)
				return
			}
			switch ev.Type {
			case enet.EventReceive:
				l.push(ev)
			case enet.EventDisconnect:
				l.end(io.EOF)
			}
		}
	}()
	return l, nil
}
