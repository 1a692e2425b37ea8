package gdvar

import (
	"reflect"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// UnmarshalValue stores the Variant v, already decoded (by variant.Decode,
// gdtext.Parse, a stream's ReadValue, …) or built in Go, into the value
// dst points to, exactly as Unmarshal stores the same Variant read from
// bytes: the same conversions, the same refusals, and the same errors but
// for the byte offset, which is 0 since there are no bytes. dst must be a
// non-nil pointer.
//
// v may nest at most the mode's MaxDepth levels; a container that holds
// itself is refused as too deep (variant.ErrTooDeep).
func (m *DecMode) UnmarshalValue(v variant.Value, dst any) error {
	rv := reflect.ValueOf(dst)
	if err := checkTarget(rv, dst); err != nil {
		return err
	}
	o := &m.opts
	if err := valueDepth(v, o.MaxDepth); err != nil {
		return err
	}
	c := codecFor(rv.Type().Elem())
	d := decodeStates.Get().(*decodeState)
	keys := d.keys
	clear(keys)
	*d = decodeState{
		Reader: m.vmode.Reader(nil),
		keys:   keys,
		fam:    o.Family, maxDepth: o.MaxDepth, rejectUnknown: o.RejectUnknownFields,
	}
	err := c.fill(d, v, 0, rv.UnsafePointer())
	*d = decodeState{keys: d.keys}
	decodeStates.Put(d)
	if err != nil {
		return finish(err)
	}
	return nil
}

// UnmarshalValue stores the Variant v into the value dst points to, as
// Unmarshal stores the same Variant read from bytes; see
// DecMode.UnmarshalValue.
func UnmarshalValue(v variant.Value, dst any) error { return defaultDecMode.UnmarshalValue(v, dst) }

// checkTarget reports a target that is not a non-nil pointer.
func checkTarget(rv reflect.Value, v any) error {
	if rv.Kind() == reflect.Pointer && !rv.IsNil() {
		return nil
	}
	what := "nil"
	if v != nil {
		what = rv.Type().String()
		if rv.Kind() == reflect.Pointer {
			what = "nil " + what
		}
	}
	return &Error{Op: "unmarshal", Type: variant.TypeUnknown, GoType: reflect.TypeOf(v), Err: ErrInvalidTarget,
		Detail: "the target must be a non-nil pointer, not " + what}
}

// valueDepth checks that v nests at most maxDepth levels of Arrays,
// Dictionaries (keys included) and Objects, as decoded Values do; it
// stops at the first level too deep, so a container that holds itself
// costs maxDepth steps.
func valueDepth(v variant.Value, maxDepth int) error {
	if !deepEnough(v, maxDepth) {
		return nil
	}
	return &Error{Op: "unmarshal", Type: variant.TypeOf(v), Err: variant.ErrTooDeep,
		Detail: "more than " + strconv.Itoa(maxDepth) + " levels (a container that holds itself?)"}
}

// deepEnough reports whether v nests more than left levels below it.
func deepEnough(v variant.Value, left int) bool {
	switch x := v.(type) {
	case *variant.Array:
		if x == nil || len(x.Values) == 0 {
			return false
		}
		if left == 0 {
			return true
		}
		for _, e := range x.Values {
			if deepEnough(e, left-1) {
				return true
			}
		}
	case *variant.Dictionary:
		if x == nil || x.Len() == 0 {
			return false
		}
		if left == 0 {
			return true
		}
		for k, e := range x.All() {
			if deepEnough(k, left-1) || deepEnough(e, left-1) {
				return true
			}
		}
	case *variant.Object:
		if x == nil || len(x.Properties) == 0 {
			return false
		}
		if left == 0 {
			return true
		}
		for _, p := range x.Properties {
			if deepEnough(p.Value, left-1) {
				return true
			}
		}
	}
	return false
}
