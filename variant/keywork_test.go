package variant

import (
	"encoding/binary"
	"math"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
)

// Dictionary keys cost time linear in their size, whatever their shape and
// depth: these tests count the Values that key hashing and key comparison
// look at (keyWork) while a Dictionary is decoded or built, and bound them
// by a small multiple of the Values of the input.

// countKeyWork runs f and returns the key work it did.
func countKeyWork(f func()) int64 {
	var n atomic.Int64
	keyWork = &n
	defer func() { keyWork = nil }()
	f()
	return n.Load()
}

// countValues returns the number of Values in v, nested ones included.
func countValues(v Value) int64 {
	n := int64(1)
	switch x := v.(type) {
	case *Array:
		for _, e := range x.Values {
			n += countValues(e)
		}
	case *Dictionary:
		for k, e := range x.All() {
			n += countValues(k) + countValues(e)
		}
	case *Object:
		if x != nil {
			for _, p := range x.Properties {
				n += countValues(p.Value)
			}
		}
	}
	return n
}

// keyShape makes the i-th of a family of keys that differ only at their
// innermost level, depth levels deep.
type keyShape struct {
	name string
	key  func(i, depth int) Value
}

// wrapIn wraps v in depth one-element containers made by wrap.
func wrapIn(v Value, depth int, wrap func(Value) Value) Value {
	for range depth {
		v = wrap(v)
	}
	return v
}

// classType is the element type of Array[name] for a class name.
func classType(name string) ContainerType {
	return ContainerType{Kind: ClassName, Builtin: TypeObject, Name: name}
}

// typedDictOf is dictOf with keys typed key.
func typedDictOf(key ContainerType, kv ...Value) *Dictionary {
	d := dictOf(kv...)
	d.SetTypes(key, ContainerType{})
	return d
}

