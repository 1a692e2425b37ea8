package resource

import (
	"bytes"
	"encoding/binary"
	"errors"
	"os"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// corpusBinary returns an engine-made binary file.
func corpusBinary(t testing.TB, name string) []byte {
	b, err := os.ReadFile("testdata/" + name)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// patch returns a copy of b with the 32-bit word at off set to v.
func patch(b []byte, off int, v uint32) []byte {
	c := bytes.Clone(b)
	binary.LittleEndian.PutUint32(c[off:], v)
	return c
}

// wantErr checks that reading data fails with sentinel, an *Error with an
// offset.
func wantErr(t *testing.T, what string, data []byte, sentinel error, detail string) {
	t.Helper()
	_, err := Read(data, Options{})
	var e *Error
	if !errors.Is(err, sentinel) || !errors.As(err, &e) || e.Offset < 0 {
		t.Errorf("%s: %v, want %v with an offset", what, err, sentinel)
		return
	}
	if detail != "" && !strings.Contains(err.Error(), detail) {
		t.Errorf("%s: %v, want it to say %q", what, err, detail)
	}
}

// build writes a small Godot 4 file for the hostile cases to patch.
func buildFile(t *testing.T) (*File, []byte) {
	f := &File{Family: variant.Godot4, Type: "Resource", UID: NoUID,
		Ext: []ExtResource{{ID: "1", Type: "Texture2D", Path: "res://a.png", UID: NoUID}},
		Sub: []*Resource{{ID: "Resource_a", Type: "Resource", Properties: []variant.Property{{Name: "resource_name", Value: variant.String("a")}}}},
		Properties: []variant.Property{
			{Name: "metadata/path", Value: variant.NodePath{Names: []string{"x"}}},
			{Name: "metadata/sub", Value: variant.ResourceRef{Kind: variant.RefSub, ID: "Resource_a"}},
			{Name: "metadata/ext", Value: variant.ResourceRef{Kind: variant.RefExt, ID: "1"}},
		}}
	b, err := f.EncodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := ReadBinary(b, Options{}); err != nil {
		t.Fatal(err)
	}
	return f, b
}

func TestHostileBinary(t *testing.T) {
	_, b := buildFile(t)
	find := func(seq []byte, from int) int {
		i := bytes.Index(b[from:], seq)
		if i < 0 {
			t.Fatalf("%x not in the file", seq)
		}
		return from + i
	}
	le := func(vs ...uint32) []byte {
		var out []byte
		for _, v := range vs {
			out = binary.LittleEndian.AppendUint32(out, v)
		}
		return out
	}
	// The NodePath's name is string-table index 0 (the strings the
	// NodePath holds come first).
	np := find(le(uint32(variant.ResTagNodePath)), 100)
	wantErr(t, "string index past the table", patch(b, np+8, 1000), ErrCorrupt, "string index 1000")
	sub := find(le(uint32(variant.ResTagObject), objInternal), np)
	wantErr(t, "internal index past the table", patch(b, sub+8, 7), ErrCorrupt, "internal resource index 7")
	wantErr(t, "internal index of the main resource", patch(b, sub+8, 1), ErrCorrupt, "reference to the main resource")
	ext := find(le(uint32(variant.ResTagObject), objExternalIndex), np)
	wantErr(t, "external index past the table", patch(b, ext+8, 9), ErrCorrupt, "external resource index 9")
	wantErr(t, "unknown object kind", patch(b, ext+4, 9), ErrCorrupt, "object kind 9")
	wantErr(t, "unknown type tag", patch(b, np, 99), ErrCorrupt, "type tag 99")
	// Counts: the string table's, then a huge Array.
	// magic, 5 words, the type, the import offset, flags, uid, reserved
	strCount := 4 + 4*5 + 4 + len("Resource") + 1 + 8 + 4 + 8 + 4*reservedWords
	wantErr(t, "huge string count", patch(b, strCount, 0xfffffff0), ErrCorrupt, "needs more bytes")
	// A sub-resource referring to the main resource's position: a cycle
	// (or a forward reference).
	f2 := &File{Family: variant.Godot4, Type: "Resource", UID: NoUID, Sub: []*Resource{
		{ID: "a", Type: "Resource", Properties: []variant.Property{{Name: "metadata/b", Value: variant.ResourceRef{Kind: variant.RefSub, ID: "b"}}}},
		{ID: "b", Type: "Resource", Properties: []variant.Property{{Name: "metadata/a", Value: variant.ResourceRef{Kind: variant.RefSub, ID: "a"}}}},
	}}
	cyc, err := f2.EncodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	wantErr(t, "cycle between sub-resources", cyc, ErrCorrupt, "before it is defined")
	// Every truncation is an error, never a panic.
	for n := range len(b) - 4 {
		if _, err := ReadBinary(b[:n], Options{}); err == nil {
			t.Fatalf("truncated at %d: no error", n)
		}
	}
	// Overlapping resources: the main resource's offset pointed back at
	// the sub-resource's.
	subOff := find([]byte("local://Resource_a\x00"), 0) + len("local://Resource_a\x00")
	mainOff := subOff + 8 + 4 + 1 // the main path "" is a length word and a NUL
	wantErr(t, "overlapping resources", append(patch(b, mainOff, binary.LittleEndian.Uint32(b[subOff:])), 0), ErrCorrupt, "")
}

func TestHostileCompressed(t *testing.T) {
	// A compressed file declaring 4 GiB of data fails from its header,
	// before anything is inflated.
	bomb := append([]byte("RSCC"), le32(uint32(gdfile.Zstd), 4096, 0xfffffff0)...)
	wantErr(t, "declared size", bomb, ErrTooLarge, "")
	// The data of a real compressed file, with a small MaxSize.
	data := corpusBinary(t, "godot4/theme.compressed.res")
	if _, err := Read(data, Options{MaxSize: 512}); !errors.Is(err, ErrTooLarge) && !errors.Is(err, gdfile.ErrTooLarge) {
		t.Errorf("MaxSize 512: %v", err)
	}
	if _, err := Read(data, Options{}); err != nil {
		t.Errorf("default limits: %v", err)
	}
}

func le32(vs ...uint32) []byte {
	var out []byte
	for _, v := range vs {
		out = binary.LittleEndian.AppendUint32(out, v)
	}
	return out
}

func TestHostileText(t *testing.T) {
	for _, c := range []struct{ text, detail string }{
		{"[gd_resource type=\"Resource\" format=3]\n\n[resource]\nx = SubResource(\"nope\")\n", "before it is defined"},
		{"[gd_resource type=\"Resource\" format=3]\n\n[sub_resource type=\"Resource\" id=\"a\"]\nx = SubResource(\"b\")\n\n[sub_resource type=\"Resource\" id=\"b\"]\nx = SubResource(\"a\")\n\n[resource]\n", "before it is defined"},
		{"[gd_resource type=\"Resource\" format=3]\n\n[resource]\nx = ExtResource(\"9\")\n", "names no [ext_resource]"},
		{"[gd_resource type=\"Resource\" format=3]\n\n[resource]\nx = [1, 2\n", ""},
		{"[gd_resource type=\"Resource\" format=3\n", "does not end"},
		{"[gd_scene format=3]\n\n[node name=\"A\" parent=\".\"]\n", "only it, has no parent"},
		{"[gd_resource type=\"Resource\" format=3]\n\n[resource]\nx = " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000) + "\n", "nesting"},
		{"[gd_resource format=3]\n", "no type="},
	} {
		_, err := ReadText([]byte(c.text), Options{})
		var e *Error
		if !errors.Is(err, ErrCorrupt) && !errors.Is(err, ErrTruncated) || !errors.As(err, &e) || e.Line < 1 {
			t.Errorf("%.60q: %v, want a corrupt-file error with its line", c.text, err)
		} else if c.detail != "" && !strings.Contains(err.Error(), c.detail) {
			t.Errorf("%.60q: %v, want it to say %q", c.text, err, c.detail)
		}
	}
	if _, err := ReadText([]byte("hello"), Options{}); !errors.Is(err, ErrNotResource) {
		t.Errorf("not a resource: %v", err)
	}
}
