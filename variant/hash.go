package variant

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"reflect"
	"sync/atomic"
)

var hashSeed = maphash.MakeSeed()

// keyWork, when a test sets it, counts the Values that Dictionary key
// hashing and key comparison look at: the measure of their cost.
var keyWork *atomic.Int64

// hashKey hashes v consistently with Dictionary key equality (equalIn in
// mode eqKey): equal keys (String and StringName of the same text, floats
// equal by value, NaN and NaN, -0 and 0, containers whose element types
// differ) hash alike, and different keys, at any depth, almost never do.
// The hash covers everything that equality compares, so keys that are not
// equal hash apart whatever their shape, with one exception: an
// unmatchable key (see hashKeyFull) equals nothing, not even a copy of
// itself, and copies hash alike; such keys are never compared.
//
// The hash reads the whole key, so its cost is proportional to the key's
// size, with one exception that keeps nested keys linear: a Dictionary
// inside the key contributes the hashes its own index already holds for
// its keys (see keyIndex) instead of hashing them again. Every byte of a
// decoded or parsed key is thus hashed once, however deeply keys nest in
// keys.
func hashKey(v Value) uint64 {
	h, _ := hashKeyFull(v)
	return h
}

// hashKeyFull returns hashKey(v), and whether v is unmatchable: a key that
// holds, as an element of an Array, a value of a Dictionary or a property
// of an Object, at any depth, a Float NaN (the engine's [NAN] is a new key
// each time: its parts compare without NaN equal to NaN), or a Dictionary
// with such a key. Finding an unmatchable key needs no comparison: it is
// in no Dictionary.
func hashKeyFull(v Value) (uint64, bool) {
	switch v := v.(type) {
	case String:
		return maphash.String(hashSeed, string(v)), false
	case StringName:
		return maphash.String(hashSeed, string(v)), false
	case Int:
		return maphash.Comparable(hashSeed, int64(v)), false
	}
	var k keyHasher
	k.h.SetSeed(hashSeed)
	k.value(v, false)
	return k.h.Sum64(), k.unmatchable
}

// keyHasher writes a Value to a hash as a sequence that no other value
// with a different key identity writes: every part starts with its type
// or its length, so neither nesting nor the bytes inside strings can make
// two different keys write the same sequence.
type keyHasher struct {
	h           maphash.Hash
	buf         [8]byte
	unmatchable bool
}

func (k *keyHasher) word(x uint64) {
	binary.LittleEndian.PutUint64(k.buf[:], x)
	k.h.Write(k.buf[:])
}

func (k *keyHasher) str(s string) {
	k.word(uint64(len(s)))
	k.h.WriteString(s)
}

// value writes v: a key, or a key of a Dictionary inside one, or, with
// part, an element, value or property inside a key (see eqKeyPart).
func (k *keyHasher) value(v Value, part bool) {
	if keyWork != nil {
		keyWork.Add(1)
	}
	t := TypeOf(v)
	if t == TypeStringName && !part {
		t = TypeString // the same key as the String of the same text
	}
	k.h.WriteByte(byte(t))
	switch v := v.(type) {
	case nil, Callable:
	case Bool:
		if v {
			k.h.WriteByte(1)
		} else {
			k.h.WriteByte(0)
		}
	case Int:
		k.word(uint64(v))
	case Float:
		k.word(keyFloat(float64(v)))
		if part && v != v {
			k.unmatchable = true
		}
	case String:
		k.str(string(v))
	case StringName:
		k.str(string(v))
	case RID:
		k.word(uint64(v))
	case ObjectID:
		k.h.WriteByte(0)
		k.word(uint64(v))
	case Signal:
		k.str(v.Name)
		k.word(v.Object)
	case NodePath:
		if v.Absolute {
			k.h.WriteByte(1)
		} else {
			k.h.WriteByte(0)
		}
		k.strs(v.Names)
		k.strs(v.Subnames)
	case *Array:
		// The element type does not count: a nil Array is an empty one.
		k.word(uint64(v.Len()))
		if v == nil {
			return
		}
		for _, e := range v.Values {
			k.value(e, true)
		}
	case *Dictionary:
		// The key and value types do not count.
		k.word(uint64(v.Len()))
		k.unmatchable = k.unmatchable || v.hasUnmatchableKey()
		for i, e := range v.view() {
			k.word(v.keyHash(i))
			k.value(e.Value, true)
		}
	case *Object:
		if v == nil {
			k.h.WriteByte(1)
			return
		}
		k.h.WriteByte(2)
		k.str(v.Class)
		k.word(uint64(len(v.Properties)))
		for _, p := range v.Properties {
			k.str(p.Name)
			k.value(p.Value, true)
		}
	case ResourceRef:
		k.h.WriteByte(3 + byte(v.Kind))
		k.str(v.ID)
		k.str(v.Path)
		k.str(v.Class)
	case PackedByteArray:
		k.word(uint64(len(v)))
		k.h.Write(v)
	case PackedStringArray:
		k.strs(v)
	case PackedInt32Array:
		k.word(uint64(len(v)))
		for _, x := range v {
			k.word(uint64(x))
		}
	case PackedInt64Array:
		k.word(uint64(len(v)))
		for _, x := range v {
			k.word(uint64(x))
		}
	case PackedFloat32Array:
		k.word(uint64(len(v)))
		for _, x := range v {
			k.word(keyFloat(float64(x)))
		}
	case PackedFloat64Array:
		k.word(uint64(len(v)))
		for _, x := range v {
			k.word(keyFloat(x))
		}
	default:
		// Math types and the other packed arrays: every number in order.
		k.data(reflect.ValueOf(v))
	}
}

func (k *keyHasher) strs(s []string) {
	k.word(uint64(len(s)))
	for _, x := range s {
		k.str(x)
	}
}

// data writes the numbers of plain data (structs, slices, floats, ints) in
// order, floats normalised as keys compare them.
func (k *keyHasher) data(x reflect.Value) {
	switch x.Kind() {
	case reflect.Float32, reflect.Float64:
		k.word(keyFloat(x.Float()))
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		k.word(uint64(x.Int()))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		k.word(x.Uint())
	case reflect.Struct:
		for i := range x.NumField() {
			k.data(x.Field(i))
		}
	case reflect.Slice:
		k.word(uint64(x.Len()))
		for i := range x.Len() {
			k.data(x.Index(i))
		}
	}
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
