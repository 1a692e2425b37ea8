package gdvar

import (
	"encoding"
	"encoding/binary"
	"math"
	"reflect"
	"strconv"
	"sync"
	"time"
	"unsafe"

	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// Marshaler is implemented by types that marshal themselves: the Value
// returned is encoded in their place (nil for Nil). Marshal calls the
// method on a pointer when the method has a pointer receiver; a nil
// pointer encodes as Nil without a call.
type Marshaler interface {
	MarshalVariant() (variant.Value, error)
}

// maxHops bounds a chain of pointers and interfaces with no container in
// between: only a cycle of them gets that long.
const maxHops = 1000

// encodeState is the state of one Marshal call.
type encodeState struct {
	m        *EncMode
	start    int // len(dst) when the call started: output offsets count from it
	hops     int
	fam      variant.Family
	ver      variant.Version
	double   bool
	typed    bool
	maxDepth int
}

var encodeStates = sync.Pool{New: func() any { return new(encodeState) }}

// Marshal returns the encoding of v.
func (m *EncMode) Marshal(v any) ([]byte, error) { return m.Append(nil, v) }

// Append appends the encoding of v to dst and returns the extended slice;
// on error it returns dst unchanged (its spare capacity may have been
// written to).
//
// The bytes are exactly those that variant.Encode writes for the
// equivalent Variant (see the package documentation for the mapping), and
// so those of the engine's var_to_bytes. Pass a pointer to avoid a copy of
// v: appending a struct through a pointer into a buffer with room
// allocates nothing.
func (m *EncMode) Append(dst []byte, v any) ([]byte, error) {
	e := encodeStates.Get().(*encodeState)
	*e = encodeState{
		m: m, start: len(dst), fam: m.opts.Family, ver: m.opts.Version,
		double: m.opts.Precision == variant.Double, typed: m.opts.TypedContainers,
		maxDepth: m.opts.MaxDepth,
	}
	b, err := e.dynamic(dst, v, 0)
	e.m = nil
	encodeStates.Put(e)
	if err != nil {
		return dst, finish(err)
	}
	return b, nil
}

func (e *encodeState) wireErr(b []byte, t variant.Type, sentinel error, code variant.Code, detail string) error {
	off := len(b) - e.start
	return wireError("marshal", &variant.Error{Op: "encode", Offset: off, Type: t, Family: e.fam, Code: code, Err: sentinel, Detail: detail})
}

func (e *encodeState) unsupported(b []byte, t variant.Type, detail string) error {
	return e.wireErr(b, t, variant.ErrUnsupported, variant.ErrCodeInvalidData, detail)
}

func (e *encodeState) tooDeep(b []byte, t variant.Type) error {
	return e.wireErr(b, t, variant.ErrTooDeep, variant.ErrCodeOutOfMemory,
		"more than "+strconv.Itoa(e.maxDepth)+" levels (a container that holds itself?)")
}

// semErr is an error about the Go value at the current output offset.
func (e *encodeState) semErr(b []byte, gt reflect.Type, sentinel error, detail string) error {
	return &Error{Op: "marshal", Offset: len(b) - e.start, Type: variant.TypeUnknown, GoType: gt, Err: sentinel, Detail: detail, fam: e.fam}
}

// header appends the header word of t, or fails when the family has no
// such type.
func (e *encodeState) header(b []byte, t variant.Type, flags uint32) ([]byte, error) {
	id, ok := t.ID(e.fam)
	if !ok {
		return b, e.unsupported(b, t, t.String()+" does not exist in "+e.fam.String())
	}
	return wire.AppendU32(b, uint32(id)|flags), nil
}

// realHeader writes the header of a type with real components, with the
// 64-bit flag in double precision, after checking that the target version
// reads it.
func (e *encodeState) realHeader(b []byte, t variant.Type) ([]byte, error) {
	if !e.double {
		return e.header(b, t, 0)
	}
	if f := variant.WideFeature(t); !e.ver.Reads(f) {
		return b, e.unsupported(b, t, f.Missing())
	}
	return e.header(b, t, wire.Flag64)
}

func (e *encodeState) real(b []byte, x float64) []byte {
	if e.double {
		return wire.AppendF64(b, x)
	}
	return wire.AppendF32(b, float32(x))
}

// appendInt appends an int as the engine writes it: 32 bits when it fits.
func appendInt(b []byte, v int64) []byte {
	if v >= math.MinInt32 && v <= math.MaxInt32 {
		return binary.LittleEndian.AppendUint64(b, uint64(variant.TypeInt)|uint64(uint32(int32(v)))<<32)
	}
	b = wire.AppendU32(b, uint32(variant.TypeInt)|wire.Flag64)
	return wire.AppendU64(b, uint64(v))
}

// appendFloat appends a float as the engine writes it: 32 bits when that
// is exact (never for NaN).
func appendFloat(b []byte, f float64) []byte {
	if float64(float32(f)) == f {
		return binary.LittleEndian.AppendUint64(b, uint64(variant.TypeFloat)|uint64(math.Float32bits(float32(f)))<<32)
	}
	b = wire.AppendU32(b, uint32(variant.TypeFloat)|wire.Flag64)
	return wire.AppendF64(b, f)
}

// checkString fails for strings the engine could not have produced.
func (e *encodeState) checkString(b []byte, t variant.Type, s string) error {
	if validString(e.fam, s) {
		return nil
	}
	return e.wireErr(b, t, variant.ErrInvalidValue, variant.ErrCodeInvalidData, "string is not valid UTF-8")
}

func (e *encodeState) appendString(b []byte, s string) ([]byte, error) {
	if err := e.checkString(b, variant.TypeString, s); err != nil {
		return b, err
	}
	b = wire.AppendU32(b, uint32(variant.TypeString))
	return wire.AppendString(b, s), nil
}

// value encodes a model Value with package variant, nested depth deep.
func (e *encodeState) value(b []byte, v variant.Value, depth int) ([]byte, error) {
	switch x := v.(type) {
	case *variant.Array, *variant.Dictionary, *variant.Object:
		if depth >= e.maxDepth && hasElements(x, e.m.opts.FullObjects) {
			return b, e.tooDeep(b, variant.TypeOf(v))
		}
	}
	out, err := e.m.vmode.AppendAt(b, v, e.start, depth)
	if err != nil {
		if ve, ok := err.(*variant.Error); ok {
			return b, wireError("marshal", ve)
		}
		return b, err
	}
	return out, nil
}

// hasElements reports whether a container Value would write nested values.
func hasElements(v variant.Value, fullObjects bool) bool {
	switch x := v.(type) {
	case *variant.Array:
		return x.Len() > 0
	case *variant.Dictionary:
		return x.Len() > 0
	case *variant.Object:
		return fullObjects && x != nil && x.Class != "" && len(x.Properties) > 0
	}
	return false
}

// dynamic encodes a Go value held in an interface.
func (e *encodeState) dynamic(b []byte, x any, depth int) ([]byte, error) {
	switch v := x.(type) {
	case nil:
		return wire.AppendU32(b, 0), nil
	case *variant.Array:
		return e.value(b, v, depth)
	case *variant.Dictionary:
		return e.value(b, v, depth)
	case *variant.Object:
		return e.value(b, v, depth)
	case variant.Value:
		// Not a pointer such as *variant.Vector2, which the method set
		// of its pointee makes a Value too.
		if reflect.TypeOf(v).Kind() != reflect.Pointer {
			return e.value(b, v, depth)
		}
	case string:
		return e.appendString(b, v)
	case bool:
		return encBoolValue(b, v), nil
	case int:
		return appendInt(b, int64(v)), nil
	case int64:
		return appendInt(b, v), nil
	case float64:
		return appendFloat(b, v), nil
	}
	e.hops++
	if e.hops > maxHops {
		return b, e.semErr(b, reflect.TypeOf(x), ErrUnsupportedType, "a cycle of pointers or interfaces")
	}
	rv := reflect.ValueOf(x)
	c := codecFor(rv.Type())
	var err error
	switch {
	case c.encPtr != nil:
		b, err = c.encPtr(e, b, rv.UnsafePointer(), depth)
	case c.encData != nil:
		b, err = c.encData(e, b, rv.UnsafePointer(), rv.Len(), false, depth)
	case c.encMap != nil:
		b, err = c.encMap(e, b, rv, false, depth)
	default:
		// An addressable copy, as encoding/json v2 makes.
		pv := reflect.New(rv.Type())
		pv.Elem().Set(rv)
		b, err = c.enc(e, b, pv.UnsafePointer(), depth)
	}
	e.hops--
	return b, err
}

func encUnsupported(t reflect.Type) encFunc {
	return func(e *encodeState, b []byte, _ unsafe.Pointer, _ int) ([]byte, error) {
		return b, e.semErr(b, t, ErrUnsupportedType, "cannot marshal "+t.String())
	}
}

func encBool(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
	return encBoolValue(b, *(*bool)(p)), nil
}

func encBoolValue(b []byte, x bool) []byte {
	v := uint64(variant.TypeBool)
	if x {
		v |= 1 << 32
	}
	return binary.LittleEndian.AppendUint64(b, v)
}

func encInt(k reflect.Kind) encFunc {
	switch k {
	case reflect.Int8:
		return func(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return appendInt(b, int64(*(*int8)(p))), nil
		}
	case reflect.Int16:
		return func(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return appendInt(b, int64(*(*int16)(p))), nil
		}
	case reflect.Int32:
		return func(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return appendInt(b, int64(*(*int32)(p))), nil
		}
	case reflect.Int:
		return func(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return appendInt(b, int64(*(*int)(p))), nil
		}
	}
	return func(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
		return appendInt(b, *(*int64)(p)), nil
	}
}

func encUint(t reflect.Type) encFunc {
	switch t.Kind() {
	case reflect.Uint8:
		return func(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return appendInt(b, int64(*(*uint8)(p))), nil
		}
	case reflect.Uint16:
		return func(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return appendInt(b, int64(*(*uint16)(p))), nil
		}
	case reflect.Uint32:
		return func(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			return appendInt(b, int64(*(*uint32)(p))), nil
		}
	}
	load := func(p unsafe.Pointer) uint64 { return *(*uint64)(p) }
	switch t.Kind() {
	case reflect.Uint:
		load = func(p unsafe.Pointer) uint64 { return uint64(*(*uint)(p)) }
	case reflect.Uintptr:
		load = func(p unsafe.Pointer) uint64 { return uint64(*(*uintptr)(p)) }
	}
	return func(e *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
		v := load(p)
		if v > math.MaxInt64 {
			return b, e.semErr(b, t, ErrOverflow, t.String()+" "+strconv.FormatUint(v, 10)+" exceeds the largest Godot int")
		}
		return appendInt(b, int64(v)), nil
	}
}

func encFloat32(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
	return appendFloat(b, float64(*(*float32)(p))), nil
}

func encFloat64(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
	return appendFloat(b, *(*float64)(p)), nil
}

func encString(e *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
	return e.appendString(b, *(*string)(p))
}

func encStringName(e *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
	s := *(*string)(p)
	if err := e.checkString(b, variant.TypeStringName, s); err != nil {
		return b, err
	}
	b, err := e.header(b, variant.TypeStringName, 0)
	if err != nil {
		return b, err
	}
	return wire.AppendString(b, s), nil
}

// encTime writes a time.Time as a float: seconds since the Unix epoch, as
// Godot's Time.get_unix_time_from_system() gives them.
func encTime(_ *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
	t := (*time.Time)(p)
	return appendFloat(b, float64(t.Unix())+float64(t.Nanosecond())/1e9), nil
}

func encMarshaler(t reflect.Type) encFunc {
	return func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		v, err := reflect.NewAt(t, p).Interface().(Marshaler).MarshalVariant()
		if err != nil {
			return b, e.semErr(b, t, err, "MarshalVariant of "+t.String())
		}
		return e.value(b, v, depth)
	}
}

