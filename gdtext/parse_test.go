package gdtext

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

var nan64bits = math.Float64frombits(0x7ff8000000000000)

// parseTests hold texts as the engines write them, the older spellings
// they still accept, and this package's own forms.
var parseTests = []struct {
	fam  variant.Family
	text string
	want variant.Value
}{
	{4, "  null ", nil},
	{4, "nil", nil},
	{4, "-9223372036854775808", variant.Int(math.MinInt64)},
	{4, "1.", variant.Float(1)},
	{4, "1E5", variant.Float(1e5)},
	{4, "-0.0", variant.Float(negZero)},
	{4, "inf_neg", variant.Float(-posInf)},
	{4, "-inf", variant.Float(-posInf)},
	{4, "nan", variant.Float(nan64bits)},
	{4, "1e999", variant.Float(posInf)},
	// Correctly rounded, unlike the engine's reader.
	{4, "0.9999999999999999", variant.Float(0.9999999999999999)},
	{4, "2.2250738585072014e-308", variant.Float(math.Float64frombits(0x0010000000000000))},
	{4, "5e-324", variant.Float(math.Float64frombits(1))},
	{4, "9007199254740993.0", variant.Float(9007199254740992)},
	{4, `"a\tb\n\"\\\/\q\u00e9\U01F600\uD83D\uDE00"`, variant.String("a\tb\n\"\\/qé😀😀")},
	{4, "\"two\nlines\"", variant.String("two\nlines")},
	{4, `&"name"`, variant.StringName("name")},
	{4, `@"name"`, variant.StringName("name")},
	{4, "{\n\"b\": 1,\n\"a\": [1, 2]\n}", dict(variant.String("b"), variant.Int(1), variant.String("a"), variant.NewArray(variant.Int(1), variant.Int(2)))},
	{4, `{"a": 1, &"a": 2, 1: 3, 1.0: 4}`, dict(variant.String("a"), variant.Int(2), variant.Int(1), variant.Int(3), variant.Float(1), variant.Int(4))},
	{4, "[1, 2,]", variant.NewArray(variant.Int(1), variant.Int(2))},
	{4, `{"a": 1,}`, dict(variant.String("a"), variant.Int(1))},
	{4, "; a comment\n[1, ; another\n2]", variant.NewArray(variant.Int(1), variant.Int(2))},
	{4, "Vector2( 1, 2.5 )", variant.Vector2{X: 1, Y: 2.5}},
	{4, "Vector2(inf, inf_neg)", variant.Vector2{X: posInf, Y: -posInf}},
	{4, "Quat(0, 0, 0, 1)", variant.Quaternion{W: 1}},
	{4, "Transform(1, 4, 7, 2, 5, 8, 3, 6, 9, 10, 11, 12)", variant.Transform3D{
		Basis:  variant.Basis{X: variant.Vector3{X: 1, Y: 2, Z: 3}, Y: variant.Vector3{X: 4, Y: 5, Z: 6}, Z: variant.Vector3{X: 7, Y: 8, Z: 9}},
		Origin: variant.Vector3{X: 10, Y: 11, Z: 12}}},
	{4, "Matrix32(1, 2, 3, 4, 5, 6)", variant.Transform2D{X: variant.Vector2{X: 1, Y: 2}, Y: variant.Vector2{X: 3, Y: 4}, Origin: variant.Vector2{X: 5, Y: 6}}},
	{4, "Color(0.1, 0.2, 0.3, 1)", variant.Color{R: 0.1, G: 0.2, B: 0.3, A: 1}},
	{4, "PoolIntArray(1, -2)", variant.PackedInt32Array{1, -2}},
	{4, "PackedFloat32Array(0.1, nan)", variant.PackedFloat32Array{0.1, math.Float32frombits(0x7fc00000)}},
	{4, `PackedByteArray("AQL/")`, variant.PackedByteArray{1, 2, 255}},
	{4, "PackedByteArray()", variant.PackedByteArray{}},
	{4, `NodePath("/root/a:b:c")`, variant.NodePath{Names: []string{"root", "a"}, Subnames: []string{"b", "c"}, Absolute: true}},
	{4, `NodePath(["a/b", ""], ["c:d"], false)`, variant.NodePath{Names: []string{"a/b", ""}, Subnames: []string{"c:d"}}},
	{4, "RID(-1)", variant.RID(math.MaxUint64)},
	{4, "RID()", variant.RID(0)},
	{4, "Signal()", variant.Signal{}},
	{4, `Signal(&"ready", 42)`, variant.Signal{Name: "ready", Object: 42}},
	{4, "Object(EncodedObjectAsID,\"object_id\":-9223372011303074533,\"script\":null)\n",
		variant.ObjectID(uint64(1<<63) + 25551701275)},
	{4, "Object(Node,)", &variant.Object{Class: "Node"}},
	{4, `Object(Resource,"resource_name":"x","script":null,)`, &variant.Object{Class: "Resource", Properties: []variant.Property{
		{Name: "resource_name", Value: variant.String("x")}, {Name: "script", Value: nil}}}},
	{4, "Array[int]([1, 2])", &variant.Array{Elem: variant.Typed(variant.TypeInt), Values: []variant.Value{variant.Int(1), variant.Int(2)}}},
	{4, "Array[Variant]([1])", variant.NewArray(variant.Int(1))},
	{4, "Array[Node]([])", &variant.Array{Elem: variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: "Node"}}},
	{4, `Array[Resource("uid://abc", "res://a.gd")]([])`, &variant.Array{Elem: variant.ContainerType{Kind: variant.Script, Builtin: variant.TypeObject, Name: "res://a.gd"}}},
	{4, "Dictionary[String, int]({\n\"a\": 1\n})", func() variant.Value {
		d := dict(variant.String("a"), variant.Int(1))
		d.SetTypes(variant.Typed(variant.TypeString), variant.Typed(variant.TypeInt))
		return d
	}()},

	{3, "Vector2( 1, 2 )", variant.Vector2{X: 1, Y: 2}},
	{3, "-inf.0", variant.Float(-posInf)},
	{3, "-1e999", variant.Float(-posInf)},
	{3, "[ -inf.0, inf ]", variant.NewArray(variant.Float(-posInf), variant.Float(posInf))},
	{3, "{\n\n}", variant.NewDictionary(0)},
	{3, "[  ]", variant.NewArray()},
	{3, `"\U0041\u00e9"`, variant.String("U0041é")},
	{3, "Quat( 0, 0, 0, 1 )", variant.Quaternion{W: 1}},
	{3, "Transform( 1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0 )", variant.Transform3D{Basis: variant.Basis{X: variant.Vector3{X: 1}, Y: variant.Vector3{Y: 1}, Z: variant.Vector3{Z: 1}}}},
	{3, "PoolRealArray( 0.1, 1e999 )", variant.PackedFloat32Array{0.1, float32(posInf)}},
	{3, "PoolColorArray( 1, 0, 0, 1 )", variant.PackedColorArray{{R: 1, A: 1}}},
	{3, "Object(Reference,\"script\":null)\n", &variant.Object{Class: "Reference", Properties: []variant.Property{{Name: "script", Value: nil}}}},
}

