package gdvar

import (
	"reflect"
	"sync"
	"unsafe"

	"github.com/gdvar/gdvar/internal/textchunk"
	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// Unmarshaler is implemented by types that unmarshal themselves: they get
// the Variant decoded by package variant (nil for Nil). Unmarshal calls
// the method through a pointer, so a pointer receiver works.
type Unmarshaler interface {
	UnmarshalVariant(v variant.Value) error
}

// decodeState is the state of one Unmarshal call: the Reader of the
// input, and what only filling Go values needs.
type decodeState struct {
	variant.Reader
	b             []byte // the input, as the Reader has it
	fam           variant.Family
	maxDepth      int
	rejectUnknown bool
	hops          int
	keys          map[string]string // Dictionary key strings, interned
	chunks        textchunk.Chunks  // string fields, past the first elements
	scratch       sliceHeader
}

var decodeStates = sync.Pool{New: func() any { return new(decodeState) }}

// Unmarshal decodes the Variant at the start of data into the value v
// points to. Bytes after the value are ignored, as the engine ignores them.
// v must be a non-nil pointer.
//
// Unmarshal accepts and refuses the same bytes as variant.Decode: when the
// data is malformed, the error wraps the very *variant.Error that
// variant.Decode reports, whatever the target. Otherwise it fails only
// when a value does not fit its Go destination (ErrTypeMismatch,
// ErrOverflow, ErrUnknownField, …). On error the target may have been
// partly filled.
//
// Like encoding/json, Unmarshal fills existing values: a struct keeps the
// fields the Dictionary does not name, a map keeps its other entries, a
// slice reuses its backing array, and a pointer already set is followed.
// Nil sets pointers, interfaces, slices and maps to nil and leaves other
// values alone.
func (m *DecMode) Unmarshal(data []byte, v any) error {
	_, err := m.UnmarshalFirst(data, v)
	return err
}

// UnmarshalFirst is Unmarshal that also returns the number of bytes the
// value used, as variant's Decode does.
func (m *DecMode) UnmarshalFirst(data []byte, v any) (int, error) {
	rv := reflect.ValueOf(v)
	if err := checkTarget(rv, v); err != nil {
		return 0, err
	}
	o := &m.opts
	if o.MaxSize > 0 && len(data) > o.MaxSize || o.Strict {
		// The whole input's checks come first, exactly as variant makes them.
		if _, _, err := m.vmode.Decode(data); err != nil {
			if ve, ok := err.(*variant.Error); ok {
				return 0, wireError("unmarshal", ve)
			}
			return 0, err
		}
	}
	c := codecFor(rv.Type().Elem())
	d := decodeStates.Get().(*decodeState)
	keys := d.keys
	clear(keys)
	*d = decodeState{
		Reader: m.vmode.Reader(data),
		keys:   keys,
		b:      data, fam: o.Family, maxDepth: o.MaxDepth, rejectUnknown: o.RejectUnknownFields,
	}
	next, err := c.dec(d, 0, rv.UnsafePointer(), 0)
	*d = decodeState{keys: d.keys}
	decodeStates.Put(d)
	if err != nil {
		err = asError(err)
		if e, ok := err.(*Error); !ok || !e.wire {
			// A value that does not fit: if the bytes are malformed
			// anywhere, that is the error, as for variant.Decode.
			if _, _, verr := m.vmode.Decode(data); verr != nil {
				if ve, ok := verr.(*variant.Error); ok {
					err = wireError("unmarshal", ve)
				}
			}
		}
		return 0, finish(err)
	}
	return min(next, len(data)), nil
}

// mismatch reports a Variant of type t that cannot go into Go type gt.
func (d *decodeState) mismatch(off int, t variant.Type, gt reflect.Type) error {
	return &Error{Op: "unmarshal", Offset: off, Type: t, GoType: gt, Err: ErrTypeMismatch, fam: d.fam,
		Detail: "cannot unmarshal " + typeName(d.fam, t) + " into " + gt.String()}
}

func (d *decodeState) semErr(off int, t variant.Type, gt reflect.Type, err error, detail string) error {
	return &Error{Op: "unmarshal", Offset: off, Type: t, GoType: gt, Err: err, Detail: detail, fam: d.fam}
}

// unsupported reports a Go type with no Variant form.
func (d *decodeState) unsupported(off int, wt variant.Type, t reflect.Type) error {
	return d.semErr(off, wt, t, ErrUnsupportedType, "cannot unmarshal into "+t.String())
}

func decUnsupported(t reflect.Type) decFunc {
	return func(d *decodeState, off int, _ unsafe.Pointer, depth int) (int, error) {
		_, wt, err := d.Head(off, depth)
		if err != nil {
			return 0, err
		}
		return 0, d.unsupported(off, wt, t)
	}
}

func decUnmarshaler(t reflect.Type) decFunc {
	return func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		v, next, err := d.Value(off, depth)
		if err != nil {
			return 0, err
		}
		return next, d.unmarshalVariant(t, v, off, p)
	}
}

