package gdfile

import (
	"bytes"
	"errors"
	"io"
	"strconv"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/variant"
)

// File is a whole file of values written with store_var: its container,
// the byte order of its length prefixes and the values in order.
type File struct {
	Container Container
	// Godot is the engine family of the values.
	Godot variant.Family
	// BigEndian says the length prefixes are big-endian.
	BigEndian bool
	Values    []variant.Value
}

// Frame is one store_var value in unwrapped data: where its length prefix
// starts, and its payload.
type Frame struct {
	Offset  int
	Payload []byte
}

// Frames splits unwrapped data into its store_var frames. The length
// prefixes must tile the data exactly; a prefix announcing more than what
// is left fails with ErrNotStoreVar (or ErrTruncated at the very end).
func Frames(data []byte, bigEndian bool) ([]Frame, error) {
	r := frame.NewReader(bytes.NewReader(data), frame.Options{
		Kind: frame.Store, BigEndian: bigEndian, MaxSize: min(max(len(data), 1), frame.MaxSizeLimit)})
	var frames []Frame
	for {
		p, err := r.ReadFrame()
		if err == io.EOF {
			return frames, nil
		}
		off := int(r.FrameOffset())
		if err != nil {
			var fe *frame.Error
			if errors.As(err, &fe) && fe.Size >= 0 {
				return frames, fail("value "+strconv.Itoa(len(frames)), int64(off), ErrNotStoreVar,
					"its length prefix announces "+strconv.FormatInt(fe.Size, 10)+" bytes, "+strconv.Itoa(len(data)-off-4)+" are left")
			}
			return frames, fail("value "+strconv.Itoa(len(frames)), int64(off), ErrTruncated,
				"a length prefix needs 4 bytes, "+strconv.Itoa(len(data)-off)+" are left")
		}
		frames = append(frames, Frame{Offset: off, Payload: data[off+4 : off+4+len(p)]})
	}
}

// SplitFrames is Frames with the byte order chosen by endian: with
// AutoEndian, little-endian unless only big-endian tiles the data. It
// reports the order it used.
func SplitFrames(data []byte, endian Endian) ([]Frame, bool, error) {
	frames, err := Frames(data, endian == BigEndian)
	if err != nil && endian == AutoEndian {
		if be, err2 := Frames(data, true); err2 == nil {
			return be, true, nil
		}
	}
	return frames, endian == BigEndian, err
}

// Read reads a whole file: it unwraps the container (Unwrap), splits the
// data into store_var frames and decodes each value, as a loop of
// FileAccess.get_var calls would. Bytes after a value inside its frame are
// ignored, as the engine ignores them.
//
// With Options.Godot 0 the family is found out: the one in which every
// value fills its frame exactly, Godot 4 when both do (values made only of
// the types numbered alike, such as ints and strings, read the same in
// both), Godot 3 first for files in Godot 3's encrypted layout.
func Read(data []byte, o Options) (*File, error) {
	plain, c, err := Unwrap(data, o)
	if err != nil {
		return nil, err
	}
	f := &File{Container: c}
	frames, be, err := SplitFrames(plain, o.Endian)
	if err != nil {
		return nil, err
	}
	f.BigEndian = be
	fams := []variant.Family{variant.Godot4, variant.Godot3}
	switch {
	case o.Godot != 0:
		fams = []variant.Family{o.Godot}
	case o.Dec.Family != 0:
		fams = []variant.Family{o.Dec.Family}
	case c.Format == Encrypted && c.Family == variant.Godot3:
		fams = []variant.Family{variant.Godot3, variant.Godot4}
	}
	var firstErr error
	bestExact := -1
	for _, fam := range fams {
		values, exact, err := decodeFrames(frames, fam, &o, int64(len(plain)))
		if err != nil {
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if exact > bestExact {
			f.Godot, f.Values, bestExact = fam, values, exact
		}
		if exact == len(frames) {
			break
		}
	}
	if bestExact < 0 {
		return nil, firstErr
	}
	return f, nil
}

// decodeFrames decodes every frame in family fam and counts the values
// that fill their frame exactly.
func decodeFrames(frames []Frame, fam variant.Family, o *Options, total int64) ([]variant.Value, int, error) {
	dec := o.Dec
	dec.Family = fam
	dm, err := dec.DecMode()
	if err != nil {
		return nil, 0, err
	}
	values := make([]variant.Value, 0, len(frames))
	exact := 0
	for i, fr := range frames {
		v, n, err := dm.Decode(fr.Payload)
		if err != nil {
			return nil, 0, fail("value "+strconv.Itoa(i)+", whose payload starts", int64(fr.Offset+4), err, "")
		}
		if n == len(fr.Payload) {
			exact++
		}
		values = append(values, v)
		if o.Progress != nil {
			o.Progress(int64(fr.Offset+4+len(fr.Payload)), total)
		}
	}
	return values, exact, nil
}

// Encode writes the file: every value as FileAccess.store_var does (a
// length prefix, big-endian when f.BigEndian, and the value's encoding for
// the family f.Godot, or Options.Godot when that is 0), inside
// f.Container. An encrypted container without a Family gets the layout of
// the values' family.
func (f *File) Encode(o Options) ([]byte, error) {
	fam := f.Godot
	if fam == 0 {
		fam = o.Godot
	}
	if fam == 0 {
		fam = variant.Godot4
	}
	enc := o.Enc
	if enc.Family == 0 && enc.Version == (variant.Version{}) {
		enc.Family = fam
	}
	em, err := enc.EncMode()
	if err != nil {
		return nil, err
	}
	fo := frame.Options{Kind: frame.Store, BigEndian: f.BigEndian, MaxSize: frame.MaxSizeLimit}
	var plain, buf []byte
	for i, v := range f.Values {
		if buf, err = em.Append(buf[:0], v); err != nil {
			return nil, fail("value "+strconv.Itoa(i), int64(len(plain)), err, "")
		}
		if plain, err = frame.Append(plain, buf, fo); err != nil {
			return nil, fail("value "+strconv.Itoa(i), int64(len(plain)), ErrTooLarge, err.Error())
		}
		if o.Progress != nil {
			o.Progress(int64(i+1), int64(len(f.Values)))
		}
	}
	c := f.Container
	if c.Format == 0 {
		c.Format = Plain
	}
	if c.Format == Encrypted && c.Family == 0 {
		c.Family = fam
	}
	return Wrap(plain, c, o)
}
