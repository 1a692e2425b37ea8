package variant

import (
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/gdvar/gdvar/wire"
)

// TestReaderSkipEngineVerdicts checks Reader.Skip, which checks a value
// without building it, against the real engines' verdicts on every
// malformed or unusual input of testdata/golden: it accepts what the
// engine accepts, using as many bytes, and refuses what it refuses with the
// engine's error code. Where the decoder knowingly differs from the engine
// (knownDifferences), Skip takes the decoder's decision.
func TestReaderSkipEngineVerdicts(t *testing.T) {
	for _, g := range goldenFamilies {
		lines := readJSONL[verdictLine](t, g.file+"-decode.jsonl")
		if len(lines) < 300 {
			t.Fatalf("%v: only %d cases", g.fam, len(lines))
		}
		for _, l := range lines {
			b, err := hex.DecodeString(l.Hex)
			if err != nil {
				t.Fatal(err)
			}
			opts := DecOptions{Family: g.fam, AllowObjects: l.Objects}
			m := dmode(t, opts)
			r := m.Reader(b)
			next, typ, _, skipErr := r.Skip(0, 0)
			_, used, decErr := m.Decode(b)
			if knownDifferenceFor(g.fam, l.Name) == nil {
				if (skipErr == nil) != l.OK {
					t.Errorf("%v %q: Skip ok=%v (%v), engine ok=%v (%s)", g.fam, l.Name, skipErr == nil, skipErr, l.OK, clip(l.Error))
					continue
				}
				if want, named := engineCode(l.Error); !l.OK && named {
					var e *Error
					if !errors.As(skipErr, &e) || e.Code != want {
						t.Errorf("%v %q: Skip error %v, engine code %v (%s)", g.fam, l.Name, skipErr, want, clip(l.Error))
					}
				}
				if l.OK && l.Used != nil && min(next, len(b)) != min(*l.Used, len(b)) {
					t.Errorf("%v %q: Skip used %d bytes, engine %d", g.fam, l.Name, next, *l.Used)
				}
				if id, _ := typ.ID(g.fam); l.OK && int(id) != l.Type && l.Type != 0 && typ != TypeObject {
					t.Errorf("%v %q: Skip read type %v, engine %d", g.fam, l.Name, typ, l.Type)
				}
			}
			// Skip and Decode are one reader: the same decision, the same
			// error, the same length.
			if !reflect.DeepEqual(skipErr, decErr) {
				t.Errorf("%v %q: Skip error %v, Decode error %v", g.fam, l.Name, skipErr, decErr)
			}
			if decErr == nil && min(next, len(b)) != used {
				t.Errorf("%v %q: Skip used %d bytes, Decode %d", g.fam, l.Name, next, used)
			}
		}
	}
}

// TestReaderValueInPlace checks that Reader.Value decodes a value nested
// in the input with the offsets, depth and element count of the whole
// input: errors point into the whole input, the depth limit counts from its
// top, and MaxElements counts the elements read before.
func TestReaderValueInPlace(t *testing.T) {
	inner, _ := Encode(&Array{Values: []Value{Int(1), &Array{Values: []Value{Int(2)}}}})
	data := append(wire.AppendU32(nil, uint32(TypeArray)), wire.AppendU32(nil, 1)...)
	data = append(data, inner...) // [[1, [2]]]

	m, _ := DecOptions{MaxDepth: 3}.DecMode()
	r := m.Reader(data)
	v, next, err := r.Value(8, 1)
	if err != nil || next != len(data) {
		t.Fatalf("Value(8, 1) = %v, %d, %v", v, next, err)
	}
	if want := (&Array{Values: []Value{Int(1), &Array{Values: []Value{Int(2)}}}}); !Equal(v, want) {
		t.Errorf("Value = %v, want %v", v, want)
	}

	// Read as if one level deeper, the innermost int is level 4: too
	// deep, at its own offset in the whole input.
	_, _, err = r.Value(8, 2)
	var e *Error
	if !errors.As(err, &e) || e.Err != ErrTooDeep || e.Offset != 32 || e.Path != "[1][0]" {
		t.Errorf("Value(8, 2): %v, want ErrTooDeep at byte 32, path [1][0]", err)
	}

	m, _ = DecOptions{MaxElements: 4}.DecMode()
	r = m.Reader(data)
	if _, _, _, err := r.Skip(0, 0); err != nil {
		t.Fatal(err)
	}
	if r.Elements() != 4 {
		t.Errorf("Elements after Skip = %d, want 4", r.Elements())
	}
	r = m.Reader(data)
	if err := r.Take(0, TypeArray, 2); err != nil {
		t.Fatal(err)
	}
	if _, _, err := r.Value(8, 1); !errors.Is(err, ErrTooLarge) {
		t.Errorf("Value of 3 elements after 2 with MaxElements 4: %v, want ErrTooLarge", err)
	}
	if _, _, err := r.Reread(8, 1); err != nil {
		t.Errorf("Reread counts nothing twice: %v", err)
	}
}