func encTextMarshaler(t reflect.Type) encFunc {
	return func(e *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
		text, err := reflect.NewAt(t, p).Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return b, e.semErr(b, t, err, "MarshalText of "+t.String())
		}
		return e.appendString(b, string(text))
	}
}

// mathLayout says where the components of a fixed-size math type are in
// its Go value, in wire order: float64 offsets for real types, int32
// offsets for integer vectors, float32 offsets for Color.
type mathLayout struct {
	t    variant.Type
	offs []uintptr
}

// mathLayouts holds the layout of every fixed-size math type, from its row
// of the facts table.
var mathLayouts = func() map[variant.Type]*mathLayout {
	m := map[variant.Type]*mathLayout{}
	for t := range variant.TypeCount {
		f := variant.Facts(t)
		if f.Components() == 0 {
			continue
		}
		size := uintptr(4)
		if f.Reals > 0 {
			size = 8
		}
		l := &mathLayout{t: t, offs: make([]uintptr, f.Components())}
		for i := range l.offs {
			l.offs[i] = uintptr(f.GoIndex(i)) * size
		}
		m[t] = l
	}
	return m
}()

//go:noinline
func encReals(l *mathLayout) encFunc {
	if l.t == variant.TypeVector2 {
		return func(e *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
			v := (*variant.Vector2)(p)
			if !e.double && e.fam.Facts().NativeIDs {
				b = wire.AppendU32(b, uint32(variant.TypeVector2))
				b = wire.AppendF32(b, float32(v.X))
				return wire.AppendF32(b, float32(v.Y)), nil
			}
			b, err := e.realHeader(b, variant.TypeVector2)
			if err != nil {
				return b, err
			}
			return e.real(e.real(b, v.X), v.Y), nil
		}
	}
	return func(e *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
		b, err := e.realHeader(b, l.t)
		if err != nil {
			return b, err
		}
		for _, o := range l.offs {
			b = e.real(b, *(*float64)(unsafe.Add(p, o)))
		}
		return b, nil
	}
}

