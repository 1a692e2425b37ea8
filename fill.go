package gdvar

import (
	"encoding"
	"math"
	"reflect"
	"strconv"
	"time"
	"unsafe"

	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// fillFunc stores a Value that is not in the input (an element or key a
// typed container converted, a packed array read element by element) into
// the Go value at p, with the rules by which the codec's decFunc decodes
// the same Value from bytes; errors are placed at off, the offset of the
// item in the input the Value stands for.
//
// Both paths ask the same functions for every decision (the puts of the
// scalar kinds, the cases of slices and arrays, pointerSlot, the checks of
// map keys and struct fields), so that they cannot disagree.
type fillFunc func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error

// scalar is a Variant of the types the basic Go kinds take (Nil, bool,
// int, float, String, StringName), read from the input or taken from a
// Value, as the put functions see it. For other types only t is set.
type scalar struct {
	t variant.Type
	i int64   // Bool (0 or 1) and Int
	f float64 // Float
	s []byte  // String and StringName
}

// putFunc stores a scalar into the Go value at p, or fails: a Nil leaves
// the value alone, a type the Go kind does not take is a mismatch.
type putFunc func(d *decodeState, off int, s scalar, p unsafe.Pointer) error

// readScalar reads the payload of the scalar s (its type set) with header
// h at off, and returns the offset after it; for types that are no
// scalars it reads nothing (the put refuses them).
func (d *decodeState) readScalar(s *scalar, off int, h uint32) (next int, err error) {
	switch s.t {
	case variant.TypeNil:
		return off + 4, nil
	case variant.TypeBool:
		var b bool
		b, next, err = d.Bool(off)
		if b {
			s.i = 1
		}
	case variant.TypeInt:
		s.i, next, err = d.Int(off, h)
	case variant.TypeFloat:
		s.f, next, err = d.Float(off, h)
	case variant.TypeString, variant.TypeStringName:
		if raw, next, ok := d.QuickStr(off + 4); ok && variant.PlainText(raw) {
			s.s = raw
			return next, nil
		}
		s.s, next, err = d.Str(off+4, s.t)
	}
	return next, err
}

// scalarOf is the scalar of a Value.
func scalarOf(v variant.Value) scalar {
	s := scalar{t: variant.TypeOf(v)}
	switch x := v.(type) {
	case variant.Bool:
		if x {
			s.i = 1
		}
	case variant.Int:
		s.i = int64(x)
	case variant.Float:
		s.f = float64(x)
	case variant.String:
		s.s = []byte(x)
	case variant.StringName:
		s.s = []byte(x)
	}
	return s
}

// scalarCodec returns the decoder and the filler of a Go type that takes
// scalars, both deciding through put.
//
//go:noinline
func scalarCodec(put putFunc) (decFunc, fillFunc) {
	dec := func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		h, t, ok := d.QuickHead(off, depth)
		s := scalar{t: t}
		if !ok {
			var err error
			if h, s.t, err = d.Head(off, depth); err != nil {
				return 0, err
			}
		}
		next, err := d.readScalar(&s, off, h)
		if err != nil {
			return 0, err
		}
		return next, put(d, off, s, p)
	}
	fill := func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error {
		s := scalarOf(v)
		return put(d, off, s, p)
	}
	return dec, fill
}

//go:noinline
func putBool(t reflect.Type) putFunc {
	return func(d *decodeState, off int, s scalar, p unsafe.Pointer) error {
		switch s.t {
		case variant.TypeBool:
			*(*bool)(p) = s.i != 0
			return nil
		case variant.TypeNil:
			return nil
		}
		return d.mismatch(off, s.t, t)
	}
}

func putInt(t reflect.Type) putFunc {
	size := t.Size()
	bits := 8 * size
	var lo, hi int64
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		lo, hi = -1<<(bits-1), 1<<(bits-1)-1
	default:
		lo, hi = 0, math.MaxInt64
		if bits < 64 {
			hi = 1<<bits - 1
		}
	}
	return func(d *decodeState, off int, s scalar, p unsafe.Pointer) error {
		if s.t != variant.TypeInt {
			if s.t == variant.TypeNil {
				return nil
			}
			return d.mismatch(off, s.t, t)
		}
		v := s.i
		if v < lo || v > hi {
			return d.semErr(off, s.t, t, ErrOverflow, "int "+strconv.FormatInt(v, 10)+" does not fit "+t.String())
		}
		switch size {
		case 1:
			*(*int8)(p) = int8(v)
		case 2:
			*(*int16)(p) = int16(v)
		case 4:
			*(*int32)(p) = int32(v)
		default:
			*(*int64)(p) = v
		}
		return nil
	}
}

