package variant

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/gdvar/gdvar/wire"
)

// Encode returns the encoding of v.
func (m *EncMode) Encode(v Value) ([]byte, error) {
	return m.Append(nil, v)
}

// Append appends the encoding of v to dst and returns the extended slice;
// on error it returns dst unchanged (its spare capacity may have been
// written to).
//
// The bytes are those the engine itself writes: an Int as 32 bits when it
// fits, else 64; a Float as 32 bits when that is exact, else 64 (NaN always
// 64); a null Object as a bare Nil; PackedStringArray elements with their
// NUL; zero padding; Dictionary entries in order; and no header bits the
// engine does not define.
func (m *EncMode) Append(dst []byte, v Value) ([]byte, error) {
	e := encoder{EncOptions: &m.opts, start: len(dst)}
	out, err := e.value(dst, v, 0)
	if err != nil {
		return dst, finishPath(err)
	}
	return out, nil
}

// AppendAt is Append for a value nested depth levels deep in an encoding
// that began at dst[start] (a Go value marshalled around it, say): error
// offsets count from start and MaxDepth from the top of that encoding.
func (m *EncMode) AppendAt(dst []byte, v Value, start, depth int) ([]byte, error) {
	e := encoder{EncOptions: &m.opts, start: start}
	out, err := e.value(dst, v, depth)
	if err != nil {
		return dst, finishPath(err)
	}
	return out, nil
}

type encoder struct {
	*EncOptions
	start int
}

func (e *encoder) fail(b []byte, t Type, sentinel error, code Code, detail string) error {
	return &Error{Op: "encode", Offset: len(b) - e.start, Type: t, Family: e.Family, Code: code, Err: sentinel, Detail: detail}
}

func (e *encoder) unsupported(b []byte, t Type, detail string) error {
	return e.fail(b, t, ErrUnsupported, ErrCodeInvalidData, detail)
}

// header appends the header word of t with the given flags, or fails when
// the family has no such type.
func (e *encoder) header(b []byte, t Type, flags uint32) ([]byte, error) {
	id, ok := t.ID(e.Family)
	if !ok {
		return b, e.unsupported(b, t, t.String()+" does not exist in "+e.Family.String())
	}
	return wire.AppendU32(b, uint32(id)|flags), nil
}

// checkString fails for strings the engine could not have produced: those
// that are not valid UTF-8 (Godot 3 also holds surrogates and characters
// beyond U+10FFFF, in the form it writes them; see DecodeRuneGodot3).
func (e *encoder) checkString(b []byte, t Type, s string) error {
	// utf8.ValidString first, called directly: Family.ValidString is too
	// large to inline, and the call costs Godot 3 encoding 10-15%.
	if utf8.ValidString(s) || e.Family.ValidString(s) {
		return nil
	}
	return e.fail(b, t, ErrInvalidValue, ErrCodeInvalidData, "string is not valid UTF-8")
}

func (e *encoder) str(b []byte, t Type, s string) ([]byte, error) {
	if err := e.checkString(b, t, s); err != nil {
		return b, err
	}
	return wire.AppendString(b, s), nil
}

// reals appends real components with the mode's precision.
func (e *encoder) reals(b []byte, c ...float64) []byte {
	if e.Precision == Double {
		for _, x := range c {
			b = wire.AppendF64(b, x)
		}
		return b
	}
	for _, x := range c {
		b = wire.AppendF32(b, float32(x))
	}
	return b
}

// realHeader writes the header of a type with real components, with the
// 64-bit flag in double precision, after checking that the target version
// reads it.
func (e *encoder) realHeader(b []byte, t Type) ([]byte, error) {
	if e.Precision != Double {
		return e.header(b, t, 0)
	}
	if f := WideFeature(t); !e.Version.Reads(f) {
		return b, e.unsupported(b, t, f.Missing())
	}
	return e.header(b, t, wire.Flag64)
}