//go:noinline
func encInt32s(l *mathLayout) encFunc {
	return func(e *encodeState, b []byte, p unsafe.Pointer, _ int) ([]byte, error) {
		b, err := e.header(b, l.t, 0)
		if err != nil {
			return b, err
		}
		for _, o := range l.offs {
			b = wire.AppendU32(b, *(*uint32)(unsafe.Add(p, o)))
		}
		return b, nil
	}
}

// encModelValue encodes a model type through package variant.
func encModelValue(t reflect.Type) encFunc {
	if t.Kind() == reflect.Pointer {
		return func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
			return e.value(b, reflect.NewAt(t, p).Elem().Interface().(variant.Value), depth)
		}
	}
	if !t.Implements(valueType) {
		// variant.Array, Dictionary and Object held by value: their
		// pointers are the Values.
		return func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
			return e.value(b, reflect.NewAt(t, p).Interface().(variant.Value), depth)
		}
	}
	return func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		return e.value(b, reflect.NewAt(t, p).Elem().Interface().(variant.Value), depth)
	}
}

func (bd *builder) modelEncoder(c *codec, vt variant.Type) {
	t := c.typ
	if l, ok := mathLayouts[vt]; ok {
		if variant.Facts(vt).Reals > 0 {
			c.enc = encReals(l)
		} else {
			c.enc = encInt32s(l) // Color's float32 components are copied as bits
		}
		return
	}
	switch vt {
	case variant.TypeStringName:
		c.enc = encStringName
		return
	case variant.TypePackedByteArray, variant.TypePackedInt32Array, variant.TypePackedInt64Array,
		variant.TypePackedFloat32Array, variant.TypePackedFloat64Array, variant.TypePackedStringArray,
		variant.TypePackedVector2Array, variant.TypePackedVector3Array, variant.TypePackedColorArray,
		variant.TypePackedVector4Array:
		bd.sliceEncoder(c, true)
		return
	}
	c.enc = encModelValue(t)
	if t.Kind() == reflect.Pointer {
		// As in package variant: a nil *Array or *Dictionary is empty, a
		// nil *Object is Nil.
		c.encPtr = func(e *encodeState, b []byte, ptr unsafe.Pointer, depth int) ([]byte, error) {
			return e.value(b, reflect.NewAt(t.Elem(), ptr).Interface().(variant.Value), depth)
		}
	}
}

