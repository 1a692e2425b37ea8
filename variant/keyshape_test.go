package variant

import (
	"encoding/binary"
	"math"
	"strconv"
	"testing"
)

// Keys that differ only in what key equality ignores (the element types of
// Arrays and Dictionaries) are one key, as in Godot 4.6; keys that differ
// in anything else hash apart. Before the hash and the equality agreed, an
// empty typed Dictionary hashed by its size alone while its types kept it
// unequal to every other: 32,768 such keys, one class name each, took 12 s
// of CPU to decode, every key compared with every earlier one.

// attackShapes make the i-th of n keys that a hash blind to element types
// would put in one bucket.
var attackShapes = []struct {
	name string
	key  func(i int) Value
	// distinct reports whether the keys are all different keys (else they
	// are all one key).
	distinct bool
	// unmatchable: the keys equal nothing, so Get finds none of them.
	unmatchable bool
}{
	{"empty typed Dictionaries", func(i int) Value {
		return NewTypedDictionary(classType("C"+strconv.Itoa(i)), Typed(TypeInt), 0)
	}, false, false},
	{"empty typed Arrays", func(i int) Value { return &Array{Elem: classType("C" + strconv.Itoa(i))} }, false, false},
	{"typed Arrays of one element", func(i int) Value {
		return &Array{Elem: classType("C" + strconv.Itoa(i)), Values: []Value{nil}}
	}, false, false},
	{"typed Dictionaries of one entry", func(i int) Value {
		return typedDictOf(classType("C"+strconv.Itoa(i)), nil, Int(7))
	}, false, false},
	{"Objects of one class each", func(i int) Value { return &Object{Class: "C" + strconv.Itoa(i)} }, true, false},
	{"typed Dictionaries of distinct entries", func(i int) Value {
		return typedDictOf(Typed(TypeInt), Int(i), NewTypedDictionary(classType("C"+strconv.Itoa(i)), ContainerType{}, 0))
	}, true, false},
	{"Arrays of typed Arrays", func(i int) Value {
		return &Array{Values: []Value{&Array{Elem: classType("C")}, Int(i)}}
	}, true, false},
	// Copies of one key that, as in the engine, is a new key each time.
	{"Arrays holding NaN", func(i int) Value { return &Array{Values: []Value{Float(math.NaN())}} }, true, true},
	{"Dictionaries of a NaN value", func(i int) Value { return dictOf(String("k"), Float(math.NaN())) }, true, true},
	{"Dictionaries of an Array holding NaN as key", func(i int) Value {
		return dictOf(&Array{Values: []Value{Float(math.NaN())}}, nil)
	}, true, true},
	// Keys whose parts differ only as String and StringName.
	{"Arrays of Strings and StringNames", func(i int) Value {
		a := &Array{}
		for j := range 15 {
			if i>>j&1 == 0 {
				a.Values = append(a.Values, String("a"))
			} else {
				a.Values = append(a.Values, StringName("a"))
			}
		}
		return a
	}, true, false},
}

// attackInput encodes a Dictionary of n keys made by key, each with value
// Int(i); its header is written by hand, so that no key is dropped before
// the decoder sees it.
func attackInput(t testing.TB, key func(int) Value, n int) []byte {
	t.Helper()
	enc := mode(t, EncOptions{FullObjects: true})
	b := binary.LittleEndian.AppendUint32(nil, uint32(TypeDictionary))
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	var err error
	for i := range n {
		if b, err = enc.Append(b, key(i)); err != nil {
			t.Fatal(err)
		}
		if b, err = enc.Append(b, Int(i)); err != nil {
			t.Fatal(err)
		}
	}
	return b
}

