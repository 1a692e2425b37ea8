package peer

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/stream"
	"github.com/gdvar/gdvar/variant"
)

// DefaultCloseTimeout is how long Close waits for the peer to close its
// side of a TCP or WebSocket connection when Options.CloseTimeout is 0.
const DefaultCloseTimeout = time.Second

// The limits of a server's connections when Options leaves them 0. They
// bound what clients can hold without sending anything useful; a server
// whose clients stay silent for long, or send large values slowly, raises
// them.
const (
	// DefaultIdleTimeout: a connection a server accepted is closed when no
	// byte arrives for 5 minutes while it is read.
	DefaultIdleTimeout = 5 * time.Minute
	// DefaultFrameTimeout: a frame must arrive whole within 1 minute of its
	// first byte (8 MiB in a minute is about 1.1 Mbit/s).
	DefaultFrameTimeout = time.Minute
	// DefaultWriteTimeout: a write to a connection a server accepted that
	// cannot finish within 1 minute (the peer does not read) closes it.
	DefaultWriteTimeout = time.Minute
	// DefaultMaxConns: a Listener or Upgrader holds at most 1024
	// connections at once.
	DefaultMaxConns = 1024
	// DefaultMaxConnsPerIP: a Listener or Upgrader holds at most 64
	// connections at once from one IP address.
	DefaultMaxConnsPerIP = 64
	// DefaultBufferBudget: the frames being received on the connections of
	// one Listener or Upgrader hold at most 64 MiB between them (or
	// MaxSize, if that is larger).
	DefaultBufferBudget = 64 << 20
)

// Options configures connections. The zero value talks to Godot 4 with
// the engine's defaults: no full objects, frames of 8 MiB at most,
// little-endian length prefixes.
type Options struct {
	// Godot is the engine family on the other side. It fills in
	// Dec.Family and Enc.Family where those are 0; 0 means Godot 4.
	Godot variant.Family
	// Dec configures decoding (AllowObjects, MaxDepth).
	Dec variant.DecOptions
	// Enc configures encoding (Version, Precision, FullObjects).
	Enc variant.EncOptions
	// TypedContainers and RejectUnknownFields configure Encode and Decode
	// of Go values, as the fields of the same names in gdvar.EncOptions
	// and gdvar.DecOptions do; Godot, Dec and Enc apply to them too.
	TypedContainers     bool
	RejectUnknownFields bool
	// MaxSize is the largest payload read or written; 0 means
	// frame.DefaultMaxSize (8 MiB, the default encode_buffer_max_size of
	// Godot's PacketPeer). A UDP datagram holds at most 65507 bytes
	// whatever MaxSize says.
	MaxSize int
	// BigEndian writes and reads TCP length prefixes big-endian, for a
	// StreamPeer with big_endian set. Payloads stay little-endian.
	BigEndian bool
	// CloseTimeout bounds how long Close waits for the peer to close its
	// side of a TCP or WebSocket connection; 0 means DefaultCloseTimeout
	// and a negative value does not wait.
	CloseTimeout time.Duration
	// IdleTimeout is how long the peer may send nothing while the
	// connection is read before it is closed with an error matching
	// ErrIdleTimeout. It counts from the last byte received, or from the
	// start of the read that follows one that returned data (so a program
	// busy between reads is not charged for it); reading again after a
	// read deadline does not restart it. WebSocket pings and pongs count
	// as activity. 0 means DefaultIdleTimeout for the connections a server
	// accepts (Listener, Upgrader, UpgradeWebSocket) and no timeout for
	// DialTCP, DialWebSocket, DialUDP and NewConn; a negative value means
	// no timeout. Unlike a read deadline (SetReadDeadline), it ends the
	// connection.
	IdleTimeout time.Duration
	// FrameTimeout is how long a frame (a TCP length prefix and payload,
	// or a WebSocket message) may take to arrive whole, counted from its
	// first byte (a WebSocket message's: from its header, at most 14
	// bytes, which the idle timeout bounds), so that a peer cannot hold a
	// buffer by sending a frame a byte at a time. A frame late past it closes the connection with an
	// error matching ErrFrameTimeout. 0 means DefaultFrameTimeout for the
	// connections a server accepts and none for the others, as for
	// IdleTimeout; a negative value means none.
	FrameTimeout time.Duration
	// WriteTimeout bounds each write, so that a peer that stops reading
	// cannot block a writer, and hold its connection, for ever. A write
	// that times out closes the connection with an error matching
	// ErrWriteTimeout. 0 means DefaultWriteTimeout for the connections a
	// server accepts and none for the others, as for IdleTimeout; a
	// negative value means none.
	WriteTimeout time.Duration
	// MaxConns is the most connections a Listener or an Upgrader holds
	// open at once, counted from the TCP accept to Close (so a WebSocket
	// handshake in progress counts). Connections beyond it are closed as
	// soon as they are accepted, before anything is read: a WebSocket
	// listener first answers them with an HTTP 503 that says why (at most
	// 64 at once, 4 per address; beyond that they are reset, as a TCP
	// listener resets them). 0 means DefaultMaxConns; a negative value
	// means no limit.
	MaxConns int
	// MaxConnsPerIP is the most connections a Listener or an Upgrader
	// holds open at once from one IP address, counted as MaxConns is (a
	// handshake in progress counts against its address). It is checked
	// before MaxConns, so that connections one address is refused take no
	// place from the others. 0 means DefaultMaxConnsPerIP; a negative value
	// means no limit. Behind a reverse proxy every client has the proxy's
	// address: turn it off there (the proxy limits clients itself). An
	// Upgrader, often behind one, applies it only when it is set (0 means
	// none there); UpgradeWebSocket never does.
	MaxConnsPerIP int
	// BufferBudget is the most memory, in bytes, the frames being
	// received may hold together on the connections of one Listener or
	// Upgrader (for UpgradeWebSocket: of the one connection). Each
	// connection reserves its buffer from the budget as a frame's bytes
	// arrive, before it allocates, and gives it back once the frame has
	// been read and the next read starts (a small buffer, up to 4 KiB, is
	// kept between frames). A read that needs more than is left fails with
	// an error matching frame.ErrBudget and the connection is closed at
	// once: a server is better off dropping one client than stalling all
	// of them. 0 means DefaultBufferBudget or MaxSize, whichever is larger;
	// a negative value means no budget. A budget below MaxSize is an
	// error.
	BufferBudget int64
	// WebSocket holds the settings of WebSocket connections.
	WebSocket WebSocketOptions
}

