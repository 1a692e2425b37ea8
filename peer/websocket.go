package peer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/url"
	"os"
	"path"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/gorilla/websocket"

	"github.com/gdvar/gdvar/frame"
)

// DialWebSocket connects to a WebSocket server at rawURL
// ("ws://host:port/path" or "wss://…"), such as a Godot game that accepts
// connections with TCPServer and WebSocketPeer.accept_stream. ctx bounds
// the connection and the opening handshake only.
func DialWebSocket(ctx context.Context, rawURL string, o Options) (*Conn, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	d := websocket.Dialer{
		Proxy:           http.ProxyFromEnvironment,
		Subprotocols:    o.WebSocket.Subprotocols,
		ReadBufferSize:  wsReadBufferSize,
		WriteBufferPool: wsWritePool,
	}
	var tc *timedConn
	if idle, ft := cfg.timeouts(false); idle > 0 || ft > 0 {
		d.NetDialContext = func(ctx context.Context, network, addr string) (net.Conn, error) {
			var nd net.Dialer
			nc, err := nd.DialContext(ctx, network, addr)
			if err != nil {
				return nil, err
			}
			tc = &timedConn{Conn: nc}
			return tc, nil
		}
	}
	ws, resp, err := d.DialContext(ctx, rawURL, o.WebSocket.Header)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("peer: websocket handshake with %s: %s: %w", rawURL, resp.Status, err)
		}
		return nil, fmt.Errorf("peer: websocket dial %s: %w", rawURL, err)
	}
	return newWSConn(ws, cfg, nil, false, tc), nil
}

// UpgradeWebSocket answers a WebSocket opening handshake received by a
// net/http server and returns the connection. On failure it has already
// replied with an HTTP error. The handler may return once it has handed
// the Conn on: the Conn outlives the request.
//
// A request with an Origin header from another host is refused unless
// o.WebSocket.Origins allows it.
//
// The idle and frame timeouts of o apply, and BufferBudget bounds the one
// connection; MaxConns does not apply. An Upgrader shares the connection
// limit and the budget between the connections it upgrades.
func UpgradeWebSocket(w http.ResponseWriter, r *http.Request, o Options) (*Conn, error) {
	u, err := NewUpgrader(o)
	if err != nil {
		http.Error(w, "server misconfigured", http.StatusInternalServerError)
		return nil, err
	}
	u.lim.maxConns, u.lim.maxPerIP = 0, 0
	return u.Upgrade(w, r)
}

// An Upgrader turns requests of an existing net/http server into
// WebSocket connections, as UpgradeWebSocket does, with the server limits
// of its Options (MaxConns, MaxConnsPerIP, BufferBudget, IdleTimeout,
// FrameTimeout)
// shared by all the connections it upgrades. It is safe for concurrent
// use.
type Upgrader struct {
	cfg *config
	lim *serverLimits
}

// NewUpgrader validates o and returns an Upgrader.
func NewUpgrader(o Options) (*Upgrader, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	lim := newServerLimits(cfg)
	if o.MaxConnsPerIP == 0 {
		lim.maxPerIP = 0 // set explicitly only: an Upgrader is often behind a proxy
	}
	return &Upgrader{cfg: cfg, lim: lim}, nil
}

// Upgrade answers a WebSocket opening handshake and returns the
// connection. On failure it has already replied with an HTTP error: 503
// (Service Unavailable) when MaxConns connections are open, or
// MaxConnsPerIP from the request's address (its RemoteAddr). The Conn
// counts against both until it is closed.
func (u *Upgrader) Upgrade(w http.ResponseWriter, r *http.Request) (*Conn, error) {
	ip := ""
	if host, _, err := net.SplitHostPort(r.RemoteAddr); err == nil {
		ip = host
	}
	if why := u.lim.take(ip); why != nil {
		http.Error(w, refusal(why), http.StatusServiceUnavailable)
		return nil, why
	}
	c, err := upgrade(w, r, u.cfg, u.lim.budget)
	if err != nil {
		u.lim.give(ip)
		return nil, err
	}
	c.onClose = func() { u.lim.give(ip) }
	return c, nil
}

