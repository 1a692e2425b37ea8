package enet

import (
	"context"
	"errors"
	"fmt"
	"math/rand/v2"
	"net"
	"net/netip"
	"sync"
	"sync/atomic"
	"time"
)

// Errors returned by the API. They are wrapped with context where useful;
// compare with errors.Is.
var (
	ErrClosed        = errors.New("enet: host closed")
	ErrNotConnected  = errors.New("enet: peer not connected")
	ErrNoFreePeer    = errors.New("enet: no free peer slot")
	ErrChannel       = errors.New("enet: channel out of range")
	ErrTooLarge      = errors.New("enet: packet larger than MaxPacketSize")
	ErrQueueFull     = errors.New("enet: send budget used up")
	ErrConnectFailed = errors.New("enet: connection failed")
	ErrOtherHost     = errors.New("enet: peer of another host")
)

// EventType says what an Event reports.
type EventType int

const (
	// EventConnect: a peer connected (it dialed us, or our Connect
	// completed). Event.Data is the connect data the peer sent
	// (enet_host_connect's data; 0 on the dialing side).
	EventConnect EventType = iota + 1
	// EventDisconnect: a peer disconnected, timed out or was refused.
	// Event.Data is the data of its DISCONNECT (0 on a timeout).
	EventDisconnect
	// EventReceive: a packet arrived. Event.Packet and Event.Channel.
	EventReceive
)

func (t EventType) String() string {
	switch t {
	case EventConnect:
		return "connect"
	case EventDisconnect:
		return "disconnect"
	case EventReceive:
		return "receive"
	}
	return "none"
}

// Event is what Host.Service returns.
type Event struct {
	Type    EventType
	Peer    *Peer
	Channel uint8
	// Packet is the received packet; the caller owns it, and may give
	// it back with Host.ReleasePacket once done with it.
	Packet []byte
	// Flags says how the packet was sent (Reliable, Unsequenced, or 0 for
	// unreliable sequenced).
	Flags Flags
	// Data is the connect or disconnect data.
	Data uint32

	cost int
}

// Flags select how Peer.Send delivers a packet. They are ENet's
// ENET_PACKET_FLAG_* values.
type Flags uint32

const (
	// Reliable packets arrive, in order on their channel. Without it a
	// packet is unreliable: it may be lost, and one that arrives after a
	// later one of its channel is dropped.
	Reliable Flags = 1 << 0
	// Unsequenced unreliable packets are delivered in whatever order they
	// arrive (duplicates removed).
	Unsequenced Flags = 1 << 1
	// UnreliableFragment sends an unreliable packet larger than one
	// datagram as unreliable fragments (else its fragments are reliable).
	UnreliableFragment Flags = 1 << 3
)

// Host is one ENet endpoint on a UDP socket: it accepts peers, connects to
// peers, or both. Its protocol runs on goroutines of its own; the
// application takes events with Service.
//
// All methods of Host and Peer are safe for concurrent use.
type Host struct {
	cfg        settings
	conn       net.PacketConn
	udp        *net.UDPConn // conn, when it is one (allocation-free I/O)
	batch      *batchWriter // udp's sendmmsg, where the system has it
	start      time.Time
	compressor Compressor

	mu          sync.Mutex
	serviceTime uint32
	peers       []*Peer // slot i holds the peer with incoming ID i, or nil
	pending     int     // peers in their incoming handshake
	connected   int     // connectedPeers
	bwLimited   int     // bandwidthLimitedPeers
	waiting     int     // incoming bytes charged to MaxHostWaitingData and MaxHostMemory
	queued      int     // outgoing bytes charged to MaxHostMemory
	totalQueued uint32
	bwEpoch     uint32
	recalcBW    bool
	events      []Event
	eventsHead  int
	dirty       []*Peer
	dirtySpare  []*Peer
	closed      bool

	// Datagram assembly, used under mu.
	packet []byte
	zbuf   []byte
	dbuf   []byte
	outbox []datagram
	arena  *arenaChunk // the bytes of outbox's datagrams (arena.go)
	// spareOutbox is an emptied outbox kept for the next flush, when a
	// new outbox was started while it was written; outboxHigh is the
	// most datagrams one flush took since the last trim (pools.go).
	spareOutbox []datagram
	outboxHigh  int
	chunks      arenaList // free arena chunks
	freeCmds    outList   // zeroed commands, linked as any queue: the free list takes no room
	// The free lists' low-water marks since the last trim (pools.go).
	freeCmdsLow int
	freeAcks    ackChunks // chunks of the peers' acknowledgement lists (acklist.go)
	freeSendLow [len(sendClasses)]int
	chunksLow   int
	trimEpoch   uint32
	// Reused packet copies (sendbuf.go).
	freeSend      [len(sendClasses)]bufStack
	freeSendBytes int

	eventWake chan struct{}
	sendWake  chan struct{}
	// flushWake tells a send loop waiting out FlushDelay that a peer
	// has a datagram's worth queued (flushNow may now hold).
	flushWake chan struct{}
	frame     *frameSocket // the socket of a host that runs frames (Config.Frame), else nil
	// handler, when set (Handle), takes the events instead of Service;
	// dispatching is held by the goroutine calling it (dispatch).
	handler     func(Event)
	dispatching sync.Mutex
	reading     bool // the read loop is handling a datagram (under mu)
	// readFlushes is set while the read loop runs between two reads: it
	// flushes what is new itself before it reads again (or arms its read
	// deadline for when the flush is due), so nothing need wake the send
	// loop meanwhile.
	readFlushes atomic.Bool
	lastFlush   time.Time // the last flush of what was new (under mu)
	done        chan struct{}
	wg          sync.WaitGroup

	// Statistics.
	stats Stats
	// queueSteps counts the steps of finding, queueing and dispatching
	// incoming commands, for tests that bound that work.
	queueSteps uint64
	// sendWakes counts the wakes of the send loop, for tests that bound
	// them.
	sendWakes atomic.Uint64
}

