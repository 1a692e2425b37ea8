package enet

import (
	"fmt"
	"time"
)

// Compression selects how a host compresses its datagrams. Both ends of
// a connection must use the same mode: ENet's header only says that a
// datagram is compressed, not how.
type Compression int

const (
	// CompressNone sends datagrams as they are (ENet's and Godot's default).
	CompressNone Compression = iota
	// CompressRangeCoder is ENet's built-in range coder
	// (enet_host_compress_with_range_coder; Godot's COMPRESS_RANGE_CODER).
	CompressRangeCoder
	// CompressZlib is Godot's COMPRESS_ZLIB: each datagram body is one
	// zlib stream (RFC 1950), as Godot's Compression::MODE_DEFLATE writes.
	CompressZlib
)

func (c Compression) String() string {
	switch c {
	case CompressNone:
		return "none"
	case CompressRangeCoder:
		return "range coder"
	case CompressZlib:
		return "zlib"
	}
	return fmt.Sprintf("Compression(%d)", int(c))
}

// Compressor compresses datagram bodies (everything after ENet's
// header). RangeCoder is one.
type Compressor interface {
	// Compress appends the compressed form of src to dst and returns it,
	// or returns nil when that would take more than limit bytes.
	Compress(dst, src []byte, limit int) []byte
	// Decompress appends the decompressed form of src to dst; it reports
	// false when src is not valid or decompresses to more than limit
	// bytes.
	Decompress(dst, src []byte, limit int) ([]byte, bool)
}