// refusal is the text of a 503 answer to a connection refused for why.
func refusal(why error) string {
	if why == errTooManyFrom {
		return "too many connections from your address"
	}
	return "too many connections"
}

// Conns returns the number of connections upgraded and not yet closed.
func (u *Upgrader) Conns() int { return int(u.lim.open.Load()) }

// OriginError is the refusal of a WebSocket handshake from a browser page
// whose Origin is not allowed (see WebSocketOptions.Origins); the client
// got HTTP 403 with this text.
type OriginError struct {
	Origin string // the request's Origin header
	Host   string // the request's Host header
}

func (e *OriginError) Error() string {
	host := e.Origin
	if u, err := url.Parse(e.Origin); err == nil && u.Host != "" {
		host = u.Host
	}
	return fmt.Sprintf("peer: websocket handshake refused: Origin %q is neither this server (%s) nor in "+
		"WebSocket.Origins; to accept it, list %q (or a pattern such as \"*\") there", e.Origin, e.Host, host)
}

func upgrade(w http.ResponseWriter, r *http.Request, cfg *config, budget *frame.Budget) (*Conn, error) {
	if !checkOrigin(cfg.opts.WebSocket.Origins)(r) {
		err := &OriginError{Origin: r.Header.Get("Origin"), Host: r.Host}
		http.Error(w, err.Error(), http.StatusForbidden)
		return nil, err
	}
	u := websocket.Upgrader{
		Subprotocols:    cfg.opts.WebSocket.Subprotocols,
		CheckOrigin:     func(*http.Request) bool { return true }, // checked above
		ReadBufferSize:  wsReadBufferSize,
		WriteBufferPool: wsWritePool,
	}
	var tc *timedConn
	if idle, ft := cfg.timeouts(true); idle > 0 || ft > 0 {
		if h, ok := w.(http.Hijacker); ok {
			w = &timedHijacker{ResponseWriter: w, h: h, tc: &tc}
		}
	}
	ws, err := u.Upgrade(w, r, nil)
	if err != nil {
		return nil, err
	}
	return newWSConn(ws, cfg, budget, true, tc), nil
}

// timedHijacker hands the library the connection it hijacks wrapped in a
// timedConn, so that the read timeouts are enforced at the reads of the
// network connection, not per message: the library reads through a
// buffer, which serves the messages that arrived together from one read.
type timedHijacker struct {
	http.ResponseWriter
	h  http.Hijacker
	tc **timedConn
}

func (w *timedHijacker) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	nc, brw, err := w.h.Hijack()
	if err != nil {
		return nc, brw, err
	}
	*w.tc = &timedConn{Conn: nc}
	return *w.tc, brw, nil
}

// checkOrigin accepts requests without an Origin, from the request's own
// host, or from a host matching one of patterns.
func checkOrigin(patterns []string) func(r *http.Request) bool {
	return func(r *http.Request) bool {
		origin := r.Header.Get("Origin")
		if origin == "" {
			return true
		}
		u, err := url.Parse(origin)
		if err != nil || u.Host == "" {
			return false
		}
		host := strings.ToLower(u.Host)
		if host == strings.ToLower(r.Host) {
			return true
		}
		for _, p := range patterns {
			p = strings.ToLower(p)
			if ok, _ := path.Match(p, host); ok {
				return true
			}
			if h, _, err := net.SplitHostPort(host); err == nil {
				if ok, _ := path.Match(p, h); ok {
					return true
				}
			}
		}
		return false
	}
}