// tooDeep reports v, nested deeper than MaxDepth.
func (e *encoder) tooDeep(b []byte, v Value) error {
	return e.fail(b, TypeOf(v), ErrTooDeep, ErrCodeOutOfMemory,
		"more than "+strconv.Itoa(e.MaxDepth)+" levels (a container that holds itself?)")
}

func (e *encoder) value(b []byte, v Value, depth int) ([]byte, error) {
	if depth > e.MaxDepth {
		return b, e.tooDeep(b, v)
	}
	var err error
	switch v := v.(type) {
	case nil:
		return wire.AppendU32(b, 0), nil
	case Bool:
		b = wire.AppendU32(b, uint32(TypeBool))
		if v {
			return wire.AppendU32(b, 1), nil
		}
		return wire.AppendU32(b, 0), nil
	case Int:
		if v >= math.MinInt32 && v <= math.MaxInt32 {
			b = wire.AppendU32(b, uint32(TypeInt))
			return wire.AppendU32(b, uint32(int32(v))), nil
		}
		b = wire.AppendU32(b, uint32(TypeInt)|wire.Flag64)
		return wire.AppendU64(b, uint64(v)), nil
	case Float:
		f := float64(v)
		if float64(float32(f)) == f {
			b = wire.AppendU32(b, uint32(TypeFloat))
			return wire.AppendF32(b, float32(f)), nil
		}
		b = wire.AppendU32(b, uint32(TypeFloat)|wire.Flag64)
		return wire.AppendF64(b, f), nil
	case String:
		if err := e.checkString(b, TypeString, string(v)); err != nil {
			return b, err
		}
		b = wire.AppendU32(b, uint32(TypeString))
		return wire.AppendString(b, string(v)), nil
	case StringName:
		if err := e.checkString(b, TypeStringName, string(v)); err != nil {
			return b, err
		}
		if b, err = e.header(b, TypeStringName, 0); err != nil {
			return b, err
		}
		return wire.AppendString(b, string(v)), nil
	case Vector2: // the most common math value, on a path of its own
		if b, err = e.realHeader(b, TypeVector2); err != nil {
			return b, err
		}
		if e.Precision == Double {
			return wire.AppendF64(wire.AppendF64(b, v.X), v.Y), nil
		}
		return wire.AppendF32(wire.AppendF32(b, float32(v.X)), float32(v.Y)), nil
	case NodePath:
		return e.nodePath(b, v)
	case RID:
		if b, err = e.header(b, TypeRID, 0); err != nil {
			return b, err
		}
		if e.Family.Facts().RIDSize == 0 {
			return b, nil // Godot 3 writes no RID payload
		}
		return wire.AppendU64(b, uint64(v)), nil
	case ObjectID:
		if v == 0 {
			return wire.AppendU32(b, 0), nil
		}
		if b, err = e.header(b, TypeObject, wire.FlagObjectAsID); err != nil {
			return b, err
		}
		return wire.AppendU64(b, uint64(v)), nil
	case *Object:
		return e.object(b, v, depth)
	case ResourceRef:
		return b, e.unsupported(b, TypeObject, "a resource reference ("+v.String()+") exists only inside resource files")
	case Callable:
		return e.header(b, TypeCallable, 0)
	case Signal:
		if b, err = e.header(b, TypeSignal, 0); err != nil {
			return b, err
		}
		if b, err = e.str(b, TypeSignal, v.Name); err != nil {
			return b, err
		}
		return wire.AppendU64(b, v.Object), nil
	case *Dictionary:
		return e.dictionary(b, v, depth)
	case *Array:
		return e.array(b, v, depth)
	case PackedByteArray:
		b, _ = e.header(b, v.Type(), 0)
		b = wire.AppendU32(b, uint32(len(v)))
		b = append(b, v...)
		return wire.AppendZeros(b, wire.Pad4(len(v))), nil
	case PackedInt32Array:
		b, _ = e.header(b, v.Type(), 0)
		b = wire.AppendU32(b, uint32(len(v)))
		return wire.AppendInt32s(b, v), nil
	case PackedInt64Array:
		if b, err = e.header(b, v.Type(), 0); err != nil {
			return b, err
		}
		b = wire.AppendU32(b, uint32(len(v)))
		return wire.AppendInt64s(b, v), nil
	case PackedFloat32Array:
		b, _ = e.header(b, v.Type(), 0)
		b = wire.AppendU32(b, uint32(len(v)))
		return wire.AppendFloat32s(b, v), nil
	case PackedFloat64Array:
		if b, err = e.header(b, v.Type(), 0); err != nil {
			return b, err
		}
		b = wire.AppendU32(b, uint32(len(v)))
		return wire.AppendFloat64s(b, v), nil
	case PackedStringArray:
		b, _ = e.header(b, v.Type(), 0)
		b = wire.AppendU32(b, uint32(len(v)))
		for i, s := range v {
			if err := e.checkString(b, v.Type(), s); err != nil {
				return b, prefixPath(err, IndexSeg(i))
			}
			b = wire.AppendStringZ(b, s)
		}
		return b, nil
	case PackedVector2Array:
		if b, err = e.realHeader(b, v.Type()); err != nil {
			return b, err
		}
		b = wire.AppendU32(b, uint32(len(v)))
		for _, x := range v {
			b = e.reals(b, x.X, x.Y)
		}
		return b, nil
	case PackedVector3Array:
		if b, err = e.realHeader(b, v.Type()); err != nil {
			return b, err
		}
		b = wire.AppendU32(b, uint32(len(v)))
		for _, x := range v {
			b = e.reals(b, x.X, x.Y, x.Z)
		}
		return b, nil
	case PackedVector4Array:
		if f := TypeFeature(v.Type()); e.Family == Godot4 && !e.Version.Reads(f) {
			return b, e.unsupported(b, v.Type(), f.Missing())
		}
		if b, err = e.realHeader(b, v.Type()); err != nil {
			return b, err
		}
		b = wire.AppendU32(b, uint32(len(v)))
		for _, x := range v {
			b = e.reals(b, x.X, x.Y, x.Z, x.W)
		}
		return b, nil
	case PackedColorArray:
		b, _ = e.header(b, v.Type(), 0)
		b = wire.AppendU32(b, uint32(len(v)))
		for _, c := range v {
			b = appendColor(b, c)
		}
		return b, nil
	}
	if t, f, p := mathData(v); f != nil {
		return e.math(b, t, f, p)
	}
	return b, e.fail(b, TypeUnknown, ErrInvalidValue, ErrCodeInvalidParam, "unknown Value implementation")
}

