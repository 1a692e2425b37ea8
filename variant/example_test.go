package variant_test

import (
	"errors"
	"fmt"

	"github.com/gdvar/gdvar/variant"
)

func Example() {
	// {"name": "Ada", "pos": Vector2(1, 2)} as Godot 4's var_to_bytes writes it.
	d := variant.NewDictionary(2)
	d.Set(variant.String("name"), variant.String("Ada"))
	d.Set(variant.String("pos"), variant.Vector2{X: 1, Y: 2})
	data, err := variant.Encode(d)
	if err != nil {
		panic(err)
	}
	fmt.Printf("%x\n", data)

	v, n, err := variant.Decode(data)
	if err != nil {
		panic(err)
	}
	pos, _ := v.(*variant.Dictionary).Get(variant.String("pos"))
	fmt.Println(n, pos)
	// Output:
	// 1b0000000200000004000000040000006e616d650400000003000000416461000400000003000000706f7300050000000000803f00000040
	// 56 Vector2(1, 2)
}

func ExampleDecOptions_DecMode() {
	// A Godot 3 PoolStringArray ["a", "bc"].
	data := []byte{
		0x17, 0, 0, 0, 2, 0, 0, 0,
		2, 0, 0, 0, 'a', 0, 0, 0,
		3, 0, 0, 0, 'b', 'c', 0, 0,
	}
	dec, err := variant.DecOptions{Family: variant.Godot3}.DecMode()
	if err != nil {
		panic(err)
	}
	v, _, err := dec.Decode(data)
	fmt.Printf("%T %v %v\n", v, v, err)
	// Output: variant.PackedStringArray PackedStringArray("a", "bc") <nil>
}

func ExampleEncOptions_EncMode() {
	// An engine built with precision=double writes 64-bit components.
	enc, err := variant.EncOptions{Precision: variant.Double}.EncMode()
	if err != nil {
		panic(err)
	}
	data, _ := enc.Encode(variant.Vector2{X: 0.1, Y: 1})
	fmt.Printf("%x\n", data)

	// A Godot 4.2 peer cannot read typed arrays.
	old, _ := variant.EncOptions{Version: variant.Version{Major: 4, Minor: 2}}.EncMode()
	_, err = old.Encode(&variant.Array{Elem: variant.Typed(variant.TypeInt)})
	fmt.Println(err)
	// Output:
	// 050001009a9999999999b93f000000000000f03f
	// encode: byte 0 (Array): not supported by the target: typed Array cannot be read before Godot 4.3
}

func ExampleError() {
	// An Array whose second element, a Vector2, is cut short.
	data := []byte{0x1c, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 5, 0, 0, 0, 0, 0, 0x80, 0x3f}
	_, _, err := variant.Decode(data)
	fmt.Println(err)

	var e *variant.Error
	if errors.As(err, &e) {
		fmt.Println(e.Offset, e.Path, e.Type, e.Code, errors.Is(err, variant.ErrTruncated))
	}
	// Output:
	// decode: byte 12, [1] (Vector2): data truncated: need 8 bytes, have 4
	// 12 [1] Vector2 ERR_INVALID_DATA true
}

func ExampleColorFromString() {
	for _, s := range []string{"#ff8000", "f80c", "Alice Blue", "nope"} {
		c, ok := variant.ColorFromString(s)
		fmt.Printf("%-12q %v %v\n", s, c, ok)
	}
	// Output:
	// "#ff8000"    Color(1, 0.5019608, 0, 1) true
	// "f80c"       Color(1, 0.53333336, 0, 0.8) true
	// "Alice Blue" Color(0.9411765, 0.972549, 1, 1) true
	// "nope"       Color(0, 0, 0, 1) false
}