// ListenWebSocket listens on addr ("host:port"; port 0 picks a free one)
// and accepts WebSocket connections on any path: it reads one HTTP
// request per connection, within WebSocketOptions.HandshakeTimeout and
// 64 KiB, and answers anything but an opening handshake with an HTTP
// error and closes the connection. ctx bounds setting up the listener
// only; Close stops the server. The server limits of o apply (MaxConns,
// MaxConnsPerIP, BufferBudget, IdleTimeout, FrameTimeout; see Options);
// connections beyond MaxConns or MaxConnsPerIP are answered with an HTTP
// 503 and closed before their handshake is read.
func ListenWebSocket(ctx context.Context, addr string, o Options) (*Listener, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	timeout := o.WebSocket.HandshakeTimeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	lim := newServerLimits(cfg)
	s := &handshakeServer{cfg: cfg, budget: lim.budget, timeout: timeout, ln: ln, open: map[net.Conn]struct{}{}}
	l := newListener(ln.Addr(), s.close, lim)
	s.offer = l.offer
	go func() {
		err := s.serve(&limitListener{Listener: ln, lim: lim, tell: newRefuser().tell})
		select {
		case <-l.done:
		default:
			l.err = err
			close(l.failed)
		}
	}()
	return l, nil
}

// A refuser answers the connections a WebSocket listener refuses for
// capacity with an HTTP 503 before their handshake is read, so that the
// client is told why rather than reset. It answers at most refuserSlots
// at once, refuserPerIP of them from one address, each within
// refuserTime; beyond that (a flood) connections are reset.
type refuser struct {
	mu    sync.Mutex
	busy  int
	perIP map[string]int
}

const (
	refuserSlots = 64
	refuserPerIP = 4
	refuserTime  = time.Second
)

func newRefuser() *refuser { return &refuser{perIP: map[string]int{}} }

func (r *refuser) tell(nc net.Conn, why error) {
	ip := ipOf(nc.RemoteAddr())
	r.mu.Lock()
	if r.busy >= refuserSlots || r.perIP[ip] >= refuserPerIP {
		r.mu.Unlock()
		reset(nc)
		return
	}
	r.busy++
	r.perIP[ip]++
	r.mu.Unlock()
	go func() {
		defer func() {
			r.mu.Lock()
			r.busy--
			if r.perIP[ip]--; r.perIP[ip] <= 0 {
				delete(r.perIP, ip)
			}
			r.mu.Unlock()
		}()
		nc.SetDeadline(time.Now().Add(refuserTime))
		body := refusal(why)
		fmt.Fprintf(nc, "HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: %d\r\nConnection: close\r\n\r\n%s", len(body), body)
		if cw, ok := nc.(interface{ CloseWrite() error }); ok {
			cw.CloseWrite()
		}
		// Take what the client sent until it closes, so that closing does
		// not reset the connection before the answer is read.
		io.Copy(io.Discard, io.LimitReader(nc, 64<<10))
		nc.Close()
	}()
}

// The buffers of a WebSocket connection. The library keeps a read buffer
// for the life of the connection (a message larger than it is read
// straight into the payload's buffer), so it is small; its write buffer
// is taken from a pool for each message written and given back after it,
// so an idle connection holds none. A server's connection writes its
// messages itself (writeBatch) and needs none at all.
const wsReadBufferSize = 1024

var wsWritePool = &sync.Pool{}

