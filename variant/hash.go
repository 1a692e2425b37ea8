package variant

import (
	"encoding/binary"
	"hash/maphash"
	"math"
	"reflect"
)

var hashSeed = maphash.MakeSeed()

// hashKey hashes v consistently with Dictionary key equality: equal keys
// (String and StringName of the same text, floats equal by value, NaN and
// NaN) hash alike. Every Value hashes, so a Dictionary never falls back to
// comparing a key with every other one.
func hashKey(v Value) uint64 {
	switch v := v.(type) {
	case String:
		return maphash.String(hashSeed, string(v))
	case StringName:
		return maphash.String(hashSeed, string(v))
	case Int:
		return maphash.Comparable(hashSeed, int64(v))
	}
	var h maphash.Hash
	h.SetSeed(hashSeed)
	writeKey(&h, v, 0)
	return h.Sum64()
}

// maxHashDepth bounds how deep hashing looks into nested keys; deeper
// parts only make hashes collide, never differ for equal keys.
const maxHashDepth = 8

func writeKey(h *maphash.Hash, v Value, depth int) {
	var buf [8]byte
	word := func(x uint64) {
		binary.LittleEndian.PutUint64(buf[:], x)
		h.Write(buf[:])
	}
	t := TypeOf(v)
	if t == TypeStringName {
		t = TypeString
	}
	h.WriteByte(byte(t))
	if depth > maxHashDepth {
		return
	}
	switch v := v.(type) {
	case nil, Callable:
	case Bool:
		if v {
			h.WriteByte(1)
		}
	case Int:
		word(uint64(v))
	case Float:
		word(keyFloat(float64(v)))
	case String:
		h.WriteString(string(v))
	case StringName:
		h.WriteString(string(v))
	case RID:
		word(uint64(v))
	case ObjectID:
		word(uint64(v))
	case Signal:
		h.WriteString(v.Name)
		word(v.Object)
	case NodePath:
		for _, s := range v.Names {
			h.WriteString(s)
			h.WriteByte('/')
		}
		for _, s := range v.Subnames {
			h.WriteString(s)
			h.WriteByte(':')
		}
	case *Array:
		word(uint64(v.Len()))
		if v != nil {
			for _, e := range v.Values {
				writeKey(h, e, depth+1)
			}
		}
	case *Dictionary:
		word(uint64(v.Len()))
		for k, e := range v.All() {
			writeKey(h, k, depth+1)
			writeKey(h, e, depth+1)
		}
	case *Object:
		if v != nil {
			h.WriteString(v.Class)
			for _, p := range v.Properties {
				h.WriteString(p.Name)
				writeKey(h, p.Value, depth+1)
			}
		}
	case PackedByteArray:
		h.Write(v)
	case PackedStringArray:
		for _, s := range v {
			h.WriteString(s)
			h.WriteByte(0)
		}
	default:
		// Math types and numeric packed arrays: every number in order.
		writeData(reflect.ValueOf(v), word)
	}
}

// writeData hashes the numbers of plain data (structs, slices, floats,
// ints) in order, floats normalised as keys compare them.
func writeData(x reflect.Value, word func(uint64)) {
	switch x.Kind() {
	case reflect.Float32, reflect.Float64:
		word(keyFloat(x.Float()))
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		word(uint64(x.Int()))
	case reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		word(x.Uint())
	case reflect.Struct:
		for i := range x.NumField() {
			writeData(x.Field(i), word)
		}
	case reflect.Slice:
		word(uint64(x.Len()))
		for i := range x.Len() {
			writeData(x.Index(i), word)
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