func dictOf(kv ...Value) *Dictionary {
	d := NewDictionary(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

// wideLevel is a Dictionary with more than linearMax entries, one of whose
// keys is inner: an index at every level.
func wideLevel(inner Value) Value {
	d := NewDictionary(linearMax + 1)
	for j := range linearMax {
		d.Set(Int(j), nil)
	}
	d.Set(inner, Bool(true))
	return d
}

var keyShapes = []keyShape{
	{"array", func(i, depth int) Value {
		return wrapIn(Int(i), depth, func(v Value) Value { return &Array{Values: []Value{v}} })
	}},
	{"dict-key", func(i, depth int) Value {
		return wrapIn(Int(i), depth, func(v Value) Value { return dictOf(v, nil) })
	}},
	{"dict-value", func(i, depth int) Value {
		return wrapIn(Int(i), depth, func(v Value) Value { return dictOf(String("k"), v) })
	}},
	{"wide-dict-key", func(i, depth int) Value {
		return wrapIn(Int(i), depth, wideLevel)
	}},
	{"packed-array", func(i, depth int) Value {
		return wrapIn(PackedInt32Array{1, 2, int32(i)}, depth, func(v Value) Value {
			return &Array{Values: []Value{Vector2{0, math.Copysign(0, -1)}, v}}
		})
	}},
	{"nodepath", func(i, depth int) Value {
		names := make([]string, depth+1)
		for j := range names {
			names[j] = "n"
		}
		names[depth] = strconv.Itoa(i)
		return wrapIn(NodePath{Names: names}, min(depth, 4), func(v Value) Value { return &Array{Values: []Value{v}} })
	}},
	{"object", func(i, depth int) Value {
		return wrapIn(Int(i), depth, func(v Value) Value {
			return &Object{Class: "Node", Properties: []Property{{"a", String("x")}, {"b", v}}}
		})
	}},
	{"mix", func(i, depth int) Value {
		level := 0
		return wrapIn(String(strconv.Itoa(i)), depth, func(v Value) Value {
			level++
			switch level % 4 {
			case 0:
				return &Array{Values: []Value{nil, v}}
			case 1:
				return dictOf(String("a"), Float(0.5), v, PackedStringArray{"x"})
			case 2:
				return &Object{Class: "Resource", Properties: []Property{{"p", v}}}
			}
			return wideLevel(v)
		})
	}},
}

// deepKeysInput encodes a Dictionary of n keys of the shape, each nested
// depth deep, with null values. The Dictionary header is written by hand,
// so that making the input does not depend on Dictionary.Set.
func deepKeysInput(t testing.TB, enc *EncMode, fam Family, s keyShape, n, depth int) []byte {
	t.Helper()
	dict := byte(TypeDictionary)
	if fam == Godot3 {
		dict = 18
	}
	b := binary.LittleEndian.AppendUint32(nil, uint32(dict))
	b = binary.LittleEndian.AppendUint32(b, uint32(n))
	var err error
	for i := range n {
		if b, err = enc.Append(b, s.key(i, depth)); err != nil {
			t.Fatal(err)
		}
		b = binary.LittleEndian.AppendUint32(b, 0) // null
	}
	return b
}

// maxKeyWork is the key work allowed per Value of the input. Hashing a key
// looks at each of its Values once, and comparisons happen only between
// keys of equal hashes, except in a Dictionary of at most linearMax simple
// keys, where a new key is compared with each (one or two units of work
// each). Keys that hashed alike below some depth would make the work grow
// with the number of keys; hashing a key again at each level of nesting
// would make it grow with the depth.
const maxKeyWork = 2 * linearMax

func TestDictionaryKeyWorkIsLinear(t *testing.T) {
	for _, fam := range []Family{Godot4, Godot3} {
		enc := mode(t, EncOptions{Family: fam, FullObjects: true})
		for _, strict := range []bool{false, true} {
			dec := dmode(t, DecOptions{Family: fam, AllowObjects: true, Strict: strict})
			for _, s := range keyShapes {
				for _, depth := range []int{0, 1, 8, 9, 40, 300} {
					n := max(1000/(depth+1), 40)
					in := deepKeysInput(t, enc, fam, s, n, depth)
					var v Value
					work := countKeyWork(func() {
						var err error
						if v, _, err = dec.Decode(in); err != nil {
							t.Fatalf("%v %s depth %d: %v", fam, s.name, depth, err)
						}
					})
					if got := v.(*Dictionary).Len(); got != n {
						t.Fatalf("%v %s depth %d: %d keys, want %d", fam, s.name, depth, got, n)
					}
					values := countValues(v)
					if work > maxKeyWork*values {
						t.Errorf("%v strict=%v %s depth %d: key work %d for %d values (more than %d per value)",
							fam, strict, s.name, depth, work, values, maxKeyWork)
					}
				}
			}
		}
	}
}

// TestDictionarySetKeyWorkIsLinear builds Dictionaries as the text and
// JSON parsers do, bottom up with Set: a key made of Dictionaries that
// are themselves indexed is hashed once, not again at every level.
func TestDictionarySetKeyWorkIsLinear(t *testing.T) {
	for _, s := range keyShapes {
		for _, depth := range []int{1, 9, 100, 1000} {
			n := max(3000/(depth+1), 20)
			var d *Dictionary
			work := countKeyWork(func() {
				d = NewDictionary(0)
				for i := range n {
					d.Set(s.key(i, depth), Int(i))
				}
			})
			if d.Len() != n {
				t.Fatalf("%s depth %d: %d keys, want %d", s.name, depth, d.Len(), n)
			}
			if values := countValues(d); work > maxKeyWork*values {
				t.Errorf("%s depth %d: key work %d for %d values", s.name, depth, work, values)
			}
			// Every key is found again, at the cost of its size.
			for i := range n {
				k := s.key(i, depth)
				var got Value
				var ok bool
				work := countKeyWork(func() { got, ok = d.Get(k) })
				if !ok || got != Int(i) {
					t.Fatalf("%s depth %d: key %d not found", s.name, depth, i)
				}
				if kv := countValues(k); work > 2*maxKeyWork*kv {
					t.Fatalf("%s depth %d: finding key %d took work %d for %d values", s.name, depth, i, work, kv)
				}
			}
		}
	}
}

// TestDeepKeysHashApart checks that keys differing only at their deepest
// level, at any depth up to DefaultMaxDepth, hash apart.
func TestDeepKeysHashApart(t *testing.T) {
	for _, s := range keyShapes {
		for _, depth := range []int{8, 9, 64, DefaultMaxDepth - 8} {
			seen := map[uint64]int{}
			for i := range 20 {
				h := hashKey(s.key(i, depth))
				if j, ok := seen[h]; ok {
					t.Fatalf("%s depth %d: keys %d and %d hash alike", s.name, depth, j, i)
				}
				seen[h] = i
			}
		}
	}
}

// TestKeyHashFollowsEquality checks, over pairs of keys that are equal
// under Dictionary key rules without being identical, that they hash
// alike, and over pairs that differ, that they are different keys.
func TestKeyHashFollowsEquality(t *testing.T) {
	negZero := math.Copysign(0, -1)
	nan1, nan2 := math.NaN(), math.Float64frombits(0x7ff0000000000bad)
	big := func(k func(j int) Value) *Dictionary {
		d := NewDictionary(0)
		for j := range linearMax + 4 {
			d.Set(k(j), Int(j))
		}
		return d
	}
	same := [][2]Value{
		{String("a"), StringName("a")},
		{Float(0), Float(negZero)},
		{Float(nan1), Float(nan2)},
		{Vector2{0, nan1}, Vector2{negZero, nan2}},
		{Color{R: float32(negZero)}, Color{}},
		{PackedFloat32Array{0, float32(nan1)}, PackedFloat32Array{float32(negZero), float32(nan2)}},
		{PackedFloat64Array{negZero}, PackedFloat64Array{0}},
		{(*Array)(nil), &Array{}},
		{(*Dictionary)(nil), NewDictionary(0)},
		{(*Dictionary)(nil), NewTypedDictionary(Typed(TypeInt), ContainerType{}, 0)},
		// Element types do not count (as in Godot 4.6: TestKeyEqualityAsTheEngine).
		{&Array{}, &Array{Elem: Typed(TypeInt)}},
		{(*Array)(nil), &Array{Elem: classType("A")}},
		{&Array{Elem: classType("A"), Values: []Value{Int(1)}}, &Array{Elem: classType("B"), Values: []Value{Int(1)}}},
		{NewTypedDictionary(classType("A"), Typed(TypeInt), 0), NewTypedDictionary(classType("B"), Typed(TypeInt), 0)},
		{typedDictOf(classType("A"), String("k"), Int(1)), typedDictOf(ContainerType{}, String("k"), Int(1))},
		{&Array{Values: []Value{String("x"), Float(negZero)}}, &Array{Values: []Value{String("x"), Float(0)}}},
		{dictOf(String("k"), String("v")), dictOf(StringName("k"), String("v"))},
		{dictOf(Float(nan1), Int(1)), dictOf(Float(nan2), Int(1))},
		{&Array{Values: []Value{Vector2{nan1, 0}, PackedFloat64Array{nan2}}}, &Array{Values: []Value{Vector2{nan2, 0}, PackedFloat64Array{nan1}}}},
		{big(func(j int) Value { return String(strconv.Itoa(j)) }), big(func(j int) Value { return StringName(strconv.Itoa(j)) })},
		{big(func(j int) Value { return Float(float64(j) * negZero) }), big(func(j int) Value { return Float(float64(j) * 0) })},
		{wrapIn(String("deep"), 500, wideLevel), wrapIn(StringName("deep"), 500, wideLevel)},
		{wrapIn(Float(negZero), 700, func(v Value) Value { return &Array{Values: []Value{v}} }),
			wrapIn(Float(0), 700, func(v Value) Value { return &Array{Values: []Value{v}} })},
		{&Object{Class: "A", Properties: []Property{{"p", String("s")}}}, &Object{Class: "A", Properties: []Property{{"p", String("s")}}}},
	}
	for i, p := range same {
		if !equal(p[0], p[1], true) {
			t.Fatalf("case %d: not equal keys", i)
		}
		if hashKey(p[0]) != hashKey(p[1]) {
			t.Errorf("case %d: equal keys %T hash apart", i, p[0])
		}
		d := NewDictionary(0)
		d.Set(p[0], Int(1))
		d.Set(p[1], Int(2))
		if d.Len() != 1 {
			t.Errorf("case %d: equal keys are %d entries", i, d.Len())
		}
	}
	different := [][2]Value{
		{Int(1), Float(1)},
		{String("1"), Int(1)},
		{String("ab"), NodePath{Names: []string{"ab"}}},
		{&Array{Values: []Value{String("a"), String("b")}}, &Array{Values: []Value{String("ab")}}},
		{&Array{Elem: classType("A")}, &Array{Elem: classType("A"), Values: []Value{nil}}},
		{NewTypedDictionary(classType("A"), Typed(TypeInt), 0), typedDictOf(classType("A"), nil, Int(0))},
		{&Object{Class: "A"}, &Object{Class: "B"}},
		{NewDictionary(0), nil},
		{dictOf(Int(1), Int(2)), dictOf(Int(2), Int(1))},
		{(*Object)(nil), &Object{Class: "A"}},
		{ObjectID(1), &Object{Class: "A"}},
		{NodePath{Names: []string{"a"}, Absolute: true}, NodePath{Names: []string{"a"}}},
		{NodePath{Names: []string{"a"}}, NodePath{Subnames: []string{"a"}}},
		{PackedStringArray{"a", "b"}, PackedStringArray{"ab"}},
		{PackedInt32Array{1}, PackedInt64Array{1}},
		{Float(math.Inf(1)), Float(nan1)},
		// In an Array, a Dictionary's values or an Object's properties, a
		// String is not a StringName, and a NaN equals nothing (as in Godot
		// 4.6: TestKeyEqualityAsTheEngine).
		{&Array{Values: []Value{String("x")}}, &Array{Values: []Value{StringName("x")}}},
		{dictOf(String("k"), String("v")), dictOf(String("k"), StringName("v"))},
		{&Object{Class: "A", Properties: []Property{{"p", String("s")}}}, &Object{Class: "A", Properties: []Property{{"p", StringName("s")}}}},
		{&Array{Values: []Value{Float(nan1)}}, &Array{Values: []Value{Float(nan1)}}},
		{dictOf(String("k"), Float(nan1)), dictOf(String("k"), Float(nan1))},
		{dictOf(&Array{Values: []Value{Float(nan1)}}, nil), dictOf(&Array{Values: []Value{Float(nan1)}}, nil)},
	}
	for i, p := range different {
		if equal(p[0], p[1], true) {
			t.Fatalf("case %d: equal keys", i)
		}
		d := NewDictionary(0)
		d.Set(p[0], Int(1))
		d.Set(p[1], Int(2))
		if d.Len() != 2 {
			t.Errorf("case %d: different keys %v and %v are one entry", i, p[0], p[1])
		}
	}
}

// TestDictionaryIndexAfterDelete checks that lookups stay right as
// entries come and go around the size where the index starts.
func TestDictionaryIndexAfterDelete(t *testing.T) {
	d := NewDictionary(0)
	key := func(j int) Value {
		if j%3 == 0 {
			return &Array{Values: []Value{Int(j)}}
		}
		return Int(j)
	}
	for j := range 40 {
		d.Set(key(j), Int(j))
	}
	for j := 0; j < 40; j += 2 {
		if !d.Delete(key(j)) {
			t.Fatalf("Delete(%d) found nothing", j)
		}
	}
	for j := range 40 {
		v, ok := d.Get(key(j))
		if ok != (j%2 == 1) || (ok && v != Int(j)) {
			t.Fatalf("Get(%d) = %v, %v", j, v, ok)
		}
	}
	for j := 0; j < 40; j += 2 {
		d.Set(key(j), Int(-j))
	}
	if d.Len() != 40 {
		t.Fatalf("%d entries, want 40", d.Len())
	}

	// Deleting keeps the hashes of the other keys: deleting every deep
	// key costs work in proportion to the keys deleted, not to all the
	// keys left at each step.
	deep := func(j int) Value { return keyShapes[0].key(j, 50) }
	d = NewDictionary(0)
	for j := range 200 {
		d.Set(deep(j), nil)
	}
	var values int64
	work := countKeyWork(func() {
		for j := range 200 {
			k := deep(j)
			values += countValues(k)
			if !d.Delete(k) {
				t.Fatalf("Delete(%d) found nothing", j)
			}
		}
	})
	if d.Len() != 0 || work > maxKeyWork*values {
		t.Errorf("%d entries left; deleting took key work %d for %d values", d.Len(), work, values)
	}
}

// BenchmarkDeepKeys decodes Dictionaries of about 400 KB whose keys are
// nested depth deep (Arrays around distinct Ints; Dictionaries of 17
// entries, each the key of the next): the time per byte is the same at
// every depth.
func BenchmarkDeepKeys(b *testing.B) {
	enc := mode(b, EncOptions{MaxDepth: 2048})
	dec := dmode(b, DecOptions{MaxDepth: 2048})
	for _, s := range []keyShape{keyShapes[0], keyShapes[3]} {
		for _, depth := range []int{1, 4, 16, 64, 256, 1024} {
			b.Run(s.name+"/depth="+strconv.Itoa(depth), func(b *testing.B) {
				size := len(deepKeysInput(b, enc, Godot4, s, 1, depth))
				in := deepKeysInput(b, enc, Godot4, s, max(400_000/size, 1), depth)
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					if _, _, err := dec.Decode(in); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// keyGen makes Values from fuzz input: few distinct leaves, so that equal
// keys (and keys equal only under key rules) come up often, and chains of
// containers that make keys deep.
type keyGen struct {
	b     []byte
	nodes int
}

func (g *keyGen) byte() byte {
	if len(g.b) == 0 {
		return 0
	}
	c := g.b[0]
	g.b = g.b[1:]
	return c
}

// elem returns a container element type: most often untyped, else typed
// by a builtin or one of two class names.
func (g *keyGen) elem() ContainerType {
	switch g.byte() % 6 {
	case 0:
		return Typed(TypeInt)
	case 1:
		return classType("A")
	case 2:
		return classType("B")
	}
	return ContainerType{}
}

func (g *keyGen) value(depth int) Value {
	g.nodes++
	op := g.byte()
	if depth >= 60 || g.nodes > 4000 {
		op %= 6 // leaves only
	}
	switch op % 16 {
	case 0:
		return nil
	case 1:
		return Int(g.byte() % 4)
	case 2:
		return Float([]float64{0, math.Copysign(0, -1), 1, math.NaN(), math.Float64frombits(0x7ff0000000000bad)}[g.byte()%5])
	case 3:
		return String([]string{"a", "b", ""}[g.byte()%3])
	case 4:
		return StringName([]string{"a", "b", ""}[g.byte()%3])
	case 5:
		return Vector2{[]float64{0, math.Copysign(0, -1), 1}[g.byte()%3], 0}
	case 6, 7:
		a := &Array{Elem: g.elem()}
		for range g.byte() % 4 {
			a.Values = append(a.Values, g.value(depth+1))
		}
		return a
	case 8, 9:
		d := NewDictionary(0)
		if c := g.byte(); c%4 == 0 {
			d.SetTypes(g.elem(), g.elem())
		}
		n := int(g.byte() % 4)
		if g.byte()%3 == 0 {
			n += linearMax // indexed
		}
		for j := range n {
			if j < linearMax && n > linearMax {
				d.Set(Int(100+j), nil)
				continue
			}
			d.Set(g.value(depth+1), g.value(depth+1))
		}
		return d
	case 10:
		// A chain: the value nested in up to 255 Arrays or Dictionaries.
		n, dicts := int(g.byte()), g.byte()%2 == 0
		v := g.value(depth + 1)
		for range n {
			g.nodes++
			if dicts {
				v = dictOf(v, nil)
			} else {
				v = &Array{Values: []Value{v}}
			}
		}
		return v
	case 11:
		return NodePath{Names: []string{"a", []string{"a", "b"}[g.byte()%2]}, Absolute: g.byte()%2 == 0}
	case 12:
		return PackedInt32Array{1, int32(g.byte() % 3)}
	case 13:
		return PackedFloat32Array{[]float32{0, float32(math.Copysign(0, -1)), 1}[g.byte()%3]}
	case 14:
		if g.byte()%4 == 0 {
			return (*Object)(nil)
		}
		o := &Object{Class: []string{"A", "B"}[g.byte()%2]}
		if g.byte()%2 == 0 {
			o.Properties = []Property{{"p", g.value(depth + 1)}}
		}
		return o
	}
	return Bool(g.byte()%2 == 0)
}

// FuzzDictionaryKeys builds Dictionaries whose keys the fuzz input makes
// (deep, nested, equal under key rules or nearly so) and checks that keys
// equal under Dictionary key rules hash alike, that every key is found
// again, and that decoding such a Dictionary does key work linear in its
// size.
func FuzzDictionaryKeys(f *testing.F) {
	f.Add([]byte{10, 200, 1, 1, 2})
	f.Add([]byte{8, 3, 3, 10, 255, 0, 3, 0, 10, 255, 0, 4, 0, 2, 1, 2, 2, 6, 2, 3, 1, 4, 1})
	f.Add([]byte{9, 1, 0, 10, 40, 0, 8, 1, 0, 10, 30, 1, 2, 3, 0, 14, 1, 10, 60, 0, 12, 1, 0})
	enc := mode(f, EncOptions{FullObjects: true, Precision: Double})
	dec := dmode(f, DecOptions{AllowObjects: true})
	f.Fuzz(func(t *testing.T, b []byte) {
		g := &keyGen{b: b}
		var keys []Value
		for len(g.b) > 0 && len(keys) < 64 {
			keys = append(keys, g.value(0))
		}
		for i, a := range keys {
			for _, c := range keys[:i] {
				ha, na := hashKeyFull(a)
				hc, nc := hashKeyFull(c)
				eq, same := equal(a, c, true), ha == hc
				if eq && !same {
					t.Fatalf("equal keys %v and %v hash apart", a, c)
				}
				if eq && (na || nc) {
					t.Fatalf("unmatchable key %v equals %v", a, c)
				}
				// The hash is 64 bits and seeded: keys that are not
				// equal but hash alike are keys whose difference the
				// hash does not see, unless they are unmatchable (and
				// never compared).
				if !eq && same && !na && !nc {
					t.Fatalf("keys %v and %v are not equal but hash alike", a, c)
				}
			}
		}
		// The Dictionary against a model that compares every key.
		d := NewDictionary(0)
		var model []Entry
		find := func(k Value) int {
			for i, e := range model {
				if sameKey(e.Key, k) {
					return i
				}
			}
			return -1
		}
		for i, k := range keys {
			d.Set(k, Int(i))
			if j := find(k); j >= 0 {
				model[j].Value = Int(i)
			} else {
				model = append(model, Entry{k, Int(i)})
			}
		}
		if !Equal(&Dictionary{entries: model}, d) {
			t.Fatalf("Dictionary %v, want %v", d, model)
		}
		for _, k := range keys {
			v, ok := d.Get(k)
			j := find(k)
			if _, unmatchable := hashKeyFull(k); unmatchable || j < 0 {
				// A key that equals nothing is found nowhere.
				if ok || j >= 0 || !unmatchable {
					t.Fatalf("Get(%v) = %v, %v; the model finds it at %d", k, v, ok, j)
				}
				continue
			}
			if !ok || v != model[j].Value {
				t.Fatalf("Get(%v) = %v, want %v", k, v, model[j].Value)
			}
		}
		in, err := enc.Encode(d)
		if err != nil {
			return // a typed Array holding what its type refuses, say
		}
		var out Value
		work := countKeyWork(func() {
			if out, _, err = dec.Decode(in); err != nil {
				t.Fatalf("decoding what was encoded: %v", err)
			}
		})
		// Counted in what was encoded: the decoder reads all of it, even
		// what a repeated key then drops (a null Object and Nil are one
		// key once encoded).
		if values := max(countValues(out), countValues(d)); work > maxKeyWork*values+64 {
			t.Fatalf("key work %d for %d values", work, values)
		}
	})
}

// TestDictionaryConcurrentReads reads a Dictionary from several goroutines
// at once, just past the size where the index starts: reading never
// builds the index (run with -race).
func TestDictionaryConcurrentReads(t *testing.T) {
	for _, n := range []int{linearMax, linearMax + 1, 100} {
		d := NewDictionary(0)
		for j := range n {
			d.Set(Int(j), Int(j))
		}
		var wg sync.WaitGroup
		for range 4 {
			wg.Go(func() {
				for j := range n {
					if v, ok := d.Get(Int(j)); !ok || v != Int(j) {
						t.Errorf("Get(%d) = %v, %v", j, v, ok)
					}
				}
			})
		}
		wg.Wait()
	}
}