// newWSConn makes a Conn of ws; tc is ws's network connection when it
// was wrapped to enforce read timeouts (nil: none to enforce).
func newWSConn(ws *websocket.Conn, cfg *config, budget *frame.Budget, server bool, tc *timedConn) *Conn {
	ws.SetReadLimit(int64(cfg.maxSize))
	t := &wsTransport{ws: ws, maxSize: cfg.maxSize, budget: budget, rb: budgetedBuf{budget: budget}, wlock: make(chan struct{}, 1)}
	if server {
		// A server's messages are not masked: they are written here, in
		// batches, without the library's copy (writeBatch).
		t.nc = ws.NetConn()
		if tc, ok := t.nc.(*timedConn); ok {
			t.nc = tc.Conn // writes need no timer
		}
		nc := t.nc
		if cc, ok := nc.(*countedConn); ok {
			nc = cc.Conn // a listener's count needs no say in writes
		}
		t.tcp, _ = nc.(*net.TCPConn)
	}
	// The library answers a close frame itself; the answer goes through
	// the transport's write lock like every other write.
	ws.SetCloseHandler(func(code int, _ string) error {
		t.control(websocket.CloseMessage, websocket.FormatCloseMessage(code, ""), time.Now().Add(time.Second))
		return nil
	})
	idle, ft := cfg.timeouts(server)
	t.idle = idle
	if tc != nil {
		// Every byte received, pings and pongs included, is activity that
		// pushes the idle timeout back.
		t.timer = newReadTimer(tc.Conn.SetReadDeadline, idle, ft)
		tc.t = t.timer
	}
	ws.SetPingHandler(func(data string) error {
		err := t.control(websocket.PongMessage, []byte(data), time.Now().Add(time.Second))
		if errors.Is(err, websocket.ErrCloseSent) || isTimeout(err) {
			return nil
		}
		return err
	})
	c := newConn("ws", t, cfg)
	c.wtimeout = cfg.writeTimeout(server)
	return c
}

// wsTransport carries one payload per WebSocket message.
type wsTransport struct {
	ws      *websocket.Conn
	maxSize int
	budget  *frame.Budget // nil: none
	timer   *readTimer    // nil without timeouts
	idle    time.Duration
	rb      budgetedBuf // the payload being read, charged to budget
	roff    int64
	rerr    error // sticky: the library's read errors are permanent
	woff    int64
	refusal string  // set by Conn.Refuse: the reason of the close frame
	end     [1]byte // where a message of MaxSize bytes meets its end (a field: no allocation per message)

	// A server's writes (writeBatch): nc is the network connection, nil
	// for a client, whose messages the library masks and writes.
	nc        net.Conn
	tcp       *net.TCPConn  // nc's TCP connection, which writes a net.Buffers in one writev; nil: none
	wlock     chan struct{} // held by a write to nc and by control frames
	wdl       atomic.Int64  // the write deadline, Unix ns; 0: none
	closeSent bool          // a close frame went out: no more messages
	werr      error         // sticky: a failed write may have cut a message
}

// refuse makes the close frame say that the server refuses the peer.
func (t *wsTransport) refuse(reason string) {
	if len(reason) > 123 { // a close frame's reason is at most 123 bytes
		reason = reason[:123]
	}
	if reason == "" {
		reason = "refused"
	}
	t.refusal = reason
}

// wsKeep is the largest buffer kept between messages (with a budget: the
// frame package keeps as much).
const (
	wsKeep         = 1 << 20
	wsKeepBudgeted = 4 << 10
)

func (t *wsTransport) readPayload() ([]byte, int64, error) {
	if t.rerr != nil {
		return nil, t.roff, t.rerr
	}
	if keep := wsKeep; cap(t.rb.b) > keep || t.budget != nil && cap(t.rb.b) > wsKeepBudgeted {
		t.release() // don't hold on to a big message's buffer
	}
	off := t.roff
	mt, r, err := t.ws.NextReader()
	if err != nil {
		t.rerr = t.readError(err, off, false)
		return nil, off, t.rerr
	}
	if t.timer != nil {
		t.timer.beginFrame()
	}
	t.rb.b = t.rb.b[:0]
	for {
		into := t.rb.b[len(t.rb.b):cap(t.rb.b)]
		if len(into) == 0 && len(t.rb.b) < t.maxSize {
			if err := t.grow(off); err != nil {
				t.rerr = err
				return nil, off, err
			}
			into = t.rb.b[len(t.rb.b):cap(t.rb.b)]
		}
		full := len(into) == 0
		if full {
			into = t.end[:]
		}
		n, err := r.Read(into)
		if full && n > 0 { // the library refuses more than MaxSize first
			t.rerr = &frame.Error{Offset: off, Size: -1, Err: frame.ErrTooLarge}
			return nil, off, t.rerr
		}
		t.rb.b = t.rb.b[:len(t.rb.b)+n]
		t.roff += int64(n)
		if err == io.EOF {
			break
		}
		if err != nil {
			t.rerr = t.readError(err, off, true)
			return nil, off, t.rerr
		}
	}
	if t.timer != nil {
		t.timer.endFrame()
	}
	if mt == websocket.TextMessage && !utf8.Valid(t.rb.b) {
		t.rerr = &frame.Error{Offset: off, Size: int64(len(t.rb.b)), Err: ErrInvalidUTF8}
		return nil, off, t.rerr
	}
	return t.rb.b, off, nil
}

