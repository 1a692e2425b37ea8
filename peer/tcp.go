package peer

import (
	"context"
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
	return newStreamConn("tcp", nc, cfg), nil
}

// NewConn returns a Conn that exchanges StreamPeer.put_var frames over nc,
// any stream connection: a TCP connection accepted elsewhere, or a
// tls.Conn for Godot's StreamPeerTLS. The Conn owns nc and closes it.
func NewConn(nc net.Conn, o Options) (*Conn, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	network := "tcp"
	if a := nc.RemoteAddr(); a != nil && a.Network() != "tcp" {
		network = a.Network()
	}
	return newStreamConn(network, nc, cfg), nil
}

// ListenTCP listens on addr ("host:port"; port 0 picks a free one) for
// Godot StreamPeerTCP clients. ctx bounds setting up the listener only;
// Close stops it.
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
	l := newListener(ln.Addr(), ln.Close)
	go l.acceptLoop(func() (*Conn, error) {
		nc, err := ln.Accept()
		if err != nil {
			return nil, err
		}
		return newStreamConn("tcp", nc, cfg), nil
	})
	return l, nil
}

func newStreamConn(network string, nc net.Conn, cfg *config) *Conn {
	fo := cfg.frameOptions()
	return newConn(network, &streamTransport{
		nc: nc,
		fr: frame.NewReader(nc, fo),
		fw: frame.NewWriter(nc, fo),
	}, cfg)
}

// streamTransport carries StreamPeer frames over a stream connection.
type streamTransport struct {
	nc net.Conn
	fr *frame.Reader
	fw *frame.Writer
}

func (t *streamTransport) readPayload() ([]byte, int64, error) {
	p, err := t.fr.ReadFrame()
	return p, t.fr.FrameOffset(), err
}

func (t *streamTransport) writePayload(p []byte) error { return t.fw.WriteFrame(p) }

func (t *streamTransport) shutdown() error {
	if cw, ok := t.nc.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errNoShutdown
}

func (t *streamTransport) close() error                       { return t.nc.Close() }
func (t *streamTransport) localAddr() net.Addr                { return t.nc.LocalAddr() }
func (t *streamTransport) remoteAddr() net.Addr               { return t.nc.RemoteAddr() }
func (t *streamTransport) setReadDeadline(d time.Time) error  { return t.nc.SetReadDeadline(d) }
func (t *streamTransport) setWriteDeadline(d time.Time) error { return t.nc.SetWriteDeadline(d) }