// TestAttackKeysAreLinear decodes, in both modes, and builds with Set
// Dictionaries of 32,768 keys of each attack shape, and bounds the key
// work (Values hashed and compared) by maxKeyWork per Value of the input:
// the old hash did about 16,000 per Value here.
func TestAttackKeysAreLinear(t *testing.T) {
	const n = 32768
	for _, s := range attackShapes {
		var values int64 = 1
		for i := range n {
			values += countValues(s.key(i)) + 1
		}
		want := 1
		if s.distinct {
			want = n
		}
		for _, strict := range []bool{false, true} {
			in := attackInput(t, s.key, n)
			dec := dmode(t, DecOptions{AllowObjects: true, Strict: strict})
			var v Value
			var err error
			work := countKeyWork(func() { v, _, err = dec.Decode(in) })
			if work > maxKeyWork*values {
				t.Errorf("%s (strict %v): key work %d for %d values (more than %d per value)", s.name, strict, work, values, maxKeyWork)
			}
			if strict && !s.distinct {
				// A repeated key is not what the engine writes.
				if err == nil {
					t.Errorf("%s: strict mode took a repeated key", s.name)
				}
				continue
			}
			if err != nil {
				t.Fatalf("%s: %v", s.name, err)
			}
			d := v.(*Dictionary)
			if d.Len() != want {
				t.Errorf("%s: %d keys, want %d", s.name, d.Len(), want)
			}
			if last, ok := d.Get(s.key(n - 1)); s.unmatchable && ok || !s.unmatchable && (!ok || last != Int(n-1)) {
				t.Errorf("%s: the last key holds %v, %v", s.name, last, ok)
			}
		}
		var d *Dictionary
		work := countKeyWork(func() {
			d = NewDictionary(0)
			for i := range n {
				d.Set(s.key(i), Int(i))
			}
		})
		if d.Len() != want || work > maxKeyWork*values {
			t.Errorf("%s with Set: %d keys (want %d), key work %d for %d values", s.name, d.Len(), want, work, values)
		}
	}
}

// TestDistinctKeysSpread hashes 4,096 keys of each shape whose keys are
// not equal, and of a few more such families (floats around NaN and -0,
// String and StringName of different texts), and checks that no two hash
// alike and that they fill 256 buckets evenly: at most three times the
// mean in any bucket.
func TestDistinctKeysSpread(t *testing.T) {
	const n, buckets = 4096, 256
	families := map[string]func(i int) Value{
		"floats": func(i int) Value {
			return Float([]float64{math.NaN(), math.Copysign(0, -1), math.Inf(-1)}[i%3] + float64(i/3)*0) // NaN, -0, -Inf ...
		},
		"strings and names": func(i int) Value {
			if i%2 == 0 {
				return String(strconv.Itoa(i))
			}
			return StringName(strconv.Itoa(i))
		},
		"vectors with NaN": func(i int) Value { return Vector2{math.NaN(), float64(i)} },
		"NaN in Arrays":    func(i int) Value { return &Array{Values: []Value{Float(math.NaN()), Int(i)}} },
	}
	for _, s := range attackShapes {
		if s.distinct && !s.unmatchable {
			families[s.name] = s.key
		}
	}
	for name, key := range families {
		if name == "floats" {
			continue // three keys only; checked below
		}
		seen := make(map[uint64]int, n)
		var load [buckets]int
		for i := range n {
			h := hashKey(key(i))
			if j, ok := seen[h]; ok {
				t.Fatalf("%s: keys %d and %d hash alike", name, j, i)
			}
			seen[h] = i
			load[h%buckets]++
		}
		for b, l := range load {
			if l > 3*n/buckets {
				t.Errorf("%s: %d keys in bucket %d of %d (mean %d)", name, l, b, buckets, n/buckets)
			}
		}
	}
	// NaN, -0 and -Inf: three keys, three hashes.
	f := families["floats"]
	if a, b, c := hashKey(f(0)), hashKey(f(1)), hashKey(f(2)); a == b || b == c || a == c {
		t.Errorf("NaN, -0 and -Inf: hashes %x %x %x", a, b, c)
	}
}