// grow doubles the buffer, up to the largest message, reserving the
// growth from the budget.
func (t *wsTransport) grow(off int64) error {
	if !t.rb.growTo(min(max(2*cap(t.rb.b), 512), t.maxSize)) {
		return &frame.Error{Offset: off, Size: -1, Err: frame.ErrBudget}
	}
	return nil
}

func (t *wsTransport) release() { t.rb.release() }

// readError turns a read error into the package's, telling the server
// limits apart from the user's deadline.
func (t *wsTransport) readError(err error, off int64, inFrame bool) error {
	if errors.Is(err, ErrIdleTimeout) || errors.Is(err, ErrFrameTimeout) {
		return limitError(err, off, inFrame, t.idle)
	}
	return wsReadError(err, off)
}

// CloseDestroyed is the close status Godot's web exports send when a
// game frees its WebSocketPeer (or quits) while connected: 3001, reason
// "destroyed" (platform/web/js/libs/library_godot_websocket.js). It is a
// normal leave, read as io.EOF like 1000 (normal closure), 1001 (going
// away) and 1005 (no status).
const CloseDestroyed = 3001

// wsReadError maps the library's errors onto the package's: a clean close
// (a normal leave) is io.EOF, a message above the limit is
// frame.ErrTooLarge, a connection lost without a close frame is
// io.ErrUnexpectedEOF; any other close status is an error naming the
// status and wrapping the library's *websocket.CloseError.
func wsReadError(err error, off int64) error {
	var ce *websocket.CloseError
	switch {
	case errors.Is(err, websocket.ErrReadLimit):
		return &frame.Error{Offset: off, Size: -1, Err: frame.ErrTooLarge}
	case errors.As(err, &ce):
		switch ce.Code {
		case websocket.CloseNormalClosure, websocket.CloseGoingAway, websocket.CloseNoStatusReceived, CloseDestroyed:
			return io.EOF
		case websocket.CloseAbnormalClosure:
			return &frame.Error{Offset: off, Size: -1, Err: io.ErrUnexpectedEOF}
		}
		return fmt.Errorf("peer: websocket closed by the peer: %w", err)
	}
	return err
}

func (t *wsTransport) writePayload(p []byte) error {
	if t.nc != nil {
		one := [1]net.Buffers{{p}}
		return t.writeBatch(one[:])
	}
	if len(p) > t.maxSize {
		return &frame.Error{Offset: t.woff, Size: int64(len(p)), Err: frame.ErrTooLarge}
	}
	err := t.ws.WriteMessage(websocket.BinaryMessage, p)
	if err == nil {
		t.woff += int64(len(p))
	}
	if errors.Is(err, websocket.ErrCloseSent) {
		return errWSClosing
	}
	return err
}

// errWSClosing is a write's error once the closing handshake has begun
// (the peer closed, and the library answered): the connection is
// closing, not failing.
var errWSClosing = fmt.Errorf("peer: websocket closing: %w", net.ErrClosed)

// wsMaxHeader is the largest header of a server's message (RFC 6455
// 5.2: two bytes and a 64-bit length, no mask).
const wsMaxHeader = 10

// WebSocketMessageSize is the number of bytes a server's message of n
// bytes takes on the wire: its header (RFC 6455, section 5.2; unmasked)
// and its payload.
func WebSocketMessageSize(n int) int {
	switch {
	case n < 126:
		return 2 + n
	case n <= 0xffff:
		return 4 + n
	}
	return 10 + n
}

