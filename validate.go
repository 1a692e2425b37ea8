package gdvar

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// This file reads the wire format the way package variant's decoder does,
// taking the same decisions with the same errors (offsets, sentinels,
// engine codes and details), so that Unmarshal accepts and refuses exactly
// what variant.Decode accepts and refuses.

// encodedObjectAsID is the class the engine names in typed containers of
// objects when objects are not allowed.
const encodedObjectAsID = "EncodedObjectAsID"

// realTypes are the types whose components double-precision builds widen.
var realTypes = [variant.TypeCount]bool{
	variant.TypeVector2: true, variant.TypeRect2: true, variant.TypeVector3: true,
	variant.TypeTransform2D: true, variant.TypeVector4: true, variant.TypePlane: true,
	variant.TypeQuaternion: true, variant.TypeAABB: true, variant.TypeBasis: true,
	variant.TypeTransform3D: true, variant.TypeProjection: true,
	variant.TypePackedVector2Array: true, variant.TypePackedVector3Array: true,
	variant.TypePackedVector4Array: true,
}

// realCount is the number of real components of each fixed-size math type.
var realCount = [variant.TypeCount]int{
	variant.TypeVector2: 2, variant.TypeRect2: 4, variant.TypeVector3: 3,
	variant.TypeTransform2D: 6, variant.TypeVector4: 4, variant.TypePlane: 4,
	variant.TypeQuaternion: 4, variant.TypeAABB: 6, variant.TypeBasis: 9,
	variant.TypeTransform3D: 12, variant.TypeProjection: 16,
}

// intCount is the number of int32 components of the integer vector types.
var intCount = [variant.TypeCount]int{
	variant.TypeVector2i: 2, variant.TypeRect2i: 4, variant.TypeVector3i: 3, variant.TypeVector4i: 4,
}

// packedComps is the number of real components per element of the packed
// vector arrays.
var packedComps = [variant.TypeCount]int{
	variant.TypePackedVector2Array: 2, variant.TypePackedVector3Array: 3, variant.TypePackedVector4Array: 4,
}

// fail builds a wire error at off.
func (d *decodeState) fail(off int, t variant.Type, sentinel error, code variant.Code, detail string) error {
	ve := &variant.Error{Op: "decode", Offset: off, Type: t, Family: d.fam, Code: code, Err: sentinel, Detail: detail}
	return &Error{Op: "unmarshal", Offset: off, Type: t, Err: ve, fam: d.fam, wire: true}
}

// short reports a fixed-size payload that does not fit.
func (d *decodeState) short(off int, t variant.Type, need, have int) error {
	return d.fail(off, t, variant.ErrTruncated, variant.ErrCodeInvalidData,
		"need "+strconv.Itoa(need)+" bytes, have "+strconv.Itoa(max(have, 0)))
}

// take counts n more elements against MaxElements.
func (d *decodeState) take(off int, t variant.Type, n int64) error {
	d.elements += n
	if d.maxElements > 0 && d.elements > d.maxElements {
		return d.tooMany(off, t)
	}
	return nil
}

func (d *decodeState) tooMany(off int, t variant.Type) error {
	return d.fail(off, t, variant.ErrTooLarge, variant.ErrCodeOutOfMemory,
		"more than MaxElements ("+strconv.FormatInt(d.maxElements, 10)+") elements")
}

// head checks the depth and reads the header word of the Variant at off.
//
// head itself is too large to inline, so the hot per-type decoders in
// unmarshal.go spell out its two halves (quickHead, then headSlow).
func (d *decodeState) head(off, depth int) (uint32, variant.Type, error) {
	if h, ok := d.quickHead(off, depth); ok {
		return h, variant.Type(uint8(h)), nil
	}
	return d.headSlow(off, depth)
}

// quickHead is head's common case, small enough to inline: Godot 4 data,
// within the depth limit, header present, type byte valid (the type is
// then uint8(h)). Otherwise headSlow decides.
func (d *decodeState) quickHead(off, depth int) (uint32, bool) {
	if depth <= d.maxDepth && off+4 <= len(d.b) && d.fam == variant.Godot4 {
		h := wire.U32(d.b[off:])
		return h, uint8(h) < uint8(variant.TypeCount)
	}
	return 0, false
}

// quickStr is strRaw's common case, small enough to inline.
func (d *decodeState) quickStr(p int) ([]byte, int, bool) {
	if p+4 <= len(d.b) {
		n := int(wire.U32(d.b[p:]))
		end := p + 4 + n
		next := end + (-n & 3)
		if n >= 0 && n < 1<<31 && next <= len(d.b) {
			return d.b[p+4 : end], next, true
		}
	}
	return nil, 0, false
}

