package peer

import (
	"math"

	"github.com/gdvar/gdvar/variant"
)

func dict(kv ...variant.Value) *variant.Dictionary {
	d := variant.NewDictionary(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

func str(s string) variant.String { return variant.String(s) }

// sampleValues returns values of many types that both the engine of the
// family and this library can carry.
func sampleValues(family variant.Family) []variant.Value {
	np, _ := variant.ParseNodePath("/root/World/Player:position:x")
	vals := []variant.Value{
		nil,
		variant.Bool(true),
		variant.Bool(false),
		variant.Int(0),
		variant.Int(-1),
		variant.Int(1 << 40),
		variant.Int(math.MinInt64),
		variant.Float(2.5),
		variant.Float(0.1),
		variant.Float(-1e300),
		str(""),
		str("héllo, wörld ✓ 🎮"),
		variant.Vector2{X: 1.5, Y: -2},
		variant.Rect2{Position: variant.Vector2{X: 1, Y: 2}, Size: variant.Vector2{X: 3, Y: 4}},
		variant.Vector3{X: 1, Y: 2, Z: 3},
		variant.Transform2D{X: variant.Vector2{X: 1}, Y: variant.Vector2{Y: 1}, Origin: variant.Vector2{X: 5, Y: 6}},
		variant.Plane{Normal: variant.Vector3{Y: 1}, D: 2},
		variant.Quaternion{X: 0, Y: 0, Z: 0, W: 1},
		variant.AABB{Position: variant.Vector3{X: -1, Y: -1, Z: -1}, Size: variant.Vector3{X: 2, Y: 2, Z: 2}},
		variant.Basis{X: variant.Vector3{X: 1}, Y: variant.Vector3{Y: 1}, Z: variant.Vector3{Z: 1}},
		variant.Transform3D{Basis: variant.Basis{X: variant.Vector3{X: 1}, Y: variant.Vector3{Y: 1}, Z: variant.Vector3{Z: 1}}, Origin: variant.Vector3{X: 7, Y: 8, Z: 9}},
		variant.Color{R: 1, G: 0.5, B: 0.25, A: 1},
		np,
		dict(str("name"), str("Ada"), str("hp"), variant.Float(87.5), variant.Int(7), variant.NewArray(variant.Int(1), str("x"))),
		variant.NewArray(variant.Int(1), variant.Float(2.5), str("three"), variant.NewArray(), dict()),
		variant.PackedByteArray{0, 1, 2, 253, 254, 255},
		variant.PackedInt32Array{1, -2, math.MaxInt32, math.MinInt32},
		variant.PackedFloat32Array{0.5, -1.25, 3},
		variant.PackedStringArray{"a", "", "ünï"},
		variant.PackedVector2Array{{X: 1, Y: 2}, {X: -3, Y: 4}},
		variant.PackedVector3Array{{X: 1, Y: 2, Z: 3}},
		variant.PackedColorArray{{R: 1, G: 0, B: 0, A: 1}, {R: 0, G: 0, B: 1, A: 0.5}},
	}
	if family == variant.Godot4 {
		vals = append(vals,
			variant.StringName("player_name"),
			variant.Vector2i{X: 3, Y: -4},
			variant.Rect2i{Position: variant.Vector2i{X: 1, Y: 2}, Size: variant.Vector2i{X: 3, Y: 4}},
			variant.Vector3i{X: 1, Y: 2, Z: 3},
			variant.Vector4{X: 1, Y: 2, Z: 3, W: 4},
			variant.Vector4i{X: -1, Y: -2, Z: -3, W: -4},
			variant.Projection{X: variant.Vector4{X: 1}, Y: variant.Vector4{Y: 1}, Z: variant.Vector4{Z: 1}, W: variant.Vector4{W: 1}},
			variant.PackedInt64Array{1, -1, math.MaxInt64},
			variant.PackedFloat64Array{0.1, -2.5},
			variant.PackedVector4Array{{X: 1, Y: 2, Z: 3, W: 4}},
			&variant.Array{Elem: variant.Typed(variant.TypeInt), Values: []variant.Value{variant.Int(1), variant.Int(2)}},
		)
	}
	return vals
}

// bigBytes returns n bytes of a recognizable pattern.
func bigBytes(n int) variant.PackedByteArray {
	b := make(variant.PackedByteArray, n)
	for i := range b {
		b[i] = byte(i*31 + i>>8)
	}
	return b
}

// pattern251 returns n bytes with b[i] = i % 251, which the interop
// scripts build too.
func pattern251(n int) variant.PackedByteArray {
	b := make(variant.PackedByteArray, n)
	for i := range b {
		b[i] = byte(i % 251)
	}
	return b
}

// greeting is what the interop servers answer to "bye".
func greeting(received int) *variant.Dictionary {
	return dict(
		str("from"), str("gdvar"),
		str("values"), variant.Int(received),
		str("pos"), variant.Vector3{X: 1, Y: 2, Z: 3},
		str("tags"), variant.PackedStringArray{"a", "b"},
	)
}