func (bd *builder) modelDecoder(c *codec, vt variant.Type) {
	t := c.typ
	if l, ok := mathLayouts[vt]; ok {
		if variant.Facts(vt).Reals > 0 {
			c.dec = decReals(t, l)
		} else {
			c.dec = decInt32s(t, l) // Color's float32 components are copied as bits
		}
		c.fill = fillModel(t)
		return
	}
	switch vt {
	case variant.TypeStringName:
		c.dec, c.fill = scalarCodec(putString(t))
		return
	case variant.TypePackedByteArray, variant.TypePackedInt32Array, variant.TypePackedInt64Array,
		variant.TypePackedFloat32Array, variant.TypePackedFloat64Array, variant.TypePackedStringArray,
		variant.TypePackedVector2Array, variant.TypePackedVector3Array, variant.TypePackedColorArray,
		variant.TypePackedVector4Array:
		bd.sliceDecoder(c)
		return
	}
	c.dec = func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		v, next, err := d.Value(off, depth)
		if err != nil {
			return 0, err
		}
		return next, d.assign(off, t, p, v)
	}
	c.fill = fillModel(t)
}

// assign stores a decoded model Value into a Go value of model type t.
func (d *decodeState) assign(off int, t reflect.Type, p unsafe.Pointer, v variant.Value) error {
	target := reflect.NewAt(t, p).Elem()
	if v == nil {
		if t.Kind() == reflect.Pointer {
			target.SetZero()
		}
		return nil
	}
	rv := reflect.ValueOf(v)
	switch rv.Type() {
	case t:
		target.Set(rv)
	case reflect.PointerTo(t):
		target.Set(rv.Elem())
	default:
		return d.mismatch(off, variant.TypeOf(v), t)
	}
	return nil
}

//go:noinline
func decReals(t reflect.Type, l *mathLayout) decFunc {
	n := len(l.offs)
	return func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		h, wt, ok := d.QuickHead(off, depth)
		if !ok {
			var err error
			if h, wt, err = d.Head(off, depth); err != nil {
				return 0, err
			}
		}
		if wt != l.t {
			if wt == variant.TypeNil {
				return off + 4, nil
			}
			return 0, d.mismatch(off, wt, t)
		}
		var c [16]float64
		next, err := d.Reals(off, h, wt, c[:n])
		if err != nil {
			return 0, err
		}
		for i, o := range l.offs {
			*(*float64)(unsafe.Add(p, o)) = c[i]
		}
		return next, nil
	}
}

// decInt32s reads integer vectors, and Color (float32 components copied as
// bits).
func decInt32s(t reflect.Type, l *mathLayout) decFunc {
	n := len(l.offs)
	return func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		_, wt, err := d.Head(off, depth)
		if err != nil {
			return 0, err
		}
		if wt != l.t {
			if wt == variant.TypeNil {
				return off + 4, nil
			}
			return 0, d.mismatch(off, wt, t)
		}
		var c [4]uint32
		next, err := d.Words(off, wt, c[:n])
		if err != nil {
			return 0, err
		}
		for i, o := range l.offs {
			*(*uint32)(unsafe.Add(p, o)) = c[i]
		}
		return next, nil
	}
}

func decPointer(t reflect.Type, ec *codec) decFunc {
	return func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		_, wt, err := d.Head(off, depth)
		if err != nil {
			return 0, err
		}
		elem, err := d.pointerSlot(t, p, off, wt)
		if err != nil {
			return 0, err
		}
		if elem == nil {
			return off + 4, nil
		}
		next, err := ec.dec(d, off, elem, depth)
		d.hops--
		return next, err
	}
}

