package gdvar_test

import (
	"encoding/binary"
	"runtime"
	"strconv"
	"testing"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

// chainOfDictionaries encodes copies of {"a": {"a": … null …, 1: null},
// 1: null}, depth levels deep: each Dictionary has a String key first
// and an Int key last.
func chainOfDictionaries(depth, copies int) []byte {
	u := func(b []byte, x ...uint32) []byte {
		for _, v := range x {
			b = binary.LittleEndian.AppendUint32(b, v)
		}
		return b
	}
	b := u(nil, uint32(variant.TypeArray), uint32(copies))
	for range copies {
		for range depth {
			b = u(b, uint32(variant.TypeDictionary), 2, uint32(variant.TypeString), 1, 'a')
		}
		b = u(b, 0)
		for range depth {
			b = u(b, uint32(variant.TypeInt), 1, 0)
		}
	}
	return b
}

// TestUnmarshalAnyDeepOtherKeysIsLinear checks that decoding into an
// `any` a deep value whose Dictionaries turn out to have other keys than
// strings decodes it at most twice, not once per level: the bytes
// allocated per input byte do not grow with the depth.
func TestUnmarshalAnyDeepOtherKeysIsLinear(t *testing.T) {
	perByte := func(depth int) float64 {
		in := chainOfDictionaries(depth, 60_000/(depth*28))
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 3 {
			var v any
			if err := gdvar.Unmarshal(in, &v); err != nil {
				t.Fatal(err)
			}
		}
		runtime.ReadMemStats(&after)
		return float64(after.TotalAlloc-before.TotalAlloc) / float64(3*len(in))
	}
	flat, deep := perByte(4), perByte(1000)
	if deep > 4*flat {
		t.Errorf("%.1f bytes allocated per input byte at depth 1000, %.1f at depth 4", deep, flat)
	}
	// The result is what package variant makes of the value.
	in := chainOfDictionaries(3, 1)
	var v any
	if err := gdvar.Unmarshal(in, &v); err != nil {
		t.Fatal(err)
	}
	want, _, err := variant.Decode(in)
	if err != nil {
		t.Fatal(err)
	}
	a, ok := v.([]any)
	if !ok || len(a) != 1 || !variant.Equal(a[0].(*variant.Dictionary), want.(*variant.Array).Values[0]) {
		t.Errorf("got %#v, want %v", v, want)
	}
}

// TestUnmarshalMapDeepKeys decodes Dictionaries of deep keys into Go maps
// and into `any`: keys that differ only deep down stay apart.
func TestUnmarshalMapDeepKeys(t *testing.T) {
	const n, depth = 300, 40
	d := variant.NewDictionary(0)
	for i := range n {
		var k variant.Value = variant.Int(i)
		for range depth {
			k = &variant.Array{Values: []variant.Value{k}}
		}
		d.Set(k, variant.Int(i))
	}
	in, err := variant.Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	var v any
	if err := gdvar.Unmarshal(in, &v); err != nil {
		t.Fatal(err)
	}
	if got, ok := v.(*variant.Dictionary); !ok || got.Len() != n {
		t.Fatalf("got %T with %v entries", v, got.Len())
	}
	var m map[variant.Value]int
	if err := gdvar.Unmarshal(in, &m); err != nil {
		t.Fatal(err)
	}
	if len(m) != n {
		t.Fatalf("%d map entries, want %d", len(m), n)
	}
}

// TestUnmarshalTypedKeysAreOneKey decodes 32,768 empty typed Dictionaries
// as keys, one class name each (1 MB), into `any`: one key, as in
// Godot 4.6. When their hash saw only their size, each key
// was compared with every earlier one (12 s of CPU).
func TestUnmarshalTypedKeysAreOneKey(t *testing.T) {
	const n = 32768
	in := binary.LittleEndian.AppendUint32(nil, uint32(variant.TypeDictionary))
	in = binary.LittleEndian.AppendUint32(in, n)
	// FullObjects writes the class names (else all are EncodedObjectAsID).
	enc, err := variant.EncOptions{FullObjects: true}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	for i := range n {
		k := variant.NewTypedDictionary(variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: "C" + strconv.Itoa(i)}, variant.Typed(variant.TypeInt), 0)
		if in, err = enc.Append(in, k); err != nil {
			t.Fatal(err)
		}
		if in, err = enc.Append(in, variant.Int(i)); err != nil {
			t.Fatal(err)
		}
	}
	var v any
	if err := gdvar.Unmarshal(in, &v); err != nil {
		t.Fatal(err)
	}
	if d, ok := v.(*variant.Dictionary); !ok || d.Len() != 1 {
		t.Errorf("into any: %T, want one key", v)
	}
}
