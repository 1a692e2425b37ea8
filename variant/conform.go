package variant

// The conversions a typed container applies to its elements when the
// engine decodes one (Conform).

import (
	"math"
	"strconv"
	"strings"
)

// Conform applies a typed container's check to one element (or key) the
// way the engine does when it decodes: a value of the right type is kept, null is
// kept for object types, a value the engine converts strictly is converted
// (between bool, int and float; String, StringName and NodePath; integer
// and real vectors and rectangles; Basis, Quaternion and Transform3D; int
// and String into Color, see ColorFromString; Object into RID; Arrays and
// packed arrays into each other) and anything else is refused.
func Conform(v Value, ct ContainerType) (Value, bool) {
	want := ct.Builtin
	have := TypeOf(v)
	if have == want {
		return v, true
	}
	if v == nil {
		return nil, want == TypeObject
	}
	switch want {
	case TypeBool:
		switch x := v.(type) {
		case Int:
			return Bool(x != 0), true
		case Float:
			return Bool(x != 0), true
		}
	case TypeInt:
		switch x := v.(type) {
		case Bool:
			return Int(boolInt(bool(x))), true
		case Float:
			return Int(floatToInt(float64(x))), true
		}
	case TypeFloat:
		switch x := v.(type) {
		case Bool:
			return Float(boolInt(bool(x))), true
		case Int:
			return Float(float64(x)), true
		}
	case TypeString:
		switch x := v.(type) {
		case StringName:
			return String(x), true
		case NodePath:
			return String(x.String()), true
		}
	case TypeStringName:
		if x, ok := v.(String); ok {
			return StringName(x), true
		}
	case TypeNodePath:
		if x, ok := v.(String); ok {
			np, _ := ParseNodePath(string(x))
			return np, true
		}
	case TypeVector2:
		if x, ok := v.(Vector2i); ok {
			return Vector2{float64(x.X), float64(x.Y)}, true
		}
	case TypeVector2i:
		if x, ok := v.(Vector2); ok {
			return Vector2i{floatToInt32(x.X), floatToInt32(x.Y)}, true
		}
	case TypeRect2:
		if x, ok := v.(Rect2i); ok {
			return Rect2{Vector2{float64(x.Position.X), float64(x.Position.Y)},
				Vector2{float64(x.Size.X), float64(x.Size.Y)}}, true
		}
	case TypeRect2i:
		if x, ok := v.(Rect2); ok {
			return Rect2i{Vector2i{floatToInt32(x.Position.X), floatToInt32(x.Position.Y)},
				Vector2i{floatToInt32(x.Size.X), floatToInt32(x.Size.Y)}}, true
		}
	case TypeVector3:
		if x, ok := v.(Vector3i); ok {
			return Vector3{float64(x.X), float64(x.Y), float64(x.Z)}, true
		}
	case TypeVector3i:
		if x, ok := v.(Vector3); ok {
			return Vector3i{floatToInt32(x.X), floatToInt32(x.Y), floatToInt32(x.Z)}, true
		}
	case TypeVector4:
		if x, ok := v.(Vector4i); ok {
			return Vector4{float64(x.X), float64(x.Y), float64(x.Z), float64(x.W)}, true
		}
	case TypeVector4i:
		if x, ok := v.(Vector4); ok {
			return Vector4i{floatToInt32(x.X), floatToInt32(x.Y), floatToInt32(x.Z), floatToInt32(x.W)}, true
		}
	case TypeColor:
		switch x := v.(type) {
		case Int: // 0xRRGGBBAA
			return colorFromRGBA8(uint32(x)), true
		case String:
			c, _ := ColorFromString(string(x))
			return c, true
		}
	case TypeArray:
		if a := packedToArray(v); a != nil {
			return a, true
		}
	case TypeBasis:
		if x, ok := v.(Quaternion); ok {
			return basisOf(x), true
		}
	case TypeQuaternion:
		if x, ok := v.(Basis); ok {
			return quaternionOf(x), true
		}
	case TypeTransform3D:
		switch x := v.(type) {
		case Basis:
			return Transform3D{Basis: x}, true
		case Quaternion:
			return Transform3D{Basis: basisOf(x)}, true
		}
	case TypeRID:
		if have == TypeObject {
			return RID(0), true // an object's RID is not on the wire
		}
	case TypePackedByteArray, TypePackedInt32Array, TypePackedInt64Array, TypePackedFloat32Array,
		TypePackedFloat64Array, TypePackedStringArray, TypePackedVector2Array, TypePackedVector3Array,
		TypePackedColorArray, TypePackedVector4Array:
		if a, ok := v.(*Array); ok {
			return arrayToPacked(a, want), true
		}
	}
	return nil, false
}