func (d *decodeState) headSlow(off, depth int) (uint32, variant.Type, error) {
	if depth > d.maxDepth {
		return 0, variant.TypeUnknown, d.fail(off, variant.TypeUnknown, variant.ErrTooDeep, variant.ErrCodeOutOfMemory,
			"more than "+strconv.Itoa(d.maxDepth)+" levels")
	}
	if len(d.b)-off < 4 {
		return 0, variant.TypeUnknown, d.fail(off, variant.TypeUnknown, variant.ErrTruncated, variant.ErrCodeInvalidData,
			"no room for the header")
	}
	h := wire.U32(d.b[off:])
	t, ok := variant.TypeFromID(d.fam, uint8(h))
	if !ok {
		return 0, variant.TypeUnknown, d.fail(off, variant.TypeUnknown, variant.ErrInvalidType, variant.ErrCodeInvalidData,
			"type byte "+strconv.Itoa(int(uint8(h))))
	}
	return h, t, nil
}

// intAt reads the payload of an int whose header h is at off.
func (d *decodeState) intAt(off int, h uint32) (int64, int, error) {
	if p := off + 4; h&wire.Flag64 == 0 && p+4 <= len(d.b) {
		return int64(int32(wire.U32(d.b[p:]))), p + 4, nil
	}
	return d.intAtSlow(off, h)
}

func (d *decodeState) intAtSlow(off int, h uint32) (int64, int, error) {
	p := off + 4
	rem := len(d.b) - p
	if h&wire.Flag64 != 0 {
		if rem < 8 {
			return 0, 0, d.short(off, variant.TypeInt, 8, rem)
		}
		return int64(wire.U64(d.b[p:])), p + 8, nil
	}
	if rem < 4 {
		return 0, 0, d.short(off, variant.TypeInt, 4, rem)
	}
	return int64(int32(wire.U32(d.b[p:]))), p + 4, nil
}

// floatAt reads the payload of a float whose header h is at off.
func (d *decodeState) floatAt(off int, h uint32) (float64, int, error) {
	if p := off + 4; h&wire.Flag64 == 0 && p+4 <= len(d.b) {
		return float64(wire.F32(d.b[p:])), p + 4, nil
	}
	return d.floatAtSlow(off, h)
}

func (d *decodeState) floatAtSlow(off int, h uint32) (float64, int, error) {
	p := off + 4
	rem := len(d.b) - p
	if h&wire.Flag64 != 0 {
		if rem < 8 {
			return 0, 0, d.short(off, variant.TypeFloat, 8, rem)
		}
		return wire.F64(d.b[p:]), p + 8, nil
	}
	if rem < 4 {
		return 0, 0, d.short(off, variant.TypeFloat, 4, rem)
	}
	return float64(wire.F32(d.b[p:])), p + 4, nil
}

// boolAt reads the payload of a bool whose header is at off.
func (d *decodeState) boolAt(off int) (bool, int, error) {
	p := off + 4
	if rem := len(d.b) - p; rem < 4 {
		return false, 0, d.short(off, variant.TypeBool, 4, rem)
	}
	return wire.U32(d.b[p:]) != 0, p + 4, nil
}

// strRaw reads a "str" payload at p (u32 length, bytes, padding) and
// returns its bytes as stored.
func (d *decodeState) strRaw(p int, t variant.Type) ([]byte, int, error) {
	if p+4 <= len(d.b) {
		n := int(wire.U32(d.b[p:]))
		end := p + 4 + n
		if n < 1<<31 && end+wire.Pad4(n) <= len(d.b) {
			return d.b[p+4 : end], end + wire.Pad4(n), nil
		}
	}
	return d.strRawSlow(p, t)
}

func (d *decodeState) strRawSlow(p int, t variant.Type) ([]byte, int, error) {
	rem := len(d.b) - p
	if rem < 4 {
		return nil, 0, d.fail(p, t, variant.ErrTruncated, variant.ErrCodeInvalidData, "no room for a string length")
	}
	n := int64(int32(wire.U32(d.b[p:])))
	if n < 0 {
		return nil, 0, d.fail(p, t, variant.ErrInvalidData, variant.ErrCodeFileEOF, "negative string length "+strconv.FormatInt(n, 10))
	}
	pad := int64(wire.Pad4(int(n)))
	if n+pad > int64(rem-4) {
		return nil, 0, d.fail(p, t, variant.ErrTruncated, variant.ErrCodeFileEOF,
			"string of "+strconv.FormatInt(n, 10)+" bytes (padded "+strconv.FormatInt(n+pad, 10)+
				") exceeds the "+strconv.Itoa(rem-4)+" bytes left")
	}
	return d.b[p+4 : p+4+int(n)], p + 4 + int(n+pad), nil
}

