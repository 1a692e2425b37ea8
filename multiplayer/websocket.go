package multiplayer

import (
	"cmp"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"sync"
	"time"

	"github.com/gdvar/gdvar/internal/loglimit"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// Godot 3's WebSocketMultiplayerPeer puts a 9-byte header before every
// message: [type u8, from i32, to i32]; system messages carry an i32 peer id
// after it.
const (
	ws3HeaderSize = 9
	ws3SysNone    = 0
	ws3SysAdd     = 1
	ws3SysDel     = 2
	ws3SysID      = 3
)

// WebSocketOptions configures WebSocket links.
type WebSocketOptions struct {
	// Godot is the engine family of the other side: 0 or 4 for Godot 4's
	// WebSocketMultiplayerPeer, 3 for Godot 3's.
	Godot variant.Family
	// Peer holds the settings of the underlying connections (origins,
	// subprotocols, handshake timeout, close timeout). Its MaxSize is
	// replaced by MaxPacketSize.
	Peer peer.Options
	// MaxPacketSize is the largest message read; 0 means
	// DefaultMaxPacketSize. A larger message closes the connection.
	MaxPacketSize int
	// WriteDelay, for a Host, is how long the frames queued for a client
	// wait before they are written, so that those queued meanwhile go out
	// with them in one write (one system call): the host spends less CPU
	// per message, and each message arrives up to WriteDelay later. 0
	// writes at once, and batches only what piles up during a write (or,
	// with the Poller, what the messages that arrived together queued).
	// With the Poller, the host works as Godot's does, once a frame: its
	// clients are read and their messages handled at most once per
	// WriteDelay while there is work, and what that queued for a client
	// goes out in one write (each WriteDelay in use has the process's
	// Poller of its own, kept for the process's life). Godot's own host
	// polls its connections every frame, about every 7 ms on a headless
	// server, so its messages wait that long at most.
	WriteDelay time.Duration
	// NoPoller, for a Host, serves each client on goroutines of its own (a
	// reader, and a writer while frames wait) rather than through the
	// process's peer.Poller, which reads every client from a goroutine per
	// core and writes what a round of messages queued in one write per
	// client. With the Poller (Linux), the host's RPC methods, OnBytes,
	// Observe and OnDisconnect run on the Poller's goroutines, for many
	// clients (and rooms) one at a time, as Godot runs them on its main
	// thread: one that blocks holds up the others; set NoPoller when they
	// must block. Elsewhere, and for connections not over TCP, clients
	// have goroutines of their own.
	NoPoller bool
	// WriteTimeout bounds each write (a batch of the frames queued for a
	// peer, for a Host), to between 7/8 of it and all of it; 0 means
	// DefaultWriteTimeout.
	WriteTimeout time.Duration
	// Logger receives, from ListenWebSocket, the handshakes it refused:
	// at Warn a browser page whose Origin is not allowed (with the option
	// that allows it: Peer.WebSocket.Origins), at Info requests that are
	// not WebSocket handshakes; at most 10 lines of each kind at once,
	// then one a second, each saying how many were held back. nil means
	// slog.Default(); Peer.WebSocket.OnRefused, when set, is called
	// instead.
	Logger *slog.Logger
}

// DefaultMaxPacketSize is the default largest packet: 64 KiB, the default
// inbound buffer of Godot 4's WebSocketMultiplayerPeer (its
// inbound_buffer_size), so nothing a Godot client can send is refused.
const DefaultMaxPacketSize = 64 << 10

// DefaultWriteTimeout is the default bound of a single write.
const DefaultWriteTimeout = 10 * time.Second

func (o WebSocketOptions) peerOptions() peer.Options {
	po := o.Peer
	po.MaxSize = o.MaxPacketSize
	if po.MaxSize <= 0 {
		po.MaxSize = DefaultMaxPacketSize
	}
	if o.Godot == variant.Godot3 {
		po.MaxSize += ws3HeaderSize
	}
	return po
}

type wsLink struct {
	c            *peer.Conn
	godot3       bool
	writeTimeout time.Duration
	writeDelay   time.Duration
	wdl          time.Time // the write deadline set last
	buf          []byte
}

// wsScratch is writeFrames' scratch, pooled so that an idle link holds
// none: the frames' headers, their pieces, and the payloads made of them.
type wsScratch struct {
	hdrs  []byte
	parts [][]byte
	ps    []net.Buffers
}

var wsScratchPool = sync.Pool{New: func() any { return new(wsScratch) }}

func newWSLink(c *peer.Conn, o WebSocketOptions) *wsLink {
	wt := o.WriteTimeout
	if wt <= 0 {
		wt = DefaultWriteTimeout
	}
	return &wsLink{c: c, godot3: o.Godot == variant.Godot3, writeTimeout: wt, writeDelay: max(o.WriteDelay, 0)}
}

func (l *wsLink) gatherDelay() time.Duration { return l.writeDelay }

// NewWebSocketLink makes a Link of a WebSocket connection accepted or dialled
// elsewhere (for instance with peer.UpgradeWebSocket in an existing HTTP
// server).
func NewWebSocketLink(c *peer.Conn, o WebSocketOptions) Link { return newWSLink(c, o) }

func (l *wsLink) RemoteAddr() net.Addr { return l.c.RemoteAddr() }
func (l *wsLink) Close() error         { return l.c.Close() }

// closeWith closes the link with a close frame of code and reason.
func (l *wsLink) closeWith(code int, reason string) error { return l.c.CloseWith(code, reason) }

// refuse closes the link with the reason a host refuses the client (a
// close frame with status 1008).
func (l *wsLink) refuse(reason string) { l.c.Refuse(reason) }

// SetReadDeadline bounds the next reads.
func (l *wsLink) SetReadDeadline(t time.Time) error { return l.c.SetReadDeadline(t) }

func (l *wsLink) ReadFrame() (Frame, error) {
	b, err := l.c.ReadPayload()
	if err != nil {
		return Frame{}, err
	}
	return l.frameOf(b)
}

// frameOf is the frame of a message received: its data, or for Godot 3
// the frame its 9-byte header says. A message that is not one is a
// *PacketError.
func (l *wsLink) frameOf(b []byte) (Frame, error) {
	if !l.godot3 {
		return Frame{Kind: FrameData, Data: b, Mode: Reliable}, nil
	}
	if len(b) < ws3HeaderSize {
		return Frame{}, perr(len(b), CmdUnknown, ErrTruncated, "Godot 3 WebSocket message shorter than its 9-byte header")
	}
	f := Frame{
		From: PeerID(int32(binary.LittleEndian.Uint32(b[1:]))),
		To:   PeerID(int32(binary.LittleEndian.Uint32(b[5:]))),
		Mode: Reliable,
	}
	body := b[ws3HeaderSize:]
	switch b[0] {
	case ws3SysNone:
		f.Kind, f.Data = FrameData, body
		return f, nil
	case ws3SysAdd, ws3SysDel, ws3SysID:
		if len(body) < 4 {
			return Frame{}, perr(ws3HeaderSize, CmdUnknown, ErrTruncated, "Godot 3 WebSocket system message without its peer id")
		}
		f.Peer = PeerID(int32(binary.LittleEndian.Uint32(body)))
		f.Kind = map[byte]FrameKind{ws3SysAdd: FramePeerAdded, ws3SysDel: FramePeerRemoved, ws3SysID: FrameAssignID}[b[0]]
		return f, nil
	}
	return Frame{}, perr(0, CmdUnknown, ErrUnknownCommand, fmt.Sprintf("Godot 3 WebSocket message type %d", b[0]))
}

// appendHeader appends what goes before f's data in its message: Godot
// 3's 9-byte header (and a system message's peer id), Godot 4's assigned
// id; false when f is not sent at all (Godot 4 peers learn of each other
// through SYS packets).
func (l *wsLink) appendHeader(b []byte, f Frame) ([]byte, bool) {
	if l.godot3 {
		typ := byte(ws3SysNone)
		switch f.Kind {
		case FrameAssignID:
			typ = ws3SysID
		case FramePeerAdded:
			typ = ws3SysAdd
		case FramePeerRemoved:
			typ = ws3SysDel
		}
		b = append(b, typ)
		if f.Kind == FrameData {
			b = binary.LittleEndian.AppendUint32(b, uint32(f.From))
			return binary.LittleEndian.AppendUint32(b, uint32(f.To)), true
		}
		// The engine's _send_sys: from 1, to 0, then the id.
		b = binary.LittleEndian.AppendUint32(b, 1)
		b = binary.LittleEndian.AppendUint32(b, 0)
		return binary.LittleEndian.AppendUint32(b, uint32(f.Peer)), true
	}
	switch f.Kind {
	case FrameData:
		return b, true
	case FrameAssignID:
		return binary.LittleEndian.AppendUint32(b, uint32(f.Peer)), true
	}
	return b, false
}

func (l *wsLink) WriteFrame(f Frame) error {
	b, ok := l.appendHeader(l.buf[:0], f)
	if !ok {
		return nil
	}
	if f.Kind == FrameData {
		b = append(b, f.Data...)
	}
	if cap(b) <= 1<<16 {
		l.buf = b[:0] // reused by the next write; larger buffers are let go
	} else {
		l.buf = nil
	}
	l.armWrite()
	return l.c.WritePayload(b)
}

// armWrite sets the write deadline writeTimeout ahead, unless the one set
// last is still 7/8 of it ahead or more: a write is given between 7/8 of
// writeTimeout and all of it, and a busy link sets a deadline once per
// eighth of writeTimeout rather than once per write.
func (l *wsLink) armWrite() {
	now := time.Now()
	if l.wdl.Sub(now) >= l.writeTimeout-l.writeTimeout/8 {
		return
	}
	l.wdl = now.Add(l.writeTimeout)
	l.c.SetWriteDeadline(l.wdl)
}

// ws3MaxHeader is the longest header writeFrames puts before a frame's
// data: a Godot 3 system message's, with its peer id.
const ws3MaxHeader = ws3HeaderSize + 4

// writeFrames sends a batch of frames, as WriteFrame does one by one, in
// one write to the network where the connection allows (a server's):
// each frame's data is sent where it lies, after a header of its own, so
// that the data of a broadcast, shared by the queues of all its targets,
// is not copied for each.
func (l *wsLink) writeFrames(fs []Frame) error {
	sc := wsScratchPool.Get().(*wsScratch)
	hdrs, parts, ps := sc.hdrs[:0], sc.parts[:0], sc.ps[:0]
	if need := len(fs) * ws3MaxHeader; cap(hdrs) < need {
		hdrs = make([]byte, 0, need)
	}
	for _, f := range fs {
		start, first := len(hdrs), len(parts)
		var ok bool
		if hdrs, ok = l.appendHeader(hdrs, f); !ok {
			continue
		}
		// Within hdrs' capacity: the slices taken stay valid.
		if len(hdrs) > start {
			parts = append(parts, hdrs[start:len(hdrs):len(hdrs)])
		}
		if f.Kind == FrameData {
			parts = append(parts, f.Data)
		}
		ps = append(ps, parts[first:len(parts):len(parts)])
	}
	var err error
	if len(ps) > 0 {
		l.armWrite()
		err = l.c.WritePayloads(ps)
	}
	clear(parts) // hold no frame's data
	clear(ps)
	if len(fs) <= 256 { // a burst's scratch is let go
		sc.hdrs, sc.parts, sc.ps = hdrs[:0], parts[:0], ps[:0]
		wsScratchPool.Put(sc)
	}
	return err
}

type wsListener struct {
	l *peer.Listener
	o WebSocketOptions
}

// ListenWebSocket listens on addr ("host:port"; port 0 picks one) for Godot
// clients that join with WebSocketMultiplayerPeer.create_client (Godot 4)
// or WebSocketClient with network_peer (Godot 3). ctx bounds setting up the
// listener only.
func ListenWebSocket(ctx context.Context, addr string, o WebSocketOptions) (Listener, error) {
	po := o.peerOptions()
	if po.WebSocket.OnRefused == nil {
		po.WebSocket.OnRefused = refusalLog(cmp.Or(o.Logger, slog.Default()), newLogLimiter(), loglimit.DefaultMaxText)
	}
	l, err := peer.ListenWebSocket(ctx, addr, po)
	if err != nil {
		return nil, err
	}
	return &wsListener{l: l, o: o}, nil
}

// refusalLog returns the logger of refused WebSocket handshakes: an
// Origin not allowed at Warn, anything else at Info, rate-limited by kind.
func refusalLog(log *slog.Logger, lim *loglimit.Limiter, maxText int) func(remote string, err error) {
	return func(remote string, err error) {
		level, key := slog.LevelInfo, "handshake refused"
		var oe *peer.OriginError
		if errors.As(err, &oe) {
			level, key = slog.LevelWarn, "origin refused"
		}
		if !log.Enabled(context.Background(), level) {
			return
		}
		ok, n := lim.Allow(key)
		if !ok {
			return
		}
		args := []any{"addr", remote, "err", loglimit.Cut(err.Error(), maxText)}
		if n > 0 {
			args = append(args, "suppressed", n)
		}
		log.Log(context.Background(), level, "multiplayer: refused a WebSocket client", args...)
	}
}

func (w *wsListener) Accept(ctx context.Context) (Link, error) {
	c, err := w.l.Accept(ctx)
	if err != nil {
		return nil, err
	}
	return serverWSLink(c, w.o), nil
}

func (w *wsListener) Close() error   { return w.l.Close() }
func (w *wsListener) Addr() net.Addr { return w.l.Addr() }

// DialWebSocket connects to a multiplayer host at url ("ws://host:port"): a
// Godot WebSocketMultiplayerPeer server (Godot 4: create_server; Godot 3:
// WebSocketServer with network_peer) or a Host. ctx bounds the connection
// and the opening handshake only.
func DialWebSocket(ctx context.Context, url string, o WebSocketOptions) (Link, error) {
	c, err := peer.DialWebSocket(ctx, url, o.peerOptions())
	if err != nil {
		return nil, err
	}
	return newWSLink(c, o), nil
}

// Handler returns an http.Handler that accepts Godot clients on an existing
// HTTP server (for instance one serving the game's web export, or behind
// TLS) and serves each with h. o.Peer.WebSocket sets the accepted Origins;
// refused handshakes go to the Host's Logger as for ListenWebSocket.
func (h *Host) Handler(o WebSocketOptions) http.Handler {
	o.Godot = h.f
	po := o.peerOptions()
	refused := po.WebSocket.OnRefused
	if refused == nil {
		refused = refusalLog(h.log, h.logLim, h.o.MaxLogText)
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := peer.UpgradeWebSocket(w, r, po)
		if err != nil {
			refused(r.RemoteAddr, err)
			return // already answered
		}
		h.wg.Add(1)
		h.startLink(serverWSLink(c, o), func(error) { h.wg.Done() })
	})
}
