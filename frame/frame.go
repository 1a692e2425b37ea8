// Package frame reads and writes the framing Godot puts around encoded
// Variants when it stores or sends them. Limits: a frame holds at most
// Options.MaxSize bytes (8 MiB by default, the engine's PacketPeer limit;
// 2 GiB − 1 at most), refused from its length prefix before anything is
// allocated:
//
//	kind          Godot API                                   on the wire
//	Store         FileAccess.store_var / get_var              u32 length + payload
//	Stream        StreamPeer.put_var / get_var (TCP, …)       i32 length + payload
//	PacketStream  PacketPeerStream.put_var / get_var          u32 little-endian length + payload
//	Packet        PacketPeer.put_var / get_var (UDP, WebSocket, ENet, …)
//	                                                          payload alone, one per packet
//
// The payload is always var_to_bytes' little-endian encoding. The length of
// Store and Stream frames follows the file's or peer's big_endian setting
// (Options.BigEndian); PacketStream lengths are always little-endian.
//
// Readers never trust a length prefix: a length above Options.MaxSize is an
// error before anything is allocated, and the buffer for a frame grows only
// as its bytes arrive. Readers that share a Budget (Options.Budget) hold no
// more buffer memory between them than the budget allows.
package frame

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"strconv"
)

// Kind is a framing scheme.
type Kind uint8

// The framing schemes.
const (
	// Store is FileAccess.store_var / get_var: a u32 length, then the
	// payload.
	Store Kind = iota + 1
	// Stream is StreamPeer.put_var / get_var (StreamPeerTCP,
	// StreamPeerBuffer, StreamPeerTLS): an i32 length, then the payload.
	Stream
	// PacketStream is PacketPeerStream: a u32 little-endian length per
	// packet, whatever the stream's big_endian says. Its put_var frames are
	// byte-identical to Stream's with BigEndian off.
	PacketStream
	// Packet is PacketPeer.put_var / get_var over a packet transport (UDP,
	// WebSocket messages, ENet, WebRTC): one payload per packet, no prefix.
	Packet
)

var kindNames = [...]string{"", "store_var", "StreamPeer", "PacketPeerStream", "PacketPeer"}

// String names the Godot API of the kind.
func (k Kind) String() string {
	if int(k) < len(kindNames) && k != 0 {
		return kindNames[k]
	}
	return "Kind(" + strconv.Itoa(int(k)) + ")"
}

// Default and largest frame sizes.
const (
	// DefaultMaxSize is the default largest payload: 8 MiB, PacketPeer's
	// default encode_buffer_max_size. store_var and StreamPeer have no
	// limit of their own in the engine; set MaxSize to allow more.
	DefaultMaxSize = 8 << 20
	// DefaultMaxPacketStream is PacketPeerStream's default largest packet:
	// its 2^16-byte buffers less the 4-byte length.
	DefaultMaxPacketStream = 1<<16 - 4
	// MaxSizeLimit is the largest payload any frame can have: lengths are
	// signed 32-bit in the engine.
	MaxSizeLimit = 1<<31 - 1
)

// Options configures a Reader, a Writer or Append.
type Options struct {
	// Kind is the framing scheme; 0 means Stream.
	Kind Kind
	// BigEndian writes and reads the length prefix of Store and Stream
	// frames big-endian, as a FileAccess or StreamPeer with big_endian set
	// does. The payload is little-endian regardless.
	BigEndian bool
	// MaxSize is the largest payload accepted or written; 0 means
	// DefaultMaxSize (DefaultMaxPacketStream for PacketStream). At most
	// MaxSizeLimit.
	MaxSize int
	// Budget, when set, is the memory a Reader's buffer is reserved from
	// (see Budget); a frame that needs more than is left fails with
	// ErrBudget. Writers ignore it.
	Budget *Budget
}

func (o Options) normalize() (Options, error) {
	if o.Kind == 0 {
		o.Kind = Stream
	}
	if o.Kind > Packet {
		return o, fmt.Errorf("frame: unknown kind %d", o.Kind)
	}
	if o.BigEndian && (o.Kind == PacketStream || o.Kind == Packet) {
		return o, fmt.Errorf("frame: %v has no big-endian mode", o.Kind)
	}
	if o.MaxSize == 0 {
		o.MaxSize = DefaultMaxSize
		if o.Kind == PacketStream {
			o.MaxSize = DefaultMaxPacketStream
		}
	}
	if o.MaxSize < 0 || o.MaxSize > MaxSizeLimit {
		return o, fmt.Errorf("frame: MaxSize %d is outside 1..%d", o.MaxSize, MaxSizeLimit)
	}
	return o, nil
}

