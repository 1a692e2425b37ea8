package variant

import (
	"fmt"
	"runtime"
	"strings"
	"testing"
	"unicode/utf8"
)

// oneOfEach holds a value of every Value type.
func oneOfEach() []Value {
	d := NewDictionary(0)
	d.Set(String("a"), Int(1))
	d.Set(Int(2), NewArray(Float(0.5), nil))
	return []Value{
		nil, Bool(true), Int(-3), Float(1), String("a\"b\n"), StringName("n"), NodePath{Names: []string{"a"}, Subnames: []string{"b"}, Absolute: true},
		RID(7), ObjectID(9), &Object{Class: "Node", Properties: []Property{{"name", String("x")}}}, Callable{}, Signal{Name: "s", Object: 4},
		d, &Array{Elem: Typed(TypeInt), Values: []Value{Int(1)}},
		Vector2{1, 2}, Vector2i{1, 2}, Rect2{}, Rect2i{}, Vector3{}, Vector3i{}, Transform2D{}, Vector4{}, Vector4i{},
		Plane{}, Quaternion{}, AABB{}, Basis{}, Transform3D{}, Projection{}, Color{1, 0, 0, 1},
		PackedByteArray{1, 2}, PackedInt32Array{3}, PackedInt64Array{4}, PackedFloat32Array{0.5}, PackedFloat64Array{0.25},
		PackedStringArray{"a"}, PackedVector2Array{{1, 2}}, PackedVector3Array{{1, 2, 3}}, PackedColorArray{{1, 1, 1, 1}},
		PackedVector4Array{{1, 2, 3, 4}},
	}
}

// TestStringIsText checks that every type prints itself, with %v, %s and
// %#v, as the Godot 4 text form.
func TestStringIsText(t *testing.T) {
	for _, v := range oneOfEach() {
		if v == nil {
			continue
		}
		b, err := AppendText(nil, v, TextOptions{})
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		want := string(b)
		if _, ok := v.(NodePath); ok {
			if got := fmt.Sprint(v); got != "/a:b" {
				t.Errorf("NodePath %%v = %q, want the path", got)
			}
		} else {
			for _, verb := range []string{"%v", "%s"} {
				if got := fmt.Sprintf(verb, v); got != want {
					t.Errorf("%T %s = %q, want %q", v, verb, got, want)
				}
			}
		}
		if got := fmt.Sprintf("%#v", v); got != want {
			t.Errorf("%T %%#v = %q, want %q", v, got, want)
		}
	}
	if got := fmt.Sprintf("%x", PackedByteArray{1, 0xab}); got != "01ab" {
		t.Errorf("PackedByteArray %%x = %q", got)
	}
	if got := fmt.Sprintf("%.9v", PackedByteArray{1, 2}); got != "PackedByt" {
		t.Errorf("PackedByteArray %%.9v = %q", got)
	}
}

// TestStringNeverFails checks what String writes for values the text form
// cannot express.
func TestStringNeverFails(t *testing.T) {
	loop := NewArray(nil)
	loop.Values[0] = loop
	tests := []struct {
		v    Value
		want string
	}{
		{String("a\xffb"), "\"a\uFFFDb\""}, // U+FFFD as itself
		{&Object{Class: "not a class"}, `Object(not a class,)`},
		{&Array{Elem: ContainerType{Kind: Script}}, `Array[Resource("")]([])`},
		{&Array{Elem: ContainerType{Kind: 9}}, `Array[Variant]([])`},
	}
	if got := fmt.Sprint((*Dictionary)(nil), (*Array)(nil), (*Object)(nil)); got != "{} [] null" {
		t.Errorf("nil pointers print as %q", got)
	}
	for _, tt := range tests {
		if _, err := AppendText(nil, tt.v, TextOptions{}); err == nil {
			t.Errorf("AppendText(%s) did not fail", tt.want)
		}
		if got := fmt.Sprint(tt.v); got != tt.want {
			t.Errorf("String = %q, want %q", got, tt.want)
		}
	}
	s := loop.String()
	if !strings.HasPrefix(s, "[[[[") || !strings.Contains(s, "["+TextCut+"]") || !strings.HasSuffix(s, "]]]]") {
		t.Errorf("self-containing Array: %.20s…%s", s, s[len(s)-20:])
	}
}