// WebSocketOptions are the settings specific to WebSocket connections.
type WebSocketOptions struct {
	// Origins lists the Origin hosts, besides the server's own host, whose
	// requests UpgradeWebSocket and ListenWebSocket accept, as path.Match
	// patterns of "host" or "host:port": "example.com", "*.example.com",
	// "127.0.0.1:*", or "*" for any. Requests without an Origin header
	// (native Godot games send none) are always accepted. Browsers send
	// the page's origin, so a web export served from elsewhere needs its
	// host listed here.
	Origins []string
	// Subprotocols are the subprotocols offered by DialWebSocket, or
	// supported, in order of preference, by the server side (Godot's
	// WebSocketPeer.supported_protocols).
	Subprotocols []string
	// Header holds extra HTTP headers for DialWebSocket's handshake.
	Header http.Header
	// HandshakeTimeout bounds the server side's opening handshake when
	// ListenWebSocket runs the HTTP server; 0 means 10 seconds.
	HandshakeTimeout time.Duration
	// OnRefused, when set, is told of each request a ListenWebSocket
	// listener answered without upgrading it: an Origin not allowed
	// (*OriginError, which names the option to change) or a request that
	// is not a WebSocket handshake. The client got an HTTP error; remote
	// is its address. Called on the request's goroutine; a flood of bad
	// requests calls it as often, so rate-limit what it logs.
	OnRefused func(remote string, err error)
}

// config is validated Options.
type config struct {
	opts         Options
	dm           *variant.DecMode
	em           *variant.EncMode
	gdm          *gdvar.DecMode // for Decode
	gem          *gdvar.EncMode // for Encode
	maxSize      int
	closeTimeout time.Duration
	maxConns     int   // 0: no limit
	maxPerIP     int   // 0: no limit
	budget       int64 // 0: none
}

func (o Options) config() (*config, error) {
	so := stream.Options{Godot: o.Godot, Dec: o.Dec, Enc: o.Enc,
		TypedContainers: o.TypedContainers, RejectUnknownFields: o.RejectUnknownFields}
	dm, em, err := so.Modes()
	if err != nil {
		return nil, fmt.Errorf("peer: %w", err)
	}
	gdm, gem, err := so.MarshalModes()
	if err != nil {
		return nil, fmt.Errorf("peer: %w", err)
	}
	c := &config{opts: o, dm: dm, em: em, gdm: gdm, gem: gem, maxSize: o.MaxSize, closeTimeout: o.CloseTimeout}
	if c.maxSize == 0 {
		c.maxSize = frame.DefaultMaxSize
	}
	if c.maxSize < 0 || c.maxSize > frame.MaxSizeLimit {
		return nil, fmt.Errorf("peer: MaxSize %d is outside 1..%d", o.MaxSize, frame.MaxSizeLimit)
	}
	if c.closeTimeout == 0 {
		c.closeTimeout = DefaultCloseTimeout
	}
	switch {
	case o.MaxConns == 0:
		c.maxConns = DefaultMaxConns
	case o.MaxConns > 0:
		c.maxConns = o.MaxConns
	}
	switch {
	case o.MaxConnsPerIP == 0:
		c.maxPerIP = DefaultMaxConnsPerIP
	case o.MaxConnsPerIP > 0:
		c.maxPerIP = o.MaxConnsPerIP
	}
	switch {
	case o.BufferBudget == 0:
		c.budget = max(DefaultBufferBudget, int64(c.maxSize))
	case o.BufferBudget > 0:
		c.budget = o.BufferBudget
		if c.budget < int64(c.maxSize) {
			return nil, fmt.Errorf("peer: BufferBudget %d is below MaxSize %d", o.BufferBudget, c.maxSize)
		}
	}
	return c, nil
}

// timeouts returns the idle and frame timeouts of a connection (0: none);
// server says whether a server accepted it.
func (c *config) timeouts(server bool) (idle, frame time.Duration) {
	pick := func(d, def time.Duration) time.Duration {
		switch {
		case d > 0:
			return d
		case d == 0 && server:
			return def
		}
		return 0
	}
	return pick(c.opts.IdleTimeout, DefaultIdleTimeout), pick(c.opts.FrameTimeout, DefaultFrameTimeout)
}

// writeTimeout returns the write timeout of a connection (0: none).
func (c *config) writeTimeout(server bool) time.Duration {
	switch d := c.opts.WriteTimeout; {
	case d > 0:
		return d
	case d == 0 && server:
		return DefaultWriteTimeout
	}
	return 0
}

// frameOptions returns the framing of TCP connections.
func (c *config) frameOptions(budget *frame.Budget) frame.Options {
	return frame.Options{Kind: frame.Stream, BigEndian: c.opts.BigEndian, MaxSize: c.maxSize, Budget: budget}
}