// ExampleReader walks an Array without building it: the header of each
// element, and the offset after it.
func ExampleReader() {
	data, _ := Encode(&Array{Values: []Value{Int(7), String("seven"), Vector2{7, 7}}})
	m, _ := DecOptions{}.DecMode()
	r := m.Reader(data)
	h, _, _ := r.Head(0, 0)
	_, n, q, _ := r.ArrayHead(0, h)
	q += 4 // after the count
	for range n {
		next, t, _, err := r.Skip(q, 1)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("byte %d: %v, %d bytes\n", q, t, next-q)
		q = next
	}
	// Output:
	// byte 8: int, 8 bytes
	// byte 16: String, 16 bytes
	// byte 32: Vector2, 12 bytes
}

// ExamplePath builds the place of a value for a message only when one is
// needed.
func ExamplePath() {
	var top *Path
	p := top.Index(3).Key(String("pos"))
	fmt.Println(p)
	// Output: [3]["pos"]
}

// ExampleVersion_Reads asks the table of engine facts whether a version
// reads a part of the format.
func ExampleVersion_Reads() {
	v := Version{Major: 4, Minor: 2}
	for _, f := range []Feature{TypedArrays, TypedDictionaries, TypeFeature(TypePackedVector4Array), WideFeature(TypeVector4)} {
		if !v.Reads(f) {
			fmt.Println(f.Missing())
		}
	}
	// Output:
	// typed Array cannot be read before Godot 4.3
	// typed Dictionary cannot be read before Godot 4.4
	// PackedVector4Array cannot be read before Godot 4.3
}

// ExampleFacts reads a type's layout from the table of engine facts.
func ExampleFacts() {
	f := Facts(TypeTransform3D)
	fmt.Println(f.Size, f.Reals, f.Real)
	b := MathValue(TypeBasis, []float64{1, 2, 3, 4, 5, 6, 7, 8, 9}).(Basis) // row by row
	fmt.Println(b.X, b.Y, b.Z)                                              // columns
	// Output:
	// 48 12 true
	// Vector3(1, 4, 7) Vector3(2, 5, 8) Vector3(3, 6, 9)
}

// ExampleReader_TypeKinds reads the head of a typed Dictionary part by
// part, as DictHead does at once: the kinds of its type data, each type,
// and the entry count, with the offset of each part.
func ExampleReader_TypeKinds() {
	d := NewDictionary(1)
	d.SetTypes(Typed(TypeString), Typed(TypeInt))
	d.Set(String("hp"), Int(7))
	data, _ := Encode(d)
	m, _ := DecOptions{}.DecMode()
	r := m.Reader(data)
	h, t, _ := r.Head(0, 0)
	q := 4
	kk, vk := r.TypeKinds(h, t)
	for _, kind := range []uint32{kk, vk} {
		ct, next, err := r.ContainerType(0, q, kind, t)
		if err != nil {
			fmt.Println(err)
			return
		}
		fmt.Printf("byte %d: %v\n", q, ct.Builtin)
		q = next
	}
	n, _ := r.ContainerCount(0, q, t)
	fmt.Printf("byte %d: %d entry\n", q, n)
	// Output:
	// byte 4: String
	// byte 8: int
	// byte 12: 1 entry
}