// packedEncoder returns the encoder of the elements of a packed array of
// type pt, or nil. With strict false, the 64-bit arrays that Godot 3 lacks
// are written there as an Array.
func packedEncoder(pt variant.Type, strict bool) func(e *encodeState, b []byte, data unsafe.Pointer, n, depth int) ([]byte, error) {
	hdr := func(e *encodeState, b []byte, n int) ([]byte, error) {
		b, err := e.header(b, pt, 0)
		if err != nil {
			return b, err
		}
		return wire.AppendU32(b, uint32(n)), nil
	}
	switch pt {
	case variant.TypePackedByteArray:
		return func(e *encodeState, b []byte, data unsafe.Pointer, n, depth int) ([]byte, error) {
			b, _ = hdr(e, b, n)
			b = append(b, unsafe.Slice((*byte)(data), n)...)
			return wire.AppendZeros(b, wire.Pad4(n)), nil
		}
	case variant.TypePackedInt32Array:
		return func(e *encodeState, b []byte, data unsafe.Pointer, n, depth int) ([]byte, error) {
			b, _ = hdr(e, b, n)
			return wire.AppendInt32s(b, unsafe.Slice((*int32)(data), n)), nil
		}
	case variant.TypePackedFloat32Array:
		return func(e *encodeState, b []byte, data unsafe.Pointer, n, depth int) ([]byte, error) {
			b, _ = hdr(e, b, n)
			return wire.AppendFloat32s(b, unsafe.Slice((*float32)(data), n)), nil
		}
	case variant.TypePackedInt64Array:
		return func(e *encodeState, b []byte, data unsafe.Pointer, n, depth int) ([]byte, error) {
			s := unsafe.Slice((*int64)(data), n)
			if _, has := pt.ID(e.fam); !has && !strict {
				return e.arrayOf(b, n, depth, func(b []byte, i int) []byte { return appendInt(b, s[i]) })
			}
			b, err := hdr(e, b, n)
			if err != nil {
				return b, err
			}
			return wire.AppendInt64s(b, s), nil
		}
	case variant.TypePackedFloat64Array:
		return func(e *encodeState, b []byte, data unsafe.Pointer, n, depth int) ([]byte, error) {
			s := unsafe.Slice((*float64)(data), n)
			if _, has := pt.ID(e.fam); !has && !strict {
				return e.arrayOf(b, n, depth, func(b []byte, i int) []byte { return appendFloat(b, s[i]) })
			}
			b, err := hdr(e, b, n)
			if err != nil {
				return b, err
			}
			return wire.AppendFloat64s(b, s), nil
		}
	case variant.TypePackedStringArray:
		return func(e *encodeState, b []byte, data unsafe.Pointer, n, depth int) ([]byte, error) {
			b, _ = hdr(e, b, n)
			for i, s := range unsafe.Slice((*string)(data), n) {
				if err := e.checkString(b, pt, s); err != nil {
					return b, prefix(err, variant.IndexSeg(i), variant.IndexSeg(i))
				}
				b = wire.AppendStringZ(b, s)
			}
			return b, nil
		}
	case variant.TypePackedVector2Array, variant.TypePackedVector3Array, variant.TypePackedVector4Array:
		comps := variant.Facts(pt).Comps
		return func(e *encodeState, b []byte, data unsafe.Pointer, n, depth int) ([]byte, error) {
			if f := variant.TypeFeature(pt); e.fam.Facts().NativeIDs && !e.ver.Reads(f) {
				return b, e.unsupported(b, pt, f.Missing())
			}
			b, err := e.realHeader(b, pt)
			if err != nil {
				return b, err
			}
			b = wire.AppendU32(b, uint32(n))
			for _, x := range unsafe.Slice((*float64)(data), n*comps) {
				b = e.real(b, x)
			}
			return b, nil
		}
	case variant.TypePackedColorArray:
		return func(e *encodeState, b []byte, data unsafe.Pointer, n, depth int) ([]byte, error) {
			b, _ = hdr(e, b, n)
			return wire.AppendFloat32s(b, unsafe.Slice((*float32)(data), 4*n)), nil
		}
	}
	return nil
}

