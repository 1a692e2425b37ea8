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

// hashKey hashes v consistently with Dictionary key equality: equal keys
// (String and StringName of the same text, floats equal by value, NaN and
// NaN, -0 and 0) hash alike, and different keys, at any depth, almost
// never do.
//
// The hash reads the whole key, so its cost is proportional to the key's
// size, with one exception that keeps nested keys linear: a Dictionary
// inside the key contributes the hashes its own index already holds for
// its keys (see keyIndex) instead of hashing them again. Every byte of a
// decoded or parsed key is thus hashed once, however deeply keys nest in
// keys.
func hashKey(v Value) uint64 {
	switch v := v.(type) {
	case String:
		return maphash.String(hashSeed, string(v))
	case StringName:
		return maphash.String(hashSeed, string(v))
	case Int:
		return maphash.Comparable(hashSeed, int64(v))
	}
	var k keyHasher
	k.h.SetSeed(hashSeed)
	k.value(v)
	return k.h.Sum64()
}

// keyHasher writes a Value to a hash as a sequence that no other value
// with a different key identity writes: every part starts with its type
// or its length, so neither nesting nor the bytes inside strings can make
// two different keys write the same sequence.
type keyHasher struct {
	h   maphash.Hash
	buf [8]byte
}

func (k *keyHasher) word(x uint64) {
	binary.LittleEndian.PutUint64(k.buf[:], x)
	k.h.Write(k.buf[:])
}

func (k *keyHasher) str(s string) {
	k.word(uint64(len(s)))
	k.h.WriteString(s)
}

// container writes a container's element type, as far as equality looks
// at it: only a typed one counts.
func (k *keyHasher) container(c ContainerType) {
	if !c.IsTyped() {
		k.h.WriteByte(0)
		return
	}
	k.h.WriteByte(byte(c.Kind))
	k.h.WriteByte(byte(c.Builtin))
	k.str(c.Name)
}

func (k *keyHasher) value(v Value) {
	if keyWork != nil {
		keyWork.Add(1)
	}
	t := TypeOf(v)
	if t == TypeStringName {
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
		// A nil Array equals an empty untyped one.
		if v == nil {
			k.container(ContainerType{})
			k.word(0)
			return
		}
		k.container(v.Elem)
		k.word(uint64(len(v.Values)))
		for _, e := range v.Values {
			k.value(e)
		}
	case *Dictionary:
		n := v.Len()
		k.word(uint64(n))
		if n == 0 {
			return // a nil Dictionary equals every empty one, typed or not
		}
		k.container(v.KeyType())
		k.container(v.ValueType())
		for i, e := range v.entries {
			k.word(v.keyHash(i))
			k.value(e.Value)
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
			k.value(p.Value)
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