func putFloat(t reflect.Type) putFunc {
	f32 := t.Kind() == reflect.Float32
	return func(d *decodeState, off int, s scalar, p unsafe.Pointer) error {
		var f float64
		switch s.t {
		case variant.TypeFloat:
			f = s.f
		case variant.TypeInt:
			f = float64(s.i)
		case variant.TypeNil:
			return nil
		default:
			return d.mismatch(off, s.t, t)
		}
		if !f32 {
			*(*float64)(p) = f
			return nil
		}
		if math.Abs(f) > math.MaxFloat32 && !math.IsInf(f, 0) {
			return d.semErr(off, s.t, t, ErrOverflow, typeName(d.fam, s.t)+" "+strconv.FormatFloat(f, 'g', -1, 64)+" does not fit "+t.String())
		}
		*(*float32)(p) = float32(f)
		return nil
	}
}

// stringOf returns raw as a Go string. Once a call has counted a few
// dozen elements (an Array of records), short strings share blocks of
// memory instead of one allocation each.
func (d *decodeState) stringOf(raw []byte) string {
	if d.Elements() < 32 {
		return string(raw)
	}
	return d.chunks.String(raw)
}

//go:noinline
func putString(t reflect.Type) putFunc {
	return func(d *decodeState, off int, s scalar, p unsafe.Pointer) error {
		switch s.t {
		case variant.TypeString, variant.TypeStringName:
			*(*string)(p) = d.stringOf(s.s)
			return nil
		case variant.TypeNil:
			return nil
		}
		return d.mismatch(off, s.t, t)
	}
}

// putTime reads a time.Time from a float or int (seconds since the Unix
// epoch, as Godot's Time singleton counts them) or from a String in RFC
// 3339 or Godot's "YYYY-MM-DDTHH:MM:SS" form (UTC). The result is in UTC
// unless the text names a zone.
func putTime(d *decodeState, off int, s scalar, p unsafe.Pointer) error {
	var tm time.Time
	switch s.t {
	case variant.TypeFloat:
		f := s.f
		if f != f || math.Abs(f) > 1<<62 {
			return d.semErr(off, s.t, timeType, ErrOverflow, "float "+strconv.FormatFloat(f, 'g', -1, 64)+" is no time")
		}
		sec := math.Floor(f)
		ns := math.Round((f - sec) * 1e9)
		if ns >= 1e9 {
			sec, ns = sec+1, ns-1e9
		}
		tm = time.Unix(int64(sec), int64(ns)).UTC()
	case variant.TypeInt:
		tm = time.Unix(s.i, 0).UTC()
	case variant.TypeString, variant.TypeStringName:
		var err error
		if tm, err = parseTime(string(s.s)); err != nil {
			return d.semErr(off, s.t, timeType, err, "cannot unmarshal "+typeName(d.fam, s.t)+" into time.Time")
		}
	case variant.TypeNil:
		return nil
	default:
		return d.mismatch(off, s.t, timeType)
	}
	*(*time.Time)(p) = tm
	return nil
}

// timeLayouts are the text forms a time is read from: RFC 3339 and the
// forms of Godot's Time.get_datetime_string_from_*().
var timeLayouts = []string{time.RFC3339Nano, "2006-01-02T15:04:05", "2006-01-02 15:04:05", "2006-01-02"}

func parseTime(s string) (time.Time, error) {
	for _, layout := range timeLayouts[1:] {
		if t, err := time.Parse(layout, s); err == nil {
			return t, nil
		}
	}
	return time.Parse(timeLayouts[0], s)
}

//go:noinline
func putText(t reflect.Type) putFunc {
	return func(d *decodeState, off int, s scalar, p unsafe.Pointer) error {
		switch s.t {
		case variant.TypeString, variant.TypeStringName:
			if err := reflect.NewAt(t, p).Interface().(encoding.TextUnmarshaler).UnmarshalText(s.s); err != nil {
				return d.semErr(off, s.t, t, err, "UnmarshalText of "+t.String())
			}
			return nil
		case variant.TypeNil:
			return nil
		}
		return d.mismatch(off, s.t, t)
	}
}

