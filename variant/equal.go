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

// equal compares a and b; with asKey it uses Dictionary key semantics, as
// Godot 4's Dictionary matches keys: String equals StringName of the same
// text, floats compare by value with NaN equal to NaN, and the element
// types of Arrays and Dictionaries do not count (Array[int]() and Array()
// are one key, as are Dictionary[Node, int]() and Dictionary()). hashKey
// hashes exactly what this compares.
func equal(a, b Value, asKey bool) bool {
	if keyWork != nil {
		keyWork.Add(1)
	}
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	if asKey {
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
	switch x := a.(type) {
	case *Array:
		y := b.(*Array)
		if x == nil || y == nil {
			return x.Len() == 0 && y.Len() == 0 && (asKey || (x == nil || !x.Elem.IsTyped()) && (y == nil || !y.Elem.IsTyped()))
		}
		if (!asKey && x.Elem != y.Elem) || len(x.Values) != len(y.Values) {
			return false
		}
		for i := range x.Values {
			if !equal(x.Values[i], y.Values[i], asKey) {
				return false
			}
		}
		return true
	case *Dictionary:
		y := b.(*Dictionary)
		if x.Len() != y.Len() {
			return false
		}
		if !asKey && (x.KeyType() != y.KeyType() || x.ValueType() != y.ValueType()) {
			return false
		}
		xe, ye := x.view(), y.view()
		for i := range xe {
			if !equal(xe[i].Key, ye[i].Key, asKey) || !equal(xe[i].Value, ye[i].Value, asKey) {
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
			if p.Name != q.Name || !equal(p.Value, q.Value, asKey) {
				return false
			}
		}
		return true
	}
	return equalData(reflect.ValueOf(a), reflect.ValueOf(b), asKey)
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