// math writes the fixed-size math value of type t whose components are at
// p (see mathData).
func (e *encoder) math(b []byte, t Type, f *TypeFacts, p unsafe.Pointer) ([]byte, error) {
	var err error
	if f.Reals == 0 {
		b, err = e.header(b, t, 0)
	} else {
		b, err = e.realHeader(b, t)
	}
	if err != nil {
		return b, err
	}
	n := f.Components()
	double := f.Reals > 0 && e.Precision == Double
	if f.order == "" { // the Go memory as it is, on little-endian machines
		switch {
		case f.Reals == 0: // int32, or float32 bits
			return wire.AppendInt32s(b, unsafe.Slice((*int32)(p), n)), nil
		case double:
			return wire.AppendFloat64s(b, unsafe.Slice((*float64)(p), n)), nil
		}
		for _, x := range unsafe.Slice((*float64)(p), n) {
			b = wire.AppendF32(b, float32(x))
		}
		return b, nil
	}
	switch {
	case f.Reals == 0:
		for i := range n {
			b = wire.AppendU32(b, *(*uint32)(unsafe.Add(p, 4*uintptr(f.order[i]))))
		}
	case double:
		for i := range n {
			b = wire.AppendF64(b, *(*float64)(unsafe.Add(p, 8*uintptr(f.order[i]))))
		}
	default:
		for i := range n {
			b = wire.AppendF32(b, float32(*(*float64)(unsafe.Add(p, 8*uintptr(f.order[i])))))
		}
	}
	return b, nil
}