// Stats counts a host's traffic and what it dropped.
type Stats struct {
	DatagramsReceived uint64
	DatagramsSent     uint64
	BytesReceived     uint64
	BytesSent         uint64
	// DatagramsDropped counts datagrams ignored whole: too short, unknown
	// peer, wrong address or session, bad checksum, undecodable.
	DatagramsDropped uint64
	// CommandsRefused counts commands refused (malformed, out of window,
	// over budget); the rest of their datagram is ignored.
	CommandsRefused uint64
	// ConnectsRefused counts CONNECTs refused because every peer slot was
	// taken or their address had MaxPeersPerIP peers; each was answered
	// with a DISCONNECT.
	ConnectsRefused uint64
	// Memory is what the host holds for its peers now, as charged to
	// MaxHostMemory.
	Memory int
}

type datagram struct {
	ap   netip.AddrPort
	addr net.Addr
	ua   *net.UDPAddr // ap, for a batch (nil: write it alone)
	b    []byte
}

// NewHost starts a host on conn, which it owns from now on (Close closes
// it). cfg may be nil for the defaults. Without RefuseConnections, peers
// may connect to it.
func NewHost(conn net.PacketConn, cfg *Config) (*Host, error) {
	s, err := cfg.settings()
	if err != nil {
		return nil, err
	}
	h := &Host{
		cfg:       s,
		conn:      conn,
		start:     time.Now(),
		peers:     make([]*Peer, s.PeerLimit),
		eventWake: make(chan struct{}, 1),
		sendWake:  make(chan struct{}, 1),
		flushWake: make(chan struct{}, 1),
		done:      make(chan struct{}),
	}
	h.udp, _ = conn.(*net.UDPConn)
	if h.udp != nil {
		_ = h.udp.SetReadBuffer(256 * 1024)
		_ = h.udp.SetWriteBuffer(256 * 1024)
		h.batch = newBatchWriter(h.udp)
	}
	switch {
	case s.Compressor != nil:
		h.compressor = s.Compressor
	default:
		h.compressor = NewCompressor(s.Compression)
	}
	h.serviceTime = h.now()
	if s.Frame > 0 && h.udp != nil {
		if f := newFrameSocket(h.udp); f != nil {
			h.frame, h.udp, h.batch = f, nil, nil
			h.wg.Add(1)
			go h.frameLoop()
			return h, nil
		}
	}
	// The read buffers are made here, not on the read loop, so that
	// the host has them once NewHost returns.
	var batch *batchReader
	var buf []byte
	if h.udp != nil {
		batch = newBatchReader(h.udp)
	}
	if batch == nil {
		buf = make([]byte, 65536)
	}
	h.wg.Add(2)
	go h.readLoop(batch, buf)
	go h.sendLoop()
	return h, nil
}

