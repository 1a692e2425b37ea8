// Package stream reads and writes sequences of Variants on an io.Reader or
// io.Writer, framed the way Godot frames them: a save file written with
// several FileAccess.store_var calls, a TCP stream of StreamPeer.put_var
// values, PacketPeerStream packets, or one payload per packet. Limits: a
// frame holds at most Options.MaxSize bytes (8 MiB by default), and a
// frame's buffer grows only as its bytes arrive.
//
// A Decoder reads values back to back until the end of the input; frames
// may arrive split across reads or glued together. A length prefix above
// the maximum frame size is an error before anything is allocated. As with
// encoding/json, Decode fills any Go value (a struct, a map, a slice, a
// variant.Value) the way gdvar.Unmarshal does, and Encode writes any Go
// value the way gdvar.Marshal does, both for the engine family, version
// and precision the Options name:
//
//	type Save struct {
//		Level int
//		Name  string
//		Pos   variant.Vector2
//	}
//
//	opts := stream.Options{Kind: frame.Store, Godot: variant.Godot3}
//	enc := stream.NewEncoder(f, opts)
//	err := enc.Encode(Save{Level: 3, Name: "Ada"}) // f.store_var({"Level": 3, …})
//
//	dec := stream.NewDecoder(f, opts)
//	for {
//		var s Save
//		err := dec.Decode(&s) // f.get_var()
//		if err == io.EOF {
//			break
//		}
//		…
//	}
//
// ReadValue and WriteValue carry variant.Value as it is, and ReadPayload
// and WritePayload the encoded bytes.
//
// The framing itself is package frame; the values are package variant.
// Package peer builds network connections on the same framing.
package stream

