package variant

import (
	"math"
	"reflect"
)

// Equal reports whether a and b are identical Variants: the same type and
// the same contents, with floats compared bit for bit (so NaN equals a NaN
// of the same bits and -0.0 differs from 0.0), container element types and
// Dictionary order included.
func Equal(a, b Value) bool { return equal(a, b, false) }

// equal compares a and b: exactly (as Equal) or, with asKey, as Godot 4's
// Dictionary matches two keys.
func equal(a, b Value, asKey bool) bool {
	if asKey {
		return equalIn(a, b, eqKey)
	}
	return equalIn(a, b, eqExact)
}

// eqMode is how equalIn compares, following the engine: a Dictionary key
// is matched by StringLikeVariantComparator, and the parts of a container
// key by Variant::hash_compare without semantic comparison.
type eqMode uint8

const (
	// eqExact: Equal's identity, bit for bit.
	eqExact eqMode = iota
	// eqKey: a Dictionary key, or a key of a Dictionary inside one:
	// String equals StringName of the same text, floats compare by value
	// with NaN equal to NaN, and the element types of Arrays and
	// Dictionaries do not count (Array[int]() and Array() are one key, as
	// are Dictionary[Node, int]() and Dictionary()).
	eqKey
	// eqKeyPart: an element of an Array, a value of a Dictionary or a
	// property of an Object inside a key: as eqKey, but a String never
	// equals a StringName, and a Float NaN equals nothing (so that [NAN]
	// is a different key each time, as in the engine; see unmatchable).
	// Floats inside vectors and packed arrays still match NaN to NaN.
	eqKeyPart
)

// equalIn compares a and b in mode m. hashKey hashes exactly what it
// compares in the key modes.
func equalIn(a, b Value, m eqMode) bool {
	if keyWork != nil {
		keyWork.Add(1)
	}
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if m == eqKey {
		switch x := a.(type) {
		case String:
			if y, ok := b.(StringName); ok {
				return string(x) == string(y)
			}
		case StringName:
			if y, ok := b.(String); ok {
				return string(x) == string(y)
			}
		}
	}
	if a.Type() != b.Type() {
		return false
	}
	part := m // the mode of the parts of a container
	if m != eqExact {
		part = eqKeyPart
	}
	switch x := a.(type) {
	case Float:
		y := b.(Float)
		switch m {
		case eqExact:
			return math.Float64bits(float64(x)) == math.Float64bits(float64(y))
		case eqKey:
			return x == y || (x != x && y != y)
		}
		return x == y
	case *Array:
		y := b.(*Array)
		if x == nil || y == nil {
			return x.Len() == 0 && y.Len() == 0 && (m != eqExact || (x == nil || !x.Elem.IsTyped()) && (y == nil || !y.Elem.IsTyped()))
		}
		if (m == eqExact && x.Elem != y.Elem) || len(x.Values) != len(y.Values) {
			return false
		}
		for i := range x.Values {
			if !equalIn(x.Values[i], y.Values[i], part) {
				return false
			}
		}
		return true
	case *Dictionary:
		y := b.(*Dictionary)
		if x.Len() != y.Len() {
			return false
		}
		if m == eqExact && (x.KeyType() != y.KeyType() || x.ValueType() != y.ValueType()) {
			return false
		}
		keys := m
		if m != eqExact {
			keys = eqKey
		}
		xe, ye := x.view(), y.view()
		for i := range xe {
			if !equalIn(xe[i].Key, ye[i].Key, keys) || !equalIn(xe[i].Value, ye[i].Value, part) {
				return false
			}
		}
		return true
	case *Object:
		y, ok := b.(*Object)
		if !ok {
			return false
		}
		if x == nil || y == nil {
			return x == y
		}
		if x.Class != y.Class || len(x.Properties) != len(y.Properties) {
			return false
		}
		for i, p := range x.Properties {
			q := y.Properties[i]
			if p.Name != q.Name || !equalIn(p.Value, q.Value, part) {
				return false
			}
		}
		return true
	}
	return equalData(reflect.ValueOf(a), reflect.ValueOf(b), m != eqExact)
}

// equalData compares plain data (scalars, structs, slices) field by field.
func equalData(x, y reflect.Value, asKey bool) bool {
	if x.Type() != y.Type() {
		return false
	}
	switch x.Kind() {
	case reflect.Float64, reflect.Float32:
		f, g := x.Float(), y.Float()
		if asKey {
			return f == g || (f != f && g != g)
		}
		if x.Kind() == reflect.Float32 {
			return math.Float32bits(float32(f)) == math.Float32bits(float32(g))
		}
		return math.Float64bits(f) == math.Float64bits(g)
	case reflect.Struct:
		for i := range x.NumField() {
			if !equalData(x.Field(i), y.Field(i), asKey) {
				return false
			}
		}
		return true
	case reflect.Slice:
		if x.Len() != y.Len() {
			return false
		}
		for i := range x.Len() {
			if !equalData(x.Index(i), y.Index(i), asKey) {
				return false
			}
		}
		return true
	}
	return x.Equal(y)
}