func appendColor(b []byte, c Color) []byte {
	b = wire.AppendF32(b, c.R)
	b = wire.AppendF32(b, c.G)
	b = wire.AppendF32(b, c.B)
	return wire.AppendF32(b, c.A)
}

func (e *encoder) nodePath(b []byte, p NodePath) ([]byte, error) {
	t := TypeNodePath
	b, err := e.header(b, t, 0)
	if err != nil {
		return b, err
	}
	b = wire.AppendU32(b, uint32(len(p.Names))|wire.NodePathNewFormat)
	b = wire.AppendU32(b, uint32(len(p.Subnames)))
	var flags uint32
	if p.Absolute {
		flags = wire.NodePathAbsolute
	}
	b = wire.AppendU32(b, flags)
	for _, s := range p.Names {
		if b, err = e.str(b, t, s); err != nil {
			return b, err
		}
	}
	for _, s := range p.Subnames {
		if b, err = e.str(b, t, s); err != nil {
			return b, err
		}
	}
	return b, nil
}

func (e *encoder) object(b []byte, o *Object, depth int) ([]byte, error) {
	t := TypeObject
	if o == nil || o.Class == "" {
		return wire.AppendU32(b, 0), nil // a null Object is written as Nil
	}
	if !e.FullObjects {
		return b, e.fail(b, t, ErrObjectsNotAllowed, ErrCodeInvalidParam,
			"encoding a full Object ("+o.Class+") needs FullObjects")
	}
	b, err := e.header(b, t, 0)
	if err != nil {
		return b, err
	}
	if b, err = e.str(b, t, o.Class); err != nil {
		return b, err
	}
	b = wire.AppendU32(b, uint32(len(o.Properties)))
	for _, p := range o.Properties {
		if b, err = e.str(b, t, p.Name); err != nil {
			return b, err
		}
		if b, err = e.value(b, p.Value, depth+1); err != nil {
			return b, prefixPath(err, "."+p.Name)
		}
	}
	return b, nil
}

// containerKind returns the wire kind of a container type and appends its
// type data to data. Without FullObjects the engine names every object
// class "EncodedObjectAsID".
func (e *encoder) containerKind(b []byte, t Type, ct ContainerType) (uint32, []byte, error) {
	switch ct.Kind {
	case Untyped:
		return wire.KindNone, b, nil
	case Builtin:
		if ct.Builtin == TypeNil {
			return wire.KindNone, b, nil
		}
		if ct.Builtin >= TypeCount {
			return 0, b, e.fail(b, t, ErrInvalidValue, ErrCodeInvalidParam, "element type "+ct.Builtin.String())
		}
		return wire.KindBuiltin, wire.AppendU32(b, uint32(ct.Builtin)), nil
	case ClassName, Script:
		if !e.FullObjects {
			return wire.KindClassName, wire.AppendString(b, encodedObjectAsID), nil
		}
		if ct.Kind == Script {
			if !strings.HasPrefix(ct.Name, "res://") || len(ct.Name) == len("res://") {
				return 0, b, e.fail(b, t, ErrInvalidValue, ErrCodeUnavailable,
					"script path "+strconv.Quote(ct.Name)+" is not a res:// path")
			}
			b, err := e.str(b, t, ct.Name)
			return wire.KindScript, b, err
		}
		b, err := e.str(b, t, ct.Name)
		return wire.KindClassName, b, err
	}
	return 0, b, e.fail(b, t, ErrInvalidValue, ErrCodeInvalidParam, "container kind "+strconv.Itoa(int(ct.Kind)))
}

// fits reports whether a typed container accepts v.
func fits(v Value, ct ContainerType) bool {
	if !ct.IsTyped() {
		return true
	}
	if ct.Kind != Builtin || ct.Builtin == TypeObject {
		return TypeOf(v) == TypeObject || v == nil
	}
	return TypeOf(v) == ct.Builtin
}

