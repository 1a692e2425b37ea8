// Package gotype answers questions about Go types that the packages
// mapping Go values to Variants share.
package gotype

import "reflect"

// HasPointers reports whether values of t hold pointers: whether they
// refer to other memory, so that a copy of one shares that memory.
func HasPointers(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64, reflect.Complex64, reflect.Complex128:
		return false
	case reflect.Array:
		return t.Len() > 0 && HasPointers(t.Elem())
	case reflect.Struct:
		for i := range t.NumField() {
			if HasPointers(t.Field(i).Type) {
				return true
			}
		}
		return false
	}
	return true
}