// appendWSHeader appends the header of an unmasked, unfragmented binary
// message of n bytes.
func appendWSHeader(b []byte, n int) []byte {
	const finBinary = 0x80 | websocket.BinaryMessage
	switch {
	case n < 126:
		return append(b, finBinary, byte(n))
	case n <= 0xffff:
		return append(b, finBinary, 126, byte(n>>8), byte(n))
	}
	return binary.BigEndian.AppendUint64(append(b, finBinary, 127), uint64(n))
}

// writeBatch sends each element of ps as one binary message, its pieces
// end to end. A server writes the batch itself, in one write (writev over
// TCP), without copying the pieces; a client has the library mask and
// write each message. The pieces are not retained.
func (t *wsTransport) writeBatch(ps []net.Buffers) error {
	for _, p := range ps {
		if n := buffersLen(p); n > t.maxSize {
			return &frame.Error{Offset: t.woff, Size: int64(n), Err: frame.ErrTooLarge}
		}
	}
	if t.nc == nil {
		for _, p := range ps {
			var err error
			if len(p) == 1 {
				err = t.writePayload(p[0])
			} else {
				err = t.writePayload(bytes.Join(p, nil))
			}
			if err != nil {
				return err
			}
		}
		return nil
	}
	sc := wsScratchPool.Get().(*wsScratch)
	hdrs, iov := sc.hdrs[:0], sc.iov[:0]
	// Copied into hdrs: the headers, and the pieces shorter than
	// wsCopyMax (every piece without writev: TLS would make a record of
	// each); longer ones are written where they lie, by writev.
	need := 0
	for _, p := range ps {
		need += wsMaxHeader
		for _, b := range p {
			if t.tcp == nil || len(b) < wsCopyMax {
				need += len(b)
			}
		}
	}
	if cap(hdrs) < need {
		hdrs = make([]byte, 0, need)
	}
	total, run := 0, 0 // run: where the bytes of hdrs not yet in iov start
	for _, p := range ps {
		n := buffersLen(p)
		hdrs = appendWSHeader(hdrs, n) // within cap: the slices taken stay valid
		for _, b := range p {
			if t.tcp == nil || len(b) < wsCopyMax {
				hdrs = append(hdrs, b...)
				continue
			}
			if run < len(hdrs) {
				iov = append(iov, hdrs[run:len(hdrs):len(hdrs)])
			}
			iov = append(iov, b)
			run = len(hdrs)
		}
		total += n
	}
	if len(iov) > 0 && run < len(hdrs) {
		iov = append(iov, hdrs[run:len(hdrs):len(hdrs)])
	}

	t.wlock <- struct{}{}
	err := t.werr
	switch {
	case err != nil:
	case t.closeSent:
		err = errWSClosing
	case len(iov) > 0:
		// The deadline is nc's already (setWriteDeadline, control). At
		// most wsMaxIovecs pieces a write: the connection keeps the array
		// of its largest writev.
		for rest := iov; len(rest) > 0 && err == nil; {
			sc.w = rest[:min(len(rest), wsMaxIovecs)] // WriteTo consumes its receiver
			rest = rest[len(sc.w):]
			_, err = sc.w.WriteTo(t.tcp)
		}
		sc.w = nil
	default:
		_, err = t.nc.Write(hdrs)
	}
	if err != nil && t.werr == nil && err != errWSClosing {
		t.werr = err
	}
	<-t.wlock
	clear(iov) // hold no piece of the caller's
	if cap(hdrs) <= 64<<10 && cap(iov) <= 4*wsMaxIovecs {
		sc.hdrs, sc.iov = hdrs[:0], iov[:0]
		wsScratchPool.Put(sc)
	}
	if err != nil {
		return err
	}
	t.woff += int64(total)
	return nil
}

func buffersLen(p net.Buffers) int {
	n := 0
	for _, b := range p {
		n += len(b)
	}
	return n
}