func (o Options) order() binary.AppendByteOrder {
	if o.BigEndian {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// readOrder is order for reading.
func (o Options) readOrder() binary.ByteOrder {
	if o.BigEndian {
		return binary.BigEndian
	}
	return binary.LittleEndian
}

// Errors. Every error a Reader or Writer returns for bad framing is an
// *Error wrapping one of these.
var (
	// ErrTooLarge: a length prefix or payload exceeds MaxSize.
	ErrTooLarge = errors.New("frame too large")
	// ErrNegativeLength: a StreamPeer length prefix is negative.
	ErrNegativeLength = errors.New("negative frame length")
)

// ErrBudget (see Budget) is reported as an *Error too.

// Error describes a framing failure.
type Error struct {
	// Offset is the stream offset of the frame's first byte (its length
	// prefix), counted from the Reader's or Writer's start.
	Offset int64
	// Size is the payload size the frame claimed, or -1 if unknown.
	Size int64
	// Err is ErrTooLarge, ErrNegativeLength, ErrBudget or
	// io.ErrUnexpectedEOF. The
	// value-level readers built on this package (packages stream and peer)
	// also report a payload that does not decode as an *Error, whose Err
	// is then the *variant.Error.
	Err error
}

// Error formats the error on one line.
func (e *Error) Error() string {
	s := "frame at byte " + strconv.FormatInt(e.Offset, 10)
	if e.Size >= 0 {
		s += " (" + strconv.FormatInt(e.Size, 10) + " bytes)"
	}
	return s + ": " + e.Err.Error()
}

// Unwrap returns the underlying error.
func (e *Error) Unwrap() error { return e.Err }

// Append appends payload framed as o says to dst.
func Append(dst, payload []byte, o Options) ([]byte, error) {
	o, err := o.normalize()
	if err != nil {
		return dst, err
	}
	if len(payload) > o.MaxSize {
		return dst, &Error{Offset: 0, Size: int64(len(payload)), Err: ErrTooLarge}
	}
	if o.Kind != Packet {
		dst = o.order().AppendUint32(dst, uint32(len(payload)))
	}
	return append(dst, payload...), nil
}

// Writer writes framed payloads to an io.Writer, each frame with a single
// Write call. A write that fails before any byte went out can be retried
// (after a write deadline, for instance); one that fails part-way leaves the
// stream out of step, and every later write returns the same error.
//
// A Writer is not safe for concurrent use.
type Writer struct {
	w    io.Writer
	opts Options
	buf  []byte
	off  int64
	err  error
}

// NewWriter returns a Writer; invalid options make every write fail.
func NewWriter(w io.Writer, o Options) *Writer {
	o, err := o.normalize()
	return &Writer{w: w, opts: o, err: err}
}

// Offset returns the number of bytes written so far.
func (w *Writer) Offset() int64 { return w.off }

// WriteFrame writes one framed payload.
func (w *Writer) WriteFrame(payload []byte) error {
	if w.err != nil {
		return w.err
	}
	if len(payload) > w.opts.MaxSize {
		return &Error{Offset: w.off, Size: int64(len(payload)), Err: ErrTooLarge}
	}
	out := payload
	if w.opts.Kind != Packet {
		w.buf = w.opts.order().AppendUint32(w.buf[:0], uint32(len(payload)))
		w.buf = append(w.buf, payload...)
		out = w.buf
	}
	n, err := w.w.Write(out)
	w.off += int64(n)
	if cap(w.buf) > 1<<16 {
		w.buf = nil // don't keep a big frame's buffer
	}
	if err == nil && n < len(out) {
		err = io.ErrShortWrite
	}
	if err != nil && n > 0 && w.opts.Kind != Packet {
		w.err = err
	}
	return err
}

// Reader reads framed payloads from an io.Reader. Frames may arrive split
// across reads or glued together; a Reader buffers as needed. For Packet
// frames every Read of the underlying reader must return one whole packet
// (as a connected UDP socket or a message-based reader does).
//
// When the underlying reader fails in the middle of a frame with an error
// other than io.EOF (a read deadline that expires, for instance), the bytes
// read so far are kept and the next ReadFrame carries on with the same
// frame, so a net.Conn whose deadline has passed can be given a new one and
// read again. A framing error (ErrTooLarge, ErrNegativeLength, ErrBudget)
// leaves the stream out of step: every later ReadFrame returns the same
// error.
//
// A Reader is not safe for concurrent use.
type Reader struct {
	r     io.Reader
	opts  Options
	buf   []byte // the payload; reused between frames
	off   int64  // bytes consumed
	err   error  // sticky: bad options or a framing error
	pre   [4]byte
	npre  int   // bytes of the current frame's length prefix read so far
	size  int64 // the current frame's payload size; -1 until its prefix is whole
	start int64 // offset of the current (or last) frame's first byte
	in    bool  // in the middle of a frame
	held  int64 // bytes reserved from opts.Budget: cap(buf)
}

// NewReader returns a Reader; invalid options make every read fail.
func NewReader(r io.Reader, o Options) *Reader {
	o, err := o.normalize()
	return &Reader{r: r, opts: o, err: err}
}

// Offset returns the number of bytes consumed so far.
func (r *Reader) Offset() int64 { return r.off }

// FrameOffset returns the offset of the first byte (the length prefix, or
// the packet) of the frame ReadFrame last returned or is in the middle of.
func (r *Reader) FrameOffset() int64 { return r.start }

// maxDatagram is the largest packet a Reader of Packet frames reads: the
// largest UDP payload. Message transports (WebSocket) deliver whole
// messages by other means.
const maxDatagram = 65535

// growStep bounds how much a Reader reserves ahead of the bytes it has
// actually received.
const growStep = 64 << 10

// keepBuffer is the largest buffer a Reader keeps for the next frame;
// keepBudgeted when the buffer counts against a Budget, so that idle
// connections hold little of it.
const (
	keepBuffer   = 1 << 20
	keepBudgeted = 4 << 10
)

// Release drops the Reader's buffer and returns its memory to the Budget.
// The payload ReadFrame last returned is no longer valid. The Reader stays
// usable; it reserves memory again when it needs some.
func (r *Reader) Release() {
	r.buf = nil
	if r.held > 0 {
		r.opts.Budget.Release(r.held)
		r.held = 0
	}
}

// grow makes room for at least need bytes in r.buf, of a frame of size
// bytes, reserving the growth from the budget first.
func (r *Reader) grow(need int, size int64) error {
	if cap(r.buf) >= need {
		return nil
	}
	newCap := max(need, int(min(2*int64(cap(r.buf)), size)))
	if b := r.opts.Budget; b != nil {
		if !b.Reserve(int64(newCap - cap(r.buf))) {
			r.err = &Error{Offset: r.start, Size: size, Err: ErrBudget}
			return r.err
		}
		r.held += int64(newCap - cap(r.buf))
	}
	nb := make([]byte, len(r.buf), newCap)
	copy(nb, r.buf)
	r.buf = nb
	return nil
}

// readSome reads into b until it is full or the reader fails. It returns
// how much it read; err is nil only when b is full.
func readSome(r io.Reader, b []byte) (int, error) {
	n := 0
	for n < len(b) {
		m, err := r.Read(b[n:])
		n += m
		if err != nil {
			if n == len(b) && err == io.EOF {
				return n, nil // the EOF comes again on the next read
			}
			return n, err
		}
	}
	return n, nil
}

// ReadFrame reads the next frame and returns its payload, which stays
// valid until the next call. At a clean end of input (no byte of a new
// frame) it returns io.EOF; input that ends inside a frame gives an *Error
// wrapping io.ErrUnexpectedEOF. Errors of the underlying reader are
// returned as they are.
func (r *Reader) ReadFrame() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	if !r.in {
		r.start = r.off
		r.npre = 0
		r.size = -1
		keep := keepBuffer
		if r.opts.Budget != nil && r.opts.Kind != Packet {
			keep = keepBudgeted
		}
		if cap(r.buf) > keep {
			r.Release() // don't hold on to a big frame's buffer
		}
		r.buf = r.buf[:0]
	}
	if r.opts.Kind == Packet {
		// One Read is one packet; a buffer one byte larger than allowed
		// tells an oversized packet from one that fits exactly.
		size := min(r.opts.MaxSize, maxDatagram) + 1
		if err := r.grow(size, int64(size)); err != nil {
			return nil, err
		}
		n, err := r.r.Read(r.buf[:size])
		if n == 0 && err != nil {
			return nil, err
		}
		r.off += int64(n)
		if n == size {
			return nil, &Error{Offset: r.start, Size: -1, Err: ErrTooLarge}
		}
		return r.buf[:n], nil
	}
	if r.size < 0 {
		n, err := readSome(r.r, r.pre[r.npre:])
		r.npre += n
		r.off += int64(n)
		if err != nil {
			r.in = r.npre > 0
			if err == io.EOF {
				if !r.in {
					return nil, io.EOF
				}
				return nil, &Error{Offset: r.start, Size: -1, Err: io.ErrUnexpectedEOF}
			}
			return nil, err
		}
		r.in = true
		size := int64(r.opts.readOrder().Uint32(r.pre[:]))
		if r.opts.Kind == Stream && int32(size) < 0 {
			r.err = &Error{Offset: r.start, Size: int64(int32(size)), Err: ErrNegativeLength}
			return nil, r.err
		}
		if size > int64(r.opts.MaxSize) {
			r.err = &Error{Offset: r.start, Size: size, Err: ErrTooLarge}
			return nil, r.err
		}
		r.size = size
	}
	// Grow as the bytes arrive, so a large claim costs nothing until the
	// data is really there.
	for int64(len(r.buf)) < r.size {
		chunk := int(min(r.size-int64(len(r.buf)), growStep))
		if err := r.grow(len(r.buf)+chunk, r.size); err != nil {
			return nil, err
		}
		n, err := readSome(r.r, r.buf[len(r.buf):len(r.buf)+chunk])
		r.buf = r.buf[:len(r.buf)+n]
		r.off += int64(n)
		if err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return nil, &Error{Offset: r.start, Size: r.size, Err: io.ErrUnexpectedEOF}
			}
			return nil, err
		}
	}
	r.in = false
	return r.buf, nil
}
