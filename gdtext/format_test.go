package gdtext

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

func dict(kv ...variant.Value) *variant.Dictionary {
	d := variant.NewDictionary(len(kv) / 2)
	for i := 0; i+1 < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

var (
	negZero = math.Copysign(0, -1)
	posInf  = math.Inf(1)
)

// formatTests hold the texts of values for Godot 4 and Godot 3 ("" where
// the value does not exist in Godot 3). Godot 4.6's str_to_var and Godot
// 3.2.3's str2var read every one of them to exactly the value (var_to_bytes
// equal to ours, checked with testdata/str_to_var4.gd and str2var3.gd),
// except for the documented limitations: the ObjectID becomes a new
// EncodedObjectAsID, and Godot 3 has no RID (it refuses "RID()" and reads
// "RID(n)" as the int n).
var formatTests = []struct {
	v      variant.Value
	g4, g3 string
}{
	{nil, "null", "null"},
	{variant.Bool(true), "true", "true"},
	{variant.Int(-9223372036854775808), "-9223372036854775808", "-9223372036854775808"},
	{variant.Float(1), "1.0", "1.0"},
	{variant.Float(0.1), "0.1", "0.1"},
	{variant.Float(-2.5), "-2.5", "-2.5"},
	{variant.Float(negZero), "-0.0", "-0.0"},
	{variant.Float(123456789), "123456789.0", "123456789.0"},
	{variant.Float(1e15), "1e+15", "1e+15"},
	{variant.Float(1e300), "1e+300", "1e+300"},
	{variant.Float(1.5e-7), "1.5e-07", "1.5e-07"},
	{variant.Float(0.0001), "0.0001", "0.0001"},
	{variant.Float(1.0 / 3), "0.3333333333333333", "0.3333333333333333"},
	// The engine reads the shortest digits of these one unit off.
	{variant.Float(0.9999999999999999), "0.99999999999999990", "0.99999999999999990"},
	{variant.Float(96.22509000000001), "96.2250900000000100", "96.2250900000000100"},
	{variant.Float(posInf), "inf", "inf"},
	{variant.Float(-posInf), "inf_neg", "-1e999"},
	{variant.Float(math.Float64frombits(0x7ff8000000000000)), "nan", "nan"},
	{variant.String(""), `""`, `""`},
	{variant.String("say \"hi\" \\ é 🎮"), `"say \"hi\" \\ é 🎮"`, `"say \"hi\" \\ é 🎮"`},
	{variant.String("a\tb\nc\rd\x01\x7f\u0085\u2028\ufeff"), `"a\tb\nc\rd\u0001\u007f\u0085\u2028` + "\ufeff\"", `"a\tb\nc\rd\u0001\u007f\u0085\u2028` + "\ufeff\""},
	{variant.StringName("name"), `&"name"`, ""},
	{variant.NodePath{Names: []string{"root", "a"}, Subnames: []string{"b"}, Absolute: true}, `NodePath("/root/a:b")`, `NodePath("/root/a:b")`},
	{variant.NodePath{}, `NodePath("")`, `NodePath("")`},
	{variant.RID(0), "RID()", "RID()"},
	{variant.RID(1<<63 | 5), "RID(-9223372036854775803)", "RID(-9223372036854775803)"},
	{variant.ObjectID(1234), `Object(EncodedObjectAsID,"object_id":1234,"script":null)`, `Object(EncodedObjectAsID,"object_id":1234,"script":null)`},
	{&variant.Object{Class: "Resource", Properties: []variant.Property{
		{Name: "resource_local_to_scene", Value: variant.Bool(false)},
		{Name: "resource_name", Value: variant.String("x")},
		{Name: "script", Value: nil},
	}}, `Object(Resource,"resource_local_to_scene":false,"resource_name":"x","script":null)`,
		`Object(Resource,"resource_local_to_scene":false,"resource_name":"x","script":null)`},
	{(*variant.Object)(nil), "null", "null"},
	{variant.Callable{}, "Callable()", ""},
	{variant.Signal{}, "Signal()", ""},
	{variant.Vector2{X: 1, Y: 2}, "Vector2(1, 2)", "Vector2( 1, 2 )"},
	{variant.Vector2{X: negZero, Y: float64(float32(0.1))}, "Vector2(-0.0, 0.10000000149011612)", "Vector2( -0.0, 0.10000000149011612 )"},
	{variant.Vector2{X: posInf, Y: -posInf}, "Vector2(inf, inf_neg)", "Vector2( 1e999, -1e999 )"},
	{variant.Vector2i{X: -2147483648, Y: 2147483647}, "Vector2i(-2147483648, 2147483647)", ""},
	{variant.Rect2{Position: variant.Vector2{X: 1, Y: 2}, Size: variant.Vector2{X: 3, Y: 1e10}}, "Rect2(1, 2, 3, 10000000000)", "Rect2( 1, 2, 3, 10000000000 )"},
	{variant.Vector3{X: 1, Y: 2, Z: 1e20}, "Vector3(1, 2, 1e+20)", "Vector3( 1, 2, 1e+20 )"},
	{variant.Transform2D{X: variant.Vector2{X: 1, Y: 2}, Y: variant.Vector2{X: 3, Y: 4}, Origin: variant.Vector2{X: 5, Y: 6}},
		"Transform2D(1, 2, 3, 4, 5, 6)", "Transform2D( 1, 2, 3, 4, 5, 6 )"},
	{variant.Plane{Normal: variant.Vector3{X: 0, Y: 1, Z: 0}, D: -2.5}, "Plane(0, 1, 0, -2.5)", "Plane( 0, 1, 0, -2.5 )"},
	{variant.Quaternion{W: 1}, "Quaternion(0, 0, 0, 1)", "Quat( 0, 0, 0, 1 )"},
	{variant.AABB{Position: variant.Vector3{X: 1, Y: 2, Z: 3}, Size: variant.Vector3{X: 4, Y: 5, Z: 6}}, "AABB(1, 2, 3, 4, 5, 6)", "AABB( 1, 2, 3, 4, 5, 6 )"},
	// The text lists the rows of the matrix; X, Y, Z are its columns.
	{variant.Basis{X: variant.Vector3{X: 1, Y: 2, Z: 3}, Y: variant.Vector3{X: 4, Y: 5, Z: 6}, Z: variant.Vector3{X: 7, Y: 8, Z: 9}},
		"Basis(1, 4, 7, 2, 5, 8, 3, 6, 9)", "Basis( 1, 4, 7, 2, 5, 8, 3, 6, 9 )"},
	{variant.Transform3D{Basis: variant.Basis{X: variant.Vector3{X: 1, Y: 2, Z: 3}, Y: variant.Vector3{X: 4, Y: 5, Z: 6}, Z: variant.Vector3{X: 7, Y: 8, Z: 9}},
		Origin: variant.Vector3{X: 10, Y: 11, Z: 12}},
		"Transform3D(1, 4, 7, 2, 5, 8, 3, 6, 9, 10, 11, 12)", "Transform( 1, 4, 7, 2, 5, 8, 3, 6, 9, 10, 11, 12 )"},
	{variant.Projection{X: variant.Vector4{X: 1, Y: 2, Z: 3, W: 4}, Y: variant.Vector4{X: 5, Y: 6, Z: 7, W: 8},
		Z: variant.Vector4{X: 9, Y: 10, Z: 11, W: 12}, W: variant.Vector4{X: 13, Y: 14, Z: 15, W: 16}},
		"Projection(1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16)", ""},
	{variant.Color{R: 0.1, G: 0.5, B: 1, A: 1}, "Color(0.1, 0.5, 1, 1)", "Color( 0.1, 0.5, 1, 1 )"},
	{variant.NewArray(), "[]", "[  ]"},
	{variant.NewArray(variant.Int(1), variant.String("two"), variant.Float(3)), `[1, "two", 3.0]`, `[ 1, "two", 3.0 ]`},
	{&variant.Array{Elem: variant.Typed(variant.TypeInt), Values: []variant.Value{variant.Int(1), variant.Int(2)}}, "Array[int]([1, 2])", ""},
	{&variant.Array{Elem: variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: "Node"}}, "Array[Node]([])", ""},
	{variant.NewDictionary(0), "{}", "{  }"},
	{dict(variant.String("b"), variant.Int(1), variant.String("a"), variant.NewArray()), `{ "b": 1, "a": [] }`, `{ "b": 1, "a": [  ] }`},
	{func() variant.Value {
		d := dict(variant.String("a"), variant.Int(1))
		d.SetTypes(variant.Typed(variant.TypeString), variant.Typed(variant.TypeInt))
		return d
	}(), `Dictionary[String, int]({ "a": 1 })`, ""},
	{func() variant.Value {
		d := dict(variant.String("a"), variant.Int(1))
		d.SetTypes(variant.ContainerType{}, variant.Typed(variant.TypeInt))
		return d
	}(), `Dictionary[Variant, int]({ "a": 1 })`, ""},
	{variant.PackedByteArray{0, 255}, "PackedByteArray(0, 255)", "PoolByteArray( 0, 255 )"},
	{variant.PackedByteArray{}, "PackedByteArray()", "PoolByteArray(  )"},
	{variant.PackedInt32Array{-1, 2}, "PackedInt32Array(-1, 2)", "PoolIntArray( -1, 2 )"},
	{variant.PackedInt64Array{1 << 40}, "PackedInt64Array(1099511627776)", ""},
	{variant.PackedFloat32Array{0.1, float32(negZero), float32(posInf)}, "PackedFloat32Array(0.1, -0.0, inf)", "PoolRealArray( 0.1, -0.0, 1e999 )"},
	{variant.PackedFloat64Array{0.1, 1e300}, "PackedFloat64Array(0.1, 1e+300)", ""},
	{variant.PackedStringArray{"a", "b\n"}, `PackedStringArray("a", "b\n")`, `PoolStringArray( "a", "b\n" )`},
	{variant.PackedVector2Array{{X: 1, Y: 2}, {X: 3, Y: 4}}, "PackedVector2Array(1, 2, 3, 4)", "PoolVector2Array( 1, 2, 3, 4 )"},
	{variant.PackedVector3Array{{X: 1, Y: 2, Z: 3}}, "PackedVector3Array(1, 2, 3)", "PoolVector3Array( 1, 2, 3 )"},
	{variant.PackedColorArray{{R: 1, A: 0.5}}, "PackedColorArray(1, 0, 0, 0.5)", "PoolColorArray( 1, 0, 0, 0.5 )"},
	{variant.PackedVector4Array{{X: 1, Y: 2, Z: 3, W: 4}}, "PackedVector4Array(1, 2, 3, 4)", ""},
}

