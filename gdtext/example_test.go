package gdtext_test

import (
	"errors"
	"fmt"
	"math"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
)

func ExampleFormat() {
	d := variant.NewDictionary(2)
	d.Set(variant.String("pos"), variant.Vector2{X: 1, Y: 2.5})
	d.Set(variant.String("tags"), variant.PackedStringArray{"a", "line\nbreak"})
	text, err := gdtext.Format(d, gdtext.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(text)
	// Output:
	// { "pos": Vector2(1, 2.5), "tags": PackedStringArray("a", "line\nbreak") }
}

func ExampleFormat_godot3() {
	v := variant.NewArray(variant.Quaternion{W: 1}, variant.PackedInt32Array{1, 2}, variant.Float(math.Inf(-1)))
	text, err := gdtext.Format(v, gdtext.Options{Family: variant.Godot3})
	if err != nil {
		panic(err)
	}
	fmt.Println(text)

	_, err = gdtext.Format(variant.Vector2i{X: 1, Y: 2}, gdtext.Options{Family: variant.Godot3})
	fmt.Println(err)
	// Output:
	// [ Quat( 0, 0, 0, 1 ), PoolIntArray( 1, 2 ), -1e999 ]
	// gdtext: Vector2i does not exist in Godot 3
}

func ExampleFormat_multiline() {
	d := variant.NewDictionary(2)
	d.Set(variant.String("b"), variant.Int(1))
	d.Set(variant.String("a"), variant.Float(0.1))
	text, _ := gdtext.Format(d, gdtext.Options{Multiline: true})
	fmt.Println(text)
	// Output:
	// {
	// "b": 1,
	// "a": 0.1
	// }
}

func ExampleAppend() {
	b := []byte("position = ")
	b, err := gdtext.Append(b, variant.Vector3{X: 1, Y: 0.5, Z: -2}, gdtext.Options{})
	if err != nil {
		panic(err)
	}
	fmt.Println(string(b))
	// Output:
	// position = Vector3(1, 0.5, -2)
}

func ExampleParse() {
	v, err := gdtext.Parse(`{ "hp": 99.5, "name": &"player", "items": Array[int]([1, 2]) }`, gdtext.ParseOptions{})
	if err != nil {
		panic(err)
	}
	d := v.(*variant.Dictionary)
	for k, e := range d.All() {
		fmt.Println(k, variant.TypeOf(e))
	}
	items, _ := d.Get(variant.String("items"))
	a := items.(*variant.Array)
	fmt.Println(a.Elem.Builtin, a.Values)
	// Output:
	// "hp" float
	// "name" StringName
	// "items" Array
	// int [1 2]
}

func ExampleParse_object() {
	v, err := gdtext.Parse("Object(Resource,\"resource_name\":\"x\",\"script\":null)\n", gdtext.ParseOptions{})
	if err != nil {
		panic(err)
	}
	o := v.(*variant.Object)
	fmt.Println(o.Class, len(o.Properties))
	name, _ := o.Get("resource_name")
	fmt.Println(name)

	id, _ := gdtext.Parse(`Object(EncodedObjectAsID,"object_id":1234,"script":null)`, gdtext.ParseOptions{})
	fmt.Printf("%T %d\n", id, id)
	// Output:
	// Resource 2
	// "x"
	// variant.ObjectID 1234
}

func ExampleParse_godot3() {
	v, err := gdtext.Parse("[ Vector2( 1, 2 ), -inf.0, PoolRealArray( 0.5 ) ]", gdtext.ParseOptions{Family: variant.Godot3})
	if err != nil {
		panic(err)
	}
	fmt.Println(v)
	// Output:
	// [Vector2(1, 2), inf_neg, PackedFloat32Array(0.5)]
}

func ExampleSyntaxError() {
	_, err := gdtext.Parse("[1,\n 2 3]", gdtext.ParseOptions{})
	var se *gdtext.SyntaxError
	if errors.As(err, &se) {
		fmt.Println(se.Offset, se.Line, se.Column)
		fmt.Println(err)
	}
	// Output:
	// 7 2 4
	// line 2, column 4: expected ',' or ']' in Array, found number 3
}

// MaxBytes cuts the text of a large value without formatting the rest.
func ExampleFormat_maxBytes() {
	samples := make(variant.PackedFloat32Array, 1<<20)
	text, err := gdtext.Format(samples, gdtext.Options{MaxBytes: 40})
	fmt.Println(text, err)
	// Output:
	// PackedFloat32Array(0, 0, 0, 0, 0, 0, 0, … <nil>
}

// Godot 3 strings can hold surrogates, which its text writes as escapes.
func ExampleFormat_godot3Surrogate() {
	m, _ := variant.DecOptions{Family: variant.Godot3}.DecMode()
	v, _, err := m.Decode([]byte("\x04\x00\x00\x00\x03\x00\x00\x00\xed\xa0\xbd\x00"))
	if err != nil {
		panic(err)
	}
	text, _ := gdtext.Format(v, gdtext.Options{Family: variant.Godot3})
	fmt.Println(text)
	back, _ := gdtext.Parse(text, gdtext.ParseOptions{Family: variant.Godot3})
	fmt.Printf("%q\n", string(back.(variant.String)))
	// Output:
	// "\ud83d"
	// "\xed\xa0\xbd"
}
