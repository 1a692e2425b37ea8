package variant

import (
	"encoding/binary"
	"encoding/hex"
	"math"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/godot4web"
)

// keyPairs are pairs of keys with whether Godot 4.6's Dictionary takes
// them for one key (checked by TestKeyEqualityAsTheEngine).
var keyPairs = []struct {
	a, b Value
	same bool
}{
	{NewTypedDictionary(classType("Node"), Typed(TypeInt), 0), NewTypedDictionary(classType("Resource"), Typed(TypeInt), 0), true},
	{NewTypedDictionary(classType("Ca"), Typed(TypeInt), 0), NewTypedDictionary(classType("Cb"), Typed(TypeInt), 0), true},
	{&Array{Elem: classType("Ca")}, &Array{Elem: classType("Cb")}, true},
	{NewTypedDictionary(classType("Node"), Typed(TypeInt), 0), NewDictionary(0), true},
	{NewTypedDictionary(Typed(TypeString), Typed(TypeInt), 0), NewTypedDictionary(Typed(TypeInt), Typed(TypeInt), 0), true},
	{typedDictOf(Typed(TypeString), String("k"), Int(1)), dictOf(String("k"), Int(1)), true},
	{&Array{Elem: Typed(TypeInt)}, &Array{Elem: Typed(TypeString)}, true},
	{&Array{Elem: classType("Node")}, &Array{}, true},
	{&Array{Elem: classType("Node"), Values: []Value{nil}}, &Array{Values: []Value{nil}}, true},
	{&Array{Elem: classType("Node")}, &Array{Values: []Value{nil}}, false},
	{String("a"), StringName("a"), true},
	{Float(0), Float(math.Copysign(0, -1)), true},
	{Float(math.NaN()), Float(math.NaN()), true},
	{Vector2{math.NaN(), 1}, Vector2{math.NaN(), 1}, true},
	{PackedFloat32Array{float32(math.NaN())}, PackedFloat32Array{float32(math.NaN())}, true},
	{&Array{Values: []Value{Float(math.Copysign(0, -1))}}, &Array{Values: []Value{Float(0)}}, true},
	{Int(1), Float(1), false},
	{dictOf(Int(1), Int(2)), dictOf(Int(2), Int(1)), false},
	// Inside a key, the parts of an Array and the values of a Dictionary
	// compare as Variant::hash_compare does without semantic comparison:
	// a String is not a StringName, and a NaN equals nothing. The keys of
	// a Dictionary still compare as keys.
	{NewArray(String("a")), NewArray(StringName("a")), false},
	{dictOf(String("k"), Int(1)), dictOf(StringName("k"), Int(1)), true},
	{dictOf(String("k"), String("v")), dictOf(String("k"), StringName("v")), false},
	{NewArray(Float(math.NaN())), NewArray(Float(math.NaN())), false},
	{dictOf(String("k"), Float(math.NaN())), dictOf(String("k"), Float(math.NaN())), false},
	{dictOf(Float(math.NaN()), Int(1)), dictOf(Float(math.NaN()), Int(1)), true},
	{NewArray(NewArray(Float(math.Copysign(0, -1)))), NewArray(NewArray(Float(0))), true},
	{NewArray(Vector2{math.NaN(), 0}), NewArray(Vector2{math.NaN(), 0}), true},
	{NewArray(PackedFloat64Array{math.NaN()}), NewArray(PackedFloat64Array{math.NaN()}), true},
	{NewArray(PackedStringArray{"a"}), NewArray(PackedStringArray{"a"}), true},
	{NewArray(NodePath{Names: []string{"a"}}), NewArray(NodePath{Names: []string{"a"}}), true},
}

// twoKeys encodes a Dictionary of the entries a: 1 and b: 2, both kept.
// Container types name their classes (FullObjects; without it they are
// all EncodedObjectAsID, as the engine writes them).
func twoKeys(t testing.TB, a, b Value) []byte {
	t.Helper()
	enc := mode(t, EncOptions{FullObjects: true})
	out := binary.LittleEndian.AppendUint32(nil, uint32(TypeDictionary))
	out = binary.LittleEndian.AppendUint32(out, 2)
	var err error
	for i, v := range []Value{a, Int(1), b, Int(2)} {
		if out, err = enc.Append(out, v); err != nil {
			t.Fatalf("value %d: %v", i, err)
		}
	}
	return out
}

// TestKeyEquality checks the key pairs against the decoder, Set and the
// hash, without the engine.
func TestKeyEquality(t *testing.T) {
	dec := dmode(t, DecOptions{})
	for i, p := range keyPairs {
		v, _, err := dec.Decode(twoKeys(t, p.a, p.b))
		if err != nil {
			t.Fatalf("pair %d: %v", i, err)
		}
		want := 2
		if p.same {
			want = 1
		}
		if n := v.(*Dictionary).Len(); n != want {
			t.Errorf("pair %d (%v, %v): %d keys, want %d", i, p.a, p.b, n, want)
		}
		if p.same && hashKey(p.a) != hashKey(p.b) {
			t.Errorf("pair %d (%v, %v): one key, two hashes", i, p.a, p.b)
		}
	}
}

// TestKeyEqualityAsTheEngine decodes each pair of keyPairs in Godot 4.6
// (internal/godot4web) and checks that the engine makes as many entries of
// them as keyPairs says.
func TestKeyEqualityAsTheEngine(t *testing.T) {
	godot4web.Skip(t)
	var args []string
	for _, p := range keyPairs {
		args = append(args, hex.EncodeToString(twoKeys(t, p.a, p.b)))
	}
	r := godot4web.Run(t, godot4web.Job{Script: "testdata/keys4.gd", Args: args, Timeout: time.Minute})
	got := strings.Fields(r.Stdout)
	if r.Code != 0 || len(got) != len(keyPairs) {
		t.Fatalf("engine: exit %d, %d lines for %d pairs\n%s%s", r.Code, len(got), len(keyPairs), r.Stdout, r.Stderr)
	}
	for i, p := range keyPairs {
		want := "2"
		if p.same {
			want = "1"
		}
		if got[i] != want {
			t.Errorf("pair %d (%v, %v): the engine makes %s entries, keyPairs says %s", i, p.a, p.b, got[i], want)
		}
	}
}