// unmarshalVariant hands v, read at off, to the UnmarshalVariant method of
// the Go value of type t at p.
func (d *decodeState) unmarshalVariant(t reflect.Type, v variant.Value, off int, p unsafe.Pointer) error {
	if err := reflect.NewAt(t, p).Interface().(Unmarshaler).UnmarshalVariant(v); err != nil {
		return d.semErr(off, variant.TypeOf(v), t, err, "UnmarshalVariant of "+t.String())
	}
	return nil
}

func fillUnmarshaler(t reflect.Type) fillFunc {
	return func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error {
		return d.unmarshalVariant(t, v, off, p)
	}
}

func fillUnsupported(t reflect.Type) fillFunc {
	return func(d *decodeState, v variant.Value, off int, _ unsafe.Pointer) error {
		return d.unsupported(off, variant.TypeOf(v), t)
	}
}

// fillModel stores a Value into a model type: assign's rules, which are
// decReals' and decInt32s' too (the same Variant type is stored, Nil
// leaves the value alone, anything else is a mismatch).
//
//go:noinline
func fillModel(t reflect.Type) fillFunc {
	return func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error {
		return d.assign(off, t, p, v)
	}
}

func fillPointer(t reflect.Type, ec *codec) fillFunc {
	return func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error {
		elem, err := d.pointerSlot(t, p, off, variant.TypeOf(v))
		if elem == nil || err != nil {
			return err
		}
		err = ec.fill(d, v, off, elem)
		d.hops--
		return err
	}
}

// pointerSlot prepares the pointer of type t at p for a Variant of type
// wt: for Nil it sets it to nil and returns nil; else it returns what it
// points to, allocated if need be, with d.hops counted up (the caller
// counts it down).
func (d *decodeState) pointerSlot(t reflect.Type, p unsafe.Pointer, off int, wt variant.Type) (unsafe.Pointer, error) {
	slot := (*unsafe.Pointer)(p)
	if wt == variant.TypeNil {
		*slot = nil
		return nil, nil
	}
	d.hops++
	if d.hops > maxHops {
		d.hops--
		return nil, d.semErr(off, wt, t, ErrUnsupportedType, "a cycle of pointers or interfaces")
	}
	if *slot == nil {
		*slot = reflect.New(t.Elem()).UnsafePointer()
	}
	return *slot, nil
}

// ifaceTarget returns, for an interface of type t at p and a Variant that
// is not Nil, the pointer the interface holds that the Variant is to go
// into, if any: Unmarshal follows a non-nil pointer already there.
func ifaceTarget(t reflect.Type, p unsafe.Pointer) (reflect.Value, bool) {
	iv := reflect.NewAt(t, p).Elem()
	if iv.IsNil() {
		return reflect.Value{}, false
	}
	if e := iv.Elem(); e.Kind() == reflect.Pointer && !e.IsNil() {
		return e, true
	}
	return reflect.Value{}, false
}

func fillInterface(t reflect.Type) fillFunc {
	if t == valueType {
		return func(_ *decodeState, v variant.Value, _ int, p unsafe.Pointer) error {
			*(*variant.Value)(p) = v
			return nil
		}
	}
	empty := t.NumMethod() == 0
	return func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error {
		if v != nil {
			if ptr, ok := ifaceTarget(t, p); ok {
				return d.fillInto(ptr, v, off)
			}
		}
		if empty {
			*(*any)(p) = natural(v)
			return nil
		}
		if v == nil {
			reflect.NewAt(t, p).Elem().SetZero()
			return nil
		}
		return d.mismatch(off, variant.TypeOf(v), t)
	}
}

// fillInto stores v into the value ptr points to.
func (d *decodeState) fillInto(ptr reflect.Value, v variant.Value, off int) error {
	d.hops++
	if d.hops > maxHops {
		d.hops--
		return d.semErr(off, variant.TypeUnknown, ptr.Type(), ErrUnsupportedType, "a cycle of pointers or interfaces")
	}
	err := codecFor(ptr.Type().Elem()).fill(d, v, off, ptr.UnsafePointer())
	d.hops--
	return err
}

// listCase is how a Go slice or array takes a Variant.
type listCase uint8

