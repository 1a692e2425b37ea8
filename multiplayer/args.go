package multiplayer

import (
	"encoding/binary"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// The compressed argument encoding of Godot 4's RPCs (encode_and_compress_variant):
// byte 0 holds the Variant type in its low bits and an encoding mode above;
// a bool keeps its value in bit 7; an int follows in 1, 2, 4 or 8
// little-endian bytes, the narrowest that holds it; every other type is its
// plain Variant encoding, whose first byte is the type already.

const (
	typeBool = 1 // the same wire number in both families
	typeInt  = 2
)

// appendArg appends v in the compressed argument encoding.
func appendArg(dst []byte, d *dialect, enc *variant.EncMode, v variant.Value) ([]byte, error) {
	switch x := v.(type) {
	case variant.Bool:
		b := byte(typeBool)
		if x {
			b |= 0x80
		}
		return append(dst, b), nil
	case variant.Int:
		return appendIntArg(dst, d, int64(x)), nil
	}
	return enc.Append(dst, v)
}

func appendIntArg(dst []byte, d *dialect, n int64) []byte {
	switch {
	case n >= -1<<7 && n < 1<<7:
		return append(dst, typeInt, byte(n))
	case n >= -1<<15 && n < 1<<15:
		return binary.LittleEndian.AppendUint16(append(dst, typeInt|1<<d.argModeShift), uint16(n))
	case n >= -1<<31 && n < 1<<31:
		return binary.LittleEndian.AppendUint32(append(dst, typeInt|2<<d.argModeShift), uint32(n))
	}
	return binary.LittleEndian.AppendUint64(append(dst, typeInt|3<<d.argModeShift), uint64(n))
}

// AppendArgs encodes RPC arguments as the engine's
// encode_and_compress_variants does and returns them with the Raw flag and
// count to put in a Call: no arguments, or a lone PackedByteArray that is
// not empty, are sent raw. enc sets the family, the target version and objects; nil means
// Godot 4 defaults.
func AppendArgs(dst []byte, enc *variant.EncMode, args ...variant.Value) (out []byte, raw bool, count int, err error) {
	f := variant.Godot4
	if enc != nil {
		f = enc.Options().Family
		if f == 0 {
			f = variant.Family(enc.Options().Version.Major)
		}
	} else {
		enc = defaultEnc4
	}
	d := dialectOf(f)
	if len(args) > maxArgs {
		return dst, false, 0, perr(0, CmdRemoteCall, ErrTooLarge, strconv.Itoa(len(args))+" arguments, at most 255")
	}
	if d.byName {
		// Godot 3: a count and plain Variant encodings, always.
		for _, a := range args {
			if dst, err = enc.Append(dst, a); err != nil {
				return dst, false, 0, err
			}
		}
		return dst, false, len(args), nil
	}
	if len(args) == 0 {
		return dst, true, 0, nil
	}
	if len(args) == 1 {
		// An empty one is not: in the raw form no bytes mean no
		// arguments, and the receiver would get none (the engine's own
		// sender makes that mistake).
		if pba, ok := args[0].(variant.PackedByteArray); ok && len(pba) > 0 {
			return append(dst, pba...), true, 1, nil
		}
	}
	for _, a := range args {
		dst, err = appendArg(dst, d, enc, a)
		if err != nil {
			return dst, false, 0, err
		}
	}
	return dst, false, len(args), nil
}

var (
	defaultEnc4, _ = variant.EncOptions{}.EncMode()
	defaultEnc3, _ = variant.EncOptions{Family: variant.Godot3}.EncMode()
	defaultDec4, _ = variant.DecOptions{}.DecMode()
	defaultDec3, _ = variant.DecOptions{Family: variant.Godot3}.DecMode()
)

// ArgType returns the Variant type of the compressed argument at the start
// of b.
func ArgType(f variant.Family, b []byte) (variant.Type, error) {
	if len(b) == 0 {
		return variant.TypeUnknown, ErrTruncated
	}
	d := dialectOf(f)
	if d.byName {
		t, ok := variant.TypeFromID(d.family, b[0])
		if !ok {
			return variant.TypeUnknown, ErrInvalidArgument
		}
		return t, nil
	}
	id := b[0] & d.argTypeMask
	if id >= d.variantTypes {
		return variant.TypeUnknown, ErrInvalidArgument
	}
	t, ok := variant.TypeFromID(d.family, id)
	if !ok {
		return variant.TypeUnknown, ErrInvalidArgument
	}
	return t, nil
}

// compressedScalar reads a compressed bool or int at the start of b. ok is
// false for the other types, which are plain Variant encodings.
func compressedScalar(d *dialect, b []byte) (v int64, isBool bool, n int, ok bool, err error) {
	if d.byName {
		return 0, false, 0, false, nil // Godot 3 sends plain encodings
	}
	if len(b) == 0 {
		return 0, false, 0, false, ErrTruncated
	}
	switch b[0] & d.argTypeMask {
	case typeBool:
		if b[0]&0x80 != 0 {
			v = 1
		}
		return v, true, 1, true, nil
	case typeInt:
		switch (b[0] >> d.argModeShift) & 3 {
		case 0:
			if len(b) < 2 {
				return 0, false, 0, true, ErrTruncated
			}
			return int64(int8(b[1])), false, 2, true, nil
		case 1:
			if len(b) < 3 {
				return 0, false, 0, true, ErrTruncated
			}
			return int64(int16(binary.LittleEndian.Uint16(b[1:]))), false, 3, true, nil
		case 2:
			if len(b) < 5 {
				return 0, false, 0, true, ErrTruncated
			}
			return int64(int32(binary.LittleEndian.Uint32(b[1:]))), false, 5, true, nil
		default:
			if len(b) < 9 {
				return 0, false, 0, true, ErrTruncated
			}
			return int64(binary.LittleEndian.Uint64(b[1:])), false, 9, true, nil
		}
	}
	return 0, false, 0, false, nil
}

// DecodeArg decodes the compressed argument at the start of b and returns
// it with its length. dec sets the family and limits; nil means Godot 4
// defaults.
func DecodeArg(dec *variant.DecMode, b []byte) (variant.Value, int, error) {
	if dec == nil {
		dec = defaultDec4
	}
	d := dialectOf(dec.Options().Family)
	if _, err := ArgType(d.family, b); err != nil {
		return nil, 0, err
	}
	v, isBool, n, ok, err := compressedScalar(d, b)
	if err != nil {
		return nil, 0, err
	}
	if ok {
		if isBool {
			return variant.Bool(v != 0), n, nil
		}
		return variant.Int(v), n, nil
	}
	val, n, err := dec.Decode(b)
	if err != nil {
		return nil, 0, argError{err}
	}
	return val, n, nil
}

// DecodeArgs decodes all the arguments of a REMOTE_CALL packet, as the
// engine's decode_and_decompress_variants does: a raw packet gives one
// PackedByteArray (a copy) or nothing. Bytes left after the last argument
// are ignored, as the engine ignores them.
func DecodeArgs(dec *variant.DecMode, p *Packet) ([]variant.Value, error) {
	if p.Raw && p.Command != CmdRemoteSet {
		if len(p.Args) == 0 {
			return nil, nil
		}
		return []variant.Value{variant.PackedByteArray(append([]byte(nil), p.Args...))}, nil
	}
	out := make([]variant.Value, 0, min(p.ArgCount, len(p.Args)))
	off := 0
	for i := 0; i < p.ArgCount; i++ {
		if off >= len(p.Args) {
			return out, perr(off, p.Command, ErrTruncated, "argument "+strconv.Itoa(i)+" of "+strconv.Itoa(p.ArgCount))
		}
		v, n, err := DecodeArg(dec, p.Args[off:])
		if err != nil {
			return out, perr(off, p.Command, err, "argument "+strconv.Itoa(i))
		}
		out = append(out, v)
		off += n
	}
	return out, nil
}
