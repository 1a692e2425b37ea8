package peer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"net/url"
	"path"
	"strings"
	"time"

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
		Proxy:        http.ProxyFromEnvironment,
		Subprotocols: o.WebSocket.Subprotocols,
	}
	ws, resp, err := d.DialContext(ctx, rawURL, o.WebSocket.Header)
	if err != nil {
		if resp != nil {
			return nil, fmt.Errorf("peer: websocket handshake with %s: %s: %w", rawURL, resp.Status, err)
		}
		return nil, fmt.Errorf("peer: websocket dial %s: %w", rawURL, err)
	}
	return newWSConn(ws, cfg), nil
}

// UpgradeWebSocket answers a WebSocket opening handshake received by a
// net/http server and returns the connection. On failure it has already
// replied with an HTTP error. The handler may return once it has handed
// the Conn on: the Conn outlives the request.
//
// A request with an Origin header from another host is refused unless
// o.WebSocket.Origins allows it.
func UpgradeWebSocket(w http.ResponseWriter, r *http.Request, o Options) (*Conn, error) {
	cfg, err := o.config()
	if err != nil {
		http.Error(w, "server misconfigured", http.StatusInternalServerError)
		return nil, err
	}
	return upgrade(w, r, cfg)
}

func upgrade(w http.ResponseWriter, r *http.Request, cfg *config) (*Conn, error) {
	u := websocket.Upgrader{
		Subprotocols: cfg.opts.WebSocket.Subprotocols,
		CheckOrigin:  checkOrigin(cfg.opts.WebSocket.Origins),
	}
	ws, err := u.Upgrade(w, r, nil)
	if err != nil {
		return nil, err
	}
	return newWSConn(ws, cfg), nil
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
// with an HTTP server that accepts WebSocket connections on any path. ctx
// bounds setting up the listener only; Close stops the server.
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
	srv := &http.Server{
		ReadHeaderTimeout: timeout,
		ErrorLog:          log.New(io.Discard, "", 0),
	}
	l := newListener(ln.Addr(), srv.Close)
	srv.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := upgrade(w, r, cfg)
		if err != nil {
			return
		}
		l.offer(c)
	})
	go func() {
		err := srv.Serve(ln)
		select {
		case <-l.done:
		default:
			l.err = err
			close(l.failed)
		}
	}()
	return l, nil
}

func newWSConn(ws *websocket.Conn, cfg *config) *Conn {
	ws.SetReadLimit(int64(cfg.maxSize))
	return newConn("ws", &wsTransport{ws: ws, maxSize: cfg.maxSize}, cfg)
}

// wsTransport carries one payload per WebSocket message.
type wsTransport struct {
	ws      *websocket.Conn
	maxSize int
	buf     []byte
	roff    int64
	rerr    error // sticky: the library's read errors are permanent
	woff    int64
}

func (t *wsTransport) readPayload() ([]byte, int64, error) {
	if t.rerr != nil {
		return nil, t.roff, t.rerr
	}
	if cap(t.buf) > 1<<20 {
		t.buf = nil // don't hold on to a big message's buffer
	}
	off := t.roff
	_, r, err := t.ws.NextReader()
	if err != nil {
		t.rerr = wsReadError(err, off)
		return nil, off, t.rerr
	}
	t.buf = t.buf[:0]
	for {
		if len(t.buf) == cap(t.buf) {
			t.buf = append(t.buf, 0)[:len(t.buf)]
		}
		n, err := r.Read(t.buf[len(t.buf):cap(t.buf)])
		t.buf = t.buf[:len(t.buf)+n]
		t.roff += int64(n)
		if err == io.EOF {
			return t.buf, off, nil
		}
		if err != nil {
			t.rerr = wsReadError(err, off)
			return nil, off, t.rerr
		}
	}
}

// wsReadError maps the library's errors onto the package's: a clean close
// is io.EOF, a message above the limit is frame.ErrTooLarge, a connection
// lost without a close frame is io.ErrUnexpectedEOF.
func wsReadError(err error, off int64) error {
	var ce *websocket.CloseError
	switch {
	case errors.Is(err, websocket.ErrReadLimit):
		return &frame.Error{Offset: off, Size: -1, Err: frame.ErrTooLarge}
	case errors.As(err, &ce):
		switch ce.Code {
		case websocket.CloseNormalClosure, websocket.CloseGoingAway, websocket.CloseNoStatusReceived:
			return io.EOF
		case websocket.CloseAbnormalClosure:
			return &frame.Error{Offset: off, Size: -1, Err: io.ErrUnexpectedEOF}
		}
		return fmt.Errorf("peer: websocket closed by the peer: %w", err)
	}
	return err
}

func (t *wsTransport) writePayload(p []byte) error {
	if len(p) > t.maxSize {
		return &frame.Error{Offset: t.woff, Size: int64(len(p)), Err: frame.ErrTooLarge}
	}
	err := t.ws.WriteMessage(websocket.BinaryMessage, p)
	if err == nil {
		t.woff += int64(len(p))
	}
	return err
}

func (t *wsTransport) shutdown() error {
	msg := websocket.FormatCloseMessage(websocket.CloseNormalClosure, "")
	return t.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second))
}

func (t *wsTransport) close() error                       { return t.ws.Close() }
func (t *wsTransport) localAddr() net.Addr                { return t.ws.LocalAddr() }
func (t *wsTransport) remoteAddr() net.Addr               { return t.ws.RemoteAddr() }
func (t *wsTransport) setReadDeadline(d time.Time) error  { return t.ws.SetReadDeadline(d) }
func (t *wsTransport) setWriteDeadline(d time.Time) error { return t.ws.SetWriteDeadline(d) }