// arrayOf writes an untyped Array of n scalars.
func (e *encodeState) arrayOf(b []byte, n, depth int, elem func([]byte, int) []byte) ([]byte, error) {
	b, err := e.header(b, variant.TypeArray, 0)
	if err != nil {
		return b, err
	}
	b = wire.AppendU32(b, uint32(n))
	if n > 0 && depth >= e.maxDepth {
		return b, prefix(e.tooDeep(b, variant.TypeUnknown), variant.IndexSeg(0), variant.IndexSeg(0))
	}
	for i := range n {
		b = elem(b, i)
	}
	return b, nil
}

// elemsEncoder returns the encoder of n elements at data, of a slice or
// array type t.
func (bd *builder) elemsEncoder(c *codec, strict bool) func(e *encodeState, b []byte, data unsafe.Pointer, n int, typed bool, depth int) ([]byte, error) {
	t := c.typ
	if pt, ok := packedOf(t.Elem()); ok {
		if pe := packedEncoder(pt, strict); pe != nil {
			return func(e *encodeState, b []byte, data unsafe.Pointer, n int, _ bool, depth int) ([]byte, error) {
				return pe(e, b, data, n, depth)
			}
		}
	}
	ec := bd.get(t.Elem())
	size := t.Elem().Size()
	return func(e *encodeState, b []byte, data unsafe.Pointer, n int, typed bool, depth int) ([]byte, error) {
		vt := ec.vtype
		typed = (typed || e.typed) && vt != variant.TypeUnknown
		if f := variant.TypedArrays; typed && (!e.fam.Facts().TypedContainers || !e.ver.Reads(f)) {
			return b, e.unsupported(b, variant.TypeArray, f.Missing())
		}
		hdr := len(b)
		b, err := e.header(b, variant.TypeArray, 0)
		if err != nil {
			return b, err
		}
		if typed {
			b[hdr+2] |= wire.KindBuiltin
			b = wire.AppendU32(b, uint32(vt))
		}
		b = wire.AppendU32(b, uint32(n))
		if n == 0 {
			return b, nil
		}
		if depth >= e.maxDepth {
			return b, prefix(e.tooDeep(b, vt), variant.IndexSeg(0), variant.IndexSeg(0))
		}
		saved := e.hops
		e.hops = 0
		for i := range n {
			if b, err = ec.enc(e, b, unsafe.Add(data, uintptr(i)*size), depth+1); err != nil {
				return b, prefix(err, variant.IndexSeg(i), variant.IndexSeg(i))
			}
		}
		e.hops = saved
		return b, nil
	}
}