// str reads a "str" payload at p and returns the string's value as bytes
// (see text). They alias the input unless Godot 3 data needed repair.
func (d *decodeState) str(p int, t variant.Type) ([]byte, int, error) {
	raw, next, err := d.strRaw(p, t)
	if err != nil {
		return nil, 0, err
	}
	s, ok := d.text(raw)
	if !ok {
		return nil, 0, d.fail(p, t, variant.ErrInvalidUTF8, variant.ErrCodeInvalidData, "")
	}
	return s, next, nil
}

// text turns the stored bytes of a string into its value as the engine's
// UTF-8 parser does: a leading byte order mark is dropped, a NUL ends the
// string, malformed UTF-8 is refused (Godot 3 accepts more, see
// utf8Godot3).
func (d *decodeState) text(raw []byte) ([]byte, bool) {
	if plainASCII(raw) {
		return raw, true
	}
	return d.textSlow(raw)
}

// plainASCII reports whether b holds only ASCII bytes other than NUL.
func plainASCII(b []byte) bool {
	const hi, lo = 0x8080808080808080, 0x0101010101010101
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		if w&hi != 0 || (w-lo)&^w&hi != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c == 0 || c >= 0x80 {
			return false
		}
	}
	return true
}

func (d *decodeState) textSlow(raw []byte) ([]byte, bool) {
	if hasBOM(raw) {
		raw = raw[3:]
	}
	if i := bytes.IndexByte(raw, 0); i >= 0 {
		raw = raw[:i]
	}
	if utf8.Valid(raw) {
		return raw, true
	}
	if d.fam == variant.Godot3 {
		s, ok := utf8Godot3(raw)
		return []byte(s), ok
	}
	return nil, false
}

// validString reports whether s can be encoded for fam: valid UTF-8, or
// for Godot 3 what its looser parser reads back as it is.
func validString(fam variant.Family, s string) bool {
	if utf8.ValidString(s) {
		return true
	}
	if fam == variant.Godot3 {
		// Godot 3 holds more, in the form it writes (no overlong forms).
		g3, ok := utf8Godot3([]byte(s))
		return ok && g3 == s
	}
	return false
}

// utf8Godot3 is Godot 3's reading of a string's bytes, as package
// variant's decoder reads them.
func utf8Godot3(raw []byte) (string, bool) { return variant.DecodeStringGodot3(raw) }

// count reads the element count of a packed array at p and checks that
// count*size bytes follow.
func (d *decodeState) count(off, p int, t variant.Type, size int) (int, error) {
	rem := len(d.b) - p
	if rem < 4 {
		return 0, d.short(off, t, 4, rem)
	}
	n := int64(int32(wire.U32(d.b[p:])))
	if n < 0 {
		return 0, d.fail(off, t, variant.ErrInvalidData, variant.ErrCodeInvalidData, "negative count "+strconv.FormatInt(n, 10))
	}
	if n*int64(size) > int64(rem-4) {
		return 0, d.fail(off, t, variant.ErrTruncated, variant.ErrCodeInvalidData,
			strconv.FormatInt(n, 10)+" elements need "+strconv.FormatInt(n*int64(size), 10)+
				" bytes, have "+strconv.Itoa(rem-4))
	}
	if err := d.take(off, t, n); err != nil {
		return 0, err
	}
	return int(n), nil
}

