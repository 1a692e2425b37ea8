package gdvar

import (
	"errors"
	"reflect"
	"unsafe"

	"github.com/gdvar/gdvar/variant"
)

var mapStringAnyType = reflect.TypeFor[map[string]any]()

// errOtherKeys stops decoding a value naturally at a Dictionary with a key
// that is neither a String nor a StringName. Only naturalValue sees it.
var errOtherKeys = errors.New("gdvar: a Dictionary key that is not a string")

// naturalValue decodes the Variant at off into what an `any` receives.
// It decodes straight from the bytes; if a Dictionary inside has a key
// that is neither a String nor a StringName, it decodes the whole value
// again, once, through package variant. Falling back at that Dictionary
// alone and again at every enclosing one would decode a deep value once
// per level.
func (d *decodeState) naturalValue(off, depth int) (any, int, error) {
	elements := d.Elements()
	v, next, err := d.natural(off, depth)
	if err != errOtherKeys {
		return v, next, err
	}
	d.SetElements(elements)
	x, next, err := d.Value(off, depth)
	if err != nil {
		return nil, 0, err
	}
	return natural(x), next, nil
}

// natural decodes the Variant at off into what an `any` receives (see
// the package documentation): plain Go values straight from the bytes,
// and what has none (typed containers, most model types) through package
// variant. At a Dictionary with other keys it returns errOtherKeys.
//
// Untyped containers recurse through natural with a small stack frame, so
// that deep nesting keeps the stack small; naturalLeaf decodes the rest.
func (d *decodeState) natural(off, depth int) (any, int, error) {
	h, wt, err := d.Head(off, depth)
	if err != nil {
		return nil, 0, err
	}
	switch wt {
	case variant.TypeArray:
		if kind, _ := d.TypeKinds(h, wt); kind == 0 {
			return d.naturalArray(off, depth)
		}
	case variant.TypeDictionary:
		if kk, vk := d.TypeKinds(h, wt); kk|vk == 0 {
			return d.naturalDictionary(off, depth)
		}
	}
	return d.naturalLeaf(off, h, wt, depth)
}

// naturalLeaf decodes the Variant of type wt with header h at off that
// natural does not.
func (d *decodeState) naturalLeaf(off int, h uint32, wt variant.Type, depth int) (any, int, error) {
	switch wt {
	case variant.TypeNil:
		return nil, off + 4, nil
	case variant.TypeBool:
		v, next, err := d.Bool(off)
		if err != nil {
			return nil, 0, err
		}
		return v, next, nil
	case variant.TypeInt:
		v, next, err := d.Int(off, h)
		if err != nil {
			return nil, 0, err
		}
		return v, next, nil
	case variant.TypeFloat:
		v, next, err := d.Float(off, h)
		if err != nil {
			return nil, 0, err
		}
		return v, next, nil
	case variant.TypeString:
		if raw, next, ok := d.QuickStr(off + 4); ok && variant.PlainText(raw) {
			return string(raw), next, nil
		}
		s, next, err := d.Str(off+4, wt)
		if err != nil {
			return nil, 0, err
		}
		return string(s), next, nil
	case variant.TypeVector2, variant.TypeVector3:
		var c [3]float64
		next, err := d.Reals(off, h, wt, c[:variant.Facts(wt).Reals])
		if err != nil {
			return nil, 0, err
		}
		if wt == variant.TypeVector2 {
			return variant.Vector2{X: c[0], Y: c[1]}, next, nil
		}
		return variant.Vector3{X: c[0], Y: c[1], Z: c[2]}, next, nil
	case variant.TypeVector2i, variant.TypeVector3i, variant.TypeColor:
		var c [4]uint32
		n := variant.Facts(wt).Ints
		if wt == variant.TypeColor {
			n = 4
		}
		next, err := d.Words(off, wt, c[:n])
		if err != nil {
			return nil, 0, err
		}
		switch wt {
		case variant.TypeVector2i:
			return variant.Vector2i{X: int32(c[0]), Y: int32(c[1])}, next, nil
		case variant.TypeVector3i:
			return variant.Vector3i{X: int32(c[0]), Y: int32(c[1]), Z: int32(c[2])}, next, nil
		}
		return *(*variant.Color)(unsafe.Pointer(&c)), next, nil
	default:
		if dec := naturalPacked[wt]; dec != nil {
			return dec(d, off, h)
		}
	}
	v, next, err := d.Value(off, depth)
	if err != nil {
		return nil, 0, err
	}
	return natural(v), next, nil
}

// naturalPacked decodes each packed array type into its natural Go slice.
var naturalPacked = func() (m [variant.TypeCount]func(d *decodeState, off int, h uint32) (any, int, error)) {
	m[variant.TypePackedByteArray] = naturalSlice[byte](variant.TypePackedByteArray)
	m[variant.TypePackedInt32Array] = naturalSlice[int32](variant.TypePackedInt32Array)
	m[variant.TypePackedInt64Array] = naturalSlice[int64](variant.TypePackedInt64Array)
	m[variant.TypePackedFloat32Array] = naturalSlice[float32](variant.TypePackedFloat32Array)
	m[variant.TypePackedFloat64Array] = naturalSlice[float64](variant.TypePackedFloat64Array)
	m[variant.TypePackedStringArray] = naturalSlice[string](variant.TypePackedStringArray)
	m[variant.TypePackedVector2Array] = naturalSlice[variant.Vector2](variant.TypePackedVector2Array)
	m[variant.TypePackedVector3Array] = naturalSlice[variant.Vector3](variant.TypePackedVector3Array)
	m[variant.TypePackedColorArray] = naturalSlice[variant.Color](variant.TypePackedColorArray)
	m[variant.TypePackedVector4Array] = naturalSlice[variant.Vector4](variant.TypePackedVector4Array)
	return m
}()