const (
	listMismatch listCase = iota
	listNil               // a Nil: a slice becomes nil, an array is left alone
	listArray             // an Array, element by element
	listPacked            // the packed array that is the Go type's own form
	listOther             // another packed array, element by element
)

// listCaseOf says how a Go slice or array whose own packed array type is
// pt (Nil when it has none) takes a Variant of type wt.
func listCaseOf(wt, pt variant.Type) listCase {
	switch {
	case wt == variant.TypeArray:
		return listArray
	case pt != variant.TypeNil && wt == pt:
		return listPacked
	case wt == variant.TypeNil:
		return listNil
	case isPacked(wt):
		return listOther
	}
	return listMismatch
}

func isPacked(t variant.Type) bool {
	return t >= variant.TypePackedByteArray && t <= variant.TypePackedVector4Array
}

// elemSlots are the elements of a Go slice or array being filled, from
// the Variant at off.
type elemSlots struct {
	t     reflect.Type
	ec    *codec
	base  unsafe.Pointer
	capN  int
	kept  int // elements the Go value receives
	fixed int // the length of a Go array, or -1 for a slice
	hops  int // d.hops outside
}

// startElems starts filling the slice (fixed < 0, reusing its array when
// it has room for want elements) or array of type t at p, of elements of
// codec ec. Between the container and its elements the count of pointer
// hops starts again.
func (d *decodeState) startElems(t reflect.Type, ec *codec, p unsafe.Pointer, fixed, want int) elemSlots {
	s := elemSlots{t: t, ec: ec, fixed: fixed, capN: fixed, hops: d.hops}
	d.hops = 0
	if fixed >= 0 {
		reflect.NewAt(t, p).Elem().SetZero()
		s.base = p
		return s
	}
	if cur := (*sliceHeader)(p); cur.Data != nil && cur.Cap >= want {
		s.base, s.capN = cur.Data, cur.Cap
		d.clearElems(t, ec, s.base, want)
	} else {
		s.base, s.capN = reflect.MakeSlice(t, want, want).UnsafePointer(), want
	}
	return s
}

// next returns where the next element goes; nil when a Go array is full
// (the element is counted, for the error endElems reports).
func (s *elemSlots) next() unsafe.Pointer {
	if s.kept >= s.capN {
		if s.fixed >= 0 {
			s.kept++
			return nil
		}
		grown := reflect.MakeSlice(s.t, max(2*s.capN, 4), max(2*s.capN, 4))
		reflect.Copy(grown, reflect.NewAt(s.t, unsafe.Pointer(&sliceHeader{s.base, s.capN, s.capN})).Elem())
		s.base, s.capN = grown.UnsafePointer(), grown.Len()
	}
	ep := unsafe.Add(s.base, uintptr(s.kept)*s.ec.size)
	s.kept++
	return ep
}

// endElems finishes the elements started at p: a Go array must have
// received exactly its length.
func (d *decodeState) endElems(s *elemSlots, off int, p unsafe.Pointer) error {
	d.hops = s.hops
	if s.fixed >= 0 {
		if s.kept != s.fixed {
			return d.semErr(off, variant.TypeArray, s.t, ErrTypeMismatch,
				"cannot unmarshal an Array of "+strconv.Itoa(s.kept)+" elements into "+s.t.String())
		}
		return nil
	}
	*(*sliceHeader)(p) = sliceHeader{Data: s.base, Len: s.kept, Cap: s.capN}
	return nil
}

// fillElems stores the elements of a into the Go slice or array at p.
func (d *decodeState) fillElems(t reflect.Type, ec *codec, a *variant.Array, off int, p unsafe.Pointer, fixed int) error {
	s := d.startElems(t, ec, p, fixed, len(a.Values))
	for i, e := range a.Values {
		ep := s.next()
		if ep == nil {
			continue
		}
		if err := ec.fill(d, e, off, ep); err != nil {
			d.hops = s.hops
			return elemErr(err, i, i)
		}
	}
	return d.endElems(&s, off, p)
}