// containerType reads the type data of a typed container (Godot 4.3+).
func (d *decodeState) containerType(off, p int, kind uint32, t variant.Type) (variant.ContainerType, int, error) {
	switch kind {
	case wire.KindBuiltin:
		if rem := len(d.b) - p; rem < 4 {
			return variant.ContainerType{}, 0, d.short(off, t, 4, rem)
		}
		id := int32(wire.U32(d.b[p:]))
		if id < 0 || id >= int32(variant.TypeCount) {
			return variant.ContainerType{}, 0, d.fail(off, t, variant.ErrInvalidData, variant.ErrCodeInvalidData,
				"element type id "+strconv.Itoa(int(id)))
		}
		if variant.Type(id) == variant.TypeObject && !d.allowObjects && !d.strict {
			return variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: encodedObjectAsID}, p + 4, nil
		}
		return variant.Typed(variant.Type(id)), p + 4, nil
	case wire.KindClassName, wire.KindScript:
		name, next, err := d.str(p, t)
		if err != nil {
			return variant.ContainerType{}, 0, err
		}
		if kind == wire.KindScript {
			if d.allowObjects && (len(name) <= len("res://") || string(name[:6]) != "res://") {
				return variant.ContainerType{}, 0, d.fail(off, t, variant.ErrInvalidData, variant.ErrCodeInvalidData,
					"script path "+strconv.Quote(string(name))+" is not a res:// path")
			}
			if d.allowObjects && d.scripts != nil && !d.scripts(string(name)) {
				return variant.ContainerType{}, 0, d.fail(off, t, variant.ErrObjectsNotAllowed, variant.ErrCodeInvalidData,
					"no script "+strconv.Quote(string(name))+" (DecOptions.Scripts)")
			}
			return variant.ContainerType{Kind: variant.Script, Builtin: variant.TypeObject, Name: string(name)}, next, nil
		}
		if len(name) == 0 && d.allowObjects {
			return variant.Typed(variant.TypeObject), next, nil // no class: any Object
		}
		return variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: string(name)}, next, nil
	}
	return variant.ContainerType{}, p, nil
}

// skip checks the Variant at off exactly as the variant decoder would
// decode it, without building it, and returns the offset after it, its
// type, and whether it decodes as nil (Nil, a null Object).
func (d *decodeState) skip(off, depth int) (int, variant.Type, bool, error) {
	h, t, err := d.head(off, depth)
	if err != nil {
		return 0, t, false, err
	}
	p := off + 4
	rem := len(d.b) - p
	wide := h&wire.Flag64 != 0 && d.fam == variant.Godot4 && realTypes[t]
	if n := realCount[t]; n > 0 {
		size := 4
		if wide {
			size = 8
		}
		if rem < n*size {
			return 0, t, false, d.short(off, t, n*size, rem)
		}
		return p + n*size, t, false, nil
	}
	fixed := func(n int) (int, variant.Type, bool, error) {
		if rem < n {
			return 0, t, false, d.short(off, t, n, rem)
		}
		return p + n, t, false, nil
	}
	switch t {
	case variant.TypeNil:
		return p, t, true, nil
	case variant.TypeBool:
		return fixed(4)
	case variant.TypeInt, variant.TypeFloat:
		if h&wire.Flag64 != 0 {
			return fixed(8)
		}
		return fixed(4)
	case variant.TypeString, variant.TypeStringName:
		_, next, err := d.str(p, t)
		return next, t, false, err
	case variant.TypeVector2i, variant.TypeRect2i, variant.TypeVector3i, variant.TypeVector4i:
		return fixed(4 * intCount[t])
	case variant.TypeColor:
		return fixed(16)
	case variant.TypeNodePath:
		next, err := d.skipNodePath(off, p)
		return next, t, false, err
	case variant.TypeRID:
		if d.fam == variant.Godot3 {
			return p, t, false, nil
		}
		return fixed(8)
	case variant.TypeObject:
		return d.skipObject(off, p, h, depth)
	case variant.TypeCallable:
		return p, t, false, nil
	case variant.TypeSignal:
		_, next, err := d.str(p, t)
		if err != nil {
			return 0, t, false, err
		}
		if r := len(d.b) - next; r < 8 {
			return 0, t, false, d.short(off, t, 8, r)
		}
		return next + 8, t, false, nil
	case variant.TypeDictionary:
		next, err := d.skipDictionary(off, p, h, depth)
		return next, t, false, err
	case variant.TypeArray:
		next, err := d.skipArray(off, p, h, depth)
		return next, t, false, err
	case variant.TypePackedByteArray:
		n, err := d.count(off, p, t, 1)
		if err != nil {
			return 0, t, false, err
		}
		return p + 4 + n + wire.Pad4(n), t, false, nil
	case variant.TypePackedInt32Array, variant.TypePackedFloat32Array:
		n, err := d.count(off, p, t, 4)
		return p + 4 + 4*n, t, false, err
	case variant.TypePackedInt64Array, variant.TypePackedFloat64Array:
		n, err := d.count(off, p, t, 8)
		return p + 4 + 8*n, t, false, err
	case variant.TypePackedStringArray:
		if rem < 4 {
			return 0, t, false, d.short(off, t, 4, rem)
		}
		n := int64(int32(wire.U32(d.b[p:])))
		q := p + 4
		if n > 0 {
			if err := d.take(off, t, n); err != nil {
				return 0, t, false, err
			}
		}
		for i := int64(0); i < n; i++ {
			_, next, err := d.str(q, t)
			if err != nil {
				return 0, t, false, prefix(err, "", indexSeg(int(i)))
			}
			q = next
		}
		return q, t, false, nil
	case variant.TypePackedVector2Array, variant.TypePackedVector3Array, variant.TypePackedVector4Array:
		size := 4
		if wide {
			size = 8
		}
		n, err := d.count(off, p, t, packedComps[t]*size)
		return p + 4 + n*packedComps[t]*size, t, false, err
	case variant.TypePackedColorArray:
		n, err := d.count(off, p, t, 16)
		return p + 4 + 16*n, t, false, err
	}
	return 0, t, false, d.fail(off, t, variant.ErrInvalidType, variant.ErrCodeInvalidData, "")
}

