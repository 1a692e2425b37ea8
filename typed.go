package gdvar

import (
	"github.com/gdvar/gdvar/variant"
)

// exact reports whether an element of wire type t is kept as it is by a
// typed container of type ct: then the engine converts nothing and drops
// nothing, and the element can be decoded in place. For anything else the
// decoders ask package variant what the engine makes of it (conformed).
func exact(t variant.Type, ct variant.ContainerType) bool {
	return !ct.IsTyped() || t == ct.Builtin || t == variant.TypeNil && ct.Builtin == variant.TypeObject
}

// packedToArray turns a packed array into an untyped Array of its
// elements; it returns nil for other values.
func packedToArray(v variant.Value) *variant.Array {
	var vals []variant.Value
	switch x := v.(type) {
	case variant.PackedByteArray:
		vals = convertAll(x, func(e byte) variant.Value { return variant.Int(e) })
	case variant.PackedInt32Array:
		vals = convertAll(x, func(e int32) variant.Value { return variant.Int(e) })
	case variant.PackedInt64Array:
		vals = convertAll(x, func(e int64) variant.Value { return variant.Int(e) })
	case variant.PackedFloat32Array:
		vals = convertAll(x, func(e float32) variant.Value { return variant.Float(e) })
	case variant.PackedFloat64Array:
		vals = convertAll(x, func(e float64) variant.Value { return variant.Float(e) })
	case variant.PackedStringArray:
		vals = convertAll(x, func(e string) variant.Value { return variant.String(e) })
	case variant.PackedVector2Array:
		vals = convertAll(x, func(e variant.Vector2) variant.Value { return e })
	case variant.PackedVector3Array:
		vals = convertAll(x, func(e variant.Vector3) variant.Value { return e })
	case variant.PackedColorArray:
		vals = convertAll(x, func(e variant.Color) variant.Value { return e })
	case variant.PackedVector4Array:
		vals = convertAll(x, func(e variant.Vector4) variant.Value { return e })
	default:
		return nil
	}
	return &variant.Array{Values: vals}
}

func convertAll[E any](s []E, f func(E) variant.Value) []variant.Value {
	out := make([]variant.Value, len(s))
	for i, e := range s {
		out[i] = f(e)
	}
	return out
}
