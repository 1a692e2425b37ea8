package gdjson

import (
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/variant"
)

// str returns the engine's str() of a value: what JSON.stringify writes,
// quoted, for the types JSON has no form for, and what Dictionary keys
// turn into. Godot 4.6's text, for single-precision builds.
func str(v variant.Value) string {
	var sb strings.Builder
	writeStr(&sb, v, false, 0)
	return sb.String()
}

func r32(x float64, trailing bool) string { return numReal32(float32(x), trailing) }

func vec2(x, y float64) string { return "(" + r32(x, true) + ", " + r32(y, true) + ")" }

func vec3(v variant.Vector3) string {
	return "(" + r32(v.X, true) + ", " + r32(v.Y, true) + ", " + r32(v.Z, true) + ")"
}

func vec4(v variant.Vector4) string {
	return "(" + r32(v.X, true) + ", " + r32(v.Y, true) + ", " + r32(v.Z, true) + ", " + r32(v.W, true) + ")"
}

func ints(xs ...int32) string {
	parts := make([]string, len(xs))
	for i, x := range xs {
		parts[i] = strconv.Itoa(int(x))
	}
	return "(" + strings.Join(parts, ", ") + ")"
}

func color(c variant.Color) string {
	return "(" + numReal32(c.R, true) + ", " + numReal32(c.G, true) + ", " + numReal32(c.B, true) + ", " + numReal32(c.A, true) + ")"
}

// writeStr writes str(v); inContainer quotes strings, as the engine does
// for the elements of an Array or Dictionary printed whole.
func writeStr(sb *strings.Builder, v variant.Value, inContainer bool, depth int) {
	if depth > DefaultMaxDepth {
		sb.WriteString("...")
		return
	}
	switch x := v.(type) {
	case nil:
		sb.WriteString("<null>")
	case variant.Bool:
		sb.WriteString(strconv.FormatBool(bool(x)))
	case variant.Int:
		sb.WriteString(strconv.FormatInt(int64(x), 10))
	case variant.Float:
		sb.WriteString(numReal(float64(x), true))
	case variant.String:
		if inContainer {
			sb.WriteString(strconv.Quote(string(x)))
		} else {
			sb.WriteString(string(x))
		}
	case variant.StringName:
		if inContainer {
			sb.WriteString("&" + strconv.Quote(string(x)))
		} else {
			sb.WriteString(string(x))
		}
	case variant.NodePath:
		if inContainer {
			sb.WriteString("^" + strconv.Quote(x.String()))
		} else {
			sb.WriteString(x.String())
		}
	case variant.Vector2:
		sb.WriteString(vec2(x.X, x.Y))
	case variant.Vector2i:
		sb.WriteString(ints(x.X, x.Y))
	case variant.Rect2:
		sb.WriteString("[P: " + vec2(x.Position.X, x.Position.Y) + ", S: " + vec2(x.Size.X, x.Size.Y) + "]")
	case variant.Rect2i:
		sb.WriteString("[P: " + ints(x.Position.X, x.Position.Y) + ", S: " + ints(x.Size.X, x.Size.Y) + "]")
	case variant.Vector3:
		sb.WriteString(vec3(x))
	case variant.Vector3i:
		sb.WriteString(ints(x.X, x.Y, x.Z))
	case variant.Transform2D:
		sb.WriteString("[X: " + vec2(x.X.X, x.X.Y) + ", Y: " + vec2(x.Y.X, x.Y.Y) + ", O: " + vec2(x.Origin.X, x.Origin.Y) + "]")
	case variant.Vector4:
		sb.WriteString(vec4(x))
	case variant.Vector4i:
		sb.WriteString(ints(x.X, x.Y, x.Z, x.W))
	case variant.Plane:
		sb.WriteString("[N: " + vec3(x.Normal) + ", D: " + r32(x.D, false) + "]")
	case variant.Quaternion:
		sb.WriteString("(" + r32(x.X, false) + ", " + r32(x.Y, false) + ", " + r32(x.Z, false) + ", " + r32(x.W, false) + ")")
	case variant.AABB:
		sb.WriteString("[P: " + vec3(x.Position) + ", S: " + vec3(x.Size) + "]")
	case variant.Basis:
		sb.WriteString("[X: " + vec3(x.X) + ", Y: " + vec3(x.Y) + ", Z: " + vec3(x.Z) + "]")
	case variant.Transform3D:
		sb.WriteString("[X: " + vec3(x.Basis.X) + ", Y: " + vec3(x.Basis.Y) + ", Z: " + vec3(x.Basis.Z) + ", O: " + vec3(x.Origin) + "]")
	case variant.Projection:
		sb.WriteString("[X: " + vec4(x.X) + ", Y: " + vec4(x.Y) + ", Z: " + vec4(x.Z) + ", W: " + vec4(x.W) + "]")
	case variant.Color:
		sb.WriteString(color(x))
	case variant.RID:
		sb.WriteString("RID(" + strconv.FormatUint(uint64(x), 10) + ")")
	case variant.Callable:
		sb.WriteString("null::null")
	case variant.Signal:
		if x.Object == 0 {
			sb.WriteString("null::[signal]" + x.Name)
		} else {
			sb.WriteString("<Object#" + strconv.FormatInt(int64(x.Object), 10) + ">::[signal]" + x.Name)
		}
	case variant.ObjectID:
		sb.WriteString("<EncodedObjectAsID#" + strconv.FormatInt(int64(x), 10) + ">")
	case *variant.Object:
		if x == nil || x.Class == "" {
			sb.WriteString("<Object#null>")
		} else {
			sb.WriteString("<" + x.Class + ">")
		}
	case variant.ResourceRef:
		// The engine would print the loaded resource, "<Resource#id>";
		// without it, the reference's own text.
		sb.WriteString(x.String())
	case *variant.Array:
		sb.WriteByte('[')
		for i, e := range x.Values {
			if i > 0 {
				sb.WriteString(", ")
			}
			writeStr(sb, e, true, depth+1)
		}
		sb.WriteByte(']')
	case *variant.Dictionary:
		if x.Len() == 0 {
			sb.WriteString("{}")
			return
		}
		sb.WriteString("{ ")
		first := true
		for k, v := range x.All() {
			if !first {
				sb.WriteString(", ")
			}
			first = false
			writeStr(sb, k, true, depth+1)
			sb.WriteString(": ")
			writeStr(sb, v, true, depth+1)
		}
		sb.WriteString(" }")
	default:
		packedStr(sb, v)
	}
}