func naturalSlice[T any](pt variant.Type) func(d *decodeState, off int, h uint32) (any, int, error) {
	dec := packedDecoder(pt)
	return func(d *decodeState, off int, h uint32) (any, int, error) {
		var s []T
		next, err := dec(d, off, h, unsafe.Pointer(&s))
		if err != nil {
			return nil, 0, err
		}
		return s, next, nil
	}
}

// naturalArray decodes an untyped Array at off into []any.
func (d *decodeState) naturalArray(off, depth int) (any, int, error) {
	q := off + 4
	n, err := d.ContainerCount(off, q, variant.TypeArray)
	if err != nil {
		return nil, 0, err
	}
	q += 4
	out := make([]any, 0, d.Reserve(int64(min(n, max(len(d.b)-q, 0)/4))))
	for i := range n {
		v, next, err := d.natural(q, depth+1)
		if err != nil {
			return nil, 0, elemErr(err, i, i)
		}
		out = append(out, v)
		q = next
	}
	return out, q, nil
}

// naturalDictionary decodes an untyped Dictionary at off into
// map[string]any; at a key that is neither a String nor a StringName it
// returns errOtherKeys.
func (d *decodeState) naturalDictionary(off, depth int) (any, int, error) {
	q := off + 4
	n, err := d.ContainerCount(off, q, variant.TypeDictionary)
	if err != nil {
		return nil, 0, err
	}
	q += 4
	m := make(map[string]any, d.Reserve(int64(min(n, max(len(d.b)-q, 0)/8))))
	next, err := d.naturalEntries(q, n, depth, m, nil)
	if err != nil {
		return nil, 0, err
	}
	return m, next, nil
}

// naturalEntries decodes the n entries of an untyped Dictionary at q into
// m. At a key that is neither a String nor a StringName it returns
// errOtherKeys, or with a target type (m is then the value being decoded,
// and its values are each decoded by naturalValue) fails.
func (d *decodeState) naturalEntries(q, n, depth int, m map[string]any, target reflect.Type) (int, error) {
	for i := range n {
		keyOff := q
		_, kwt, err := d.Head(q, depth+1)
		if err != nil {
			return 0, keyErr(err, i)
		}
		if kwt != variant.TypeString && kwt != variant.TypeStringName {
			if target == nil {
				return 0, errOtherKeys
			}
			return 0, keyErr(d.mismatch(keyOff, kwt, target.Key()), i)
		}
		s, next, err := d.Str(q+4, kwt)
		if err != nil {
			return 0, keyErr(err, i)
		}
		key := d.intern(s)
		var v any
		if target == nil {
			v, next, err = d.natural(next, depth+1)
		} else {
			v, next, err = d.naturalValue(next, depth+1)
		}
		if err != nil {
			return 0, entryErr(err, key, kwt)
		}
		m[key] = v
		q = next
	}
	return q, nil
}

// entryErr places an error in the value of the entry with the String or
// StringName (kwt) key. (Out of line, so that the frames of nested
// decoders stay small.)
func entryErr(err error, key string, kwt variant.Type) error {
	k := variant.Value(variant.String(key))
	if kwt == variant.TypeStringName {
		k = variant.StringName(key)
	}
	return prefix(err, variant.KeySeg(variant.String(key)), variant.KeySeg(k))
}

// maxInternLen and maxInterned bound the cache of Dictionary key strings.
const (
	maxInternLen = 64
	maxInterned  = 1024
)

// intern returns b as a string, shared with the earlier keys of the same
// bytes: one allocation for all the "name" keys of an array of records.
func (d *decodeState) intern(b []byte) string {
	if len(b) > maxInternLen {
		return string(b)
	}
	if s, ok := d.keys[string(b)]; ok {
		return s
	}
	s := string(b)
	if len(d.keys) < maxInterned {
		if d.keys == nil {
			d.keys = make(map[string]string)
		}
		d.keys[s] = s
	}
	return s
}

// natural turns a decoded Value into what Unmarshal stores in an `any`:
// the natural Go value where there is one (nil, bool, int64, float64,
// string, []any, map[string]any, []byte, []int32, …), else the model value
// itself (StringName, NodePath, Vector2, *Object, …). A Dictionary with a
// key that is neither a String nor a StringName stays a *variant.Dictionary.
func natural(v variant.Value) any {
	switch x := v.(type) {
	case nil:
		return nil
	case variant.Bool:
		return bool(x)
	case variant.Int:
		return int64(x)
	case variant.Float:
		return float64(x)
	case variant.String:
		return string(x)
	case *variant.Array:
		out := make([]any, x.Len())
		for i, e := range x.Values {
			out[i] = natural(e)
		}
		return out
	case *variant.Dictionary:
		for k := range x.All() {
			switch k.(type) {
			case variant.String, variant.StringName:
			default:
				return x
			}
		}
		out := make(map[string]any, x.Len())
		for k, e := range x.All() {
			switch k := k.(type) {
			case variant.String:
				out[string(k)] = natural(e)
			case variant.StringName:
				out[string(k)] = natural(e)
			}
		}
		return out
	case variant.PackedByteArray:
		return []byte(x)
	case variant.PackedInt32Array:
		return []int32(x)
	case variant.PackedInt64Array:
		return []int64(x)
	case variant.PackedFloat32Array:
		return []float32(x)
	case variant.PackedFloat64Array:
		return []float64(x)
	case variant.PackedStringArray:
		return []string(x)
	case variant.PackedVector2Array:
		return []variant.Vector2(x)
	case variant.PackedVector3Array:
		return []variant.Vector3(x)
	case variant.PackedColorArray:
		return []variant.Color(x)
	case variant.PackedVector4Array:
		return []variant.Vector4(x)
	}
	return v
}