// Listen opens a UDP socket on address (network "udp", "udp4" or "udp6")
// and starts a host on it that peers connect to.
func Listen(network, address string, cfg *Config) (*Host, error) {
	conn, err := net.ListenPacket(network, address)
	if err != nil {
		return nil, err
	}
	h, err := NewHost(conn, cfg)
	if err != nil {
		conn.Close()
		return nil, err
	}
	return h, nil
}

// Dial opens a UDP socket, starts a client host on it (one peer and no
// incoming connections, unless cfg sets a PeerLimit) and connects to address
// with channels channels and connect data data. It returns when the
// connection is made, fails, or ctx ends. Close the host when done.
func Dial(ctx context.Context, network, address string, channels int, data uint32, cfg *Config) (*Host, *Peer, error) {
	raddr, err := net.ResolveUDPAddr(network, address)
	if err != nil {
		return nil, nil, err
	}
	laddr := ":0"
	if raddr.IP.To4() == nil && raddr.IP != nil {
		laddr = "[::]:0"
	}
	conn, err := net.ListenPacket(network, laddr)
	if err != nil {
		return nil, nil, err
	}
	var c Config
	if cfg != nil {
		c = *cfg
	}
	if c.PeerLimit == 0 {
		c.PeerLimit = 1
		c.RefuseConnections = true
	}
	h, err := NewHost(conn, &c)
	if err != nil {
		conn.Close()
		return nil, nil, err
	}
	p, err := h.Connect(ctx, raddr, channels, data)
	if err != nil {
		h.Close()
		return nil, nil, err
	}
	return h, p, nil
}

// LocalAddr is the address of the host's socket.
func (h *Host) LocalAddr() net.Addr {
	if h.frame != nil {
		return h.frame.local
	}
	return h.conn.LocalAddr()
}

// Stats returns the host's counters.
func (h *Host) Stats() Stats {
	h.mu.Lock()
	defer h.mu.Unlock()
	s := h.stats
	s.Memory = h.memory()
	return s
}

// Peers returns the peers that are connected now.
func (h *Host) Peers() []*Peer {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []*Peer
	for _, p := range h.peers {
		if p != nil && (p.state == stateConnected || p.state == stateDisconnectLater) {
			out = append(out, p)
		}
	}
	return out
}

// now is the host's clock: milliseconds since it started, from 1, as
// ENet's 32-bit service time.
func (h *Host) now() uint32 {
	return uint32(time.Since(h.start).Milliseconds()) + 1
}

// Connect starts a connection to addr asking for channels channels
// (1..255) and sending data as the connect data, and waits until it is
// made (the peer is then also reported by an EventConnect), fails, or ctx
// ends (the attempt is then abandoned).
//
// A failed attempt is a *ConnectError that says what the host saw: no
// answer at all, datagrams it could not read (the other side's
// compression or checksum settings differ), or an answer that ended in a
// refusal.
func (h *Host) Connect(ctx context.Context, addr net.Addr, channels int, data uint32) (*Peer, error) {
	before := h.Stats()
	p, err := h.ConnectAsync(addr, channels, data)
	if err != nil {
		return nil, err
	}
	select {
	case <-p.connectedCh:
		return p, nil
	case <-p.closedCh:
		return nil, h.connectError(addr, before, ErrConnectFailed)
	case <-h.done:
		return nil, ErrClosed
	case <-ctx.Done():
		p.Reset()
		return nil, h.connectError(addr, before, ctx.Err())
	}
}

// ConnectError is a failed Connect (or Dial): to whom, what the host saw
// while it tried (Reason), and the error that ended the attempt (Err: the
// context's, or ErrConnectFailed when ENet gave up or the other side
// disconnected), which it wraps.
type ConnectError struct {
	Addr   net.Addr
	Reason string
	Err    error
}

func (e *ConnectError) Error() string {
	return fmt.Sprintf("enet: connecting to %v: %s: %v", e.Addr, e.Reason, e.Err)
}

func (e *ConnectError) Unwrap() error { return e.Err }