// arrayToPacked converts an Array to a packed array as the engine does:
// element by element, an element that does not convert giving the zero
// value.
func arrayToPacked(a *Array, want Type) Value {
	toInt := func(v Value) int64 {
		switch x := v.(type) {
		case Int:
			return int64(x)
		case Float:
			return floatToInt(float64(x))
		case Bool:
			return boolInt(bool(x))
		}
		return 0
	}
	toFloat := func(v Value) float64 {
		switch x := v.(type) {
		case Int:
			return float64(x)
		case Float:
			return float64(x)
		case Bool:
			return float64(boolInt(bool(x)))
		}
		return 0
	}
	switch want {
	case TypePackedByteArray:
		return PackedByteArray(mapValues(a, func(v Value) byte { return byte(toInt(v)) }))
	case TypePackedInt32Array:
		return PackedInt32Array(mapValues(a, func(v Value) int32 { return int32(toInt(v)) }))
	case TypePackedInt64Array:
		return PackedInt64Array(mapValues(a, toInt))
	case TypePackedFloat32Array:
		return PackedFloat32Array(mapValues(a, func(v Value) float32 { return float32(toFloat(v)) }))
	case TypePackedFloat64Array:
		return PackedFloat64Array(mapValues(a, toFloat))
	case TypePackedStringArray:
		return PackedStringArray(mapValues(a, stringify))
	case TypePackedVector2Array:
		return PackedVector2Array(mapValues(a, converted[Vector2](TypeVector2)))
	case TypePackedVector3Array:
		return PackedVector3Array(mapValues(a, converted[Vector3](TypeVector3)))
	case TypePackedColorArray:
		return PackedColorArray(mapValues(a, converted[Color](TypeColor)))
	default: // TypePackedVector4Array
		return PackedVector4Array(mapValues(a, converted[Vector4](TypeVector4)))
	}
}

// mapValues applies f to every element of a.
func mapValues[T any](a *Array, f func(Value) T) []T {
	out := make([]T, a.Len())
	for i, v := range a.Values {
		out[i] = f(v)
	}
	return out
}

// converted returns a function converting a Value to T (of Variant type t)
// as a typed container would, or giving T's zero value.
func converted[T Value](t Type) func(Value) T {
	return func(v Value) T {
		c, _ := Conform(v, Typed(t))
		x, _ := c.(T)
		return x
	}
}

// stringify is the engine's String(Variant) for the scalar types; other
// types give "".
func stringify(v Value) string {
	switch x := v.(type) {
	case Int:
		return strconv.FormatInt(int64(x), 10)
	case Bool:
		return strconv.FormatBool(bool(x))
	case Float:
		f := float64(x)
		switch {
		case math.IsInf(f, 1):
			return "inf"
		case math.IsInf(f, -1):
			return "-inf"
		case f != f:
			return "nan"
		}
		s := strconv.FormatFloat(f, 'g', -1, 64)
		if !strings.ContainsAny(s, ".e") {
			s += ".0"
		}
		return s
	case String:
		return string(x)
	case StringName:
		return string(x)
	case NodePath:
		return x.String()
	}
	return ""
}

func boolInt(b bool) int64 {
	if b {
		return 1
	}
	return 0
}

// floatToInt32 converts a real component to int32 as the engine's
// (int32_t) cast does on x86: truncation, and the minimum int32 for NaN and
// out-of-range values.
func floatToInt32(f float64) int32 {
	if f != f || f >= 2147483648 || f <= -2147483649 {
		return math.MinInt32
	}
	return int32(f)
}

// packedToArray turns a packed array into an untyped Array of its
// elements; it returns nil for other values.
func packedToArray(v Value) *Array {
	var vals []Value
	switch x := v.(type) {
	case PackedByteArray:
		for _, e := range x {
			vals = append(vals, Int(e))
		}
	case PackedInt32Array:
		for _, e := range x {
			vals = append(vals, Int(e))
		}
	case PackedInt64Array:
		for _, e := range x {
			vals = append(vals, Int(e))
		}
	case PackedFloat32Array:
		for _, e := range x {
			vals = append(vals, Float(e))
		}
	case PackedFloat64Array:
		for _, e := range x {
			vals = append(vals, Float(e))
		}
	case PackedStringArray:
		for _, e := range x {
			vals = append(vals, String(e))
		}
	case PackedVector2Array:
		for _, e := range x {
			vals = append(vals, e)
		}
	case PackedVector3Array:
		for _, e := range x {
			vals = append(vals, e)
		}
	case PackedColorArray:
		for _, e := range x {
			vals = append(vals, e)
		}
	case PackedVector4Array:
		for _, e := range x {
			vals = append(vals, e)
		}
	default:
		return nil
	}
	return &Array{Values: vals}
}

// floatToInt converts as the engine's (int) cast does on x86: truncation,
// and the minimum int64 for NaN and out-of-range values.
func floatToInt(f float64) int64 {
	if f != f || f >= 9223372036854775807 || f < -9223372036854775808 {
		return math.MinInt64
	}
	return int64(f)
}