// TestTextMaxBytes checks that a cut text is the start of the full text,
// cut at a character boundary, followed by TextCut, and no longer than
// MaxBytes+len(TextCut); a text within the limit is not cut.
func TestTextMaxBytes(t *testing.T) {
	d := NewDictionary(0)
	d.Set(String("é€😀 long key"), PackedFloat64Array{0.1, 0.2, 0.3})
	d.Set(Int(1), NewArray(String(strings.Repeat("x\n", 50)), Vector3{1, 2, 3}, &Object{Class: "Node", Properties: []Property{{"a", Int(1)}}}))
	values := append(oneOfEach(), d, String(strings.Repeat("😀", 40)))
	for _, fam := range []Family{Godot4, Godot3} {
		for _, v := range values {
			if _, ok := TypeOf(v).ID(fam); !ok {
				continue
			}
			full, err := AppendText(nil, v, TextOptions{Family: fam})
			if err != nil {
				continue // typed containers in Godot 3
			}
			for limit := 1; limit <= len(full)+1; limit++ {
				got, err := AppendText([]byte("prefix"), v, TextOptions{Family: fam, MaxBytes: limit})
				if err != nil {
					t.Fatalf("%v %s limit %d: %v", fam, full, limit, err)
				}
				if string(got[:6]) != "prefix" {
					t.Fatalf("dst lost")
				}
				got = got[6:]
				if limit >= len(full) {
					if string(got) != string(full) {
						t.Errorf("%v limit %d: %q, want %q uncut", fam, limit, got, full)
					}
					continue
				}
				body, ok := strings.CutSuffix(string(got), TextCut)
				if !ok || !strings.HasPrefix(string(full), body) || len(got) > limit+len(TextCut) ||
					len(body) < limit-utf8.UTFMax+1 || !utf8.ValidString(body) && utf8.ValidString(string(full)) {
					t.Errorf("%v limit %d: %q, from %q", fam, limit, got, full)
				}
			}
		}
	}
}

// TestTextMaxBytesMemory checks that a bounded text of a huge value costs
// memory in proportion to the limit, not to the value.
func TestTextMaxBytesMemory(t *testing.T) {
	big := make(PackedByteArray, 8<<20)
	for i := range big {
		big[i] = 200
	}
	many := make([]Value, 1<<20)
	for i := range many {
		many[i] = Int(123456789)
	}
	values := map[string]Value{
		"PackedByteArray 8 MiB":  big,
		"String 8 MiB":           String(strings.Repeat("a", 8<<20)),
		"String 8 MiB escaped":   String(strings.Repeat("\n", 8<<20)),
		"PackedStringArray":      PackedStringArray{strings.Repeat("b", 8<<20)},
		"Array of 1M ints":       NewArray(many...),
		"PackedFloat64Array 1M":  make(PackedFloat64Array, 1<<20),
		"Dictionary in an Array": NewArray(func() Value { d := NewDictionary(0); d.Set(String("k"), big); return d }()),
	}
	const limit = 4096
	buf := make([]byte, 0, 2*limit)
	for name, v := range values {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		const runs = 10
		for range runs {
			out, err := AppendText(buf[:0], v, TextOptions{MaxBytes: limit})
			if err != nil || !strings.HasSuffix(string(out), TextCut) {
				t.Fatalf("%s: %.40q… %v", name, out, err)
			}
		}
		runtime.ReadMemStats(&after)
		if per := (after.TotalAlloc - before.TotalAlloc) / runs; per > 4*limit {
			t.Errorf("%s: %d bytes allocated per bounded text of %d bytes", name, per, limit)
		}
	}
}