// connectError classifies a failed attempt by the datagrams the host
// received since it started (before): the host's counters, so a host with
// other peers may count their datagrams too.
func (h *Host) connectError(addr net.Addr, before Stats, err error) error {
	now := h.Stats()
	got := now.DatagramsReceived - before.DatagramsReceived
	dropped := now.DatagramsDropped - before.DatagramsDropped
	var reason string
	switch {
	case got == 0:
		reason = "no answer (is a host listening on that UDP port, and reachable?)"
	case dropped == got:
		reason = fmt.Sprintf("%d datagrams answered that this host could not read: the other side's "+
			"compression (Godot: compression_mode) or checksum settings differ from this host's", got)
	default:
		reason = "the other side answered, then refused or dropped the connection " +
			"(a full host, or one that refuses this connect data, such as a peer id already taken)"
	}
	return &ConnectError{Addr: addr, Reason: reason, Err: err}
}

// ConnectAsync starts a connection as Connect does and returns at once;
// the outcome is an EventConnect or EventDisconnect for the peer.
func (h *Host) ConnectAsync(addr net.Addr, channels int, data uint32) (*Peer, error) {
	if channels < minChannelCount {
		channels = minChannelCount
	} else if channels > maxChannelCount {
		channels = maxChannelCount
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	slot := -1
	for i, q := range h.peers {
		if q == nil {
			slot = i
			break
		}
	}
	if slot < 0 {
		return nil, ErrNoFreePeer
	}
	p := h.newPeer(uint16(slot))
	p.setAddr(addr)
	p.channelCount = uint8(channels)
	p.connectedCh = make(chan struct{})
	p.doneCh()
	p.state = stateConnecting
	p.connectData = data
	p.connectID = rand.Uint32()
	if h.cfg.OutgoingBandwidth == 0 {
		p.windowSize = maxWindowSize
	} else {
		p.windowSize = clampWindow(h.cfg.OutgoingBandwidth / windowSizeScale * minWindowSize)
	}
	c := command{
		command:           cmdConnect | flagAcknowledge,
		channelID:         0xFF,
		outgoingPeerID:    p.id,
		incomingSessionID: p.incomingSessionID,
		outgoingSessionID: p.outgoingSessionID,
		mtu:               p.mtu,
		windowSize:        p.windowSize,
		channelCount:      uint32(channels),
		incomingBandwidth: h.cfg.IncomingBandwidth,
		outgoingBandwidth: h.cfg.OutgoingBandwidth,
		throttleInterval:  p.packetThrottleInterval,
		throttleAccel:     p.packetThrottleAcceleration,
		throttleDecel:     p.packetThrottleDeceleration,
		connectID:         p.connectID,
		data:              data,
	}
	h.peers[slot] = p
	h.queueOutgoing(p, &c, nil, 0, 0)
	h.wakeSender()
	return p, nil
}

// Service returns the next event, waiting for one until ctx ends or the
// host is closed. Received packets stay charged to the peer's
// MaxWaitingData budget until Service returns them, so a host that is not
// serviced stops accepting data (reliable senders then back off and
// retransmit) rather than growing without bound.
func (h *Host) Service(ctx context.Context) (Event, error) {
	for {
		h.mu.Lock()
		if h.handler == nil {
			if ev, ok := h.nextEvent(); ok {
				h.mu.Unlock()
				return ev, nil
			}
		}
		closed := h.closed
		h.mu.Unlock()
		if closed {
			return Event{}, ErrClosed
		}
		select {
		case <-h.eventWake:
		case <-h.done:
		case <-ctx.Done():
			return Event{}, ctx.Err()
		}
	}
}

// nextEvent takes the next event, if any, under h.mu; its packet is no
// longer charged to the peer's budgets.
func (h *Host) nextEvent() (Event, bool) {
	if h.eventsHead >= len(h.events) {
		return Event{}, false
	}
	ev := h.events[h.eventsHead]
	h.events[h.eventsHead] = Event{}
	h.eventsHead++
	switch {
	case h.eventsHead == len(h.events):
		h.events = h.events[:0]
		h.eventsHead = 0
	case h.eventsHead >= 1024 && h.eventsHead > len(h.events)/2:
		// A reader that never quite catches up: drop the taken
		// events' room rather than let the queue grow.
		n := copy(h.events, h.events[h.eventsHead:])
		clear(h.events[n:])
		h.events = h.events[:n]
		h.eventsHead = 0
	}
	if ev.cost > 0 {
		h.waiting -= ev.cost
		if ev.Peer != nil {
			ev.Peer.waiting -= ev.cost
		}
	}
	ev.cost = 0
	return ev, true
}

// Handle makes the host give its events to fn instead of returning them
// from Service, from now on (events waiting are given first): fn is
// called on the host's own goroutines, those that read the socket and
// keep time, one event at a time and in order. A received packet is then
// read, handled and answered on one goroutine, with no hand-off to
// another, which saves the cost of a wake per packet.
//
// fn must return soon: while it runs, the host reads no datagrams. It may
// call the host's and its peers' methods (Send, Disconnect, ...), except
// Close, which waits for the host's goroutines and so for fn; events those
// calls cause are given to fn after it returns. The packet of an
// EventReceive is fn's to keep; it may give it back with ReleasePacket.
// Service waits (for the host to close, or its context) once a handler
// is set. Handle can be called once; later calls do nothing.
func (h *Host) Handle(fn func(Event)) {
	h.mu.Lock()
	if h.handler != nil || fn == nil {
		h.mu.Unlock()
		return
	}
	h.handler = fn
	h.mu.Unlock()
	h.dispatch()
}

// dispatch gives the waiting events to the handler, if there is one. One
// goroutine dispatches at a time; a goroutine that finds another
// dispatching leaves its events to it (the dispatcher looks again after
// it lets go), so that neither the read nor the send loop ever waits for
// a handler running on the other, and a handler that causes events does
// not deadlock.
func (h *Host) dispatch() {
	for {
		if !h.dispatching.TryLock() {
			return
		}
		for {
			h.mu.Lock()
			fn := h.handler
			if fn == nil || h.closed {
				h.mu.Unlock()
				break
			}
			ev, ok := h.nextEvent()
			h.mu.Unlock()
			if !ok {
				break
			}
			fn(ev)
		}
		h.dispatching.Unlock()
		h.mu.Lock()
		more := h.handler != nil && !h.closed && h.eventsHead < len(h.events)
		h.mu.Unlock()
		if !more {
			return
		}
	}
}

// Broadcast sends data to every connected peer, as Peer.Send
// (enet_host_broadcast), with one copy of data that they share (as
// SendMany). It returns the first error of a peer, after trying them all.
func (h *Host) Broadcast(ch uint8, data []byte, flags Flags) error {
	h.mu.Lock()
	defer h.mu.Unlock()
	var first error
	shared, how := h.sharePacket(nil, data)
	for _, p := range h.peers {
		if p == nil || p.state != stateConnected {
			continue
		}
		if err := h.send(p, ch, nil, shared, flags, how); err != nil {
			if first == nil {
				first = err
			}
			continue
		}
		h.queued1(p)
	}
	h.shareDone(shared, how)
	h.wakeSender()
	return first
}

// Flush sends what is queued now instead of at the next service tick.
// Sends are flushed by the host's own goroutine soon anyway; Flush is for
// the moment before Close.
func (h *Host) Flush() {
	h.mu.Lock()
	h.serviceTime = h.now()
	h.sendOutgoing(false)
	out, chunks := h.takeOutbox()
	h.mu.Unlock()
	h.write(out, chunks)
}

// Close disconnects nobody (use Peer.Disconnect first for that), sends
// what is queued, and closes the socket. Pending Service calls return
// ErrClosed.
func (h *Host) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.serviceTime = h.now()
	h.sendOutgoing(false)
	out, chunks := h.takeOutbox()
	h.closed = true
	for _, p := range h.peers {
		if p != nil {
			h.resetPeer(p)
		}
	}
	h.mu.Unlock()
	h.write(out, chunks)
	close(h.done)
	if h.frame != nil {
		h.frame.wake()
		h.wg.Wait()
		return h.frame.close()
	}
	err := h.conn.Close()
	h.wg.Wait()
	return err
}

func (h *Host) pushEvent(ev Event) {
	h.events = append(h.events, ev)
	if h.handler != nil {
		// The read loop dispatches what its datagram caused; the send
		// loop what anything else did (timeouts, the application's calls).
		if !h.reading {
			h.wakeSender()
		}
		return
	}
	select {
	case h.eventWake <- struct{}{}:
	default:
	}
}

func (h *Host) wakeSender() {
	if h.frame != nil {
		// The frame loop flushes each frame; only its idle wait needs
		// waking.
		if h.frame.idle.Load() {
			h.frame.wake()
		}
		return
	}
	if h.readFlushes.Load() {
		return // the read loop looks before it reads again
	}
	select {
	case h.sendWake <- struct{}{}:
		h.sendWakes.Add(1)
	default:
	}
}

func (h *Host) markDirty(p *Peer) {
	if !p.dirty {
		p.dirty = true
		h.dirty = append(h.dirty, p)
	}
}