// fillList stores v into the Go slice (fixed < 0) or array at p, of type
// t, whose own packed array type is pt.
func (d *decodeState) fillList(t reflect.Type, ec *codec, pt variant.Type, v variant.Value, off int, p unsafe.Pointer, fixed int) error {
	wt := variant.TypeOf(v)
	switch listCaseOf(wt, pt) {
	case listArray:
		return d.fillElems(t, ec, v.(*variant.Array), off, p, fixed)
	case listPacked:
		if fixed >= 0 {
			b := v.(variant.PackedByteArray)
			if err := d.byteArrayLen(off, len(b), t); err != nil {
				return err
			}
			copy(unsafe.Slice((*byte)(p), fixed), b)
			return nil
		}
		copyPacked(v, p)
		return nil
	case listNil:
		if fixed < 0 {
			*(*sliceHeader)(p) = sliceHeader{}
		}
		return nil
	case listOther:
		return d.fillElems(t, ec, packedToArray(v), off, p, fixed)
	}
	return d.mismatch(off, wt, t)
}

// byteArrayLen checks that a PackedByteArray of n bytes fits the Go array
// type t exactly.
func (d *decodeState) byteArrayLen(off, n int, t reflect.Type) error {
	if n != t.Len() {
		return d.semErr(off, variant.TypePackedByteArray, t, ErrTypeMismatch,
			"cannot unmarshal a PackedByteArray of "+strconv.Itoa(n)+" bytes into "+t.String())
	}
	return nil
}

// copyPacked stores the packed array v into the Go slice at p whose
// elements have the memory layout of v's (see packedOf).
func copyPacked(v variant.Value, p unsafe.Pointer) {
	switch x := v.(type) {
	case variant.PackedByteArray:
		copy(resize[byte](p, len(x)), x)
	case variant.PackedInt32Array:
		copy(resize[int32](p, len(x)), x)
	case variant.PackedInt64Array:
		copy(resize[int64](p, len(x)), x)
	case variant.PackedFloat32Array:
		copy(resize[float32](p, len(x)), x)
	case variant.PackedFloat64Array:
		copy(resize[float64](p, len(x)), x)
	case variant.PackedStringArray:
		copy(resize[string](p, len(x)), x)
	case variant.PackedVector2Array:
		copy(resize[variant.Vector2](p, len(x)), x)
	case variant.PackedVector3Array:
		copy(resize[variant.Vector3](p, len(x)), x)
	case variant.PackedColorArray:
		copy(resize[variant.Color](p, len(x)), x)
	case variant.PackedVector4Array:
		copy(resize[variant.Vector4](p, len(x)), x)
	}
}

// keyErr places an error in the i-th key of a Dictionary. (Out of line,
// so that the frames of nested decoders stay small.)
func keyErr(err error, i int) error {
	return prefix(err, variant.KeyIndexSeg(i), variant.KeyIndexSeg(i))
}

// nilKey refuses a Nil key (kwt) of the i-th entry of a Dictionary, at
// off, going into a Go map of type t whose keys cannot be nil: the zero
// value would be a key of its own.
func (d *decodeState) nilKey(t reflect.Type, kwt variant.Type, off, i int) error {
	if kwt == variant.TypeNil && !nilable(t.Key()) {
		return keyErr(d.mismatch(off, kwt, t.Key()), i)
	}
	return nil
}

// hashableKey refuses the key kv (of Variant type kwt) of the i-th entry
// of a Dictionary, at off, going into a Go map of type t, when it is a
// slice or a map, which a Go map cannot hold as a key.
func (d *decodeState) hashableKey(t reflect.Type, kv reflect.Value, kwt variant.Type, off, i int) error {
	if t.Key().Kind() == reflect.Interface && !kv.Comparable() {
		return prefix(d.semErr(off, kwt, t, ErrTypeMismatch,
			"cannot use a "+kv.Elem().Type().String()+" as a key of "+t.String()), variant.KeyIndexSeg(i), variant.KeyIndexSeg(i))
	}
	return nil
}