// Values print themselves in the Godot 4 text form.
func ExampleDictionary_String() {
	d := variant.NewDictionary(2)
	d.Set(variant.String("name"), variant.String("Ada"))
	d.Set(variant.String("pos"), variant.Vector2{X: 1, Y: 2.5})
	fmt.Println(d)
	fmt.Printf("%v %s\n", variant.Float(1), variant.StringName("idle"))
	fmt.Println(variant.NewArray(variant.Int(1), nil, variant.PackedByteArray{7, 8}))
	// Output:
	// { "name": "Ada", "pos": Vector2(1, 2.5) }
	// 1.0 &"idle"
	// [1, null, PackedByteArray(7, 8)]
}

// MaxBytes bounds the text of a value however large the value is.
func ExampleAppendText() {
	big := make(variant.PackedByteArray, 8<<20)
	text, err := variant.AppendText(nil, big, variant.TextOptions{MaxBytes: 30})
	fmt.Println(string(text), err)

	text, err = variant.AppendText(nil, variant.Quaternion{W: 1}, variant.TextOptions{Family: variant.Godot3})
	fmt.Println(string(text), err)
	// Output:
	// PackedByteArray(0, 0, 0, 0, 0,… <nil>
	// Quat( 0, 0, 0, 1 ) <nil>
}

// Godot 3 strings may hold surrogates and characters beyond U+10FFFF.
func ExampleDecodeStringGodot3() {
	s, ok := variant.DecodeStringGodot3([]byte("a\xed\xa0\xbd\xe0\x80\xaf"))
	fmt.Printf("%q %v\n", s, ok)
	r, n := variant.DecodeRuneGodot3(s[1:])
	fmt.Printf("%#x %d\n", r, n)
	fmt.Printf("% x\n", variant.AppendRuneGodot3(nil, 0x110000))
	// Output:
	// "a\xed\xa0\xbd/" true
	// 0xd83d 3
	// f4 90 80 80
}

// A budget shared by several decodes bounds the values they produce in
// all, whatever the size of each input.
func ExampleDecMode_DecodeBudget() {
	dm, _ := variant.DecOptions{}.DecMode()
	budget := int64(4)
	inputs := [][]byte{
		{2, 0, 0, 0, 7, 0, 0, 0},                                      // 7
		{28, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0},             // [null, null]
		{28, 0, 0, 0, 3, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, // [null, null, null]
	}
	for _, in := range inputs {
		v, _, err := dm.DecodeBudget(in, &budget)
		fmt.Println(variant.TypeOf(v), budget, errors.Is(err, variant.ErrTooLarge))
	}
	// Output:
	// int 3 false
	// Array 0 false
	// Nil 0 true
}

func ExampleMathValue() {
	// A Basis from its nine components as the engine stores them, row by
	// row; the Go struct holds the columns.
	b := variant.MathValue(variant.TypeBasis, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}).(variant.Basis)
	fmt.Println(b.X, b.Y, b.Z)
	// Output: Vector3(1, 4, 7) Vector3(2, 5, 8) Vector3(3, 6, 9)
}

func ExampleAppendComponents() {
	t := variant.Transform2D{X: variant.Vector2{X: 1}, Y: variant.Vector2{Y: 1}, Origin: variant.Vector2{X: 10, Y: 20}}
	names := variant.ComponentNames(t.Type())
	for i, c := range variant.AppendComponents(nil, t) {
		fmt.Printf("%s=%g ", names[i], c)
	}
	fmt.Println()
	// Output: x.x=1 x.y=0 y.x=0 y.y=1 origin.x=10 origin.y=20
}

func ExampleNewTypedDictionary() {
	d := variant.NewTypedDictionary(variant.Typed(variant.TypeString), variant.Typed(variant.TypeInt), 1)
	d.Set(variant.String("strength"), variant.Int(14))
	b, _ := variant.Encode(d)
	v, _, _ := variant.Decode(b)
	back := v.(*variant.Dictionary)
	fmt.Println(back.KeyType().Builtin, back.ValueType().Builtin)
	fmt.Println(back)
	// Output:
	// String int
	// Dictionary[String, int]({ "strength": 14 })
}