// packedStr writes a packed array as the engine prints it: "[1, 2, 3]".
func packedStr(sb *strings.Builder, v variant.Value) {
	var parts []string
	switch x := v.(type) {
	case variant.PackedByteArray:
		for _, e := range x {
			parts = append(parts, strconv.Itoa(int(e)))
		}
	case variant.PackedInt32Array:
		for _, e := range x {
			parts = append(parts, strconv.Itoa(int(e)))
		}
	case variant.PackedInt64Array:
		for _, e := range x {
			parts = append(parts, strconv.FormatInt(e, 10))
		}
	case variant.PackedFloat32Array:
		for _, e := range x {
			parts = append(parts, numReal(float64(e), true))
		}
	case variant.PackedFloat64Array:
		for _, e := range x {
			parts = append(parts, numReal(e, true))
		}
	case variant.PackedStringArray:
		for _, e := range x {
			parts = append(parts, strconv.Quote(e))
		}
	case variant.PackedVector2Array:
		for _, e := range x {
			parts = append(parts, vec2(e.X, e.Y))
		}
	case variant.PackedVector3Array:
		for _, e := range x {
			parts = append(parts, vec3(e))
		}
	case variant.PackedColorArray:
		for _, e := range x {
			parts = append(parts, color(e))
		}
	case variant.PackedVector4Array:
		for _, e := range x {
			parts = append(parts, vec4(e))
		}
	}
	sb.WriteString("[" + strings.Join(parts, ", ") + "]")
}