func TestParse(t *testing.T) {
	for _, tt := range parseTests {
		got, err := Parse(tt.text, ParseOptions{Family: tt.fam})
		if err != nil {
			t.Errorf("Parse(%q, %d): %v", tt.text, tt.fam, err)
			continue
		}
		if !variant.Equal(got, tt.want) {
			t.Errorf("Parse(%q, %d) = %#v, want %#v", tt.text, tt.fam, got, tt.want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	tests := []struct {
		fam       variant.Family
		text      string
		line, col int
		msg       string
	}{
		{4, "", 1, 1, "no value in the text"},
		{4, "  ; just a comment", 1, 19, "no value in the text"},
		{4, "1 2", 1, 3, "unexpected number 2 after the value"},
		{4, "[1 2]", 1, 4, "expected ',' or ']' in Array, found number 2"},
		{4, "[,1]", 1, 2, "expected a value, found ','"},
		{4, `{"a" 1}`, 1, 6, "expected ':' after Dictionary key, found number 1"},
		{4, "Vector2(1)", 1, 1, "Vector2 takes 2 numbers, found 1"},
		{4, "Vector2(1,)", 1, 11, "expected a number in Vector2, found ')'"},
		{4, "Color(1, 2, 3)", 1, 1, "Color takes 4 numbers, found 3"},
		{4, "Vector2i(1.5, 2)", 1, 10, "expected an integer, found 1.5"},
		{4, "Vector2i(4294967297, 2)", 1, 10, "integer 4294967297 out of the 32-bit range"},
		{4, "9223372036854775808", 1, 1, "integer 9223372036854775808 out of the 64-bit range"},
		{4, "PackedByteArray(1, 256)", 1, 20, "byte 256 out of the range 0..255"},
		{4, "PackedVector2Array(1, 2, 3)", 1, 1, "PackedVector2Array takes a multiple of 2 numbers, found 3"},
		{4, `PackedByteArray("a")`, 1, 17, "invalid base64 in PackedByteArray"},
		{4, "Transform3D(Basis(1, 0, 0, 0, 1, 0, 0, 0, 1), Vector3(0, 0, 0))", 1, 13, "expected a number in Transform3D, found identifier Basis"},
		{4, `StringName("a")`, 1, 1, "unknown identifier StringName"},
		{4, "foo", 1, 1, "unknown identifier foo"},
		{4, "\n\n  \"abc", 3, 3, "unterminated string"},
		{4, `"\uD83D"`, 1, 2, "unpaired UTF-16 surrogate in escape"},
		{4, `"\uDE00"`, 1, 2, "unpaired UTF-16 surrogate in escape"},
		{4, `"\u12"`, 1, 2, "malformed hex escape in string"},
		{4, `"\U110000"`, 1, 2, "escape beyond the last Unicode code point"},
		{4, "\"a\xffb\"", 1, 3, "invalid UTF-8 in string"},
		{4, "\x00", 1, 1, "unexpected NUL byte"},
		{4, ".5", 1, 1, "unexpected character '.'"},
		{4, "+1", 1, 1, "unexpected character '+'"},
		{4, "é", 1, 1, "unexpected character 'é'"},
		{4, "12abc", 1, 3, "unexpected identifier abc after the value"},
		{4, "[1x]", 1, 3, "expected ',' or ']' in Array, found identifier x"},
		{3, "1E5", 1, 2, "unexpected identifier E5 after the value"},
		{3, "[1E5]", 1, 3, "expected ',' or ']' in Array, found identifier E5"},
		{4, "- 1", 1, 1, "expected a digit after '-'"},
		{4, "Object(-Node,)", 1, 8, "unknown identifier -Node"},
		{4, `NodePath("a::b")`, 1, 10, "invalid node path (empty subname)"},
		{4, "Object(\"x\")", 1, 8, "expected the object's class name, found string"},
		{4, "Object(Node,1)", 1, 13, "expected a property name string in Object, found number 1"},
		{4, "Array[int](1)", 1, 12, "expected '[', found number 1"},
		{4, "[1", 1, 3, "expected ',' or ']' in Array, found end of text"},
		{3, "Vector2i(1, 2)", 1, 1, "Vector2i does not exist in Godot 3 text"},
		{3, "Array[int]([])", 1, 1, "Array does not exist in Godot 3 text"},
		{3, `&"x"`, 1, 1, "unexpected character '&'"},
		{3, "inf_neg.0", 1, 8, "unexpected character '.'"},
		{4, "-inf.0", 1, 5, "unexpected character '.'"},
	}
	for _, tt := range tests {
		v, err := Parse(tt.text, ParseOptions{Family: tt.fam})
		se, ok := err.(*SyntaxError)
		if !ok {
			t.Errorf("Parse(%q, %d) = %#v, %v; want a *SyntaxError", tt.text, tt.fam, v, err)
			continue
		}
		if se.Line != tt.line || se.Column != tt.col || se.Msg != tt.msg {
			t.Errorf("Parse(%q, %d): got line %d, column %d: %s\nwant line %d, column %d: %s",
				tt.text, tt.fam, se.Line, se.Column, se.Msg, tt.line, tt.col, tt.msg)
		}
	}
}

func TestParseOptions(t *testing.T) {
	if _, err := Parse("1", ParseOptions{Family: 7}); err == nil {
		t.Error("Parse with family 7: no error")
	}
	if _, err := Parse("1", ParseOptions{MaxDepth: -1}); err == nil {
		t.Error("Parse with a negative MaxDepth: no error")
	}
	if _, err := Parse("1", ParseOptions{MaxDepth: 1<<16 + 1}); err == nil {
		t.Error("Parse with MaxDepth 65537: no error")
	}
}

func TestParseDepth(t *testing.T) {
	nest := func(n int) string { return strings.Repeat("[", n) + "1" + strings.Repeat("]", n) }
	// The innermost value of n nested Arrays is at depth n.
	if _, err := Parse(nest(DefaultMaxDepth), ParseOptions{}); err != nil {
		t.Errorf("depth %d: %v", DefaultMaxDepth, err)
	}
	_, err := Parse(nest(DefaultMaxDepth+1), ParseOptions{})
	if se, ok := err.(*SyntaxError); !ok || se.Msg != "nesting deeper than 1024" || se.Offset != DefaultMaxDepth+1 {
		t.Errorf("depth %d: %v, want a nesting error at offset %d", DefaultMaxDepth+1, err, DefaultMaxDepth+1)
	}
	if _, err := Parse(`{"a": Object(Node,"p":[1])}`, ParseOptions{MaxDepth: 2}); err == nil {
		t.Error("MaxDepth 2: a value at depth 3 was accepted")
	}
	if _, err := Parse(`{"a": Object(Node,"p":[1])}`, ParseOptions{MaxDepth: 3}); err != nil {
		t.Errorf("MaxDepth 3: %v", err)
	}
	if _, err := Parse(nest(65536), ParseOptions{MaxDepth: 65536}); err != nil {
		t.Errorf("depth 65536 with MaxDepth 65536: %v", err)
	}
}

// TestDepthAgreesWithBinary checks that the text of the deepest value the
// binary decoder accepts parses back to it, and that one level more fails
// in both, for Arrays, Dictionary keys and values and Object properties.
func TestDepthAgreesWithBinary(t *testing.T) {
	wrap := map[string]func(variant.Value) variant.Value{
		"Array": func(v variant.Value) variant.Value { return variant.NewArray(v) },
		"Dictionary value": func(v variant.Value) variant.Value {
			d := variant.NewDictionary(1)
			d.Set(variant.Int(1), v)
			return d
		},
		"Dictionary key": func(v variant.Value) variant.Value {
			d := variant.NewDictionary(1)
			d.Set(v, variant.Int(1))
			return d
		},
		"Object property": func(v variant.Value) variant.Value {
			return &variant.Object{Class: "Node", Properties: []variant.Property{{Name: "p", Value: v}}}
		},
	}
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		enc, _ := variant.EncOptions{Family: fam, FullObjects: true, MaxDepth: 2 * variant.DefaultMaxDepth}.EncMode()
		dec, _ := variant.DecOptions{Family: fam, AllowObjects: true}.DecMode()
		for name, w := range wrap {
			var v variant.Value = variant.Int(7)
			for range variant.DefaultMaxDepth {
				v = w(v) // the Int is at depth DefaultMaxDepth
			}
			for extra := range 2 {
				b, err := enc.Encode(v)
				if err != nil {
					t.Fatal(err)
				}
				back, _, decErr := dec.Decode(b)
				text, err := Format(v, Options{Family: fam})
				if err != nil {
					t.Fatalf("%v %s: Format: %v", fam, name, err)
				}
				parsed, parseErr := Parse(text, ParseOptions{Family: fam})
				if extra == 0 {
					if decErr != nil || parseErr != nil {
						t.Errorf("%v %s: depth %d: decode: %v; parse: %v", fam, name, variant.DefaultMaxDepth, decErr, parseErr)
					} else if !variant.Equal(back, parsed) || !variant.Equal(v, parsed) {
						t.Errorf("%v %s: the text parses to another value", fam, name)
					}
				} else if !errors.Is(decErr, variant.ErrTooDeep) || parseErr == nil {
					t.Errorf("%v %s: depth %d: decode: %v; parse: %v; want both to fail", fam, name, variant.DefaultMaxDepth+1, decErr, parseErr)
				}
				v = w(v)
			}
		}
	}
}

// Numbers are read as the engines' tokenizer reads them (checked with
// testdata/str_to_var4.gd and str2var3.gd): an exponent without digits
// counts as none, Godot 3.2 knows no uppercase E, and a number ends at
// the first character that cannot continue it, which ParsePrefix leaves
// to its caller (str_to_var ignores it; Parse refuses it, see
// TestParseErrors).
func TestParseNumbers(t *testing.T) {
	for _, c := range []struct {
		fam  variant.Family
		text string
		want variant.Value
		rest string // what ParsePrefix leaves
	}{
		{4, "1e", variant.Float(1), ""},
		{4, "1e+", variant.Float(1), ""},
		{3, "1e", variant.Float(1), ""},
		{4, "[1e]", variant.NewArray(variant.Float(1)), ""},
		{3, "[1e]", variant.NewArray(variant.Float(1)), ""},
		{4, "1.e5", variant.Float(1e5), ""},
		{4, "1E5", variant.Float(1e5), ""},
		{4, "1.5E2", variant.Float(150), ""},
		{3, "1.5E2", variant.Float(1.5), "E2"},
		{3, "1E5", variant.Int(1), "E5"},
		{4, "[1E5]", variant.NewArray(variant.Float(1e5)), ""},
		{4, "1e--2", variant.Float(1), "-2"},
		{4, "1e5x", variant.Float(1e5), "x"},
		{4, "1.5.5", variant.Float(1.5), ".5"},
		{4, "-1e-2", variant.Float(-0.01), ""},
		{4, "01", variant.Int(1), ""},
	} {
		v, n, err := ParsePrefix(c.text, ParseOptions{Family: c.fam})
		if err != nil || !variant.Equal(v, c.want) || c.text[n:] != c.rest {
			t.Errorf("ParsePrefix(%q, %d) = %v, rest %q, %v; want %v, rest %q", c.text, c.fam, v, c.text[n:], err, c.want, c.rest)
		}
		if v, err := Parse(c.text, ParseOptions{Family: c.fam}); c.rest == "" && (err != nil || !variant.Equal(v, c.want)) {
			t.Errorf("Parse(%q, %d) = %v, %v; want %v", c.text, c.fam, v, err, c.want)
		}
	}
}

// With File, strings are read as the engines' file readers read them:
// what Godot 3.2.3's and 4.6's ConfigFile made of each (gdproject's
// TestEngine3ReadsFileStrings and TestEngine4ReadsFileStrings run them).
func TestFileStrings(t *testing.T) {
	for _, c := range []struct {
		text   string
		g3, g4 string
	}{
		{`"\u4e2d"`, "-", " "},
		{`"x\u0000y"`, "x", "x y"},
		{`"\u00e9"`, "é", "\uFFFD"},
		{"\"\xc3\\u00a9\"", "é", "é"},
		{"\"\xc3\xa9\\u0085\"", "Ã©\u0085", "é\uFFFD"},
		{`"\ud83d\ude00"`, "=", " "},
		{"\"\xff\"", "ÿ", "\uFFFD"},
		{"\"q\xc3\xa9\xff\"", "qÃ©ÿ", "qé\uFFFD"},
		{"\"\xed\xa0\xbd\xed\xb8\x80\"", "\xed\xa0\xbd\xed\xb8\x80", "\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"\"\xc6\xc6\xc6\xc6\"", "ÆÆ", "\uFFFD\uFFFD\uFFFD\uFFFD"},
		{"\"\\\xc3\xa9\"", "é", "é"},
		{"\"\xef\xbb\xbfa\"", "a", "a"},
		{`"plain é"`, "plain é", "plain é"},
	} {
		for _, f := range []variant.Family{variant.Godot3, variant.Godot4} {
			want := c.g4
			if f == variant.Godot3 {
				want = c.g3
			}
			v, err := Parse(c.text, ParseOptions{Family: f, File: true})
			if err != nil || v != variant.String(want) {
				t.Errorf("%v %q: %q, %v; want %q", f, c.text, v, err, want)
			}
		}
	}
	// Without File, invalid UTF-8 is refused, and escapes are str_to_var's.
	if _, err := Parse("\"\xff\"", ParseOptions{}); err == nil {
		t.Error("invalid UTF-8 read without File")
	}
	if v, _ := Parse(`"\u00e9"`, ParseOptions{}); v != variant.String("é") {
		t.Errorf(`"\u00e9" without File: %q`, v)
	}
}
