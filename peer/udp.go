package peer

import (
	"context"
	"net"
	"sync"
	"time"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/stream"
	"github.com/gdvar/gdvar/variant"
)

// maxDatagram is the largest UDP payload (over IPv4).
const maxDatagram = 65507

// DialUDP returns a Conn that sends values as datagrams to addr
// ("host:port") and receives the datagrams addr sends back, like a Godot
// PacketPeerUDP with set_dest_address (Godot 4: connect_to_host). ctx
// bounds resolving addr only. UDP does not tell when the peer goes away:
// use a read deadline.
func DialUDP(ctx context.Context, addr string, o Options) (*Conn, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, "udp", addr)
	if err != nil {
		return nil, err
	}
	return newConn("udp", &datagramTransport{
		nc:      nc,
		fr:      frame.NewReader(nc, frame.Options{Kind: frame.Packet, MaxSize: cfg.maxSize}),
		maxSize: cfg.maxSize,
	}, cfg), nil
}

// datagramTransport carries one payload per datagram of a connected UDP
// socket.
type datagramTransport struct {
	nc      net.Conn
	fr      *frame.Reader
	maxSize int
	off     int64
}

func (t *datagramTransport) readPayload() ([]byte, int64, error) {
	p, err := t.fr.ReadFrame()
	return p, t.fr.FrameOffset(), err
}

func (t *datagramTransport) writePayload(p []byte) error {
	if err := checkPacket(p, t.maxSize, t.off); err != nil {
		return err
	}
	n, err := t.nc.Write(p)
	t.off += int64(n)
	return err
}

func checkPacket(p []byte, maxSize int, off int64) error {
	if len(p) > maxSize || len(p) > maxDatagram {
		return &frame.Error{Offset: off, Size: int64(len(p)), Err: frame.ErrTooLarge}
	}
	return nil
}

func (t *datagramTransport) shutdown() error                    { return errNoShutdown }
func (t *datagramTransport) abort(error)                        { t.nc.Close() }
func (t *datagramTransport) release()                           {}
func (t *datagramTransport) close() error                       { return t.nc.Close() }
func (t *datagramTransport) localAddr() net.Addr                { return t.nc.LocalAddr() }
func (t *datagramTransport) remoteAddr() net.Addr               { return t.nc.RemoteAddr() }
func (t *datagramTransport) setReadDeadline(d time.Time) error  { return t.nc.SetReadDeadline(d) }
func (t *datagramTransport) setWriteDeadline(d time.Time) error { return t.nc.SetWriteDeadline(d) }

// PacketConn is a UDP socket that exchanges values with any number of
// Godot PacketPeerUDP peers, one value per datagram, each read with the
// address it came from. It supports one reader and any number of writers
// at the same time (see the package documentation).
type PacketConn struct {
	pc  net.PacketConn
	cfg *config

	rmu  sync.Mutex
	rbuf []byte
	roff int64

	wmu  sync.Mutex
	wbuf []byte
	woff int64
}

// ListenUDP opens a UDP socket on addr ("host:port"; port 0 picks a free
// one). ctx bounds setting it up only.
func ListenUDP(ctx context.Context, addr string, o Options) (*PacketConn, error) {
	cfg, err := o.config()
	if err != nil {
		return nil, err
	}
	var lc net.ListenConfig
	pc, err := lc.ListenPacket(ctx, "udp", addr)
	if err != nil {
		return nil, err
	}
	return &PacketConn{pc: pc, cfg: cfg}, nil
}

// LocalAddr returns the socket's address.
func (c *PacketConn) LocalAddr() net.Addr { return c.pc.LocalAddr() }

// ReadPayloadFrom reads the next datagram and returns its payload, valid
// until the next read, and its sender. A datagram larger than MaxSize is
// an error wrapping frame.ErrTooLarge, with the sender; the next read
// goes on with the next datagram.
func (c *PacketConn) ReadPayloadFrom() ([]byte, net.Addr, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	p, _, addr, err := c.read()
	return p, addr, err
}

// ReadValueFrom reads and decodes the next datagram and returns the value
// and its sender. A payload that does not decode gives a *frame.Error
// wrapping the *variant.Error, with the sender; the next read goes on with
// the next datagram.
func (c *PacketConn) ReadValueFrom() (variant.Value, net.Addr, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	p, off, addr, err := c.read()
	if err != nil {
		return nil, addr, err
	}
	v, err := stream.DecodePayload(c.cfg.dm, p, off)
	return v, addr, err
}

func (c *PacketConn) read() ([]byte, int64, net.Addr, error) {
	size := min(c.cfg.maxSize, maxDatagram) + 1
	if cap(c.rbuf) < size {
		c.rbuf = make([]byte, size)
	}
	n, addr, err := c.pc.ReadFrom(c.rbuf[:size])
	off := c.roff
	c.roff += int64(n)
	if err != nil {
		return nil, off, addr, err
	}
	if n == size {
		return nil, off, addr, &frame.Error{Offset: off, Size: -1, Err: frame.ErrTooLarge}
	}
	return c.rbuf[:n], off, addr, nil
}

// DecodeFrom reads the next datagram into the Go value v points to, as
// Conn.Decode does, and returns its sender. A payload that does not decode
// or fit v gives a *frame.Error wrapping the *gdvar.Error, with the
// sender; the next read goes on with the next datagram.
func (c *PacketConn) DecodeFrom(v any) (net.Addr, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	p, off, addr, err := c.read()
	if err != nil {
		return addr, err
	}
	return addr, stream.UnmarshalPayload(c.cfg.gdm, p, off, v)
}

// EncodeTo encodes the Go value v as Conn.Encode does and sends it as one
// datagram to addr.
func (c *PacketConn) EncodeTo(v any, addr net.Addr) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	b, err := c.cfg.gem.Append(c.wbuf[:0], v)
	if err != nil {
		return err
	}
	c.wbuf = b[:0]
	return c.write(b, addr)
}

// WriteValueTo encodes v and sends it as one datagram to addr.
func (c *PacketConn) WriteValueTo(v variant.Value, addr net.Addr) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	b, err := c.cfg.em.Append(c.wbuf[:0], v)
	if err != nil {
		return err
	}
	c.wbuf = b[:0]
	return c.write(b, addr)
}

// WritePayloadTo sends an encoded payload as one datagram to addr.
func (c *PacketConn) WritePayloadTo(p []byte, addr net.Addr) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.write(p, addr)
}

func (c *PacketConn) write(p []byte, addr net.Addr) error {
	if err := checkPacket(p, c.cfg.maxSize, c.woff); err != nil {
		return err
	}
	n, err := c.pc.WriteTo(p, addr)
	c.woff += int64(n)
	return err
}

// SetDeadline sets the read and write deadlines; the zero time means none.
func (c *PacketConn) SetDeadline(t time.Time) error { return c.pc.SetDeadline(t) }

// SetReadDeadline sets the deadline of reads; the zero time means none.
func (c *PacketConn) SetReadDeadline(t time.Time) error { return c.pc.SetReadDeadline(t) }

// SetWriteDeadline sets the deadline of writes; the zero time means none.
func (c *PacketConn) SetWriteDeadline(t time.Time) error { return c.pc.SetWriteDeadline(t) }

// Close closes the socket; pending reads and writes return.
func (c *PacketConn) Close() error { return c.pc.Close() }