func (d *decodeState) skipNodePath(off, p int) (int, error) {
	t := variant.TypeNodePath
	rem := len(d.b) - p
	if rem < 4 {
		return 0, d.short(off, t, 4, rem)
	}
	first := wire.U32(d.b[p:])
	if first&wire.NodePathNewFormat == 0 {
		return 0, d.fail(off, t, variant.ErrInvalidData, variant.ErrCodeInvalidData, "old NodePath format (bit 31 clear)")
	}
	if rem < 12 {
		return 0, d.short(off, t, 12, rem)
	}
	// The engine adds the counts as uint32; the obsolete property flag
	// adds one subname.
	total := first&^wire.NodePathNewFormat + wire.U32(d.b[p+4:])
	if wire.U32(d.b[p+8:])&wire.NodePathProperty != 0 {
		total++
	}
	q := p + 12
	if err := d.take(off, t, int64(total)); err != nil {
		return 0, err
	}
	for i := uint32(0); i < total; i++ {
		_, next, err := d.str(q, t)
		if err != nil {
			return 0, err
		}
		q = next
	}
	return q, nil
}

func (d *decodeState) skipObject(off, p int, h uint32, depth int) (int, variant.Type, bool, error) {
	t := variant.TypeObject
	rem := len(d.b) - p
	if h&wire.FlagObjectAsID != 0 {
		if rem < 8 {
			return 0, t, false, d.short(off, t, 8, rem)
		}
		return p + 8, t, wire.U64(d.b[p:]) == 0, nil
	}
	if !d.allowObjects {
		return 0, t, false, d.fail(off, t, variant.ErrObjectsNotAllowed, variant.ErrCodeUnauthorized, "decoding a full Object needs AllowObjects")
	}
	class, q, err := d.str(p, t)
	if err != nil {
		return 0, t, false, err
	}
	if len(class) == 0 {
		return q, t, true, nil
	}
	if d.classes != nil && !d.classes(string(class)) {
		code := variant.ErrCodeInvalidData
		if d.fam == variant.Godot3 {
			code = variant.ErrCodeUnavailable
		}
		return 0, t, false, d.fail(off, t, variant.ErrObjectsNotAllowed, code,
			"class "+strconv.Quote(string(class))+" cannot be instantiated (DecOptions.Classes)")
	}
	if r := len(d.b) - q; r < 4 {
		return 0, t, false, d.short(off, t, 4, r)
	}
	n := int64(int32(wire.U32(d.b[q:])))
	q += 4
	if n > 0 {
		if err := d.take(off, t, n); err != nil {
			return 0, t, false, err
		}
	}
	for i := int64(0); i < n; i++ {
		name, next, err := d.str(q, t)
		if err != nil {
			return 0, t, false, err
		}
		at := next
		next, vt, isNil, err := d.skip(next, depth+1)
		if err != nil {
			return 0, t, false, prefix(err, "", "."+string(name))
		}
		if string(name) == "script" && d.fam == variant.Godot4 && !isNil {
			ok := false
			var s []byte
			if vt == variant.TypeString {
				s, _, _ = d.str(at+4, vt)
				ok = strings.HasPrefix(string(s), "res://") && len(s) != len("res://")
			}
			if !ok {
				return 0, t, false, prefix(d.fail(at, vt, variant.ErrInvalidData, variant.ErrCodeInvalidData,
					"an Object's script must be a res:// path"), "", ".script")
			}
			if d.scripts != nil && !d.scripts(string(s)) {
				return 0, t, false, prefix(d.fail(at, vt, variant.ErrObjectsNotAllowed, variant.ErrCodeInvalidData,
					"no script "+strconv.Quote(string(s))+" (DecOptions.Scripts)"), "", ".script")
			}
		}
		q = next
	}
	return q, t, false, nil
}

