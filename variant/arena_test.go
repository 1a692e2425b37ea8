package variant

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"reflect"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// arenaSample is an Array with one element of every kind the decoder takes
// from slabs, repeated until the slabs are in use and fill up more than
// once.
func arenaSample() *Array {
	a := &Array{}
	for i := range 300 {
		f := float64(i) + 0.25
		a.Values = append(a.Values,
			Int(1000+i), Int(i%7), Float(f), String("s"+strconv.Itoa(i)), String(""),
			StringName("n"+strconv.Itoa(i)), Vector2{f, -f}, Vector2i{int32(i), 2},
			Vector3{f, 1, 2}, Vector3i{1, int32(i), 3}, Vector4{f, 0, 0, 1},
			Rect2{Vector2{f, 0}, Vector2{1, 1}}, Quaternion{0, 0, 0, f},
			Color{0.5, 0.25, float32(i), 1}, Transform2D{X: Vector2{f, 0}, Y: Vector2{0, 1}},
			Transform3D{Basis: Basis{X: Vector3{X: f}, Y: Vector3{Y: 1}, Z: Vector3{Z: 1}}, Origin: Vector3{1, 2, 3}},
			&Dictionary{}, dict("k", Int(i)), dict("a", Int(1), "b", String("x")),
			dict("a", Int(1), "b", Int(2), "c", Int(3)), dict("a", Int(1), "b", Int(2), "c", Int(3), "d", Int(4)),
		)
	}
	return a
}

func dict(kv ...any) *Dictionary {
	d := &Dictionary{}
	for i := 0; i < len(kv); i += 2 {
		d.Set(String(kv[i].(string)), kv[i+1].(Value))
	}
	return d
}

// TestArenaValues checks that values taken from slabs are the values
// decoded one by one: same dynamic types, same contents, usable by type
// assertion and reflection, for both families and precisions.
func TestArenaValues(t *testing.T) {
	want := arenaSample()
	for _, o := range []EncOptions{{Family: Godot4}, {Family: Godot4, Precision: Double}, {Family: Godot3}} {
		var in Value = want
		if o.Family == Godot3 {
			in = godot3Only(want)
		}
		b, err := mode(t, o).Encode(in)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := dmode(t, DecOptions{Family: o.Family}).Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		wa, ga := in.(*Array), got.(*Array)
		if len(ga.Values) != len(wa.Values) {
			t.Fatalf("%+v: %d values, want %d", o, len(ga.Values), len(wa.Values))
		}
		for i, w := range wa.Values {
			g := ga.Values[i]
			if reflect.TypeOf(g) != reflect.TypeOf(w) || !Equal(g, w) {
				t.Fatalf("%+v: value %d is %#v, want %#v", o, i, g, w)
			}
		}
		// Each value has its own slot: nothing decoded later overwrote it.
		if s, ok := ga.Values[3].(String); !ok || s != "s0" {
			t.Fatalf("first string %#v", ga.Values[3])
		}
		if v, ok := ga.Values[len(ga.Values)-1].(*Dictionary).Get(String("d")); !ok || v != Int(4) {
			t.Fatalf("last dictionary lost its entry: %v", v)
		}
	}
}

// godot3Only drops from an Array the kinds that Godot 3 does not have.
func godot3Only(a *Array) *Array {
	out := &Array{}
	for _, v := range a.Values {
		switch v.(type) {
		case StringName, Vector2i, Vector3i, Vector4:
			continue
		}
		out.Values = append(out.Values, v)
	}
	return out
}

// TestArenaDuplicateKeys checks the search-free path for cached keys:
// different bytes that spell one string are still the same key, and the
// last value wins, as in the engine.
func TestArenaDuplicateKeys(t *testing.T) {
	key := func(raw string) []byte {
		b := []byte{4, 0, 0, 0, byte(len(raw)), 0, 0, 0}
		b = append(b, raw...)
		for len(b)%4 != 0 {
			b = append(b, 0)
		}
		return b
	}
	one := func(v byte) []byte { return []byte{2, 0, 0, 0, v, 0, 0, 0} }
	for _, spelling := range []string{"id", "\xEF\xBB\xBFid", "id\x00x"} {
		// An Array of 40 records, so that the slabs are in use, each
		// {"id": 1, "name": 2, <spelling of "id">: 3}.
		b := []byte{19, 0, 0, 0, 40, 0, 0, 0}
		for range 40 {
			b = append(b, 18, 0, 0, 0, 3, 0, 0, 0)
			b = append(b, key("id")...)
			b = append(b, one(1)...)
			b = append(b, key("name")...)
			b = append(b, one(2)...)
			b = append(b, key(spelling)...)
			b = append(b, one(3)...)
		}
		v, _, err := dmode(t, DecOptions{Family: Godot3}).Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		for i, r := range v.(*Array).Values {
			d := r.(*Dictionary)
			if id, _ := d.Get(String("id")); d.Len() != 2 || id != Int(3) {
				t.Fatalf("%q: record %d is %v", spelling, i, d)
			}
		}
	}
}