func (bd *builder) sliceEncoder(c *codec, strict bool) {
	enc := bd.elemsEncoder(c, strict)
	c.encData = enc
	c.enc = func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		s := (*sliceHeader)(p)
		return enc(e, b, s.Data, s.Len, false, depth)
	}
	if _, packed := packedOf(c.typ.Elem()); !packed && bd.get(c.typ.Elem()).vtype != variant.TypeUnknown {
		c.encTyped = func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
			s := (*sliceHeader)(p)
			return enc(e, b, s.Data, s.Len, true, depth)
		}
	}
}

func (bd *builder) arrayEncoder(c *codec) {
	enc := bd.elemsEncoder(c, false)
	n := c.typ.Len()
	c.enc = func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		return enc(e, b, p, n, false, depth)
	}
	if _, packed := packedOf(c.typ.Elem()); !packed && bd.get(c.typ.Elem()).vtype != variant.TypeUnknown {
		c.encTyped = func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
			return enc(e, b, p, n, true, depth)
		}
	}
}

func (bd *builder) pointerEncoder(c *codec) {
	ec := bd.get(c.typ.Elem())
	t := c.typ
	c.encPtr = func(e *encodeState, b []byte, ptr unsafe.Pointer, depth int) ([]byte, error) {
		if ptr == nil {
			return wire.AppendU32(b, 0), nil
		}
		e.hops++
		if e.hops > maxHops {
			return b, e.semErr(b, t, ErrUnsupportedType, "a cycle of pointers or interfaces")
		}
		b, err := ec.enc(e, b, ptr, depth)
		e.hops--
		return b, err
	}
	c.enc = func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		return c.encPtr(e, b, *(*unsafe.Pointer)(p), depth)
	}
}

func encInterface(t reflect.Type) encFunc {
	if t.NumMethod() == 0 {
		return func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
			return e.dynamic(b, *(*any)(p), depth)
		}
	}
	return func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		return e.dynamic(b, reflect.NewAt(t, p).Elem().Interface(), depth)
	}
}