import (
	"errors"
	"io"

	"github.com/gdvar/gdvar"
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
	// TypedContainers and RejectUnknownFields configure Encode and Decode
	// of Go values, as the fields of the same names in gdvar.EncOptions
	// and gdvar.DecOptions do. Dec and Enc configure them too.
	TypedContainers     bool
	RejectUnknownFields bool
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

// MarshalModes validates o and returns the modes that Decode and Encode
// use for Go values: gdvar's, with the family, version, precision,
// objects and limits of Modes.
func (o Options) MarshalModes() (*gdvar.DecMode, *gdvar.EncMode, error) {
	dm, em, err := o.Modes()
	if err != nil {
		return nil, nil, err
	}
	d, e := dm.Options(), em.Options()
	gdm, err := gdvar.DecOptions{
		Family: d.Family, AllowObjects: d.AllowObjects, MaxDepth: d.MaxDepth, MaxSize: d.MaxSize,
		MaxElements: d.MaxElements, Strict: d.Strict, Classes: d.Classes, Scripts: d.Scripts,
		RejectUnknownFields: o.RejectUnknownFields,
	}.DecMode()
	if err != nil {
		return nil, nil, err
	}
	gem, err := gdvar.EncOptions{
		Family: e.Family, Version: e.Version, Precision: e.Precision, FullObjects: e.FullObjects,
		MaxDepth: e.MaxDepth, TypedContainers: o.TypedContainers,
	}.EncMode()
	if err != nil {
		return nil, nil, err
	}
	return gdm, gem, nil
}

// Decoder reads framed values from an io.Reader. It is not safe for
// concurrent use.
type Decoder struct {
	fr  *frame.Reader
	dm  *variant.DecMode
	gdm *gdvar.DecMode
	err error
}

// NewDecoder returns a Decoder reading from r. Invalid options make every
// call fail with the same error.
func NewDecoder(r io.Reader, o Options) *Decoder {
	d := &Decoder{fr: frame.NewReader(r, o.FrameOptions())}
	if d.dm, _, d.err = o.Modes(); d.err == nil {
		d.gdm, _, d.err = o.MarshalModes()
	}
	return d
}

// Decode reads the next frame and stores its value in the Go value v
// points to, as gdvar.Unmarshal does (into a struct, a map, a slice, a
// *variant.Value, …). At a clean end of input it returns io.EOF.
//
// A payload that does not decode, or whose value does not fit v, gives a
// *frame.Error whose Offset is the stream offset of the frame and whose
// Err is the *gdvar.Error; the next Decode reads the next frame. Framing
// errors are as for ReadValue.
func (d *Decoder) Decode(v any) error {
	p, err := d.ReadPayload()
	if err != nil {
		return err
	}
	return UnmarshalPayload(d.gdm, p, d.fr.FrameOffset(), v)
}

// ReadValue reads the next frame and decodes its payload. At a clean end
// of input it returns io.EOF.
//
// A payload that does not decode gives a *frame.Error whose Offset is the
// stream offset of the frame and whose Err is the *variant.Error (with the
// offset inside the payload): errors.As finds both. The frame has been
// consumed, so the next read reads the next frame. Framing errors are
// *frame.Error too (frame.ErrTooLarge, frame.ErrNegativeLength,
// io.ErrUnexpectedEOF for input that ends inside a frame); after those the
// stream is out of step and reads keep failing. Bytes after the value
// inside a frame are ignored, as the engine ignores them.
func (d *Decoder) ReadValue() (variant.Value, error) {
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

// UnmarshalPayload stores the value of one frame's payload in the Go value
// v points to, with dm, and wraps a failure in a *frame.Error that carries
// the frame's stream offset (off) and size.
func UnmarshalPayload(dm *gdvar.DecMode, payload []byte, off int64, v any) error {
	if err := dm.Unmarshal(payload, v); err != nil {
		return &frame.Error{Offset: off, Size: int64(len(payload)), Err: err}
	}
	return nil
}

// Encoder writes framed values to an io.Writer, each frame with one Write
// call. It is not safe for concurrent use.
type Encoder struct {
	fw  *frame.Writer
	em  *variant.EncMode
	gem *gdvar.EncMode
	buf []byte
	err error
}

// NewEncoder returns an Encoder writing to w. Invalid options make every
// call fail with the same error.
func NewEncoder(w io.Writer, o Options) *Encoder {
	e := &Encoder{fw: frame.NewWriter(w, o.FrameOptions())}
	if _, e.em, e.err = o.Modes(); e.err == nil {
		_, e.gem, e.err = o.MarshalModes()
	}
	return e
}

// Encode encodes the Go value v as gdvar.Marshal does (a struct becomes
// a Dictionary, a slice an Array, a variant.Value stays as it is), for the
// engine family, version and precision of the Options, and writes it as
// one frame. A value that cannot be encoded gives its *gdvar.Error and
// writes nothing; a payload above MaxSize gives a *frame.Error wrapping
// frame.ErrTooLarge and writes nothing.
func (e *Encoder) Encode(v any) error {
	if e.err != nil {
		return e.err
	}
	var err error
	e.buf, err = e.gem.Append(e.buf[:0], v)
	if err != nil {
		return err
	}
	return e.writeBuf()
}

// WriteValue encodes the Variant v and writes it as one frame. A value
// that cannot be encoded gives its *variant.Error and writes nothing; a
// payload above MaxSize gives a *frame.Error wrapping frame.ErrTooLarge
// and writes nothing.
func (e *Encoder) WriteValue(v variant.Value) error {
	if e.err != nil {
		return e.err
	}
	var err error
	e.buf, err = e.em.Append(e.buf[:0], v)
	if err != nil {
		return err
	}
	return e.writeBuf()
}

func (e *Encoder) writeBuf() error {
	err := e.fw.WriteFrame(e.buf)
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
// decode or did not fit its Go value (after which the next frame can still
// be read) or an error of the underlying reader.
func IsFramingError(err error) bool {
	var fe *frame.Error
	if !errors.As(err, &fe) {
		return false
	}
	var ve *variant.Error
	var ge *gdvar.Error
	return !errors.As(fe.Err, &ve) && !errors.As(fe.Err, &ge)
}