// TestArenaSmallMessages checks that a small message allocates no more
// than it did before slabs: one allocation per boxed value.
func TestArenaSmallMessages(t *testing.T) {
	b, err := mode(t, EncOptions{Family: Godot4}).Encode(dict("id", Int(1000), "hp", Float(99.5)))
	if err != nil {
		t.Fatal(err)
	}
	m := dmode(t, DecOptions{Family: Godot4})
	allocs := testing.AllocsPerRun(100, func() {
		if _, _, err := m.Decode(b); err != nil {
			t.Fatal(err)
		}
	})
	// The Dictionary with its entries, the Int and the Float; the keys
	// come from the mode's cache.
	if allocs > 3 {
		t.Fatalf("%v allocations", allocs)
	}
}

// TestKeyCacheConcurrent decodes messages whose keys collide in the
// mode's key cache from several goroutines at once (run it with -race):
// every key comes out as the string its own bytes spell.
func TestKeyCacheConcurrent(t *testing.T) {
	e := mode(t, EncOptions{Family: Godot4})
	m := dmode(t, DecOptions{Family: Godot4})
	const keys = 2 * keyCacheSlots // more keys than slots: slots are replaced
	msgs := make([][]byte, keys)
	for i := range msgs {
		b, err := e.Encode(dict("key"+strconv.Itoa(i), Int(i)))
		if err != nil {
			t.Fatal(err)
		}
		msgs[i] = b
	}
	done := make(chan error)
	for g := range 4 {
		go func() {
			for round := range 20 {
				for i := range msgs {
					i := (i*7 + g + round) % keys
					v, _, err := m.Decode(msgs[i])
					if err != nil {
						done <- err
						return
					}
					d := v.(*Dictionary)
					k := d.Entries()[0].Key
					if d.Len() != 1 || k != String("key"+strconv.Itoa(i)) {
						done <- fmt.Errorf("message %d decoded as %v", i, d)
						return
					}
				}
			}
			done <- nil
		}()
	}
	for range 4 {
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

// TestKeyCacheOwnsItsStrings checks that a key cached from a ZeroCopy
// decode does not alias the caller's buffer, which may be reused.
func TestKeyCacheOwnsItsStrings(t *testing.T) {
	b, err := mode(t, EncOptions{Family: Godot4}).Encode(dict("abcd", Int(1)))
	if err != nil {
		t.Fatal(err)
	}
	m := dmode(t, DecOptions{Family: Godot4, ZeroCopy: true})
	if _, _, err := m.Decode(b); err != nil {
		t.Fatal(err)
	}
	other := append([]byte(nil), b...)
	copy(b, make([]byte, len(b))) // the caller reuses its buffer
	v, _, err := m.Decode(other)
	if err != nil {
		t.Fatal(err)
	}
	if k := v.(*Dictionary).Entries()[0].Key; k != String("abcd") {
		t.Fatalf("key %#v", k)
	}
}

// records is an Array of n records like a game's: {"id", "name", "pos",
// "hp", "alive"}, the kind of Dictionary whose entries go to a block.
func records(n int) *Array {
	a := &Array{}
	for i := range n {
		a.Values = append(a.Values, dict("id", Int(i*1000), "name", String("player"+strconv.Itoa(i)),
			"pos", Vector2{float64(i), -1}, "hp", Float(99.5), "alive", Bool(i%2 == 0)))
	}
	return a
}

// TestBlockDictionaries checks that the small Dictionaries of a large
// Array keep their entries in blocks, that they read as any Dictionary,
// and that changing them (which moves their entries to ordinary memory)
// works, also for values the collector must then see.
func TestBlockDictionaries(t *testing.T) {
	want := records(2000)
	b, err := mode(t, EncOptions{Family: Godot4}).Encode(want)
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := dmode(t, DecOptions{Family: Godot4}).Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	got := v.(*Array)
	inBlocks := 0
	for _, r := range got.Values {
		if r.(*Dictionary).index == inBlock {
			inBlocks++
		}
	}
	if inBlocks < 1900 {
		t.Fatalf("%d of 2000 Dictionaries in blocks", inBlocks)
	}
	if !Equal(got, want) {
		t.Fatal("decoded records differ")
	}
	// Change some: a new key with values only the collector can keep
	// alive, a replaced value, a deleted key.
	for i, r := range got.Values {
		d := r.(*Dictionary)
		switch i % 3 {
		case 0:
			d.Set(String("tags"), NewArray(String(strconv.Itoa(i)+"-tag")))
		case 1:
			d.Set(String("name"), String(strconv.Itoa(i)+"-renamed"))
		case 2:
			d.Delete(String("id"))
		}
	}
	want, got = nil, nil
	runtime.GC()
	garbage := make([][]byte, 0, 1000)
	for range 1000 {
		garbage = append(garbage, make([]byte, 64))
	}
	runtime.GC()
	_ = garbage
	for i, r := range v.(*Array).Values {
		d := r.(*Dictionary)
		name, _ := d.Get(String("name"))
		_, hasID := d.Get(String("id"))
		tags, _ := d.Get(String("tags"))
		switch i % 3 {
		case 0:
			if tags == nil || tags.(*Array).Values[0] != String(strconv.Itoa(i)+"-tag") || name != String("player"+strconv.Itoa(i)) {
				t.Fatalf("record %d: %v", i, d)
			}
		case 1:
			if name != String(strconv.Itoa(i)+"-renamed") || d.Len() != 5 {
				t.Fatalf("record %d: %v", i, d)
			}
		case 2:
			if hasID || d.Len() != 4 || name != String("player"+strconv.Itoa(i)) {
				t.Fatalf("record %d: %v", i, d)
			}
		}
		if pos, _ := d.Get(String("pos")); pos != (Vector2{float64(i), -1}) {
			t.Fatalf("record %d: pos %v", i, pos)
		}
	}
}

// TestBlockValuesOutliveTheMessage keeps a few values of a decoded message
// and drops the rest: after collections, with the memory reused, they still
// hold what was decoded.
func TestBlockValuesOutliveTheMessage(t *testing.T) {
	b, err := mode(t, EncOptions{Family: Godot4}).Encode(records(3000))
	if err != nil {
		t.Fatal(err)
	}
	m := dmode(t, DecOptions{Family: Godot4})
	var kept []Value
	for round := range 5 {
		v, _, err := m.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		r := v.(*Array).Values[round*500+7].(*Dictionary)
		name, _ := r.Get(String("name"))
		kept = append(kept, r, name, r.Entries()[0].Key)
		runtime.GC()
	}
	for i, k := range kept {
		switch i % 3 {
		case 0:
			want := records(3000).Values[(i/3)*500+7]
			if !Equal(k, want) {
				t.Fatalf("kept Dictionary %d is %v, want %v", i/3, k, want)
			}
		case 1:
			if k != String("player"+strconv.Itoa((i/3)*500+7)) {
				t.Fatalf("kept name %d is %#v", i/3, k)
			}
		case 2:
			if s, ok := k.(String); !ok || string(s) != "id" {
				t.Fatalf("kept key %d is %#v", i/3, k)
			}
		}
	}
}

// TestBlockFallback decodes records of which some hold a container or a
// long string, values whose entries cannot go to a block: every record
// still decodes to its value.
func TestBlockFallback(t *testing.T) {
	a := records(600)
	long := String(strings.Repeat("x", 300))
	for i, r := range a.Values {
		d := r.(*Dictionary)
		switch {
		case i%50 == 3:
			d.Set(String("hp"), NewArray(Int(i)))
		case i%70 == 5:
			d.Set(String("name"), long)
		case i > 400:
			d.Set(String("id"), &Dictionary{})
		}
	}
	for _, zc := range []bool{false, true} {
		b, err := mode(t, EncOptions{Family: Godot4}).Encode(a)
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := dmode(t, DecOptions{Family: Godot4, ZeroCopy: zc}).Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		runtime.GC()
		if !Equal(v, a) {
			t.Fatalf("ZeroCopy %v: decoded records differ", zc)
		}
	}
}

// TestHostileCountsWithSlabs decodes containers whose headers announce
// far more elements than the input holds, past the point where slabs and
// blocks are in use: the memory allocated stays in proportion to the
// input, not to the announcement.
func TestHostileCountsWithSlabs(t *testing.T) {
	rec, err := mode(t, EncOptions{Family: Godot4}).Encode(dict("id", Int(1000), "hp", Float(1)))
	if err != nil {
		t.Fatal(err)
	}
	const announced = 100_000_000
	var inputs [][]byte
	// An Array announcing 10^8 elements, then 64 records and nothing.
	arr := []byte{byte(TypeArray), 0, 0, 0}
	arr = binary.LittleEndian.AppendUint32(arr, announced)
	for range 64 {
		arr = append(arr, rec...)
	}
	inputs = append(inputs, arr)
	// 64 records in an Array, each announcing 10^8 entries.
	big := []byte{byte(TypeArray), 0, 0, 0, 64, 0, 0, 0}
	for range 64 {
		r := append([]byte(nil), rec...)
		binary.LittleEndian.PutUint32(r[4:], announced)
		big = append(big, r...)
	}
	inputs = append(inputs, big)
	m := dmode(t, DecOptions{Family: Godot4})
	for i, in := range inputs {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 10 {
			if _, _, err := m.Decode(in); err == nil {
				t.Fatalf("input %d decoded", i)
			}
		}
		runtime.ReadMemStats(&after)
		if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > uint64(64*len(in))+64<<10 {
			t.Fatalf("input %d of %d bytes: %d bytes allocated per call", i, len(in), per)
		}
	}
}

// TestRetentionBounded keeps one record, and one string of another, of
// a large decoded message and drops the rest: what stays alive is a few
// slabs and blocks, not the message.
func TestRetentionBounded(t *testing.T) {
	b, err := mode(t, EncOptions{Family: Godot4}).Encode(records(20000))
	if err != nil {
		t.Fatal(err)
	}
	m := dmode(t, DecOptions{Family: Godot4})
	heap := func() uint64 {
		var s runtime.MemStats
		runtime.GC()
		runtime.GC()
		runtime.ReadMemStats(&s)
		return s.HeapAlloc
	}
	before := heap()
	v, _, err := m.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	all := heap() - before
	rec := v.(*Array).Values[12345].(*Dictionary)
	name, _ := v.(*Array).Values[777].(*Dictionary).Get(String("name"))
	v = nil
	kept := heap() - before
	if all < 4<<20 || kept > 512<<10 {
		t.Fatalf("the message took %d bytes, one record and one string keep %d alive", all, kept)
	}
	t.Logf("message %d bytes, kept %d", all, kept)
	if id, _ := rec.Get(String("id")); id != Int(12345*1000) || name != String("player777") {
		t.Fatalf("kept %v and %v", rec, name)
	}
	runtime.KeepAlive(b)
}

// TestBlockEntriesAreCopied checks that writing into the slice Entries
// returns (which the documentation forbids) cannot reach entries in a
// block, where the collector would not see what is written.
func TestBlockEntriesAreCopied(t *testing.T) {
	b, err := mode(t, EncOptions{Family: Godot4}).Encode(records(100))
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := dmode(t, DecOptions{Family: Godot4}).Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	d := v.(*Array).Values[99].(*Dictionary)
	if d.index != inBlock {
		t.Fatal("the last record is not in a block")
	}
	es := d.Entries()
	es[0].Value = NewArray(String("written"))
	runtime.GC()
	if id, _ := d.Get(String("id")); id != Int(99000) {
		t.Fatalf("id %v", id)
	}
	n := 0
	for k, v := range d.All() {
		if w, _ := d.Get(k); w != v {
			t.Fatalf("All gives %v: %v, Get %v", k, v, w)
		}
		n++
	}
	if n != 5 {
		t.Fatalf("All gives %d entries", n)
	}
}

// TestBlockRandomRecords decodes Arrays of random records (random keys,
// repeated keys, keys in any order, values of every kind, some holding
// containers or long strings) and checks each record against the same
// record decoded alone, which uses no slabs or blocks: the same entries in
// the same order.
func TestBlockRandomRecords(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	keys := []Value{String("id"), String("name"), String("pos"), String("hp"), StringName("hp"),
		String(strings.Repeat("k", 40)), Int(7), String("")}
	values := func() Value {
		switch rng.IntN(14) {
		case 0:
			return nil
		case 1:
			return Bool(rng.IntN(2) == 0)
		case 2:
			return Int(rng.IntN(300))
		case 3:
			return Int(rng.Int64())
		case 4:
			return Float(rng.Float64())
		case 5:
			return String(strings.Repeat("s", rng.IntN(200)))
		case 6:
			return StringName("n" + strconv.Itoa(rng.IntN(50)))
		case 7:
			return Vector2{rng.Float64(), 1}
		case 8:
			return Vector3i{1, 2, int32(rng.IntN(9))}
		case 9:
			return Color{0.5, 0, 1, 1}
		case 10:
			return NewArray(Int(1))
		case 11:
			return dict("x", Int(1))
		case 12:
			return PackedInt32Array{1, 2}
		}
		return Transform2D{X: Vector2{1, 0}, Y: Vector2{0, 1}}
	}
	inBlocks, elsewhere := 0, 0
	for _, o := range []EncOptions{{Family: Godot4}, {Family: Godot3}} {
		enc, dec := mode(t, o), dmode(t, DecOptions{Family: o.Family})
		for round := range 20 {
			var in []byte
			var records [][]byte
			n := 50 + rng.IntN(400)
			arrayID, _ := TypeArray.ID(o.Family)
			dictID, _ := TypeDictionary.ID(o.Family)
			in = append(in, arrayID, 0, 0, 0)
			in = binary.LittleEndian.AppendUint32(in, uint32(n))
			for range n {
				// Records of one of a few shapes, as real data has, with
				// now and then something else.
				shape := rng.IntN(3)
				var rec []byte
				m := 1 + (shape*5+rng.IntN(2))%9
				rec = append(rec, dictID, 0, 0, 0)
				rec = binary.LittleEndian.AppendUint32(rec, uint32(m))
				for j := range m {
					k := keys[(shape+j)%4]
					if rng.IntN(20) == 0 {
						k = keys[rng.IntN(len(keys))]
					}
					if o.Family == Godot3 {
						if _, ok := k.(StringName); ok {
							k = String("hp")
						}
					}
					kb, err := enc.Encode(k)
					if err != nil {
						t.Fatal(err)
					}
					var v Value = Int(j)
					if shape == 2 || rng.IntN(10) == 0 {
						v = values()
					}
					if o.Family == Godot3 {
						switch v.(type) {
						case StringName, Vector3i:
							v = Int(3)
						}
					}
					vb, err := enc.Encode(v)
					if err != nil {
						t.Fatal(err)
					}
					rec = append(append(rec, kb...), vb...)
				}
				records = append(records, rec)
				in = append(in, rec...)
			}
			got, _, err := dec.Decode(in)
			if err != nil {
				t.Fatal(err)
			}
			runtime.GC()
			for i, rec := range records {
				want, _, err := dec.Decode(rec)
				if err != nil {
					t.Fatal(err)
				}
				g := got.(*Array).Values[i].(*Dictionary)
				w := want.(*Dictionary)
				if g.index == inBlock {
					inBlocks++
				} else {
					elsewhere++
				}
				if g.Len() != w.Len() || !Equal(g, w) {
					t.Fatalf("%v round %d record %d: %v, alone %v", o.Family, round, i, g, w)
				}
				for j, e := range g.Entries() {
					if !Equal(e.Key, w.Entries()[j].Key) || TypeOf(e.Key) != TypeOf(w.Entries()[j].Key) {
						t.Fatalf("%v round %d record %d: key %d is %#v, alone %#v", o.Family, round, i, j, e.Key, w.Entries()[j].Key)
					}
				}
			}
		}
	}
	t.Logf("%d records with their entries in blocks, %d elsewhere", inBlocks, elsewhere)
	if inBlocks < 1000 || elsewhere < 1000 {
		t.Fatalf("%d records with their entries in blocks, %d elsewhere", inBlocks, elsewhere)
	}
}