// wsScratch is writeBatch's scratch, pooled: an idle connection holds
// none.
type wsScratch struct {
	hdrs []byte      // the messages' headers and the pieces copied
	iov  net.Buffers // the pieces of a writev
	w    net.Buffers // what one writev is left to write (here: no allocation)
}

var wsScratchPool = sync.Pool{New: func() any { return new(wsScratch) }}

// wsMaxIovecs is the most pieces written by one writev.
const wsMaxIovecs = 64

// wsCopyMax is the length from which writeBatch writes a piece where it
// lies (by writev) rather than copy it: a batch of small messages, the
// common case, goes out in one plain write, and the connection keeps no
// array of iovecs (1 KB, once a writev of wsMaxIovecs pieces was made).
const wsCopyMax = 512

// control writes a control frame under the write lock, waiting for it
// until deadline.
func (t *wsTransport) control(mt int, data []byte, deadline time.Time) error {
	timer := time.NewTimer(time.Until(deadline))
	defer timer.Stop()
	select {
	case t.wlock <- struct{}{}:
	case <-timer.C:
		return os.ErrDeadlineExceeded
	}
	defer func() { <-t.wlock }()
	if t.closeSent && mt == websocket.CloseMessage {
		return websocket.ErrCloseSent
	}
	err := t.ws.WriteControl(mt, data, deadline)
	if mt == websocket.CloseMessage && err == nil {
		t.closeSent = true
	}
	if t.nc != nil {
		t.nc.SetWriteDeadline(t.writeDeadline()) // the library set its own
	}
	return err
}

func (t *wsTransport) shutdown() error {
	code, reason := websocket.CloseNormalClosure, ""
	if t.refusal != "" {
		code, reason = websocket.ClosePolicyViolation, t.refusal
	}
	msg := websocket.FormatCloseMessage(code, reason)
	return t.control(websocket.CloseMessage, msg, time.Now().Add(time.Second))
}

// abort sends the close frame that tells why: 1007 for text that is not
// UTF-8, 1008 (policy violation) with the reason for the others. Not 1013
// (try again later) for a spent budget: Godot's native WebSocket library
// (wslay) takes it for a protocol error and its client never reports the
// close (Godot 3.2.3 stays connected).
func (t *wsTransport) abort(err error) {
	code, reason := websocket.ClosePolicyViolation, "timeout"
	switch {
	case errors.Is(err, ErrInvalidUTF8):
		code, reason = websocket.CloseInvalidFramePayloadData, "invalid UTF-8 in text message"
	case errors.Is(err, frame.ErrBudget):
		reason = "server busy"
	case errors.Is(err, ErrFrameTimeout):
		reason = "message not complete in time"
	case errors.Is(err, ErrIdleTimeout):
		reason = "idle timeout"
	}
	msg := websocket.FormatCloseMessage(code, reason)
	t.control(websocket.CloseMessage, msg, time.Now().Add(100*time.Millisecond))
	t.ws.Close()
}

func (t *wsTransport) close() error         { return t.ws.Close() }
func (t *wsTransport) localAddr() net.Addr  { return t.ws.LocalAddr() }
func (t *wsTransport) remoteAddr() net.Addr { return t.ws.RemoteAddr() }
func (t *wsTransport) setReadDeadline(d time.Time) error {
	if t.timer != nil {
		return t.timer.setUser(d)
	}
	return t.ws.SetReadDeadline(d)
}
func (t *wsTransport) setWriteDeadline(d time.Time) error {
	if t.nc != nil {
		ns := int64(0)
		if !d.IsZero() {
			ns = d.UnixNano()
		}
		t.wdl.Store(ns)
		t.nc.SetWriteDeadline(d) // a write under way too, as net.Conn's
	}
	return t.ws.SetWriteDeadline(d)
}

// writeDeadline is the deadline of writeBatch's writes.
func (t *wsTransport) writeDeadline() time.Time {
	if ns := t.wdl.Load(); ns != 0 {
		return time.Unix(0, ns)
	}
	return time.Time{}
}