func TestFormat(t *testing.T) {
	for _, tt := range formatTests {
		for _, c := range []struct {
			fam  variant.Family
			want string
		}{{variant.Godot4, tt.g4}, {variant.Godot3, tt.g3}} {
			got, err := Format(tt.v, Options{Family: c.fam})
			if c.want == "" {
				if err == nil {
					t.Errorf("Format(%#v, %v) = %q, want an error", tt.v, c.fam, got)
				}
				continue
			}
			if err != nil || got != c.want {
				t.Errorf("Format(%#v, %v) = %q, %v; want %q", tt.v, c.fam, got, err, c.want)
				continue
			}
			back, err := Parse(got, ParseOptions{Family: c.fam})
			want := tt.v
			if o, ok := want.(*variant.Object); ok && o == nil {
				want = nil
			}
			if err != nil || !variant.Equal(back, want) {
				t.Errorf("Parse(%q, %v) = %#v, %v; want %#v", got, c.fam, back, err, want)
			}
		}
	}
}

func TestFormatMultiline(t *testing.T) {
	d := dict(variant.String("b"), dict(variant.Int(1), variant.NewArray()), variant.String("a"), variant.NewDictionary(0))
	for _, c := range []struct {
		fam  variant.Family
		want string
	}{
		{variant.Godot4, "{\n\"b\": {\n1: []\n},\n\"a\": {}\n}"},
		{variant.Godot3, "{\n\"b\": {\n1: [  ]\n},\n\"a\": {\n\n}\n}"},
	} {
		got, err := Format(d, Options{Family: c.fam, Multiline: true})
		if err != nil || got != c.want {
			t.Errorf("%v: Format(Multiline) = %q, %v; want %q", c.fam, got, err, c.want)
		}
	}
}