func decInterface(t reflect.Type) decFunc {
	if t == valueType {
		return func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
			v, next, err := d.Value(off, depth)
			if err != nil {
				return 0, err
			}
			*(*variant.Value)(p) = v
			return next, nil
		}
	}
	if t.NumMethod() == 0 {
		return func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
			if *(*any)(p) != nil {
				if ptr, ok := ifaceTarget(t, p); ok {
					_, wt, err := d.Head(off, depth)
					if err != nil {
						return 0, err
					}
					if wt != variant.TypeNil {
						return d.into(ptr, off, depth)
					}
				}
			}
			v, next, err := d.naturalValue(off, depth)
			if err != nil {
				return 0, err
			}
			*(*any)(p) = v
			return next, nil
		}
	}
	return func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		_, wt, err := d.Head(off, depth)
		if err != nil {
			return 0, err
		}
		if wt == variant.TypeNil {
			reflect.NewAt(t, p).Elem().SetZero()
			return off + 4, nil
		}
		if ptr, ok := ifaceTarget(t, p); ok {
			return d.into(ptr, off, depth)
		}
		return 0, d.mismatch(off, wt, t)
	}
}

// into decodes into the value ptr points to.
func (d *decodeState) into(ptr reflect.Value, off, depth int) (int, error) {
	d.hops++
	if d.hops > maxHops {
		return 0, d.semErr(off, variant.TypeUnknown, ptr.Type(), ErrUnsupportedType, "a cycle of pointers or interfaces")
	}
	next, err := codecFor(ptr.Type().Elem()).dec(d, off, ptr.UnsafePointer(), depth)
	d.hops--
	return next, err
}

// conformed applies a typed container's rule (of type ct) to one of its
// elements (or keys) that is not of its type: the element at q, nested
// depth+1 deep, read and checked already. It returns the element as the
// engine converts it, or false when the engine drops it.
func (d *decodeState) conformed(ct variant.ContainerType, q, depth int) (variant.Value, bool, error) {
	v, _, err := d.Reread(q, depth+1)
	if err != nil {
		return nil, false, err
	}
	v, ok := variant.Conform(v, ct)
	return v, ok, nil
}

func (bd *builder) sliceDecoder(c *codec) {
	t := c.typ
	ec := bd.get(t.Elem())
	elems := decElems(c, ec)
	pt, _ := packedOf(t.Elem())
	var exact func(d *decodeState, off int, h uint32, p unsafe.Pointer) (int, error)
	if pt != variant.TypeNil {
		exact = packedDecoder(pt)
	}
	c.dec = func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		h, wt, err := d.Head(off, depth)
		if err != nil {
			return 0, err
		}
		switch listCaseOf(wt, pt) {
		case listArray:
			return elems(d, off, h, p, -1, depth)
		case listPacked:
			return exact(d, off, h, p)
		case listNil:
			*(*sliceHeader)(p) = sliceHeader{}
			return off + 4, nil
		case listOther:
			return d.fromPacked(c, off, p, depth)
		}
		return 0, d.mismatch(off, wt, t)
	}
	c.fill = func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error {
		return d.fillList(t, ec, pt, v, off, p, -1)
	}
}

// resize returns the slice at p with length n, reusing its array when it
// has room.
func resize[T any](p unsafe.Pointer, n int) []T {
	s := (*[]T)(p)
	if cap(*s) >= n && *s != nil {
		*s = (*s)[:n]
	} else {
		*s = make([]T, n)
	}
	return *s
}

// numericPacked decodes a packed array of fixed-size numbers of type pt
// into a []T, filling it with fill.
func numericPacked[T wire.Number](pt variant.Type, fill func([]T, []byte)) func(d *decodeState, off int, h uint32, p unsafe.Pointer) (int, error) {
	size := int(unsafe.Sizeof(T(0)))
	return func(d *decodeState, off int, _ uint32, p unsafe.Pointer) (int, error) {
		n, err := d.Count(off, off+4, pt, size)
		if err != nil {
			return 0, err
		}
		fill(resize[T](p, n), d.b[off+8:])
		return off + 8 + size*n, nil
	}
}

