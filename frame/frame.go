// Package frame reads and writes the framing Godot puts around encoded
// Variants when it stores or sends them:
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
// as its bytes arrive.
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

// Error describes a framing failure.
type Error struct {
	// Offset is the stream offset of the frame's first byte (its length
	// prefix), counted from the Reader's or Writer's start.
	Offset int64
	// Size is the payload size the frame claimed, or -1 if unknown.
	Size int64
	// Err is ErrTooLarge, ErrNegativeLength or io.ErrUnexpectedEOF.
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
// Write call. A Writer is not safe for concurrent use.
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

// WriteFrame writes one framed payload.
func (w *Writer) WriteFrame(payload []byte) error {
	if w.err != nil {
		return w.err
	}
	if len(payload) > w.opts.MaxSize {
		return &Error{Offset: w.off, Size: int64(len(payload)), Err: ErrTooLarge}
	}
	if w.opts.Kind == Packet {
		_, err := w.w.Write(payload)
		return err
	}
	w.buf = w.opts.order().AppendUint32(w.buf[:0], uint32(len(payload)))
	w.buf = append(w.buf, payload...)
	n, err := w.w.Write(w.buf)
	w.off += int64(n)
	if cap(w.buf) > 1<<16 {
		w.buf = nil // don't keep a big frame's buffer
	}
	return err
}

// Reader reads framed payloads from an io.Reader. Frames may arrive split
// across reads or glued together; a Reader buffers as needed. For Packet
// frames every Read of the underlying reader must return one whole packet
// (as a connected UDP socket or a message-based reader does).
//
// A Reader is not safe for concurrent use.
type Reader struct {
	r    io.Reader
	opts Options
	buf  []byte // reused between frames
	off  int64
	err  error
	pre  [4]byte
}

// NewReader returns a Reader; invalid options make every read fail.
func NewReader(r io.Reader, o Options) *Reader {
	o, err := o.normalize()
	return &Reader{r: r, opts: o, err: err}
}

// Offset returns the number of bytes consumed so far.
func (r *Reader) Offset() int64 { return r.off }

// maxDatagram is the largest packet a Reader of Packet frames reads: the
// largest UDP payload. Message transports (WebSocket) deliver whole
// messages by other means.
const maxDatagram = 65535

// growStep bounds how much a Reader reserves ahead of the bytes it has
// actually received.
const growStep = 64 << 10

// ReadFrame reads the next frame and returns its payload, which stays
// valid until the next call. At a clean end of input (no byte of a new
// frame) it returns io.EOF; input that ends inside a frame gives an *Error
// wrapping io.ErrUnexpectedEOF.
func (r *Reader) ReadFrame() ([]byte, error) {
	if r.err != nil {
		return nil, r.err
	}
	start := r.off
	if r.opts.Kind == Packet {
		// One Read is one packet; a buffer one byte larger than allowed
		// tells an oversized packet from one that fits exactly.
		size := min(r.opts.MaxSize, maxDatagram) + 1
		if cap(r.buf) < size {
			r.buf = make([]byte, size)
		}
		n, err := r.r.Read(r.buf[:size])
		if n == 0 && err != nil {
			return nil, err
		}
		r.off += int64(n)
		if n == size {
			return nil, &Error{Offset: start, Size: -1, Err: ErrTooLarge}
		}
		return r.buf[:n], nil
	}
	n, err := io.ReadFull(r.r, r.pre[:])
	r.off += int64(n)
	if err != nil {
		if err == io.EOF {
			return nil, io.EOF
		}
		if err == io.ErrUnexpectedEOF {
			return nil, &Error{Offset: start, Size: -1, Err: io.ErrUnexpectedEOF}
		}
		return nil, err
	}
	size := int64(r.opts.readOrder().Uint32(r.pre[:]))
	if r.opts.Kind == Stream && int32(size) < 0 {
		return nil, &Error{Offset: start, Size: int64(int32(size)), Err: ErrNegativeLength}
	}
	if size > int64(r.opts.MaxSize) {
		return nil, &Error{Offset: start, Size: size, Err: ErrTooLarge}
	}
	// Grow as the bytes arrive, so a large claim costs nothing until the
	// data is really there.
	r.buf = r.buf[:0]
	for int64(len(r.buf)) < size {
		chunk := int(min(size-int64(len(r.buf)), growStep))
		if cap(r.buf)-len(r.buf) < chunk {
			r.buf = append(r.buf[:cap(r.buf)], make([]byte, chunk)...)[:len(r.buf)]
		}
		n, err := io.ReadFull(r.r, r.buf[len(r.buf):len(r.buf)+chunk])
		r.buf = r.buf[:len(r.buf)+n]
		r.off += int64(n)
		if err != nil {
			if err == io.EOF || err == io.ErrUnexpectedEOF {
				return nil, &Error{Offset: start, Size: size, Err: io.ErrUnexpectedEOF}
			}
			return nil, err
		}
	}
	return r.buf, nil
}