// The parts of a container's head: no type data in Godot 3, bit 31 of a
// count ignored, a missing count refused as DictHead refuses it; Field
// and ObjectID refuse fixed-size parts that do not fit.
func TestReaderParts(t *testing.T) {
	h := uint32(TypeDictionary) | 1<<wire.DictKeyTypeShift | 3<<wire.DictValueTypeShift
	g4 := dmode(t, DecOptions{}).Reader(nil)
	g3 := dmode(t, DecOptions{Family: Godot3}).Reader(nil)
	if k, v := g4.TypeKinds(h, TypeDictionary); k != 1 || v != 3 {
		t.Errorf("Godot 4 Dictionary kinds %d, %d", k, v)
	}
	if k, v := g4.TypeKinds(uint32(TypeArray)|2<<wire.ArrayTypeShift, TypeArray); k != 2 || v != 0 {
		t.Errorf("Godot 4 Array kinds %d, %d", k, v)
	}
	if k, v := g3.TypeKinds(h, TypeDictionary); k != 0 || v != 0 {
		t.Errorf("Godot 3 kinds %d, %d", k, v)
	}

	b := []byte{0x1b, 0, 0, 0, 2, 0, 0, 0x80}
	r := dmode(t, DecOptions{}).Reader(b)
	if n, err := r.ContainerCount(0, 4, TypeDictionary); n != 2 || err != nil || r.Elements() != 2 {
		t.Errorf("count %d, %v, %d elements", n, err, r.Elements())
	}
	r2 := dmode(t, DecOptions{}).Reader(b[:6])
	_, _, _, _, want := r2.DictHead(0, uint32(TypeDictionary))
	if _, err := r2.ContainerCount(0, 4, TypeDictionary); !reflect.DeepEqual(err, want) || !errors.Is(err, ErrTruncated) {
		t.Errorf("short count: %v, DictHead %v", err, want)
	}
	limited := dmode(t, DecOptions{MaxElements: 1}).Reader(b)
	if _, err := limited.ContainerCount(0, 4, TypeDictionary); !errors.Is(err, ErrTooLarge) {
		t.Errorf("MaxElements: %v", err)
	}

	obj := []byte{0x18, 0, 1, 0, 9, 0, 0, 0, 0, 0}
	r = dmode(t, DecOptions{}).Reader(obj)
	if _, _, asID, err := r.ObjectID(0, uint32(TypeObject)); asID || err != nil {
		t.Errorf("a full Object read as an ID")
	}
	_, _, asID, err := r.ObjectID(0, wire.U32(obj))
	var e *Error
	if !asID || !errors.As(err, &e) || e.Offset != 0 || e.Type != TypeObject || e.Detail != "need 8 bytes, have 6" {
		t.Errorf("short ID: %v, %v", asID, err)
	}
	if raw, next, err := r.Field(0, 4, TypeObject, 6); err != nil || next != 10 || len(raw) != 6 {
		t.Errorf("Field: %v, %d, %v", raw, next, err)
	}
}

// CheckScript's error names its place, .script, for any caller; outer
// segments go in front of it.
func TestCheckScriptPath(t *testing.T) {
	r := dmode(t, DecOptions{AllowObjects: true}).Reader(nil)
	err := r.CheckScript(40, TypeInt, nil, false)
	var e *Error
	if !errors.As(err, &e) || e.Path != ".script" || e.Offset != 40 || !errors.Is(err, ErrInvalidData) {
		t.Fatalf("%v", err)
	}
	o := &Object{Class: "Node", Properties: []Property{{"script", Int(1)}}}
	em, _ := EncOptions{FullObjects: true}.EncMode()
	data, _ := em.Encode(&Array{Values: []Value{nil, o}})
	if _, _, err := dmode(t, DecOptions{AllowObjects: true}).Decode(data); !errors.As(err, &e) || e.Path != "[1].script" {
		t.Errorf("nested: %v", err)
	}
}

// KeySegAt renders a large key without building it.
func TestKeySegAtLargeKey(t *testing.T) {
	big := make([]Value, 1<<14)
	for i := range big {
		big[i] = Int(i)
	}
	d := NewDictionary(1)
	d.Set(&Array{Values: big}, Int(1))
	d.Set(String("name"), Int(2))
	data, _ := Encode(d)
	r := dmode(t, DecOptions{}).Reader(data)
	keyOff := 8
	var seg string
	allocs := testing.AllocsPerRun(10, func() { seg = r.KeySegAt(keyOff, 1) })
	if seg != "[<Array>]" || allocs > 4 {
		t.Errorf("%s, %v allocations", seg, allocs)
	}
	next, _, _, _ := r.Skip(keyOff, 1)
	next, _, _, _ = r.Skip(next, 1)
	if seg := r.KeySegAt(next, 1); seg != `["name"]` {
		t.Errorf("string key: %s", seg)
	}
}