// Config holds a host's settings. The zero value of each field selects
// the default named in its comment; the defaults are ENet's own where ENet
// has one.
type Config struct {
	// PeerLimit is the number of peers (connected, connecting and being
	// disconnected) the host keeps at once: enet_host_create's peerCount.
	// Default 32, at most 4095.
	PeerLimit int
	// ChannelLimit caps the channels a connecting peer may ask for.
	// Default 255 (ENet's maximum).
	ChannelLimit int
	// IncomingBandwidth and OutgoingBandwidth are the host's bandwidth in
	// bytes per second, 0 for unlimited (the default). ENet sizes the
	// reliable window and throttles unreliable packets from them.
	IncomingBandwidth uint32
	OutgoingBandwidth uint32
	// MTU is the largest datagram the host sends. Default 1392, between
	// 576 and 4096.
	MTU int
	// MaxPacketSize is the largest packet sent or accepted, fragmented or
	// not. Default 32 MiB (ENet's default).
	MaxPacketSize int
	// MaxPeerMemory is the per-peer budget for everything the host holds
	// for one peer, both ways, at what it really costs (the bytes of the
	// packets, as the allocator rounds them, and the structures that
	// queue them): packets queued by Send, sent and not yet acknowledged,
	// or not yet sent; received packets not yet taken with Service;
	// fragments of packets being reassembled; the index of reliable
	// commands waiting for an earlier one. A Send that would take a peer
	// beyond it disconnects the peer (a DISCONNECT is sent, everything
	// queued for and from it is dropped, an EventDisconnect follows) and
	// fails with ErrQueueFull; received data beyond it is refused, as
	// beyond MaxWaitingData. Default 64 MiB.
	MaxPeerMemory int
	// MaxHostMemory is the same budget for all the host's peers together.
	// Beyond it, Send fails with ErrQueueFull (the peer stays) and
	// received data is refused. Default 256 MiB.
	MaxHostMemory int
	// MaxWaitingData is the per-peer budget for received data not yet
	// taken with Service, including packets being reassembled from
	// fragments and the reliable index, within MaxPeerMemory. When it is
	// used up, new incoming packets of the peer are dropped (reliable ones
	// are then retransmitted by the sender later), except the packet a
	// channel waits for next, which may take the peer up to one more
	// MaxPacketSize (and never beyond MaxPeerMemory), so that a gap can
	// always be filled. Default 32 MiB (ENet's maximumWaitingData).
	MaxWaitingData int
	// MaxHostWaitingData is the same budget for all peers of the host
	// together. Default MaxHostMemory.
	MaxHostWaitingData int
	// MaxOutgoingData is the per-peer budget for packets queued by Send
	// and not yet acknowledged (reliable) or sent (unreliable), within
	// MaxPeerMemory; Send fails with ErrQueueFull beyond it and the peer
	// stays connected. Default MaxPeerMemory: set it lower to have Send
	// push back before a peer that does not keep up is disconnected.
	MaxOutgoingData int
	// MaxPendingConnections caps the incoming connections that are in
	// their handshake (CONNECT received, not yet acknowledged). Further
	// CONNECTs are dropped, and the clients' resent CONNECTs find room
	// once handshakes complete or time out. Default 64.
	MaxPendingConnections int
	// MaxPendingPerIP caps the handshakes in progress from one IP
	// address, checked before MaxPendingConnections, so that one address
	// cannot hold every pending place. Default MaxPendingConnections/8
	// (at least 1).
	MaxPendingPerIP int
	// MaxPeersPerIP caps the peers from one IP address (ENet's
	// duplicatePeers), checked before a peer slot is taken. Default:
	// PeerLimit (no extra limit, as ENet). A CONNECT refused by it, or
	// because every slot is taken, is answered with a DISCONNECT, so the
	// client fails at once instead of after its timeout.
	MaxPeersPerIP int
	// RefuseConnections makes the host drop every CONNECT: a host that
	// only dials out. Dial sets it.
	RefuseConnections bool
	// Compression selects the datagram compressor. Default CompressNone.
	Compression Compression
	// Compressor, when set, is used instead of Compression: for Godot's
	// COMPRESS_FASTLZ and COMPRESS_ZSTD, which frame each datagram body as
	// one FastLZ block (bodies under 16 bytes zero-padded to 16 first)
	// or one Zstandard frame. The host calls it with its lock held, from
	// its own goroutines; give each host its own.
	Compressor Compressor
	// Checksum adds ENet's CRC32 checksum (enet_crc32) to every datagram.
	// Both ends must agree; Godot does not enable it. Default off.
	Checksum bool
	// PingInterval is how often an idle peer is pinged. Default 500 ms.
	PingInterval time.Duration
	// TimeoutLimit, TimeoutMinimum and TimeoutMaximum are enet_peer_timeout's
	// parameters for new peers: a peer is dropped when a reliable command
	// went unacknowledged for TimeoutMaximum, or for TimeoutMinimum once
	// it was resent so often that its backed-off timeout reached
	// TimeoutLimit round trips. Defaults 32, 5 s and 30 s.
	TimeoutLimit   int
	TimeoutMinimum time.Duration
	TimeoutMaximum time.Duration
	// HandshakeTimeout bounds how long an incoming connection may stay in
	// its handshake. Default 5 s.
	HandshakeTimeout time.Duration
	// ServiceInterval is the period of the host's timer, which resends
	// lost reliable commands, pings idle peers and times peers out.
	// Default 5 ms.
	ServiceInterval time.Duration
	// FlushDelay is the shortest time between two flushes of what is
	// new to send (packets queued by Send, acknowledgements owed for
	// datagrams received): what is queued and received meanwhile shares
	// datagrams, as with libenet, which sends once per enet_host_service
	// call (Godot: once a frame). A flush after a quiet spell goes at
	// once, so FlushDelay delays packets only when they come faster than
	// one per FlushDelay; so does a flush for a peer whose reliable
	// window held packets back, that has a datagram's worth of reliable
	// packets queued, or that is owed acknowledgements for a quarter of
	// its window, so that a bulk reliable sender is not slowed by it.
	// Default 1 ms; negative flushes at every Send.
	FlushDelay time.Duration
	// Frame, when positive, runs the host as a game runs
	// enet_host_service once a frame (Godot's headless server: about 7
	// ms): one goroutine reads every datagram that came, gives the events
	// to the handler (Handle), services the peers and sends what is new
	// in one flush, then sleeps out the frame; a host with nothing to do
	// waits for the next datagram, a Send or its next service tick. It
	// waits in system calls on a descriptor taken out of Go's poller, so
	// a busy host costs one wake a frame instead of the scheduler's work
	// for every read, flush and timer. What is sent waits up to a frame,
	// as with the engine; the first datagram after a quiet spell is
	// handled at once. It needs a *net.UDPConn on Linux (Listen and Dial
	// make one); elsewhere Frame acts as FlushDelay (when that is not
	// set). FlushDelay and the flush rules for bulk reliable transfers do
	// not apply: such a sender sends its window once a frame. Default 0:
	// off.
	Frame time.Duration
}