func (d *decodeState) skipArray(off, p int, h uint32, depth int) (int, error) {
	t := variant.TypeArray
	if d.fam == variant.Godot4 {
		var err error
		if _, p, err = d.containerType(off, p, h>>wire.ArrayTypeShift&wire.KindMask, t); err != nil {
			return 0, err
		}
	}
	if rem := len(d.b) - p; rem < 4 {
		return 0, d.short(off, t, 4, rem)
	}
	n := int(wire.U32(d.b[p:]) & wire.CountMask)
	q := p + 4
	if err := d.take(off, t, int64(n)); err != nil {
		return 0, err
	}
	for i := range n {
		next, _, _, err := d.skip(q, depth+1)
		if err != nil {
			return 0, prefix(err, "", indexSeg(i))
		}
		q = next
	}
	return q, nil
}

func (d *decodeState) skipDictionary(off, p int, h uint32, depth int) (int, error) {
	t := variant.TypeDictionary
	if d.fam == variant.Godot4 {
		var err error
		if _, p, err = d.containerType(off, p, h>>wire.DictKeyTypeShift&wire.KindMask, t); err != nil {
			return 0, err
		}
		if _, p, err = d.containerType(off, p, h>>wire.DictValueTypeShift&wire.KindMask, t); err != nil {
			return 0, err
		}
	}
	if rem := len(d.b) - p; rem < 4 {
		return 0, d.short(off, t, 4, rem)
	}
	n := int(wire.U32(d.b[p:]) & wire.CountMask)
	q := p + 4
	if err := d.take(off, t, int64(n)); err != nil {
		return 0, err
	}
	for i := range n {
		keyOff := q
		next, _, _, err := d.skip(q, depth+1)
		if err != nil {
			return 0, prefix(err, "", "{key "+strconv.Itoa(i)+"}")
		}
		if q, _, _, err = d.skip(next, depth+1); err != nil {
			return 0, prefix(err, "", d.keySegAt(keyOff, depth+1))
		}
	}
	return q, nil
}

// keySegAt renders the (valid) Dictionary key at off as a Variant path
// segment, for errors.
func (d *decodeState) keySegAt(off, depth int) string {
	// The key's elements were counted already: decode it again without
	// the element budget, then restore the count.
	defer func(n, limit int64) { d.elements, d.maxElements = n, limit }(d.elements, d.maxElements)
	d.maxElements = 0
	k, _, err := d.subValue(off, depth)
	if err != nil {
		return "[?]"
	}
	return keySeg(k)
}

// subValue decodes the Variant at off, nested depth deep, with package
// variant, as if that decoder had reached it while decoding the whole
// input: same limits, same errors (offsets made absolute), same offset
// after it.
func (d *decodeState) subValue(off, depth int) (variant.Value, int, error) {
	if _, _, err := d.head(off, depth); err != nil {
		return nil, 0, err
	}
	r := d.maxDepth - depth
	next := -1
	if r == 0 || d.maxElements > 0 || d.strict {
		// The checker applies the limits exactly, counting elements on
		// the way: at the depth limit the value may not have elements,
		// and the element budget is the whole input's. Then a mode of
		// depth 1 (or what is left) decodes the same value.
		var err error
		if next, _, _, err = d.skip(off, depth); err != nil {
			return nil, 0, err
		}
		r = max(r, 1)
	}
	src := d.b[off:]
	if d.strict {
		// The whole input passed the strict check, so this part is what
		// the engine writes too: decoded strictly, on its own, it gives
		// what the strict decoder gives in context.
		src = d.b[off:next]
	}
	v, n, err := d.m.variantAt(r).Decode(src)
	if err != nil {
		ve, ok := err.(*variant.Error)
		if !ok {
			return nil, 0, err
		}
		ve.Offset += off
		if ve.Err == variant.ErrTooDeep {
			ve.Detail = "more than " + strconv.Itoa(d.maxDepth) + " levels" // not the part's own limit
		}
		return nil, 0, wireError("unmarshal", ve)
	}
	if next < 0 {
		next = off + n
		if next == len(d.b) && depth > 0 {
			// variant.Decode does not report the missing final padding of
			// a PackedByteArray that ends the data; the checker does.
			next, _, _, _ = d.skip(off, depth)
		}
	}
	return v, next, nil
}
