package resource

import (
	"bytes"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// TestTextRoundTrip: every text file the engines wrote reads and writes
// back; where the engine's text is exact (no sorted Dictionaries, no
// rounded Godot 3 floats) byte for byte.
func TestTextRoundTrip(t *testing.T) {
	for _, dir := range []string{"godot4", "godot3"} {
		for name, data := range engineFiles(t, dir, ".tres", ".tscn") {
			f, err := ReadText(data, Options{})
			if err != nil {
				t.Errorf("%s/%s: %v", dir, name, err)
				continue
			}
			out, err := f.EncodeText()
			if err != nil {
				t.Errorf("%s/%s: encode: %v", dir, name, err)
				continue
			}
			if !bytes.Equal(out, data) {
				t.Errorf("%s/%s: written back differs at byte %d", dir, name, firstDiff(out, data))
			}
			g, err := ReadText(out, Options{})
			if err != nil {
				t.Errorf("%s/%s: reading back: %v", dir, name, err)
				continue
			}
			if d := Diff(f, g, DiffOptions{}); d != "" {
				t.Errorf("%s/%s: read back differs: %s", dir, name, d)
			}
		}
	}
}

// TestCrossForm: the engine's binary and text files of the same resource
// read to the same model (up to what the forms record: element types in
// Godot 4 binary files, six-digit reals in Godot 3 text), and each binary
// file converts to text that reads back to its model.
func TestCrossForm(t *testing.T) {
	for _, dir := range []string{"godot4", "godot3"} {
		tol := 1e-7
		if dir == "godot3" {
			tol = 1e-5
		}
		texts := engineFiles(t, dir, ".tres", ".tscn")
		for name, data := range engineFiles(t, dir, ".res", ".scn") {
			base := strings.TrimSuffix(strings.TrimSuffix(strings.TrimSuffix(name, ".res"), ".scn"), ".compressed")
			text := texts[base+".tres"]
			if text == nil {
				text = texts[base+".tscn"]
			}
			bf, err := ReadBinary(data, Options{})
			if err != nil {
				t.Fatalf("%s/%s: %v", dir, name, err)
			}
			tf, err := ReadText(text, Options{})
			if err != nil {
				t.Fatalf("%s/%s: %v", dir, base, err)
			}
			if d := Diff(bf, tf, DiffOptions{Untyped: true, Tolerance: tol}); d != "" {
				t.Errorf("%s/%s and its text: %s", dir, name, d)
			}
			out, err := bf.EncodeText()
			if err != nil {
				t.Errorf("%s/%s to text: %v", dir, name, err)
				continue
			}
			// The engine's text is the conversion's, byte for byte, but for
			// all_types, with a Dictionary whose keys are not in the order
			// the engine sorts them into, and Godot 4's stats, whose typed
			// Array only the script's property declares (a binary file
			// does not record the type).
			if !bytes.Equal(out, text) && base != "all_types" && !(dir == "godot4" && base == "stats") {
				i := firstDiff(out, text)
				t.Errorf("%s/%s to text differs from the engine's at byte %d: %q vs %q", dir, name, i, out[max(i-20, 0):min(i+40, len(out))], text[max(i-20, 0):min(i+40, len(text))])
			}
			back, err := ReadText(out, Options{})
			if err != nil {
				t.Errorf("%s/%s to text, read back: %v", dir, name, err)
				continue
			}
			if d := Diff(bf, back, DiffOptions{Tolerance: 1e-7}); d != "" {
				t.Errorf("%s/%s to text and back: %s", dir, name, d)
			}
			bin, err := tf.EncodeBinary()
			if err != nil {
				t.Errorf("%s/%s to binary: %v", dir, base, err)
				continue
			}
			back, err = ReadBinary(bin, Options{})
			if err != nil {
				t.Errorf("%s/%s to binary, read back: %v", dir, base, err)
				continue
			}
			if d := Diff(tf, back, DiffOptions{Untyped: true, Tolerance: 1e-7}); d != "" {
				t.Errorf("%s/%s to binary and back: %s", dir, base, d)
			}
		}
	}
}

// TestTextFormat4: Godot 4.6 writes format=4 only for files holding a
// PackedVector4Array, and only those write PackedByteArray as base64 (the
// engine's output for these values, saved with ResourceSaver).
func TestTextFormat4(t *testing.T) {
	for _, c := range []struct {
		v    variant.Value
		want string
	}{
		{variant.PackedByteArray{1}, "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nmetadata/v = PackedByteArray(1)\n"},
		{variant.PackedVector4Array{{X: 1, Y: 2, Z: 3, W: 4}}, "[gd_resource type=\"Resource\" format=4]\n\n[resource]\nmetadata/v = PackedVector4Array(1, 2, 3, 4)\n"},
		{variant.NewArray(variant.PackedByteArray{1}), "[gd_resource type=\"Resource\" format=3]\n\n[resource]\nmetadata/v = [PackedByteArray(1)]\n"},
		{variant.NewArray(variant.PackedByteArray{1, 2, 3}, variant.PackedVector4Array{}), "[gd_resource type=\"Resource\" format=4]\n\n[resource]\nmetadata/v = [PackedByteArray(\"AQID\"), PackedVector4Array()]\n"},
	} {
		f := &File{Type: "Resource", UID: NoUID, Properties: []variant.Property{{Name: "metadata/v", Value: c.v}}}
		out, err := f.EncodeText()
		if err != nil || string(out) != c.want {
			t.Errorf("%v: %q, %v; want %q", c.v, out, err, c.want)
		}
		g, err := ReadText(out, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if d := Diff(f, g, DiffOptions{}); d != "" {
			t.Errorf("%v: read back: %s", c.v, d)
		}
	}
}

// TestTypedByScript: a typed Array whose element type is a script of the
// file's external resources keeps it, written ExtResource("id").
func TestTypedByScript(t *testing.T) {
	src := `[gd_resource type="Resource" script_class="Inventory" format=3 uid="uid://b7x1kq3m2n4p5"]

[ext_resource type="Script" uid="uid://c2ab3cd4ef5g" path="res://item.gd" id="1_x7k2p"]

[resource]
script = ExtResource("1_x7k2p")
items = Array[ExtResource("1_x7k2p")]([])
`
	f, err := ReadText([]byte(src), Options{})
	if err != nil {
		t.Fatal(err)
	}
	if f.ScriptClass != "Inventory" || f.UID.String() != "uid://b7x1kq3m2n4p5" || f.Ext[0].UID.String() != "uid://c2ab3cd4ef5g" {
		t.Errorf("header: %q %v %v", f.ScriptClass, f.UID, f.Ext[0].UID)
	}
	out, err := f.EncodeText()
	if err != nil || string(out) != src {
		t.Errorf("written back: %v\n%s", err, out)
	}
	bin, err := f.EncodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	g, err := ReadBinary(bin, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if g.ScriptClass != "Inventory" || g.UID != f.UID || g.Ext[0].UID != f.Ext[0].UID {
		t.Errorf("binary header: %q %v %v", g.ScriptClass, g.UID, g.Ext[0].UID)
	}
	if d := Diff(f, g, DiffOptions{Untyped: true}); d != "" {
		t.Error(d)
	}
}

// TestSceneTextToBinary: a scene read from the engine's text writes the
// binary file the engine writes for the scene it loads from that text, byte
// for byte, given the one thing the text cannot tell: the path the engine
// records for the main resource (and its version, for the header).
func TestSceneTextToBinary(t *testing.T) {
	for _, dir := range []string{"godot4", "godot3"} {
		for _, base := range []string{"item", "inherited"} {
			text := engineFiles(t, dir, base+".tscn")[base+".tscn"]
			want := engineFiles(t, dir, base+".scn")[base+".scn"]
			eng, err := ReadBinary(want, Options{})
			if err != nil {
				t.Fatal(err)
			}
			f, err := ReadText(text, Options{})
			if err != nil {
				t.Fatal(err)
			}
			f.Binary.MainPath, f.Binary.Major, f.Binary.Minor = eng.Binary.MainPath, eng.Binary.Major, eng.Binary.Minor
			got, err := f.EncodeBinary()
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s/%s: differs from the engine's at byte %d", dir, base, firstDiff(got, want))
			}
		}
	}
}

// TestTextCRLF: files with Windows line ends (a checkout with autocrlf)
// read as the same resources.
func TestTextCRLF(t *testing.T) {
	for _, dir := range []string{"godot4", "godot3"} {
		for name, data := range engineFiles(t, dir, ".tres", ".tscn") {
			if name == "all_types.tres" {
				continue // its string holds a line break, which would change
			}
			a, err := ReadText(data, Options{})
			if err != nil {
				t.Fatal(err)
			}
			b, err := ReadText(bytes.ReplaceAll(data, []byte("\n"), []byte("\r\n")), Options{})
			if err != nil {
				t.Errorf("%s/%s: %v", dir, name, err)
				continue
			}
			if d := Diff(a, b, DiffOptions{}); d != "" {
				t.Errorf("%s/%s: %s", dir, name, d)
			}
		}
	}
}