// packedDecoder returns the decoder of packed arrays of type pt into the
// Go slices that are their natural form.
func packedDecoder(pt variant.Type) func(d *decodeState, off int, h uint32, p unsafe.Pointer) (int, error) {
	switch pt {
	case variant.TypePackedByteArray:
		return func(d *decodeState, off int, _ uint32, p unsafe.Pointer) (int, error) {
			n, err := d.Count(off, off+4, pt, 1)
			if err != nil {
				return 0, err
			}
			copy(resize[byte](p, n), d.b[off+8:])
			return off + 8 + n + wire.Pad4(n), nil
		}
	case variant.TypePackedInt32Array:
		return numericPacked(pt, wire.Int32s)
	case variant.TypePackedInt64Array:
		return numericPacked(pt, wire.Int64s)
	case variant.TypePackedFloat32Array:
		return numericPacked(pt, wire.Float32s)
	case variant.TypePackedFloat64Array:
		return numericPacked(pt, wire.Float64s)
	case variant.TypePackedColorArray:
		return func(d *decodeState, off int, _ uint32, p unsafe.Pointer) (int, error) {
			n, err := d.Count(off, off+4, pt, 16)
			if err != nil {
				return 0, err
			}
			s := resize[variant.Color](p, n)
			if n > 0 {
				wire.Float32s(unsafe.Slice(&s[0].R, 4*n), d.b[off+8:])
			}
			return off + 8 + 16*n, nil
		}
	case variant.TypePackedStringArray:
		return func(d *decodeState, off int, _ uint32, p unsafe.Pointer) (int, error) {
			n, err := d.StringsCount(off, off+4)
			if err != nil {
				return 0, err
			}
			q := off + 8
			s := (*[]string)(p)
			out := (*s)[:0]
			if out == nil {
				out = make([]string, 0, d.Reserve(min(int64(n), int64(max(len(d.b)-q, 0)/4))))
			}
			for i := range n {
				v, next, err := d.Str(q, pt)
				if err != nil {
					return 0, prefix(err, variant.IndexSeg(int(i)), variant.IndexSeg(int(i)))
				}
				out = append(out, string(v))
				q = next
			}
			*s = out
			return q, nil
		}
	case variant.TypePackedVector2Array:
		return packedReals[variant.Vector2](pt)
	case variant.TypePackedVector3Array:
		return packedReals[variant.Vector3](pt)
	case variant.TypePackedVector4Array:
		return packedReals[variant.Vector4](pt)
	}
	return nil
}

// packedReals decodes a packed array of real vectors into a slice of V.
func packedReals[V variant.Vector2 | variant.Vector3 | variant.Vector4](pt variant.Type) func(d *decodeState, off int, h uint32, p unsafe.Pointer) (int, error) {
	comps := variant.Facts(pt).Comps
	return func(d *decodeState, off int, h uint32, p unsafe.Pointer) (int, error) {
		esize := d.ElemSize(h, pt)
		wide := esize > 4*comps
		n, err := d.Count(off, off+4, pt, esize)
		if err != nil {
			return 0, err
		}
		s := resize[V](p, n)
		if n == 0 {
			return off + 8, nil
		}
		dst := unsafe.Slice((*float64)(unsafe.Pointer(&s[0])), comps*n)
		src := d.b[off+8:]
		if wide {
			wire.Float64s(dst, src)
		} else {
			for i := range dst {
				dst[i] = float64(wire.F32(src[4*i:]))
			}
		}
		return off + 8 + esize*n, nil
	}
}

