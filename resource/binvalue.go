package resource

import (
	"encoding/binary"
	"math"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// The object kinds of a VARIANT_OBJECT value in a binary resource file.
const (
	objEmpty         = 0 // a null object
	objExtPath       = 1 // the first format's external resource: type and path
	objInternal      = 2 // a sub-resource, by index
	objExternalIndex = 3 // an external resource, by index in the table
)

// maxDepth bounds the nesting of values, as variant's decoder does.
const maxDepth = variant.DefaultMaxDepth

// binReader reads the binary form. Every read checks the bounds; counts
// are checked against the bytes left before anything is allocated, so
// that work and memory stay proportional to the file's size.
type binReader struct {
	b      []byte
	off    int
	order  binary.ByteOrder
	real64 bool // reals are doubles
	g3     bool // Godot 3: loose UTF-8
	v3     bool // format version < 3: NodePaths carry an extra subname
	strs   []string
	subs   []string // ids of the internal resources by index (named ids)
	named  bool
	nExt   int
	what   string
}

func (r *binReader) fail(err error, detail string) error {
	return errAt(int64(r.off), r.what, err, detail)
}

func (r *binReader) need(n int) error {
	if n < 0 || n > len(r.b)-r.off {
		return r.fail(ErrTruncated, "need "+strconv.Itoa(n)+" bytes, "+strconv.Itoa(len(r.b)-r.off)+" left")
	}
	return nil
}

func (r *binReader) u32() (uint32, error) {
	if err := r.need(4); err != nil {
		return 0, err
	}
	v := r.order.Uint32(r.b[r.off:])
	r.off += 4
	return v, nil
}

func (r *binReader) u16() (uint16, error) {
	if err := r.need(2); err != nil {
		return 0, err
	}
	v := r.order.Uint16(r.b[r.off:])
	r.off += 2
	return v, nil
}

func (r *binReader) u64() (uint64, error) {
	if err := r.need(8); err != nil {
		return 0, err
	}
	v := r.order.Uint64(r.b[r.off:])
	r.off += 8
	return v, nil
}

func (r *binReader) real() (float64, error) {
	if r.real64 {
		v, err := r.u64()
		return math.Float64frombits(v), err
	}
	v, err := r.u32()
	return float64(math.Float32frombits(v)), err
}

// count reads a count of elements of at least each bytes apiece and checks
// that the bytes left can hold them.
func (r *binReader) count(each int, mask uint32) (int, error) {
	n, err := r.u32()
	if err != nil {
		return 0, err
	}
	n &= mask
	if uint64(n)*uint64(each) > uint64(len(r.b)-r.off) {
		r.off -= 4
		return 0, r.fail(ErrCorrupt, "count "+strconv.FormatUint(uint64(n), 10)+" needs more bytes than the file has left")
	}
	return int(n), nil
}

// str reads a length-prefixed string (length counting a final NUL).
func (r *binReader) str() (string, error) {
	n, err := r.u32()
	if err != nil {
		return "", err
	}
	return r.strBody(int(n & 0x7fffffff))
}

func (r *binReader) strBody(n int) (string, error) {
	if err := r.need(n); err != nil {
		return "", err
	}
	raw := r.b[r.off : r.off+n]
	r.off += n
	for i, c := range raw {
		if c == 0 {
			raw = raw[:i]
			break
		}
	}
	if r.g3 {
		s, _ := variant.DecodeStringGodot3(raw)
		return s, nil
	}
	return string(raw), nil
}

// tableStr reads a string of a NodePath: an index into the string table,
// or with bit 31 set the length of a string that follows.
func (r *binReader) tableStr() (string, error) {
	id, err := r.u32()
	if err != nil {
		return "", err
	}
	if id&0x80000000 != 0 {
		return r.strBody(int(id & 0x7fffffff))
	}
	if int64(id) >= int64(len(r.strs)) {
		r.off -= 4
		return "", r.fail(ErrCorrupt, "string index "+strconv.FormatUint(uint64(id), 10)+" past the string table ("+strconv.Itoa(len(r.strs))+")")
	}
	return r.strs[id], nil
}

func (r *binReader) reals(n int) ([]float64, error) {
	size := 4
	if r.real64 {
		size = 8
	}
	if err := r.need(n * size); err != nil {
		return nil, err
	}
	out := make([]float64, n)
	for i := range out {
		out[i], _ = r.real()
	}
	return out, nil
}

// value reads one value.
func (r *binReader) value(depth int) (variant.Value, error) {
	if depth > maxDepth {
		return nil, r.fail(ErrCorrupt, "nesting deeper than "+strconv.Itoa(maxDepth))
	}
	start := r.off
	tag32, err := r.u32()
	if err != nil {
		return nil, err
	}
	tag := variant.ResourceTag(tag32)
	switch tag {
	case variant.ResTagInt64:
		v, err := r.u64()
		return variant.Int(int64(v)), err
	case variant.ResTagDouble:
		v, err := r.u64()
		return variant.Float(math.Float64frombits(v)), err
	}
	t, ok := variant.TypeFromResourceTag(tag)
	if !ok || (r.g3 && tag > variant.ResTagDouble) {
		r.off = start
		return nil, r.fail(ErrCorrupt, "unknown type tag "+strconv.FormatUint(uint64(tag32), 10))
	}
	facts := variant.Facts(t)
	switch {
	case facts.Reals > 0:
		c, err := r.reals(facts.Reals)
		if err != nil {
			return nil, err
		}
		return variant.MathValue(t, c), nil
	case facts.Ints > 0 || facts.Floats > 0:
		n := facts.Ints + facts.Floats
		if err := r.need(4 * n); err != nil {
			return nil, err
		}
		c := make([]float64, n)
		for i := range c {
			w, _ := r.u32()
			if facts.Ints > 0 {
				c[i] = float64(int32(w))
			} else {
				c[i] = float64(math.Float32frombits(w))
			}
		}
		return variant.MathValue(t, c), nil
	}
	switch t {
	case variant.TypeNil:
		return nil, nil
	case variant.TypeBool:
		v, err := r.u32()
		return variant.Bool(v != 0), err
	case variant.TypeInt:
		v, err := r.u32()
		return variant.Int(int32(v)), err
	case variant.TypeFloat:
		v, err := r.real()
		return variant.Float(v), err
	case variant.TypeString:
		s, err := r.str()
		return variant.String(s), err
	case variant.TypeStringName:
		s, err := r.str()
		return variant.StringName(s), err
	case variant.TypeNodePath:
		return r.nodePath()
	case variant.TypeRID:
		v, err := r.u32()
		return variant.RID(v), err
	case variant.TypeCallable:
		return variant.Callable{}, nil
	case variant.TypeSignal:
		return variant.Signal{}, nil
	case variant.TypeObject:
		return r.object()
	case variant.TypeDictionary:
		n, err := r.count(8, 0x7fffffff)
		if err != nil {
			return nil, err
		}
		d := variant.NewDictionary(n)
		for range n {
			k, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			v, err := r.value(depth + 1)
			if err != nil {
				return nil, err
			}
			d.Set(k, v)
		}
		return d, nil
	case variant.TypeArray:
		n, err := r.count(4, 0x7fffffff)
		if err != nil {
			return nil, err
		}
		a := &variant.Array{Values: make([]variant.Value, n)}
		for i := range n {
			if a.Values[i], err = r.value(depth + 1); err != nil {
				return nil, err
			}
		}
		return a, nil
	case variant.TypePackedByteArray:
		n, err := r.count(1, 0xffffffff)
		if err != nil {
			return nil, err
		}
		v := variant.PackedByteArray(append([]byte{}, r.b[r.off:r.off+n]...))
		r.off += n
		if pad := (4 - n%4) % 4; pad > 0 {
			if err := r.need(pad); err != nil {
				return nil, err
			}
			r.off += pad
		}
		return v, nil
	case variant.TypePackedInt32Array:
		n, err := r.count(4, 0xffffffff)
		if err != nil {
			return nil, err
		}
		v := make(variant.PackedInt32Array, n)
		for i := range v {
			w, _ := r.u32()
			v[i] = int32(w)
		}
		return v, nil
	case variant.TypePackedInt64Array:
		n, err := r.count(8, 0xffffffff)
		if err != nil {
			return nil, err
		}
		v := make(variant.PackedInt64Array, n)
		for i := range v {
			w, _ := r.u64()
			v[i] = int64(w)
		}
		return v, nil
	case variant.TypePackedFloat32Array:
		if r.g3 && r.real64 {
			n, err := r.count(8, 0xffffffff)
			if err != nil {
				return nil, err
			}
			v := make(variant.PackedFloat32Array, n)
			for i := range v {
				f, _ := r.real()
				v[i] = float32(f)
			}
			return v, nil
		}
		n, err := r.count(4, 0xffffffff)
		if err != nil {
			return nil, err
		}
		v := make(variant.PackedFloat32Array, n)
		for i := range v {
			w, _ := r.u32()
			v[i] = math.Float32frombits(w)
		}
		return v, nil
	case variant.TypePackedFloat64Array:
		n, err := r.count(8, 0xffffffff)
		if err != nil {
			return nil, err
		}
		v := make(variant.PackedFloat64Array, n)
		for i := range v {
			w, _ := r.u64()
			v[i] = math.Float64frombits(w)
		}
		return v, nil
	case variant.TypePackedStringArray:
		n, err := r.count(4, 0xffffffff)
		if err != nil {
			return nil, err
		}
		v := make(variant.PackedStringArray, n)
		for i := range v {
			if v[i], err = r.str(); err != nil {
				return nil, err
			}
		}
		return v, nil
	case variant.TypePackedColorArray:
		n, err := r.count(16, 0xffffffff)
		if err != nil {
			return nil, err
		}
		v := make(variant.PackedColorArray, n)
		for i := range v {
			var c [4]float32
			for j := range c {
				w, _ := r.u32()
				c[j] = math.Float32frombits(w)
			}
			v[i] = variant.Color{R: c[0], G: c[1], B: c[2], A: c[3]}
		}
		return v, nil
	case variant.TypePackedVector2Array, variant.TypePackedVector3Array, variant.TypePackedVector4Array:
		comps := facts.Comps
		size := 4
		if r.real64 {
			size = 8
		}
		n, err := r.count(comps*size, 0xffffffff)
		if err != nil {
			return nil, err
		}
		c, _ := r.reals(n * comps)
		switch t {
		case variant.TypePackedVector2Array:
			v := make(variant.PackedVector2Array, n)
			for i := range v {
				v[i] = variant.Vector2{X: c[2*i], Y: c[2*i+1]}
			}
			return v, nil
		case variant.TypePackedVector3Array:
			v := make(variant.PackedVector3Array, n)
			for i := range v {
				v[i] = variant.Vector3{X: c[3*i], Y: c[3*i+1], Z: c[3*i+2]}
			}
			return v, nil
		}
		v := make(variant.PackedVector4Array, n)
		for i := range v {
			v[i] = variant.Vector4{X: c[4*i], Y: c[4*i+1], Z: c[4*i+2], W: c[4*i+3]}
		}
		return v, nil
	}
	r.off = start
	return nil, r.fail(ErrCorrupt, "type tag "+strconv.FormatUint(uint64(tag32), 10)+" cannot be read")
}

func (r *binReader) nodePath() (variant.Value, error) {
	nn, err := r.u16()
	if err != nil {
		return nil, err
	}
	sn, err := r.u16()
	if err != nil {
		return nil, err
	}
	np := variant.NodePath{Absolute: sn&0x8000 != 0}
	subs := int(sn & 0x7fff)
	if r.v3 {
		subs++
	}
	if err := r.need(4 * (int(nn) + subs)); err != nil {
		return nil, err
	}
	for range nn {
		s, err := r.tableStr()
		if err != nil {
			return nil, err
		}
		np.Names = append(np.Names, s)
	}
	for range subs {
		s, err := r.tableStr()
		if err != nil {
			return nil, err
		}
		if s != "" || !r.v3 {
			np.Subnames = append(np.Subnames, s)
		}
	}
	return np, nil
}

func (r *binReader) object() (variant.Value, error) {
	start := r.off
	kind, err := r.u32()
	if err != nil {
		return nil, err
	}
	switch kind {
	case objEmpty:
		return nil, nil
	case objExtPath:
		typ, err := r.str()
		if err != nil {
			return nil, err
		}
		path, err := r.str()
		if err != nil {
			return nil, err
		}
		return variant.ResourceRef{Kind: variant.RefPath, Path: path, Class: typ}, nil
	case objInternal:
		idx, err := r.u32()
		if err != nil {
			return nil, err
		}
		if r.named {
			if int64(idx) >= int64(len(r.subs)) {
				r.off -= 4
				return nil, r.fail(ErrCorrupt, "internal resource index "+strconv.FormatUint(uint64(idx), 10)+" past the table of "+strconv.Itoa(len(r.subs)))
			}
			if int(idx) == len(r.subs)-1 {
				// The main resource loads after every other, so a
				// reference to it is a cycle.
				r.off -= 4
				return nil, r.fail(ErrCorrupt, "reference to the main resource (a cycle)")
			}
			return variant.ResourceRef{Kind: variant.RefSub, ID: r.subs[idx]}, nil
		}
		return variant.ResourceRef{Kind: variant.RefSub, ID: strconv.FormatUint(uint64(idx), 10)}, nil
	case objExternalIndex:
		idx, err := r.u32()
		if err != nil {
			return nil, err
		}
		if int64(idx) >= int64(r.nExt) {
			// The engine loads such a reference as null, with a warning.
			r.off -= 4
			return nil, r.fail(ErrCorrupt, "external resource index "+strconv.FormatUint(uint64(idx), 10)+" past the table of "+strconv.Itoa(r.nExt))
		}
		return variant.ResourceRef{Kind: variant.RefExt, ID: extID(int(idx))}, nil
	}
	r.off = start
	return nil, r.fail(ErrCorrupt, "unknown object kind "+strconv.FormatUint(uint64(kind), 10))
}

// extID is the id this package gives the external resource at index i of
// a binary file, which names none: its position from 1, as the engine's
// text saver numbers them in export builds.
func extID(i int) string { return strconv.Itoa(i + 1) }
