package peer

import (
	"context"
	"io"
	"net"
	"time"

	"github.com/gdvar/gdvar/frame"
)

// DialTCP connects to a Godot StreamPeerTCP server (a TCPServer in Godot
// 4, TCP_Server in Godot 3) at addr, "host:port". ctx bounds the
// connection attempt only.
func DialTCP(ctx context.Context, addr string, o Options) (*Conn, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	return newStreamConn("tcp", nc, cfg, nil, false), nil
}

// NewConn returns a Conn that exchanges StreamPeer.put_var frames over nc,
// any stream connection: a TCP connection accepted elsewhere, or a
// tls.Conn for Godot's StreamPeerTLS. The Conn owns nc and closes it. As
// for a dialled connection, only the idle and frame timeouts o sets
// explicitly apply, and there is no memory budget.
func NewConn(nc net.Conn, o Options) (*Conn, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	network := "tcp"
	if a := nc.RemoteAddr(); a != nil && a.Network() != "tcp" {
		network = a.Network()
	}
	return newStreamConn(network, nc, cfg, nil, false), nil
}

// ListenTCP listens on addr ("host:port"; port 0 picks a free one) for
// Godot StreamPeerTCP clients. ctx bounds setting up the listener only;
// Close stops it. The server limits of o apply (MaxConns, BufferBudget,
// IdleTimeout, FrameTimeout; see Options).
func ListenTCP(ctx context.Context, addr string, o Options) (*Listener, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	ln, err := lc.Listen(ctx, "tcp", addr)
	if err != nil {
		return nil, err
	}
	lim := newServerLimits(cfg)
	ll := &limitListener{Listener: ln, lim: lim}
	l := newListener(ln.Addr(), ln.Close, lim)
	go l.acceptLoop(func() (*Conn, error) {
		nc, err := ll.Accept()
		if err != nil {
			return nil, err
		}
		return newStreamConn("tcp", nc, cfg, lim.budget, true), nil
	})
	return l, nil
}

// newStreamConn returns a Conn over nc whose frame buffers come from
// budget (nil: none); server says whether a server accepted nc.
func newStreamConn(network string, nc net.Conn, cfg *config, budget *frame.Budget, server bool) *Conn {
	fo := cfg.frameOptions(budget)
	idle, ft := cfg.timeouts(server)
	t := &streamTransport{nc: nc, fw: frame.NewWriter(nc, fo)}
	var r io.Reader = nc
	if t.timer = newReadTimer(nc.SetReadDeadline, idle, ft); t.timer != nil {
		t.timer.streamFrames = true
		r = &timedConn{Conn: nc, t: t.timer}
	}
	t.fr = frame.NewReader(r, fo)
	t.idle = idle
	c := newConn(network, t, cfg)
	c.wtimeout = cfg.writeTimeout(server)
	return c
}

// streamTransport carries StreamPeer frames over a stream connection.
type streamTransport struct {
	nc    net.Conn
	fr    *frame.Reader
	fw    *frame.Writer
	timer *readTimer // nil without timeouts
	idle  time.Duration
}

func (t *streamTransport) readPayload() ([]byte, int64, error) {
	p, err := t.fr.ReadFrame()
	if t.timer != nil {
		if err == nil {
			t.timer.endFrame()
		} else if isLimit(err) {
			err = limitError(err, t.fr.FrameOffset(), t.fr.Offset() > t.fr.FrameOffset(), t.idle)
		}
	}
	return p, t.fr.FrameOffset(), err
}

func (t *streamTransport) abort(error) { t.nc.Close() }
func (t *streamTransport) release()    { t.fr.Release() }

func (t *streamTransport) writePayload(p []byte) error { return t.fw.WriteFrame(p) }

func (t *streamTransport) shutdown() error {
	if cw, ok := t.nc.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errNoShutdown
}

func (t *streamTransport) close() error         { return t.nc.Close() }
func (t *streamTransport) localAddr() net.Addr  { return t.nc.LocalAddr() }
func (t *streamTransport) remoteAddr() net.Addr { return t.nc.RemoteAddr() }
func (t *streamTransport) setReadDeadline(d time.Time) error {
	if t.timer != nil {
		return t.timer.setUser(d)
	}
	return t.nc.SetReadDeadline(d)
}
func (t *streamTransport) setWriteDeadline(d time.Time) error { return t.nc.SetWriteDeadline(d) }
