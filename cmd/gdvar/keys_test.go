package main

import (
	"encoding/binary"
	"strconv"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// TestDecodeTypedKeys decodes a 1 MB Dictionary of 32,768 empty typed
// Dictionaries as keys, one class name each: one key, as in Godot 4.6.
// When their hash saw only their size, each key was compared with every
// earlier one (12 s of CPU in gdvar decode).
func TestDecodeTypedKeys(t *testing.T) {
	const n = 32768
	enc, err := variant.EncOptions{FullObjects: true}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	in := binary.LittleEndian.AppendUint32(nil, uint32(variant.TypeDictionary))
	in = binary.LittleEndian.AppendUint32(in, n)
	for i := range n {
		k := variant.NewTypedDictionary(variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: "C" + strconv.Itoa(i)}, variant.Typed(variant.TypeInt), 0)
		if in, err = enc.Append(in, k); err != nil {
			t.Fatal(err)
		}
		if in, err = enc.Append(in, variant.Int(i)); err != nil {
			t.Fatal(err)
		}
	}
	status, out, stderr := gdvar(t, string(in), "decode")
	if want := "{ Dictionary[C0, int]({}): 32767 }\n"; status != 0 || out != want {
		t.Errorf("status %d, %q (want %q), stderr %q", status, out, want, stderr)
	}
}
