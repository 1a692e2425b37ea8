// Package stream reads and writes sequences of Variants on an io.Reader or
// io.Writer, framed the way Godot frames them: a save file written with
// several FileAccess.store_var calls, a TCP stream of StreamPeer.put_var
// values, PacketPeerStream packets, or one payload per packet.
//
// A Decoder reads values back to back until the end of the input; frames
// may arrive split across reads or glued together. A length prefix above
// the maximum frame size is an error before anything is allocated.
//
//	dec := stream.NewDecoder(f, stream.Options{Kind: frame.Store})
//	for {
//		v, err := dec.Decode()
//		if err == io.EOF {
//			break
//		}
//		…
//	}
//
// The framing itself is package frame; the values are package variant.
// Package peer builds network connections on the same framing.
package stream

import (
	"errors"
	"io"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/variant"
)

// Options configures an Encoder or a Decoder. The zero value reads and
// writes StreamPeer.put_var frames of Godot 4 values, 8 MiB at most each.
type Options struct {
	// Kind is the framing: frame.Store for files (store_var / get_var),
	// frame.Stream for StreamPeer (put_var / get_var), frame.PacketStream,
	// or frame.Packet. 0 means frame.Stream.
	Kind frame.Kind
	// BigEndian writes and reads the length prefixes big-endian, as a
	// FileAccess with big_endian (Godot 3: File.endian_swap) or a
	// StreamPeer with big_endian set does. Payloads stay little-endian.
	BigEndian bool
	// MaxSize is the largest payload read or written; 0 means
	// frame.DefaultMaxSize (8 MiB; 65532 bytes for frame.PacketStream).
	MaxSize int
	// Godot is the engine family on the other side. It fills in
	// Dec.Family and Enc.Family where those are 0; 0 means Godot 4.
	Godot variant.Family
	// Dec configures decoding (objects, depth).
	Dec variant.DecOptions
	// Enc configures encoding (target version, precision, full objects).
	Enc variant.EncOptions
}

// FrameOptions returns the framing part of o.
func (o Options) FrameOptions() frame.Options {
	return frame.Options{Kind: o.Kind, BigEndian: o.BigEndian, MaxSize: o.MaxSize}
}

// Modes validates o and returns its decoding and encoding modes, with
// Godot filled in.
func (o Options) Modes() (*variant.DecMode, *variant.EncMode, error) {
	dec, enc := o.Dec, o.Enc
	if dec.Family == 0 {
		dec.Family = o.Godot
	}
	if enc.Family == 0 && enc.Version == (variant.Version{}) {
		enc.Family = o.Godot
	}
	dm, err := dec.DecMode()
	if err != nil {
		return nil, nil, err
	}
	em, err := enc.EncMode()
	if err != nil {
		return nil, nil, err
	}
	return dm, em, nil
}

// Decoder reads framed values from an io.Reader. It is not safe for
// concurrent use.
type Decoder struct {
	fr  *frame.Reader
	dm  *variant.DecMode
	err error
}

// NewDecoder returns a Decoder reading from r. Invalid options make every
// call fail with the same error.
func NewDecoder(r io.Reader, o Options) *Decoder {
	dm, _, err := o.Modes()
	return &Decoder{fr: frame.NewReader(r, o.FrameOptions()), dm: dm, err: err}
}

// Decode reads the next frame and decodes its payload. At a clean end of
// input it returns io.EOF.
//
// A payload that does not decode gives a *frame.Error whose Offset is the
// stream offset of the frame and whose Err is the *variant.Error (with the
// offset inside the payload): errors.As finds both. The frame has been
// consumed, so the next Decode reads the next frame. Framing errors are
// *frame.Error too (frame.ErrTooLarge, frame.ErrNegativeLength,
// io.ErrUnexpectedEOF for input that ends inside a frame); after those the
// stream is out of step and Decode keeps failing. Bytes after the value
// inside a frame are ignored, as the engine ignores them.
func (d *Decoder) Decode() (variant.Value, error) {
	p, err := d.ReadPayload()
	if err != nil {
		return nil, err
	}
	return DecodePayload(d.dm, p, d.fr.FrameOffset())
}

// ReadPayload reads the next frame and returns its payload undecoded. The
// slice is valid until the next call.
func (d *Decoder) ReadPayload() ([]byte, error) {
	if d.err != nil {
		return nil, d.err
	}
	return d.fr.ReadFrame()
}

// InputOffset returns the number of bytes read from the input so far: the
// offset of the next frame once a frame has been read whole.
func (d *Decoder) InputOffset() int64 { return d.fr.Offset() }

// DecodePayload decodes one frame's payload with dm and wraps a failure in
// a *frame.Error that carries the frame's stream offset (off) and size.
func DecodePayload(dm *variant.DecMode, payload []byte, off int64) (variant.Value, error) {
	v, _, err := dm.Decode(payload)
	if err != nil {
		return nil, &frame.Error{Offset: off, Size: int64(len(payload)), Err: err}
	}
	return v, nil
}

// Encoder writes framed values to an io.Writer, each frame with one Write
// call. It is not safe for concurrent use.
type Encoder struct {
	fw  *frame.Writer
	em  *variant.EncMode
	buf []byte
	err error
}

// NewEncoder returns an Encoder writing to w. Invalid options make every
// call fail with the same error.
func NewEncoder(w io.Writer, o Options) *Encoder {
	_, em, err := o.Modes()
	return &Encoder{fw: frame.NewWriter(w, o.FrameOptions()), em: em, err: err}
}

// Encode encodes v and writes it as one frame. A value that cannot be
// encoded gives its *variant.Error and writes nothing; a payload above
// MaxSize gives a *frame.Error wrapping frame.ErrTooLarge and writes
// nothing.
func (e *Encoder) Encode(v variant.Value) error {
	if e.err != nil {
		return e.err
	}
	var err error
	e.buf, err = e.em.Append(e.buf[:0], v)
	if err != nil {
		return err
	}
	err = e.fw.WriteFrame(e.buf)
	if cap(e.buf) > 1<<20 {
		e.buf = nil // don't hold on to a big value's buffer
	}
	return err
}

// WritePayload writes an already encoded payload as one frame.
func (e *Encoder) WritePayload(p []byte) error {
	if e.err != nil {
		return e.err
	}
	return e.fw.WriteFrame(p)
}

// OutputOffset returns the number of bytes written so far.
func (e *Encoder) OutputOffset() int64 { return e.fw.Offset() }

// IsFramingError reports whether err leaves a stream out of step: a
// framing error or a truncated stream, as opposed to a payload that did not
// decode (after which the next frame can still be read) or an error of the
// underlying reader.
func IsFramingError(err error) bool {
	var fe *frame.Error
	if !errors.As(err, &fe) {
		return false
	}
	var ve *variant.Error
	return !errors.As(fe.Err, &ve)
}
