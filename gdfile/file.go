package gdfile

import (
	"encoding/binary"
	"errors"
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
	var frames []Frame
	_, err := ScanFrames(data, bigEndian, func(f Frame) error {
		frames = append(frames, f)
		return nil
	})
	return frames, err
}

// ScanFrames calls fn with each store_var frame of data in turn, as Frames
// splits them, without keeping them: memory stays the same whatever the
// number of frames. It returns the number of frames passed to fn, and
// Frames' error for data that does not split, or fn's error, which stops
// the scan.
func ScanFrames(data []byte, bigEndian bool, fn func(Frame) error) (int, error) {
	// The framing of frame.Store, read in place rather than through a
	// frame.Reader, which copies each payload.
	order := binary.ByteOrder(binary.LittleEndian)
	if bigEndian {
		order = binary.BigEndian
	}
	n, off := 0, 0
	for off < len(data) {
		if len(data)-off < 4 {
			return n, fail("value "+strconv.Itoa(n), int64(off), ErrTruncated,
				"a length prefix needs 4 bytes, "+strconv.Itoa(len(data)-off)+" are left")
		}
		size := int64(order.Uint32(data[off:]))
		if size > int64(len(data)-off-4) {
			return n, fail("value "+strconv.Itoa(n), int64(off), ErrNotStoreVar,
				"its length prefix announces "+strconv.FormatInt(size, 10)+" bytes, "+strconv.Itoa(len(data)-off-4)+" are left")
		}
		end := off + 4 + int(size)
		if err := fn(Frame{Offset: off, Payload: data[off+4 : end : end]}); err != nil {
			return n, err
		}
		n++
		off = end
	}
	return n, nil
}

// SplitFrames is Frames with the byte order chosen by endian: with
// AutoEndian, little-endian unless only big-endian tiles the data. It
// reports the order it used.
func SplitFrames(data []byte, endian Endian) ([]Frame, bool, error) {
	_, be, err := CountFrames(data, endian)
	if err != nil {
		frames, _ := Frames(data, be)
		return frames, be, err
	}
	frames, err := Frames(data, be)
	return frames, be, err
}

// CountFrames is SplitFrames without the frames: it checks that data splits
// in the byte order endian chooses, and returns the number of frames and
// the order. On error it returns the frames that split before the bad one.
func CountFrames(data []byte, endian Endian) (int, bool, error) {
	none := func(Frame) error { return nil }
	n, err := ScanFrames(data, endian == BigEndian, none)
	if err != nil && endian == AutoEndian {
		if n2, err2 := ScanFrames(data, true, none); err2 == nil {
			return n2, true, nil
		}
	}
	return n, endian == BigEndian, err
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
//
// Memory stays within the bounds of Options.MaxSize and MaxValues (see
// the package documentation): a file that holds more values fails with
// ErrTooLarge before they are allocated.
func Read(data []byte, o Options) (*File, error) {
	plain, c, err := Unwrap(data, o)
	if err != nil {
		return nil, err
	}
	f := &File{Container: c}
	n, be, err := CountFrames(plain, o.Endian)
	if err != nil {
		return nil, err
	}
	if int64(n) > o.maxValues() {
		return nil, fail("store_var values", 0, ErrTooLarge, strconv.Itoa(n)+" values: "+o.valuesDetail())
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
	// Only the values of one family are kept at a time: those of a family
	// in which some values do not fill their frames are dropped, and
	// decoded again if that family is the best after all.
	var firstErr error
	best, bestExact := variant.Family(0), -1
	for i, fam := range fams {
		last := i == len(fams)-1
		values, exact, err := decodeFrames(plain, n, be, fam, &o, !last)
		if err != nil {
			if errors.Is(err, ErrTooLarge) {
				return nil, err
			}
			if firstErr == nil {
				firstErr = err
			}
			continue
		}
		if exact == n {
			f.Godot, f.Values = fam, values
			return f, nil
		}
		if exact > bestExact {
			best, bestExact = fam, exact
			f.Godot, f.Values = fam, values
		}
	}
	if bestExact < 0 {
		return nil, firstErr
	}
	if f.Values == nil && n > 0 {
		var err error
		if f.Values, _, err = decodeFrames(plain, n, be, best, &o, false); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// decodeFrames decodes the n frames of plain in family fam, within the
// budget of values, and counts the values that fill their frame exactly.
// With dropInexact it keeps no values once one does not fill its frame.
func decodeFrames(plain []byte, n int, bigEndian bool, fam variant.Family, o *Options, dropInexact bool) ([]variant.Value, int, error) {
	dec := o.Dec
	dec.Family = fam
	dm, err := dec.DecMode()
	if err != nil {
		return nil, 0, err
	}
	values := make([]variant.Value, 0, n)
	keep := true
	i, exact := 0, 0
	budget := o.maxValues() - int64(n) // the slice holds one Value per frame
	total := int64(len(plain))
	_, err = ScanFrames(plain, bigEndian, func(fr Frame) error {
		budget++ // which the frame's value takes again
		v, used, err := dm.DecodeBudget(fr.Payload, &budget)
		if err != nil {
			where := "value " + strconv.Itoa(i) + ", whose payload starts"
			if errors.Is(err, variant.ErrTooLarge) {
				return fail(where, int64(fr.Offset+4), ErrTooLarge, err.Error()+"; "+o.valuesDetail())
			}
			return fail(where, int64(fr.Offset+4), err, "")
		}
		i++
		if used == len(fr.Payload) {
			exact++
		} else if dropInexact && keep {
			keep, values = false, nil
		}
		if keep {
			values = append(values, v)
		}
		if o.Progress != nil {
			o.Progress(int64(fr.Offset+4+len(fr.Payload)), total)
		}
		return nil
	})
	if err != nil {
		return nil, 0, err
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
