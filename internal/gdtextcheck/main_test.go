package main

import (
	"bytes"
	"encoding/hex"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// TestZeroPaddingWalksFixtures checks the walker behind zeroPadding on
// every golden fixture: it must end exactly at the end of the engine's
// bytes.
func TestZeroPaddingWalksFixtures(t *testing.T) {
	for _, c := range []struct {
		fam  variant.Family
		path string
	}{{variant.Godot4, "../../testdata/golden/godot4.jsonl"}, {variant.Godot3, "../../testdata/golden/godot3.jsonl"}} {
		fixtures, err := load(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if len(fixtures) < 100 {
			t.Fatalf("%s: only %d fixtures", c.path, len(fixtures))
		}
		for _, fx := range fixtures {
			b, err := hex.DecodeString(fx.Hex)
			if err != nil {
				t.Fatal(err)
			}
			z, err := zeroPadding(b, c.fam)
			if err != nil {
				t.Errorf("%v %s: %v", c.fam, fx.Expr, err)
				continue
			}
			if len(z) != len(b) {
				t.Errorf("%v %s: walked %d of %d bytes", c.fam, fx.Expr, len(z), len(b))
			}
		}
	}
}

// TestZeroPaddingZeroesPadding dirties, one at a time, every zero byte of
// an encoding that the decoder ignores, past the header (the padding of
// strings, NodePath names, typed-container class names, PackedByteArrays
// and PackedStringArrays; not the unused bits of the header or of a
// NodePath's flags): zeroPadding must give the encoding back.
func TestZeroPaddingZeroesPadding(t *testing.T) {
	np, _ := variant.ParseNodePath("/root/ab:c")
	values := []variant.Value{
		variant.String("a"), variant.StringName("abcde"), np,
		variant.PackedByteArray{1, 2, 3, 4, 5}, variant.PackedStringArray{"a", "bb", ""},
		variant.Signal{Name: "sig", Object: 7},
		&variant.Array{Elem: variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: "Node"}},
	}
	m, err := variant.EncOptions{FullObjects: true}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	dm, err := variant.DecOptions{AllowObjects: true}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	dirtied := 0
	for _, v := range values {
		e, err := m.Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		for i := range e {
			if i < 4 || e[i] != 0 || v.Type() == variant.TypeNodePath && i/4 == 3 {
				continue
			}
			d := bytes.Clone(e)
			d[i] = 0xAB
			if got, _, err := dm.Decode(d); err != nil || !variant.Equal(got, v) {
				continue // not padding
			}
			dirtied++
			if z, err := zeroPadding(d, variant.Godot4); err != nil || !bytes.Equal(z, e) {
				t.Errorf("%v, byte %d dirtied: %x, %v; want %x", v, i, z, err, e)
			}
		}
	}
	if dirtied < 15 {
		t.Errorf("only %d padding bytes found", dirtied)
	}
}