// Defaults.
const (
	DefaultPeerLimit             = 32
	DefaultMTU                   = 1392
	DefaultMaxPacketSize         = 32 << 20
	DefaultMaxPeerMemory         = 64 << 20
	DefaultMaxHostMemory         = 256 << 20
	DefaultMaxWaitingData        = 32 << 20
	DefaultMaxHostWaitingData    = DefaultMaxHostMemory // the default of MaxHostWaitingData
	DefaultMaxOutgoingData       = DefaultMaxPeerMemory // the default of MaxOutgoingData
	DefaultMaxPendingConnections = 64
	DefaultPingInterval          = 500 * time.Millisecond
	DefaultTimeoutLimit          = 32
	DefaultTimeoutMinimum        = 5 * time.Second
	DefaultTimeoutMaximum        = 30 * time.Second
	DefaultHandshakeTimeout      = 5 * time.Second
	DefaultServiceInterval       = 5 * time.Millisecond
	DefaultFlushDelay            = time.Millisecond
)

// settings is a Config with the defaults filled in and checked.
type settings struct {
	Config
	pingInterval, timeoutMinimum, timeoutMaximum, handshakeTimeout uint32 // ms
}

func (c *Config) settings() (settings, error) {
	var s settings
	if c != nil {
		s.Config = *c
	}
	def := func(v *int, d int) {
		if *v == 0 {
			*v = d
		}
	}
	def(&s.PeerLimit, DefaultPeerLimit)
	def(&s.ChannelLimit, maxChannelCount)
	def(&s.MTU, DefaultMTU)
	def(&s.MaxPacketSize, DefaultMaxPacketSize)
	def(&s.MaxPeerMemory, DefaultMaxPeerMemory)
	def(&s.MaxHostMemory, DefaultMaxHostMemory)
	def(&s.MaxWaitingData, DefaultMaxWaitingData)
	def(&s.MaxHostWaitingData, s.MaxHostMemory)
	def(&s.MaxOutgoingData, s.MaxPeerMemory)
	def(&s.MaxPendingConnections, DefaultMaxPendingConnections)
	def(&s.MaxPeersPerIP, s.PeerLimit)
	def(&s.MaxPendingPerIP, max(1, s.MaxPendingConnections/8))
	def(&s.TimeoutLimit, DefaultTimeoutLimit)
	dur := func(v *time.Duration, d time.Duration) uint32 {
		if *v == 0 {
			*v = d
		}
		ms := v.Milliseconds()
		if ms < 1 {
			ms = 1
		}
		if ms > 1<<30 {
			ms = 1 << 30
		}
		return uint32(ms)
	}
	s.pingInterval = dur(&s.PingInterval, DefaultPingInterval)
	s.timeoutMinimum = dur(&s.TimeoutMinimum, DefaultTimeoutMinimum)
	s.timeoutMaximum = dur(&s.TimeoutMaximum, DefaultTimeoutMaximum)
	s.handshakeTimeout = dur(&s.HandshakeTimeout, DefaultHandshakeTimeout)
	if s.FlushDelay == 0 {
		s.FlushDelay = DefaultFlushDelay
		if s.Frame > 0 {
			s.FlushDelay = s.Frame
		}
	}
	if s.ServiceInterval == 0 {
		s.ServiceInterval = DefaultServiceInterval
	}
	switch {
	case s.PeerLimit < 0 || s.PeerLimit > maxPeerID:
		return s, fmt.Errorf("enet: PeerLimit %d out of range 1..%d", s.PeerLimit, maxPeerID)
	case s.ChannelLimit < 0 || s.ChannelLimit > maxChannelCount:
		return s, fmt.Errorf("enet: ChannelLimit %d out of range 1..%d", s.ChannelLimit, maxChannelCount)
	case s.MTU < minMTU || s.MTU > maxMTU:
		return s, fmt.Errorf("enet: MTU %d out of range %d..%d", s.MTU, minMTU, maxMTU)
	case s.MaxPacketSize < 0 || s.MaxWaitingData < 0 || s.MaxHostWaitingData < 0 || s.MaxOutgoingData < 0 ||
		s.MaxPeerMemory < 0 || s.MaxHostMemory < 0:
		return s, fmt.Errorf("enet: negative budget")
	case s.Compression < CompressNone || s.Compression > CompressZlib:
		return s, fmt.Errorf("enet: unknown %v", s.Compression)
	case s.ServiceInterval < 0 || s.Frame < 0 || s.TimeoutLimit < 0 || s.MaxPendingConnections < 0 || s.MaxPeersPerIP < 0 || s.MaxPendingPerIP < 0:
		return s, fmt.Errorf("enet: negative setting")
	}
	return s, nil
}