//go:noinline
func fillMap(c, kc, vc *codec) fillFunc {
	t := c.typ
	return func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error {
		dict, ok := v.(*variant.Dictionary)
		if !ok {
			if v == nil {
				*(*unsafe.Pointer)(p) = nil
				return nil
			}
			return d.mismatch(off, variant.TypeOf(v), t)
		}
		mv := reflect.NewAt(t, p).Elem()
		if mv.IsNil() {
			mv.Set(reflect.MakeMapWithSize(t, dict.Len()))
		}
		kv := reflect.New(t.Key()).Elem()
		vv := reflect.New(t.Elem()).Elem()
		kp, vp := kv.Addr().UnsafePointer(), vv.Addr().UnsafePointer()
		saved := d.hops
		d.hops = 0
		i := 0
		for k, e := range dict.All() {
			kv.SetZero()
			kwt := variant.TypeOf(k)
			if err := d.nilKey(t, kwt, off, i); err != nil {
				return err
			}
			if err := kc.fill(d, k, off, kp); err != nil {
				return keyErr(err, i)
			}
			if err := d.hashableKey(t, kv, kwt, off, i); err != nil {
				return err
			}
			vv.SetZero()
			if err := vc.fill(d, e, off, vp); err != nil {
				return prefix(err, goKeySeg(kv), variant.KeySeg(k))
			}
			mv.SetMapIndex(kv, vv)
			i++
		}
		d.hops = saved
		return nil
	}
}

// structKey is a Dictionary key read for a struct field, as the Variant
// path needs it.
type structKey struct {
	name       []byte
	stringName bool
	value      variant.Value // the key as stored, when the engine converted it
}

// structKeyOf returns the key k, a decoded Dictionary key, as a structKey,
// or false when it is not a String or StringName and names no field.
func structKeyOf(k variant.Value) (structKey, bool) {
	switch k := k.(type) {
	case variant.String:
		return structKey{name: []byte(k)}, true
	case variant.StringName:
		return structKey{name: []byte(k), stringName: true}, true
	}
	return structKey{}, false
}

func (k structKey) seg() string {
	switch {
	case k.value != nil:
		return variant.KeySeg(k.value)
	case k.stringName:
		return variant.KeySeg(variant.StringName(k.name))
	}
	return variant.KeySeg(variant.String(k.name))
}

// lookupField finds the field a key names: nil for a key that names none,
// or with RejectUnknownFields an error.
func (d *decodeState) lookupField(info *structInfo, t reflect.Type, key structKey, keyOff int) (*field, error) {
	if f := info.byName[string(key.name)]; f != nil {
		return f, nil
	}
	if d.rejectUnknown {
		return nil, d.semErr(keyOff, variant.TypeDictionary, t, ErrUnknownField,
			"unknown field "+strconv.Quote(string(key.name))+" for "+t.String())
	}
	return nil, nil
}

// fieldSlot returns the address of field f in the struct of type t at p,
// allocating embedded structs on the way.
func (d *decodeState) fieldSlot(f *field, t reflect.Type, p unsafe.Pointer, off int) (unsafe.Pointer, error) {
	fp, ok := f.fieldPtrAlloc(p)
	if !ok {
		return nil, d.semErr(off, variant.TypeUnknown, t, ErrUnsupportedType,
			"cannot set the field "+f.name+" through a nil pointer to an unexported embedded struct")
	}
	return fp, nil
}

// fieldErr places an error in the value of field f under key.
func fieldErr(err error, f *field, key structKey) error {
	seg := f.varSeg
	if key.stringName || key.value != nil {
		seg = key.seg()
	}
	return prefix(err, "."+f.name, seg)
}

//go:noinline
func fillStruct(c *codec, info *structInfo) fillFunc {
	t := c.typ
	return func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error {
		dict, ok := v.(*variant.Dictionary)
		if !ok {
			if v == nil {
				return nil
			}
			return d.mismatch(off, variant.TypeOf(v), t)
		}
		saved := d.hops
		d.hops = 0
		for k, e := range dict.All() {
			key, ok := structKeyOf(k)
			if !ok {
				return d.badKey(off, variant.TypeOf(k), t)
			}
			f, err := d.lookupField(info, t, key, off)
			if err != nil {
				return err
			}
			if f == nil {
				continue
			}
			fp, err := d.fieldSlot(f, t, p, off)
			if err != nil {
				return err
			}
			if err := f.codec.fill(d, e, off, fp); err != nil {
				return fieldErr(err, f, key)
			}
		}
		d.hops = saved
		return nil
	}
}

// fromPacked decodes a packed array into a Go slice or array of elements
// of another type, element by element.
func (d *decodeState) fromPacked(c *codec, off int, p unsafe.Pointer, depth int) (int, error) {
	v, next, err := d.Value(off, depth)
	if err != nil {
		return 0, err
	}
	return next, c.fill(d, v, off, p)
}

// packedNext is the offset after a PackedByteArray of n bytes at off.
func packedNext(off, n int) int { return off + 8 + n + wire.Pad4(n) }
