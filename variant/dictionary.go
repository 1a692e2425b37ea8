package variant

import (
	"iter"
	"math"
)

// Dictionary is a Variant Dictionary: key/value pairs in insertion order,
// any Value as key, optionally typed (Godot 4.4+).
//
// Keys are matched as Godot 4 matches them: String and StringName with the
// same text are the same key, Int and Float never are (1 and 1.0 are two
// keys), and floats compare by value with NaN equal to NaN. Setting an
// existing key replaces its value in place, keeping its position.
//
// A Dictionary is not safe for concurrent use when one goroutine modifies it.
type Dictionary struct {
	KeyType   ContainerType
	ValueType ContainerType

	entries []Entry
	index   map[hashKey]int // built once the dictionary grows past linearMax
	stale   bool            // index must be rebuilt (after Delete)
}

// Entry is one key/value pair of a Dictionary.
type Entry struct {
	Key   Value
	Value Value
}

// linearMax is the size up to which lookups scan the entries.
const linearMax = 8

// NewDictionary returns an empty untyped Dictionary with room for n entries.
func NewDictionary(n int) *Dictionary {
	return &Dictionary{entries: make([]Entry, 0, n)}
}

// Len returns the number of entries; a nil *Dictionary has none.
func (d *Dictionary) Len() int {
	if d == nil {
		return 0
	}
	return len(d.entries)
}

// Entries returns the entries in order. The slice belongs to the Dictionary:
// read it, don't modify it.
func (d *Dictionary) Entries() []Entry {
	if d == nil {
		return nil
	}
	return d.entries
}

// All iterates over the entries in order.
func (d *Dictionary) All() iter.Seq2[Value, Value] {
	return func(yield func(Value, Value) bool) {
		for _, e := range d.Entries() {
			if !yield(e.Key, e.Value) {
				return
			}
		}
	}
}

// Get returns the value stored under key.
func (d *Dictionary) Get(key Value) (Value, bool) {
	if i := d.find(key); i >= 0 {
		return d.entries[i].Value, true
	}
	return nil, false
}

// Set stores value under key: in place if the key exists, else at the end.
func (d *Dictionary) Set(key, value Value) {
	if i := d.find(key); i >= 0 {
		d.entries[i].Value = value
		return
	}
	d.entries = append(d.entries, Entry{key, value})
	if d.index != nil && !d.stale {
		if h, ok := hashOf(key); ok {
			d.index[h] = len(d.entries) - 1
		}
	}
}

// Delete removes key and reports whether it was there.
func (d *Dictionary) Delete(key Value) bool {
	i := d.find(key)
	if i < 0 {
		return false
	}
	d.entries = append(d.entries[:i], d.entries[i+1:]...)
	if d.index != nil {
		d.stale = true
	}
	return true
}

func (d *Dictionary) find(key Value) int {
	if d == nil {
		return -1
	}
	if len(d.entries) <= linearMax {
		return d.scan(key, 0)
	}
	h, ok := hashOf(key)
	if !ok {
		return d.scan(key, 0)
	}
	if d.index == nil || d.stale {
		d.rebuild()
	}
	if i, found := d.index[h]; found {
		return i
	}
	return -1
}

func (d *Dictionary) scan(key Value, from int) int {
	for i := from; i < len(d.entries); i++ {
		if sameKey(d.entries[i].Key, key) {
			return i
		}
	}
	return -1
}

func (d *Dictionary) rebuild() {
	d.index = make(map[hashKey]int, len(d.entries))
	for i, e := range d.entries {
		if h, ok := hashOf(e.Key); ok {
			d.index[h] = i
		}
	}
	d.stale = false
}

// hashKey is a comparable stand-in for the keys that have one.
type hashKey struct {
	t Type
	s string
	n [4]uint64
}

// keyFloat normalises a float for key comparison: -0 is 0, all NaNs are one.
func keyFloat(f float64) uint64 {
	switch {
	case f == 0:
		return 0
	case f != f:
		return 0x7ff8000000000001
	}
	return math.Float64bits(f)
}

func hashOf(v Value) (hashKey, bool) {
	switch v := v.(type) {
	case nil:
		return hashKey{t: TypeNil}, true
	case Bool:
		if v {
			return hashKey{t: TypeBool, n: [4]uint64{1}}, true
		}
		return hashKey{t: TypeBool}, true
	case Int:
		return hashKey{t: TypeInt, n: [4]uint64{uint64(v)}}, true
	case Float:
		return hashKey{t: TypeFloat, n: [4]uint64{keyFloat(float64(v))}}, true
	case String:
		return hashKey{t: TypeString, s: string(v)}, true
	case StringName:
		return hashKey{t: TypeString, s: string(v)}, true
	case Vector2:
		return hashKey{t: TypeVector2, n: [4]uint64{keyFloat(v.X), keyFloat(v.Y)}}, true
	case Vector2i:
		return hashKey{t: TypeVector2i, n: [4]uint64{uint64(v.X), uint64(v.Y)}}, true
	case Vector3:
		return hashKey{t: TypeVector3, n: [4]uint64{keyFloat(v.X), keyFloat(v.Y), keyFloat(v.Z)}}, true
	case Vector3i:
		return hashKey{t: TypeVector3i, n: [4]uint64{uint64(v.X), uint64(v.Y), uint64(v.Z)}}, true
	case Vector4:
		return hashKey{t: TypeVector4, n: [4]uint64{keyFloat(v.X), keyFloat(v.Y), keyFloat(v.Z), keyFloat(v.W)}}, true
	case Vector4i:
		return hashKey{t: TypeVector4i, n: [4]uint64{uint64(v.X), uint64(v.Y), uint64(v.Z), uint64(v.W)}}, true
	case RID:
		return hashKey{t: TypeRID, n: [4]uint64{uint64(v)}}, true
	case ObjectID:
		return hashKey{t: TypeObject, n: [4]uint64{uint64(v)}}, true
	}
	return hashKey{}, false
}

// sameKey reports whether a and b are the same Dictionary key.
func sameKey(a, b Value) bool {
	// Fast paths for the common key types.
	switch x := a.(type) {
	case String:
		switch y := b.(type) {
		case String:
			return x == y
		case StringName:
			return string(x) == string(y)
		}
		return false
	case StringName:
		switch y := b.(type) {
		case String:
			return string(x) == string(y)
		case StringName:
			return x == y
		}
		return false
	case Int:
		y, ok := b.(Int)
		return ok && x == y
	}
	return equal(a, b, true)
}