func TestAppend(t *testing.T) {
	b, err := Append([]byte("x = "), variant.Vector2{X: 1, Y: 2}, Options{})
	if err != nil || string(b) != "x = Vector2(1, 2)" {
		t.Errorf("Append = %q, %v", b, err)
	}
	b, err = Append([]byte("x = "), variant.StringName("a"), Options{Family: variant.Godot3})
	if err == nil || string(b) != "x = " {
		t.Errorf("Append on error = %q, %v; want the input unchanged and an error", b, err)
	}
}

func TestFormatErrors(t *testing.T) {
	self := variant.NewArray()
	self.Values = append(self.Values, self)
	tests := []struct {
		v    variant.Value
		fam  variant.Family
		want string
	}{
		{variant.Vector2i{}, variant.Godot3, "Vector2i does not exist in Godot 3"},
		{variant.NewArray(variant.Int(1), variant.StringName("x")), variant.Godot3, "StringName does not exist in Godot 3 (at [1])"},
		{&variant.Array{Elem: variant.Typed(variant.TypeInt)}, variant.Godot3, "typed Arrays do not exist in Godot 3"},
		{dict(variant.String("k"), variant.String("\xff")), variant.Godot4, `string "\xff" is not valid UTF-8 (at ["k"])`},
		{&variant.Object{Class: "Not a class"}, variant.Godot4, `object class "Not a class" is not an identifier`},
		{&variant.Array{Elem: variant.ContainerType{Kind: variant.Builtin}}, variant.Godot4, "invalid container element type Nil"},
		{self, variant.Godot4, "nesting deeper than 65536"},
		{variant.Int(1), variant.Family(5), "unknown engine family 5"},
	}
	for _, tt := range tests {
		got, err := Format(tt.v, Options{Family: tt.fam})
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("Format(%T, %v) = %q, %v; want an error containing %q", tt.v, tt.fam, got, err, tt.want)
		}
	}
}

func TestSyntaxErrorAs(t *testing.T) {
	_, err := Parse("[1,\n  2 3]", ParseOptions{})
	var se *SyntaxError
	if !errors.As(err, &se) {
		t.Fatalf("Parse error %v is not a *SyntaxError", err)
	}
	if se.Offset != 8 || se.Line != 2 || se.Column != 5 || err.Error() != "line 2, column 5: expected ',' or ']' in Array, found number 3" {
		t.Errorf("error = %+v (%q)", *se, err)
	}
}
