package peer

import (
	"fmt"
	"net/http"
	"time"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/stream"
	"github.com/gdvar/gdvar/variant"
)

// DefaultCloseTimeout is how long Close waits for the peer to close its
// side of a TCP or WebSocket connection when Options.CloseTimeout is 0.
const DefaultCloseTimeout = time.Second

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
}

// config is validated Options.
type config struct {
	opts         Options
	dm           *variant.DecMode
	em           *variant.EncMode
	maxSize      int
	closeTimeout time.Duration
}

func (o Options) config() (*config, error) {
	so := stream.Options{Godot: o.Godot, Dec: o.Dec, Enc: o.Enc}
	dm, em, err := so.Modes()
	if err != nil {
		return nil, fmt.Errorf("peer: %w", err)
	}
	c := &config{opts: o, dm: dm, em: em, maxSize: o.MaxSize, closeTimeout: o.CloseTimeout}
	if c.maxSize == 0 {
		c.maxSize = frame.DefaultMaxSize
	}
	if c.maxSize < 0 || c.maxSize > frame.MaxSizeLimit {
		return nil, fmt.Errorf("peer: MaxSize %d is outside 1..%d", o.MaxSize, frame.MaxSizeLimit)
	}
	if c.closeTimeout == 0 {
		c.closeTimeout = DefaultCloseTimeout
	}
	return c, nil
}

// frameOptions returns the framing of TCP connections.
func (c *config) frameOptions() frame.Options {
	return frame.Options{Kind: frame.Stream, BigEndian: c.opts.BigEndian, MaxSize: c.maxSize}
}
