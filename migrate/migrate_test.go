package migrate

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

func dict(kv ...variant.Value) *variant.Dictionary {
	d := variant.NewDictionary(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

func TestTo4KeepsValues(t *testing.T) {
	v := dict(variant.String("pos"), variant.Vector2{X: 1, Y: 2},
		variant.String("xform"), variant.Transform3D{Origin: variant.Vector3{X: 1}},
		variant.String("pool"), variant.PackedInt32Array{1, 2},
		variant.String("list"), variant.NewArray(variant.Float(0.1), nil, variant.RID(0)))
	out, warnings, err := Value(v, Options{})
	if err != nil || len(warnings) != 0 {
		t.Fatal(err, warnings)
	}
	if !variant.Equal(out, v) {
		t.Error("the value changed")
	}
	if out == variant.Value(v) {
		t.Error("the Dictionary was not copied")
	}
}

func TestTo4Objects(t *testing.T) {
	spatial := &variant.Object{Class: "Spatial", Properties: []variant.Property{{Name: "name", Value: variant.String("Player")}, {Name: "script"}}}
	out, warnings, err := Value(variant.NewArray(spatial), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(warnings) != 1 || warnings[0].Path != "[0]" || !strings.Contains(warnings[0].Message, "Node3D") {
		t.Errorf("warnings %v", warnings)
	}
	if out.(*variant.Array).Values[0].(*variant.Object).Class != "Spatial" {
		t.Error("the class was renamed without RenameClasses")
	}
	out, _, _ = Value(spatial, Options{RenameClasses: true})
	if out.(*variant.Object).Class != "Node3D" {
		t.Error("RenameClasses did not rename")
	}
	scripted := &variant.Object{Class: "Resource", Properties: []variant.Property{{Name: "script",
		Value: &variant.Object{Class: "GDScript", Properties: []variant.Property{{Name: "script/source", Value: variant.String("extends Resource")}}}}}}
	_, _, err = Value(dict(variant.String("item"), scripted), Options{})
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrNoEquivalent) || e.Path != `["item"].script` {
		t.Errorf("embedded script: %v", err)
	}
}

func TestTo3(t *testing.T) {
	to3 := Options{To: variant.Godot3}
	ok := []variant.Value{
		variant.Int(1 << 40), variant.Float(0.1), variant.Vector2{X: 0.5, Y: float64(float32(1e30))},
		variant.PackedFloat32Array{1.5}, variant.RID(0), dict(variant.Int(1), variant.String("x")),
		variant.NodePath{}, variant.NodePath{Absolute: true, Names: []string{"root"}},
		variant.NodePath{Absolute: true, Subnames: []string{"x"}},
	}
	for _, v := range ok {
		out, _, err := Value(v, to3)
		if err != nil || !variant.Equal(out, v) {
			t.Errorf("%v: %v", v, err)
		}
	}
	typed := &variant.Array{Elem: variant.Typed(variant.TypeInt), Values: []variant.Value{variant.Int(1)}}
	bad := []struct {
		v    variant.Value
		path string
		why  string
	}{
		{variant.Vector2i{X: 1}, "", "Godot 3 has no Vector2i"},
		{dict(variant.String("id"), variant.StringName("x")), `["id"]`, "no StringName"},
		{variant.NewArray(nil, typed), "[1]", "no typed Arrays"},
		{variant.NewArray(variant.Vector2{X: 0.1}), "[0]", "double precision"},
		{variant.RID(7), "", "id of a RID"},
		{variant.NewArray(variant.NodePath{Absolute: true}), "[0]", "absolute flag of an empty NodePath"},
		{variant.Signal{Name: "s"}, "", "no Signal"},
		{variant.PackedInt64Array{1}, "", "no PackedInt64Array"},
		{&variant.Object{Class: "Resource", Properties: []variant.Property{{Name: "script", Value: variant.String("res://a.gd")}}}, ".script", "by its path"},
	}
	for _, c := range bad {
		_, _, err := Value(c.v, to3)
		var e *Error
		if !errors.As(err, &e) || e.Path != c.path || !strings.Contains(err.Error(), c.why) {
			t.Errorf("%#v: %v, want path %q and %q", c.v, err, c.path, c.why)
		}
	}
	// Lossy keeps the data and says what changed.
	lossy := Options{To: variant.Godot3, Lossy: true}
	out, warnings, err := Value(dict(variant.StringName("id"), variant.NewArray(typed, variant.Vector2i{X: 3, Y: 4}, variant.PackedInt64Array{5})), lossy)
	if err != nil {
		t.Fatal(err)
	}
	want := dict(variant.String("id"), variant.NewArray(variant.NewArray(variant.Int(1)), variant.Vector2{X: 3, Y: 4}, variant.PackedInt32Array{5}))
	if !variant.Equal(out, want) || len(warnings) != 4 {
		t.Errorf("lossy: %v %v", out, warnings)
	}
	if out, warnings, err := Value(variant.NodePath{Absolute: true}, lossy); err != nil || !variant.Equal(out, variant.NodePath{}) || len(warnings) != 1 {
		t.Errorf(`lossy NodePath "/": %v %v %v`, out, warnings, err)
	}
	if _, _, err := Value(variant.PackedInt64Array{1 << 40}, lossy); err == nil {
		t.Error("lossy accepted a PackedInt64Array element that does not fit")
	}
}

func TestRenamedClass(t *testing.T) {
	if n, ok := RenamedClass("KinematicBody", variant.Godot4); !ok || n != "CharacterBody3D" {
		t.Errorf("KinematicBody: %q %v", n, ok)
	}
	if n, ok := RenamedClass("CharacterBody3D", variant.Godot3); !ok || n != "KinematicBody" {
		t.Errorf("CharacterBody3D: %q %v", n, ok)
	}
	if n, ok := RenamedClass("YSort", variant.Godot4); !ok || n != "" {
		t.Errorf("YSort: %q %v", n, ok)
	}
	if _, ok := RenamedClass("Resource", variant.Godot4); ok {
		t.Error("Resource was renamed")
	}
}

func TestCycle(t *testing.T) {
	a := variant.NewArray()
	a.Values = append(a.Values, a)
	if _, _, err := Value(a, Options{}); err == nil {
		t.Error("a value holding itself converted")
	}
}

// Godot 3 strings that Godot 4 cannot hold: a surrogate pair (CESU-8)
// becomes its character wherever a string is; an unpaired surrogate or a
// character above U+10FFFF is an *Error naming its place, or with Lossy
// U+FFFD and one warning a string.
func TestTo4Strings(t *testing.T) {
	pair := "\xed\xa0\xbd\xed\xb8\x80" // U+D83D U+DE00, as Godot 3 writes them
	lone := "\xed\xb0\x80"             // U+DC00
	big := "\xf4\x90\x80\x80"          // U+110000
	obj := &variant.Object{Class: "C" + pair, Properties: []variant.Property{{Name: "p" + pair, Value: variant.String(pair)}}}
	v := variant.NewArray(variant.String(pair+"x"), variant.PackedStringArray{"a", pair},
		dict(variant.String(pair), variant.NodePath{Names: []string{"root", pair}, Subnames: []string{pair}}), obj)
	out, warnings, err := Value(v, Options{})
	if err != nil || len(warnings) != 0 {
		t.Fatal(err, warnings)
	}
	enc, err := variant.EncOptions{FullObjects: true}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	dec, err := variant.DecOptions{AllowObjects: true}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	b, err := enc.Encode(out)
	if err != nil {
		t.Fatal(err)
	}
	got, _, err := dec.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	want := variant.NewArray(variant.String("😀x"), variant.PackedStringArray{"a", "😀"},
		dict(variant.String("😀"), variant.NodePath{Names: []string{"root", "😀"}, Subnames: []string{"😀"}}),
		&variant.Object{Class: "C😀", Properties: []variant.Property{{Name: "p😀", Value: variant.String("😀")}}})
	if !variant.Equal(got, want) {
		t.Errorf("got %v", got)
	}
	if !variant.Equal(v.Values[1], variant.PackedStringArray{"a", pair}) {
		t.Error("the input changed")
	}
	for _, bad := range []struct {
		v          variant.Value
		path, what string
	}{
		{variant.NewArray(variant.String("a" + lone)), "[0]", "unpaired surrogate U+DC00 (byte 1 "},
		{variant.NewArray(variant.String(pair[:3] + "x")), "[0]", "unpaired surrogate U+D83D (byte 0 "},
		{dict(variant.String("k"), variant.PackedStringArray{big}), `["k"]`, "character U+110000 (byte 0 "},
		{&variant.Object{Class: "C", Properties: []variant.Property{{Name: lone}}}, "." + lone, "unpaired surrogate"},
	} {
		_, _, err := Value(bad.v, Options{})
		var e *Error
		if !errors.As(err, &e) || e.Path != bad.path || !strings.Contains(e.Reason, bad.what) {
			t.Errorf("%v: %v", bad.v, err)
		}
		out, warnings, err := Value(bad.v, Options{Lossy: true})
		if err != nil || len(warnings) != 1 || !strings.Contains(warnings[0].Message, "U+FFFD") {
			t.Errorf("lossy %v: %v %v", bad.v, err, warnings)
			continue
		}
		if _, err := enc.Encode(out); err != nil {
			t.Errorf("lossy %v: %v", bad.v, err)
		}
	}
}