func (e *encoder) typedSupport(b []byte, t Type, typed bool, f Feature) error {
	if !typed {
		return nil
	}
	if !e.Family.Facts().TypedContainers || !e.Version.Reads(f) {
		return e.unsupported(b, t, f.Missing())
	}
	return nil
}

func (e *encoder) array(b []byte, a *Array, depth int) ([]byte, error) {
	if depth > e.MaxDepth {
		return b, e.tooDeep(b, a)
	}
	t := TypeArray
	var elem ContainerType
	var values []Value
	if a != nil {
		elem, values = a.Elem, a.Values
	}
	if err := e.typedSupport(b, t, elem.IsTyped() && !(elem.Kind == Builtin && elem.Builtin == TypeNil), TypedArrays); err != nil {
		return b, err
	}
	hdr := len(b)
	b, err := e.header(b, t, 0)
	if err != nil {
		return b, err
	}
	kind, b, err := e.containerKind(b, t, elem)
	if err != nil {
		return b, err
	}
	b[hdr+2] |= byte(kind)
	b = wire.AppendU32(b, uint32(len(values)))
	for i, v := range values {
		if !fits(v, elem) {
			return b, e.fail(b, TypeOf(v), ErrInvalidValue, ErrCodeInvalidParam,
				TypeOf(v).String()+" in an Array of "+elemName(elem))
		}
		// Nested containers recurse without value's large frame, so
		// that deep nesting keeps the stack small.
		switch x := v.(type) {
		case *Array:
			b, err = e.array(b, x, depth+1)
		case *Dictionary:
			b, err = e.dictionary(b, x, depth+1)
		default:
			b, err = e.value(b, v, depth+1)
		}
		if err != nil {
			return b, prefixPath(err, IndexSeg(i))
		}
	}
	return b, nil
}

func elemName(ct ContainerType) string {
	if ct.Kind == Builtin {
		return ct.Builtin.String()
	}
	return ct.Name
}

func (e *encoder) dictionary(b []byte, d *Dictionary, depth int) ([]byte, error) {
	if depth > e.MaxDepth {
		return b, e.tooDeep(b, d)
	}
	t := TypeDictionary
	var kt, vt ContainerType
	if d != nil {
		kt, vt = d.KeyType(), d.ValueType()
	}
	typed := (kt.IsTyped() && !(kt.Kind == Builtin && kt.Builtin == TypeNil)) ||
		(vt.IsTyped() && !(vt.Kind == Builtin && vt.Builtin == TypeNil))
	if err := e.typedSupport(b, t, typed, TypedDictionaries); err != nil {
		return b, err
	}
	hdr := len(b)
	b, err := e.header(b, t, 0)
	if err != nil {
		return b, err
	}
	kk, b, err := e.containerKind(b, t, kt)
	if err != nil {
		return b, err
	}
	vk, b, err := e.containerKind(b, t, vt)
	if err != nil {
		return b, err
	}
	b[hdr+2] |= byte(kk | vk<<2)
	entries := d.view()
	b = wire.AppendU32(b, uint32(len(entries)))
	for _, en := range entries {
		// Only keys are checked: the engine keeps values of the wrong type
		// that it decoded into a typed Dictionary, and writes them again.
		if !fits(en.Key, kt) {
			return b, e.fail(b, t, ErrInvalidValue, ErrCodeInvalidParam,
				"key "+KeySeg(en.Key)+" does not fit the dictionary's key type "+elemName(kt))
		}
		if b, err = e.value(b, en.Key, depth+1); err != nil {
			return b, prefixPath(err, "{key}")
		}
		switch x := en.Value.(type) { // as in array
		case *Array:
			b, err = e.array(b, x, depth+1)
		case *Dictionary:
			b, err = e.dictionary(b, x, depth+1)
		default:
			b, err = e.value(b, en.Value, depth+1)
		}
		if err != nil {
			return b, prefixPath(err, KeySeg(en.Key))
		}
	}
	return b, nil
}
