package migrate

import (
	"errors"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// FuzzValue converts what any bytes decode to, each way: Value never
// panics, fails only with an *Error, and what it returns encodes for
// its target family (objects in full) and reads back as the same value.
func FuzzValue(f *testing.F) {
	seeds := []struct {
		v      variant.Value
		family variant.Family
	}{
		{dict(variant.String("pos"), variant.Vector2{X: 1, Y: 2}, variant.String("list"), variant.NewArray(variant.Float(0.1), nil)), variant.Godot3},
		{&variant.Object{Class: "Spatial", Properties: []variant.Property{{Name: "name", Value: variant.String("P")}}}, variant.Godot3},
		{variant.PackedInt32Array{1, 2, 3}, variant.Godot3},
		{dict(variant.StringName("id"), variant.Vector2i{X: 1}), variant.Godot4},
		{&variant.Array{Elem: variant.Typed(variant.TypeInt), Values: []variant.Value{variant.Int(1)}}, variant.Godot4},
		{variant.PackedInt64Array{1 << 40}, variant.Godot4},
	}
	for _, s := range seeds {
		b, err := variant.EncOptions{Family: s.family, FullObjects: true}.EncMode()
		if err != nil {
			f.Fatal(err)
		}
		data, err := b.Encode(s.v)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data, s.family == variant.Godot4, false, true)
		f.Add(data, s.family == variant.Godot4, true, false)
	}
	f.Fuzz(func(t *testing.T, data []byte, to3, lossy, rename bool) {
		from, to := variant.Godot3, variant.Godot4
		if to3 {
			from, to = variant.Godot4, variant.Godot3
		}
		dec, err := variant.DecOptions{Family: from, AllowObjects: true, MaxElements: 1 << 16}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := dec.Decode(data)
		if err != nil {
			return
		}
		out, _, err := Value(v, Options{To: to, Lossy: lossy, RenameClasses: rename})
		if err != nil {
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrNoEquivalent) {
				t.Fatalf("an error that is not an *Error: %v", err)
			}
			return
		}
		enc, err := variant.EncOptions{Family: to, FullObjects: true}.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		b, err := enc.Encode(out)
		if err != nil {
			t.Fatalf("%v converted for %v does not encode: %v", v, to, err)
		}
		back, err := variant.DecOptions{Family: to, AllowObjects: true}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := back.Decode(b)
		if err != nil {
			t.Fatalf("%v converted for %v does not read back: %v", v, to, err)
		}
		if !variant.Equal(got, out) {
			t.Fatalf("%v converted for %v reads back as %v", out, to, got)
		}
	})
}
