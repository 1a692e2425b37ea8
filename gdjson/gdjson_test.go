package gdjson

import (
	"math"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

func TestParseErrors(t *testing.T) {
	cases := []struct {
		text string
		form Form
		want string
	}{
		{``, Plain, "line 1, column 1: expected a value, got the end of the text"},
		{`[1, 2`, Plain, "line 1, column 6: expected ']'"},
		{"{\n  \"a\" 1}", Plain, "line 2, column 7: expected ':'"},
		{`{"a": 1} x`, Plain, "line 1, column 10: expected the end of the text"},
		{`"\v"`, Plain, `invalid escape sequence \v`},
		{`"\ud800"`, Plain, "unpaired lead surrogate"},
		{`nul`, Plain, `expected true, false or null, got "nul"`},
		{`[,]`, Plain, "expected a value, got ','"},
		{`"x"`, Typed, `line 1, column 1: a string needs a type prefix (i:, f:, s:, sn:, np:), got "x"`},
		{`1`, Typed, `a bare number has no type: write "i:1" or "f:1"`},
		{`"i:1.5"`, Typed, `invalid int "1.5"`},
		{`{"args":[1]}`, Typed, `needs a "type"`},
		{`{"type":"Vector2","args":[1]}`, Typed, "Vector2 takes 2 args, got 1"},
		{`{"type":"Color","args":[1,0,0]}`, Typed, "Color takes 4 args, got 3"},
		{`{"type":"Vector3i","args":[1,2]}`, Typed, "Vector3i takes 3 args, got 2"},
		{`{"type":"Transform3D","args":[1,2]}`, Typed, "Transform3D takes 12 args, got 2"},
		{`{"type":"PackedColorArray","args":[1,0,0,1,0]}`, Typed, "PackedColorArray takes a multiple of 4 args, got 5"},
		{`{"type":"PackedVector3Array","args":[1,0]}`, Typed, "PackedVector3Array takes a multiple of 3 args, got 2"},
		{`{"type":"Vector2","args":[1,"x"]}`, Typed, ".args[1]: expected a number"},
		{`{"type":"int","args":[]}`, Typed, "type int is written as a prefixed string"},
		{`{"type":"Node","props":[]}`, Typed, "a full object (Node) needs AllowObjects"},
		{`{"type":"Array","elem_type":"int","args":["s:a"]}`, Typed, "[0]: a String in an Array[int]"},
		{`{"type":"Array","elem_type":"Node","args":[]}`, Typed, "a container of objects (Node) needs AllowObjects"},
		{`{"type":"Dictionary","args":["i:1"]}`, Typed, "an even number of args"},
		{`["s:a", {"type":"Dictionary","args":["s:k", "bad"]}]`, Typed, `[1]["k"]: a string needs a type prefix`},
		{`{"type":"Resource","props":["script","s:x.gd"]}`, Typed, "script must be a res:// path"},
		{`{"type":"1nvalid","props":[]}`, Typed, `invalid type "1nvalid"`},
	}
	for _, c := range cases {
		_, err := Parse(c.text, ParseOptions{Form: c.form})
		if c.text == `{"type":"Resource","props":["script","s:x.gd"]}` {
			_, err = Parse(c.text, ParseOptions{Form: c.form, AllowObjects: true})
		}
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("Parse(%q): %v, want %q", c.text, err, c.want)
		}
	}
	deep := strings.Repeat("[", 2000) + strings.Repeat("]", 2000)
	if _, err := Parse(deep, ParseOptions{}); err == nil || !strings.Contains(err.Error(), "nested more than 1024") {
		t.Errorf("deep: %v", err)
	}
}

