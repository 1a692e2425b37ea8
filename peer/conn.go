package peer

import (
	"errors"
	"fmt"
	"net"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdvar/gdvar/stream"
	"github.com/gdvar/gdvar/variant"
)

// transport is what a Conn needs of TCP, UDP and WebSocket connections.
type transport interface {
	// readPayload returns the next payload and the offset of its frame in
	// the input; the payload is valid until the next call.
	readPayload() ([]byte, int64, error)
	writePayload(p []byte) error
	// shutdown tells the peer no more data follows (TCP FIN, WebSocket
	// close frame); errNoShutdown when the transport has no such thing.
	shutdown() error
	close() error
	// abort closes the connection at once because a server limit (err)
	// struck, telling the peer why where the protocol can.
	abort(err error)
	// release gives the read buffer back to the memory budget; called
	// with the reader lock held.
	release()
	localAddr() net.Addr
	remoteAddr() net.Addr
	setReadDeadline(t time.Time) error
	setWriteDeadline(t time.Time) error
}

var errNoShutdown = errors.New("no shutdown")

// Conn is a connection to one peer that carries Godot Variants: over TCP,
// UDP or WebSocket. See the package documentation for the framing, the
// errors and the concurrency rules.
type Conn struct {
	network string
	tr      transport
	cfg     *config

	rmu sync.Mutex // held by the reader

	wmu      sync.Mutex // serializes writers
	wbuf     []byte
	wtimeout time.Duration // 0: none
	wuserMu  sync.Mutex
	wuser    time.Time // the user's write deadline
	wset     time.Time // the transport's write deadline, set last

	readEnded chan struct{} // closed when a read met the end of the input
	endOnce   sync.Once

	aborted atomic.Bool // a server limit closed the connection
	onClose func()      // called once when closed; may be nil

	closeOnce sync.Once
	closeErr  error
}

func newConn(network string, tr transport, cfg *config) *Conn {
	return &Conn{network: network, tr: tr, cfg: cfg, readEnded: make(chan struct{})}
}

// Network returns "tcp", "udp" or "ws".
func (c *Conn) Network() string { return c.network }

// LocalAddr returns the local network address.
func (c *Conn) LocalAddr() net.Addr { return c.tr.localAddr() }

// RemoteAddr returns the peer's network address.
func (c *Conn) RemoteAddr() net.Addr { return c.tr.remoteAddr() }

// ReadValue reads and decodes the next value. It returns io.EOF when the
// peer has closed the connection cleanly. A payload that does not decode
// gives a *frame.Error wrapping the *variant.Error, and the next call
// reads the next value.
func (c *Conn) ReadValue() (variant.Value, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	p, off, err := c.read()
	if err != nil {
		return nil, err
	}
	return stream.DecodePayload(c.cfg.dm, p, off)
}

// Decode reads the next value into the Go value v points to, as
// gdvar.Unmarshal does (a struct from a Dictionary, a slice from an Array,
// any variant.Value, …), with the connection's family and decoding limits.
// It returns io.EOF when the peer has closed the connection cleanly. A
// payload that does not decode, or whose value does not fit v, gives a
// *frame.Error wrapping the *gdvar.Error, and the next call reads the next
// value.
func (c *Conn) Decode(v any) error {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	p, off, err := c.read()
	if err != nil {
		return err
	}
	return stream.UnmarshalPayload(c.cfg.gdm, p, off, v)
}

// Encode encodes the Go value v as gdvar.Marshal does (a struct as a
// Dictionary, a slice as an Array, a variant.Value as it is), for the
// connection's engine family, version and precision, and sends it as one
// frame. A value that cannot be encoded gives its *gdvar.Error and sends
// nothing.
func (c *Conn) Encode(v any) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	b, err := c.cfg.gem.Append(c.wbuf[:0], v)
	if err != nil {
		return err
	}
	return c.writeBuf(b)
}

// ReadPayload reads the next payload without decoding it. The slice is
// valid until the next read.
func (c *Conn) ReadPayload() ([]byte, error) {
	c.rmu.Lock()
	defer c.rmu.Unlock()
	p, _, err := c.read()
	return p, err
}

// read reads a payload; rmu is held.
func (c *Conn) read() ([]byte, int64, error) {
	p, off, err := c.tr.readPayload()
	if err != nil && !isTimeout(err) {
		c.endOnce.Do(func() { close(c.readEnded) })
		if isLimit(err) && !c.aborted.Swap(true) {
			c.tr.abort(err)
			c.tr.release()
		}
	}
	return p, off, err
}

// WriteValue encodes v and sends it as one frame. A value that cannot be
// encoded gives its *variant.Error and sends nothing.
func (c *Conn) WriteValue(v variant.Value) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	b, err := c.cfg.em.Append(c.wbuf[:0], v)
	if err != nil {
		return err
	}
	return c.writeBuf(b)
}

// writeBuf sends b, encoded in wbuf's memory; wmu is held.
func (c *Conn) writeBuf(b []byte) error {
	err := c.write(b)
	if cap(b) <= 1<<20 {
		c.wbuf = b[:0]
	} else {
		c.wbuf = nil // don't hold on to a big value's buffer
	}
	return err
}

