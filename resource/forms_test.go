package resource

import (
	"bytes"
	"errors"
	"math"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// TestBinaryVariants: big-endian files, double-precision reals, every
// compression the engines write, and Godot 3 files read back as written.
func TestBinaryVariants(t *testing.T) {
	props := []variant.Property{
		{Name: "metadata/v", Value: variant.Vector3{X: 0.1, Y: -2, Z: 1e300}},
		{Name: "metadata/f", Value: variant.Float(0.1)},
		{Name: "metadata/n", Value: variant.Float(math.NaN())},
		{Name: "metadata/i", Value: variant.Int(-1 << 40)},
		{Name: "metadata/p", Value: variant.PackedVector2Array{{X: 1.5, Y: 0.1}}},
		{Name: "metadata/b", Value: variant.PackedByteArray{1, 2, 3, 4, 5}},
		{Name: "metadata/path", Value: variant.NodePath{Names: []string{"a", "b"}, Subnames: []string{"c"}, Absolute: true}},
		{Name: "metadata/d", Value: variant.NewDictionary(0)},
		{Name: "metadata/ref", Value: variant.ResourceRef{Kind: variant.RefPath, Path: "res://x.tres", Class: "Resource"}},
	}
	for _, c := range []struct {
		name string
		bi   BinaryInfo
		fam  variant.Family
		tol  float64
	}{
		{"big-endian", BinaryInfo{BigEndian: true}, variant.Godot4, 1e-7},
		{"double reals", BinaryInfo{RealDouble: true}, variant.Godot4, 0},
		{"zstd", BinaryInfo{Compressed: true, Compression: gdfile.Zstd}, variant.Godot4, 1e-7},
		{"deflate", BinaryInfo{Compressed: true, Compression: gdfile.Deflate}, variant.Godot4, 1e-7},
		{"fastlz", BinaryInfo{Compressed: true, Compression: gdfile.FastLZ}, variant.Godot4, 1e-7},
		{"godot3", BinaryInfo{}, variant.Godot3, 1e-7},
	} {
		f := &File{Family: c.fam, Type: "Resource", UID: NoUID, Binary: c.bi, Properties: props}
		if c.fam == variant.Godot3 {
			f.Properties = props[:len(props)-1]
		}
		b, err := f.EncodeBinary()
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		g, err := ReadBinary(b, Options{})
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		if g.Binary.BigEndian != c.bi.BigEndian || g.Binary.RealDouble != c.bi.RealDouble || g.Binary.Compressed != c.bi.Compressed || g.Family != c.fam {
			t.Errorf("%s: header %+v", c.name, g.Binary)
		}
		if d := Diff(f, g, DiffOptions{Tolerance: c.tol}); d != "" {
			t.Errorf("%s: %s", c.name, d)
		}
		if c.bi.RealDouble {
			if v, _ := getProp(g.Properties, "metadata/v"); v != props[0].Value {
				t.Errorf("double reals: %v", v)
			}
		}
	}
}

// TestCannotWrite: what a form or family cannot hold is refused.
func TestCannotWrite(t *testing.T) {
	for _, c := range []struct {
		name string
		f    *File
		text bool
	}{
		{"Vector2i in Godot 3", &File{Family: variant.Godot3, Type: "Resource", Properties: []variant.Property{{Name: "x", Value: variant.Vector2i{}}}}, false},
		{"Vector2i in Godot 3 text", &File{Family: variant.Godot3, Type: "Resource", Properties: []variant.Property{{Name: "x", Value: variant.Vector2i{}}}}, true},
		{"missing sub-resource", &File{Type: "Resource", Properties: []variant.Property{{Name: "x", Value: variant.ResourceRef{Kind: variant.RefSub, ID: "nope"}}}}, false},
		{"Godot 3 id with a leading zero", &File{Family: variant.Godot3, Type: "Resource", Sub: []*Resource{{ID: "01", Type: "Resource"}}}, true},
		{"Godot 3 id not a number", &File{Family: variant.Godot3, Type: "Resource", Sub: []*Resource{{ID: "abc", Type: "Resource"}}}, true},
		{"a full Object", &File{Type: "Resource", Properties: []variant.Property{{Name: "x", Value: &variant.Object{Class: "Node"}}}}, false},
		{"a property of a scene's PackedScene in text", &File{Type: "PackedScene", Scene: &Scene{}, Properties: []variant.Property{{Name: "resource_name", Value: variant.String("x")}}}, true},
		{"a scene's script in text", &File{Type: "PackedScene", Scene: &Scene{}, Properties: []variant.Property{{Name: "script", Value: variant.String("x")}}}, true},
		{"a property with an empty name in text", &File{Type: "Resource", Properties: []variant.Property{{Name: "", Value: variant.Int(1)}}}, true},
		{"a node's property with an empty name in text", &File{Type: "PackedScene", Scene: &Scene{Nodes: []Node{{Name: "n", Type: "Node", Index: -1, Properties: []variant.Property{{Name: "", Value: variant.Int(1)}}}}}}, true},
		{"PackedVector4Array before format 6", &File{Type: "Resource", Binary: BinaryInfo{Major: 4, Minor: 2, Format: 5}, Properties: []variant.Property{{Name: "x", Value: variant.PackedVector4Array{}}}}, false},
	} {
		var err error
		if c.text {
			_, err = c.f.EncodeText()
		} else {
			_, err = c.f.EncodeBinary()
		}
		if !errors.Is(err, ErrCannotWrite) {
			t.Errorf("%s: %v, want ErrCannotWrite", c.name, err)
		}
	}
}

// TestUID: uids print and parse as the engine writes them, and a File
// built without one (the zero UID) has none in either form.
func TestUID(t *testing.T) {
	for _, u := range []UID{1, 36, 1<<63 - 1, 4567890123456789} {
		s := u.String()
		if back, ok := ParseUID(s); !ok || back != u {
			t.Errorf("%d: %q reads as %d, %v", u, s, back, ok)
		}
	}
	if UID(0).String() != "" || NoUID.String() != "" || UID(1).String() != "uid://b" {
		t.Errorf("%q %q %q", UID(0).String(), NoUID.String(), UID(1).String())
	}
	for _, s := range []string{"uid://", "uid://<invalid>", "res://x", "uid://zzzzzzzzzzzzzz", "uid://99999999999999"} {
		if _, ok := ParseUID(s); ok {
			t.Errorf("%q parsed", s)
		}
	}
	f := &File{Type: "Resource"}
	text, _ := f.EncodeText()
	if string(text) != "[gd_resource type=\"Resource\" format=3]\n\n[resource]\n" {
		t.Errorf("text %q", text)
	}
	bin, _ := f.EncodeBinary()
	g, err := ReadBinary(bin, Options{})
	if err != nil || g.UID.Valid() {
		t.Errorf("binary: %v, %v", g.UID, err)
	}
}

// TestEmptySubID: a sub-resource's id may be empty, in text
// (id="") and in binary (path "local://"): Godot 4.6 loads both, the
// sub-resource at path "file::". Each form converts to the other.
func TestEmptySubID(t *testing.T) {
	text := []byte(`[gd_resource type="Resource" load_steps=2 format=3]

[sub_resource type="Resource" id=""]
resource_name = "x"

[resource]
metadata/next = SubResource("")
`)
	f, err := ReadText(text, Options{})
	if err != nil {
		t.Fatal(err)
	}
	bin, err := f.EncodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(bin, []byte("\x09\x00\x00\x00local://\x00")) {
		t.Fatalf("binary form has no path \"local://\": %q", bin)
	}
	back, err := ReadBinary(bin, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(f, back, DiffOptions{Untyped: true}); d != "" {
		t.Fatalf("binary form reads differently: %s", d)
	}
	again, err := back.EncodeText()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(again, []byte(`id=""`)) || !bytes.Contains(again, []byte(`SubResource("")`)) {
		t.Fatalf("text form lost the empty id:\n%s", again)
	}
}