func TestParseLikeTheEngine(t *testing.T) {
	// Trailing commas, control characters as white space, numbers as floats.
	v, err := Parse("\x01[1, 2.5, {\"a\": -0,},]\x02", ParseOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d := variant.NewDictionary(1)
	d.Set(variant.String("a"), variant.Float(math.Copysign(0, -1)))
	if want := variant.NewArray(variant.Float(1), variant.Float(2.5), d); !variant.Equal(v, want) {
		t.Errorf("got %v", v)
	}
	// Repeated keys: the last wins; \u escapes join surrogate pairs.
	v, _ = Parse(`{"k": 1, "k": "\ud83d\ude00"}`, ParseOptions{})
	if got, _ := v.(*variant.Dictionary).Get(variant.String("k")); got != variant.String("😀") {
		t.Errorf("got %v", got)
	}
}

func TestTypedPrecision(t *testing.T) {
	text := `{"type":"Vector2","args":[0.1,1e99999]}`
	v, _ := Parse(text, ParseOptions{Form: Typed})
	if want := (variant.Vector2{X: float64(float32(0.1)), Y: math.Inf(1)}); v != want {
		t.Errorf("single: %v", v)
	}
	v, _ = Parse(text, ParseOptions{Form: Typed, Double: true})
	if want := (variant.Vector2{X: 0.1, Y: math.Inf(1)}); v != want {
		t.Errorf("double: %v", v)
	}
	// Double-precision components are written with all their digits.
	s, _ := Format(variant.Vector2{X: 0.1, Y: 1.0 / 3}, Options{Form: Typed})
	if s != `{"args":[0.1,0.3333333333333333],"type":"Vector2"}` {
		t.Errorf("double written: %s", s)
	}
	// NaN, which JSON lacks, is null, and reads back as NaN.
	s, _ = Format(variant.Vector2{X: math.NaN()}, Options{Form: Typed})
	v, _ = Parse(s, ParseOptions{Form: Typed})
	if s != `{"args":[null,0.0],"type":"Vector2"}` || !math.IsNaN(v.(variant.Vector2).X) {
		t.Errorf("NaN: %s %v", s, v)
	}
}

func TestFormatErrorsAndOptions(t *testing.T) {
	obj := &variant.Object{Class: "Resource", Properties: []variant.Property{{Name: "resource_name", Value: variant.String("x")}}}
	if _, err := Format(variant.NewArray(obj), Options{Form: Typed}); err == nil || !strings.Contains(err.Error(), "[0]: a full object needs FullObjects") {
		t.Errorf("object: %v", err)
	}
	if _, err := Format(variant.ObjectID(5), Options{Form: Typed}); err == nil {
		t.Error("an instance ID was written")
	}
	a := variant.NewArray()
	a.Values = append(a.Values, a)
	if _, err := Format(a, Options{}); err == nil || !strings.Contains(err.Error(), "holds itself") {
		t.Errorf("cycle: %v", err)
	}
	d := variant.NewDictionary(2)
	d.Set(variant.String("b"), variant.Int(1))
	d.Set(variant.String("a"), variant.NewArray())
	for _, c := range []struct {
		o    Options
		want string
	}{
		{Options{}, `{"a":[],"b":1}`},
		{Options{KeepOrder: true}, `{"b":1,"a":[]}`},
		{Options{Indent: " "}, "{\n \"a\": [],\n \"b\": 1\n}"},
		{Options{Form: Typed}, `{"args":["s:b","i:1","s:a",[]],"type":"Dictionary"}`},
		{Options{Form: Typed, KeepOrder: true}, `{"type":"Dictionary","args":["s:b","i:1","s:a",[]]}`},
	} {
		if got, err := Format(d, c.o); err != nil || got != c.want {
			t.Errorf("%+v: %q %v, want %q", c.o, got, err, c.want)
		}
	}
	b, err := Append([]byte("x="), variant.Int(1), Options{})
	if err != nil || string(b) != "x=1" {
		t.Errorf("Append: %q %v", b, err)
	}
}

func TestNumbers(t *testing.T) {
	for _, c := range []struct {
		x    float64
		want string
	}{
		{1, "1.0"}, {0.1, "0.1"}, {1.0 / 3, "0.33333333333333"}, {1e20, "100000000000000000000.0"},
		{-2.5e-5, "-0.000025"}, {math.Inf(-1), "-inf"}, {math.NaN(), "nan"}, {123456.789, "123456.789"},
	} {
		if got := numReal(c.x, true); got != c.want {
			t.Errorf("numReal(%v) = %s, want %s", c.x, got, c.want)
		}
	}
	if got := typedFloat(1.0 / 3); got != "0.3333333333333333" {
		t.Errorf("typedFloat(1/3) = %s", got)
	}
	if got := typedFloat(math.Copysign(0, -1)); got != "-0.0" {
		t.Errorf("typedFloat(-0) = %s", got)
	}
}

// The plain form is lossy, but stable: the text of what Parse reads is a
// fixed point, written and read again it stays the same.
func TestPlainRoundTrip(t *testing.T) {
	for _, l := range loadGolden(t) {
		if l.Name == "" || l.Name == "string escapes" {
			continue // the engine writes \v, which no JSON reader takes
		}
		v, err := Parse(l.Plain, ParseOptions{})
		if err != nil {
			t.Errorf("%s: Parse(%s): %v", l.Name, l.Plain, err)
			continue
		}
		once, err := Format(v, Options{})
		if err != nil {
			t.Fatal(err)
		}
		v2, err := Parse(once, ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		twice, _ := Format(v2, Options{})
		v3, _ := Parse(twice, ParseOptions{})
		if twice != once || !variant.Equal(v2, v3) {
			t.Errorf("%s: %s then %s", l.Name, once, twice)
		}
	}
}