// WritePayload sends an encoded payload as one frame.
func (c *Conn) WritePayload(p []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.write(p)
}

// WritePayloads sends each element of ps as one frame, in order: the
// element's pieces end to end make the payload. Over a WebSocket
// connection a server accepted, the frames go out in one write to the
// network (writev) and the pieces are not copied, so that a payload
// shared by many connections is sent to each without a copy of its own;
// over other connections the frames are written one by one. The write
// timeout bounds the whole batch. The pieces are only read, and not
// retained once WritePayloads returns.
func (c *Conn) WritePayloads(ps []net.Buffers) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if bw, ok := c.tr.(batchWriter); ok {
		return c.timed(func() error { return bw.writeBatch(ps) })
	}
	for _, p := range ps {
		var err error
		if len(p) == 1 {
			err = c.write(p[0])
		} else {
			b := c.wbuf[:0]
			for _, piece := range p {
				b = append(b, piece...)
			}
			err = c.writeBuf(b)
		}
		if err != nil {
			return err
		}
	}
	return nil
}

// batchWriter is a transport that writes many payloads at once.
type batchWriter interface {
	writeBatch(ps []net.Buffers) error
}

// write sends one payload under the write timeout; wmu is held.
func (c *Conn) write(p []byte) error {
	return c.timed(func() error { return c.tr.writePayload(p) })
}

// timed runs the write w under the write timeout; wmu is held.
func (c *Conn) timed(w func() error) error {
	if _, polled := c.tr.(pollTransport); polled || c.wtimeout <= 0 {
		return w()
	}
	c.wuserMu.Lock()
	user := c.wuser
	limit := time.Now().Add(c.wtimeout)
	d := limit
	if !user.IsZero() && user.Before(d) {
		d = user
	}
	if !d.Equal(c.wset) {
		c.tr.setWriteDeadline(d)
		c.wset = d
	}
	c.wuserMu.Unlock()
	err := w()
	if err != nil && isTimeout(err) {
		if now := time.Now(); (user.IsZero() || now.Before(user)) && !now.Before(limit) {
			err = fmt.Errorf("%w (%v)", ErrWriteTimeout, c.wtimeout)
			if !c.aborted.Swap(true) {
				c.tr.abort(err)
			}
		}
	}
	return err
}

// SetDeadline sets the read and write deadlines; the zero time means none.
func (c *Conn) SetDeadline(t time.Time) error {
	return errors.Join(c.tr.setReadDeadline(t), c.SetWriteDeadline(t))
}

// SetReadDeadline sets the deadline of reads; the zero time means none.
func (c *Conn) SetReadDeadline(t time.Time) error { return c.tr.setReadDeadline(t) }

// SetWriteDeadline sets the deadline of writes; the zero time means none.
func (c *Conn) SetWriteDeadline(t time.Time) error {
	c.wuserMu.Lock()
	defer c.wuserMu.Unlock()
	c.wuser, c.wset = t, t
	return c.tr.setWriteDeadline(t)
}

// Close closes the connection cleanly: what was written is sent, the peer
// is told (TCP: the write side is shut down; WebSocket: a close frame with
// status 1000), and Close waits up to Options.CloseTimeout for the peer to
// close its side, discarding whatever still arrives, before it releases the
// connection. A read blocked in another goroutine keeps receiving values
// until then, and returns an error afterwards. Close returns at once for
// UDP, and for a connection a server limit has already closed. Calling
// Close again does nothing and returns the first result.
func (c *Conn) Close() error {
	if pt, ok := c.tr.(pollTransport); ok {
		c.closeOnce.Do(func() { pt.closeWith(CloseNormal, "") })
		return nil
	}
	c.closeOnce.Do(func() {
		if c.aborted.Load() {
			c.tr.close()
		} else {
			if c.cfg.closeTimeout > 0 && c.tr.shutdown() == nil {
				c.linger(c.cfg.closeTimeout)
			}
			c.closeErr = c.tr.close()
		}
		// A read blocked in another goroutine has returned by now.
		c.rmu.Lock()
		c.tr.release()
		c.rmu.Unlock()
		if c.onClose != nil {
			c.onClose()
		}
	})
	return c.closeErr
}

// Refuse closes a connection the server will not serve, telling the peer
// why: over WebSocket the close frame has status 1008 (policy violation)
// and reason (cut to the 123 bytes a close frame holds), which a Godot
// client reports as a failed connection (Godot's native WebSocket library
// does not accept 1013, try again later); over TCP and UDP it is Close.
// Call it before any other Close.
func (c *Conn) Refuse(reason string) error {
	if r, ok := c.tr.(interface{ refuse(string) }); ok {
		r.refuse(reason)
	}
	return c.Close()
}

// linger waits, at most d, until the peer has closed its side.
func (c *Conn) linger(d time.Duration) {
	if c.rmu.TryLock() {
		// No reader: drain the input ourselves, into a buffer of our own,
		// since the payload read last may still be in use.
		defer c.rmu.Unlock()
		c.tr.release()
		c.tr.setReadDeadline(time.Now().Add(d))
		for {
			if _, _, err := c.tr.readPayload(); err != nil {
				return
			}
		}
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-c.readEnded:
	case <-t.C:
	}
}

func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
