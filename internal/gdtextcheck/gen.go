package main

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"

	"github.com/gdvar/gdvar/variant"
)

// gen prints the extra fixtures for family fam.
func gen(fam variant.Family) error {
	g3 := fam == variant.Godot3
	r := rand.New(rand.NewPCG(20261121, uint64(fam)))
	type item struct {
		label   string
		objects bool
		v       variant.Value
	}
	var items []item
	add := func(label string, v variant.Value) { items = append(items, item{label, false, v}) }

	// Doubles: whole bit range, moderate magnitudes, short decimals.
	for i := range 1500 {
		var f float64
		switch i % 3 {
		case 0:
			f = math.Float64frombits(r.Uint64())
		case 1:
			f = (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(40)-20))
		default:
			f = float64(r.IntN(2000001)-1000000) / float64(r.IntN(1000)+1)
		}
		if f != f {
			f = 0.5
		}
		add(fmt.Sprintf("random float %d", i), variant.Float(f))
	}
	// Reals of math types: float32 values, and doubles the engine rounds.
	for i := range 300 {
		f32 := func() float64 {
			return float64(math.Float32frombits(r.Uint32()&^0x7f800000 | uint32(r.IntN(200)+27)<<23))
		}
		d := func() float64 { return (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(20)-10)) }
		add(fmt.Sprintf("random Vector2 %d", i), variant.Vector2{X: f32(), Y: d()})
		add(fmt.Sprintf("random Color %d", i), variant.Color{R: float32(f32()), G: float32(d()), B: float32(f32()), A: 1})
		add(fmt.Sprintf("random PackedFloat32Array %d", i), variant.PackedFloat32Array{float32(f32()), float32(d())})
		add(fmt.Sprintf("random Transform3D %d", i), variant.Transform3D{
			Basis:  variant.Basis{X: variant.Vector3{X: d(), Y: f32(), Z: d()}, Y: variant.Vector3{X: f32(), Y: d(), Z: 1}, Z: variant.Vector3{X: 0, Y: d(), Z: f32()}},
			Origin: variant.Vector3{X: d(), Y: f32(), Z: math.Copysign(0, -1)}})
		if !g3 {
			add(fmt.Sprintf("random PackedFloat64Array %d", i), variant.PackedFloat64Array{d(), (r.Float64()*2 - 1) * math.Pow(10, float64(r.IntN(40)-20))})
		}
	}
	negZero := math.Copysign(0, -1)
	inf := math.Inf(1)
	add("-0.0", variant.Float(negZero))
	add("inf", variant.Float(inf))
	add("-inf", variant.Float(-inf))
	add("nan", variant.Float(math.NaN()))
	add("[-inf, inf, -0.0]", variant.NewArray(variant.Float(-inf), variant.Float(inf), variant.Float(negZero)))
	add("Vector2(inf, -inf)", variant.Vector2{X: inf, Y: -inf})
	add("Vector3(-0.0, 1e300, -1e-300)", variant.Vector3{X: negZero, Y: 1e300, Z: -1e-300})
	add("Vector2(nan, 1)", variant.Vector2{X: math.NaN(), Y: 1})
	add("Color(-0.0, inf, 1, 0)", variant.Color{R: float32(negZero), G: float32(inf), B: 1})
	add("PackedFloat32Array(-inf, -0.0, 3.4028235e38)", variant.PackedFloat32Array{float32(-inf), float32(negZero), math.MaxFloat32})
	add("0.9999999999999999", variant.Float(0.9999999999999999))
	add("2^53+2", variant.Float(9007199254740994))
	add("FLT_MAX as double", variant.Float(math.MaxFloat32))
	add("DBL_MAX", variant.Float(math.MaxFloat64))
	add("1e22", variant.Float(1e22))
	add("1e23", variant.Float(1e23))

	// Strings: every control character, escapes, non-BMP, separators.
	var ctl []rune
	for c := rune(1); c < 0x20; c++ { // NUL: the decoder ends a string there
		ctl = append(ctl, c)
	}
	ctl = append(ctl, 0x7f, 0x80, 0x85, 0x9f, 0xa0, 0x2028, 0x2029, 0xfeff, 0xfffd, 0xffff)
	for _, c := range ctl {
		add(fmt.Sprintf("string with U+%04X", c), variant.String("a"+string(c)+"b"))
	}
	add("string with quotes and backslashes", variant.String(`\"\\'"?\u0041\n`))
	add("string with non-BMP", variant.String("🎮𝄞\U0010FFFF"))
	add("string with all escapes", variant.String("\b\t\n\f\r\"\\"))
	add("PackedStringArray with controls", variant.PackedStringArray{"\x01\n", "\"", "🎮", ""})
	add("NodePath with escapes", variant.NodePath{Names: []string{"a\"b", "c\\d", "é\n"}, Subnames: []string{"x y"}, Absolute: true})
	add("NodePath name with slash", variant.NodePath{Names: []string{"a/b"}})
	add("NodePath subname with colon", variant.NodePath{Names: []string{"a"}, Subnames: []string{"b:c"}})
	add("Dictionary key order", func() variant.Value {
		d := variant.NewDictionary(0)
		d.Set(variant.String("z"), variant.Int(1))
		d.Set(variant.String("a"), variant.NewArray(variant.String("x\ny")))
		d.Set(variant.Int(5), variant.NewDictionary(0))
		d.Set(variant.Float(0.1), func() variant.Value {
			e := variant.NewDictionary(0)
			e.Set(variant.String("k"), variant.Float(negZero))
			return e
		}())
		return d
	}())
	add("PackedByteArray 0..255", func() variant.Value {
		b := make(variant.PackedByteArray, 256)
		for i := range b {
			b[i] = byte(i)
		}
		return b
	}())
	add("PoolIntArray extremes", variant.PackedInt32Array{math.MinInt32, math.MaxInt32, 0, -1})
	add("int extremes", variant.NewArray(variant.Int(math.MinInt64), variant.Int(math.MaxInt64)))
	add("Basis order", variant.Basis{X: variant.Vector3{X: 1, Y: 2, Z: 3}, Y: variant.Vector3{X: 4, Y: 5, Z: 6}, Z: variant.Vector3{X: 7, Y: 8, Z: 9}})
	add("Transform2D order", variant.Transform2D{X: variant.Vector2{X: 1, Y: 2}, Y: variant.Vector2{X: 3, Y: 4}, Origin: variant.Vector2{X: 5, Y: 6}})
	add("empty containers", variant.NewArray(variant.NewArray(), variant.NewDictionary(0), variant.PackedVector3Array{}))
	items = append(items, item{"full Object", true, &variant.Object{Class: "Resource", Properties: []variant.Property{
		{Name: "resource_local_to_scene", Value: variant.Bool(false)},
		{Name: "resource_name", Value: variant.String("name \"with\" quotes\n")},
		{Name: "script", Value: nil},
	}}})
	if !g3 {
		add("StringName with escapes", variant.StringName("a\"b\\c\n\x01é"))
		add("RID above int64", variant.RID(1<<63|5))
		add("Vector4i extremes", variant.Vector4i{X: math.MinInt32, Y: math.MaxInt32, Z: 0, W: -1})
		add("PackedInt64Array extremes", variant.PackedInt64Array{math.MinInt64, math.MaxInt64})
		add("PackedVector4Array", variant.PackedVector4Array{{X: 0.1, Y: negZero, Z: inf, W: 1e-7}})
		add("Projection order", variant.Projection{X: variant.Vector4{X: 1, Y: 2, Z: 3, W: 4}, Y: variant.Vector4{X: 5, Y: 6, Z: 7, W: 8},
			Z: variant.Vector4{X: 9, Y: 10, Z: 11, W: 12}, W: variant.Vector4{X: 13, Y: 14, Z: 15, W: 16}})
		add("typed Array of float", &variant.Array{Elem: variant.Typed(variant.TypeFloat), Values: []variant.Value{variant.Float(1), variant.Float(negZero)}})
		add("typed Array of class", &variant.Array{Elem: variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: "Node"}})
		add("typed Dictionary", func() variant.Value {
			d := variant.NewDictionary(0)
			d.SetTypes(variant.Typed(variant.TypeStringName), variant.Typed(variant.TypeVector2i))
			d.Set(variant.StringName("b"), variant.Vector2i{X: 1, Y: -2})
			d.Set(variant.StringName("a"), variant.Vector2i{})
			return d
		}())
		add("Signal empty", variant.Signal{})
		add("Callable", variant.Callable{})
	}

	w := bufio.NewWriter(os.Stdout)
	for _, it := range items {
		m, err := variant.EncOptions{Family: fam, FullObjects: it.objects}.EncMode()
		if err != nil {
			return err
		}
		b, err := m.Encode(it.v)
		if err != nil {
			return fmt.Errorf("%s: %v", it.label, err)
		}
		line, _ := json.Marshal(map[string]any{"expr": it.label, "objects": it.objects, "hex": hex.EncodeToString(b), "reencoded": ""})
		w.Write(line)
		w.WriteByte('\n')
	}
	return w.Flush()
}