// decElems returns the decoder of an Array (header h at off) into a slice
// (fixed < 0) or into a Go array of fixed elements, at p.
//
//go:noinline
func decElems(c, ec *codec) func(d *decodeState, off int, h uint32, p unsafe.Pointer, fixed, depth int) (int, error) {
	t := c.typ
	return func(d *decodeState, off int, h uint32, p unsafe.Pointer, fixed, depth int) (int, error) {
		var ct variant.ContainerType
		var err error
		n, q, ok := d.QuickContainerHead(off, h)
		if !ok {
			if ct, n, q, err = d.ArrayHead(off, h); err != nil {
				return 0, err
			}
		}
		q += 4
		typed := ct.IsTyped()
		want := 0
		if fixed < 0 {
			// No count reserves more than the bytes left could hold (4
			// bytes an element at least).
			want = d.Reserve(int64(min(n, max(len(d.b)-q, 0)/4)))
		}
		s := d.startElems(t, ec, p, fixed, want)
		for i := range n {
			var next int
			if typed {
				var done bool
				if next, done, err = d.typedElem(ct, &s, q, i, depth); err != nil {
					return 0, err
				}
				if done {
					q = next
					continue
				}
			}
			kept := s.kept
			if ep := s.next(); ep != nil {
				next, err = ec.dec(d, q, ep, depth+1)
			} else {
				// More elements than the Go array holds: check them,
				// then fail.
				next, _, _, err = d.Skip(q, depth+1)
			}
			if err != nil {
				return 0, elemErr(err, kept, i)
			}
			q = next
		}
		return q, d.endElems(&s, off, p)
	}
}

// elemErr places an error in the element of a Go slice or array at kept,
// the i-th of the Array. (Out of line, so that the frames of nested
// decoders stay small.)
func elemErr(err error, kept, i int) error {
	return prefix(err, variant.IndexSeg(kept), variant.IndexSeg(i))
}

// typedElem handles the i-th element, at q, of a typed Array of element
// type ct nested depth deep, going into s: when it is not of the Array's
// type, it stores what the engine converts it to (or drops it, as the
// engine does) and reports done, with the offset after it.
func (d *decodeState) typedElem(ct variant.ContainerType, s *elemSlots, q, i, depth int) (int, bool, error) {
	_, wt, err := d.Head(q, depth+1)
	if err != nil {
		return 0, false, elemErr(err, s.kept, i)
	}
	if exact(wt, ct) {
		return 0, false, nil
	}
	next, _, _, err := d.Skip(q, depth+1)
	if err != nil {
		return 0, false, elemErr(err, s.kept, i)
	}
	v, ok, err := d.conformed(ct, q, depth)
	if err != nil {
		return 0, false, elemErr(err, s.kept, i)
	}
	if ok {
		kept := s.kept
		if ep := s.next(); ep != nil {
			if err := s.ec.fill(d, v, q, ep); err != nil {
				return 0, false, elemErr(err, kept, i)
			}
		}
	}
	return next, true, nil
}

// clearElems zeroes the first n elements of codec ec at base, in a slice
// of type t, with the write barriers the garbage collector needs when they
// hold pointers.
func (d *decodeState) clearElems(t reflect.Type, ec *codec, base unsafe.Pointer, n int) {
	if !ec.pointers {
		clear(unsafe.Slice((*byte)(base), uintptr(n)*ec.size))
		return
	}
	d.scratch = sliceHeader{base, n, n}
	reflect.NewAt(t, unsafe.Pointer(&d.scratch)).Elem().Clear()
	d.scratch = sliceHeader{}
}

func (bd *builder) arrayDecoder(c *codec) {
	t := c.typ
	n := t.Len()
	ec := bd.get(t.Elem())
	elems := decElems(c, ec)
	pt := variant.TypeNil // a Go array of bytes takes a PackedByteArray of its length
	if t.Elem().Kind() == reflect.Uint8 && plainKind(t.Elem()) {
		pt = variant.TypePackedByteArray
	}
	c.fill = func(d *decodeState, v variant.Value, off int, p unsafe.Pointer) error {
		return d.fillList(t, ec, pt, v, off, p, n)
	}
	c.dec = func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		h, wt, err := d.Head(off, depth)
		if err != nil {
			return 0, err
		}
		switch listCaseOf(wt, pt) {
		case listArray:
			return elems(d, off, h, p, n, depth)
		case listPacked:
			m, err := d.Count(off, off+4, wt, 1)
			if err != nil {
				return 0, err
			}
			if err := d.byteArrayLen(off, m, t); err != nil {
				return 0, err
			}
			copy(unsafe.Slice((*byte)(p), n), d.b[off+8:])
			return packedNext(off, m), nil
		case listNil:
			return off + 4, nil
		case listOther:
			return d.fromPacked(c, off, p, depth)
		}
		return 0, d.mismatch(off, wt, t)
	}
}

// nilable reports whether a Go value of type t can be nil.
func nilable(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface, reflect.Map, reflect.Slice, reflect.Chan, reflect.Func:
		return true
	}
	return false
}
