package gotype

import (
	"reflect"
	"testing"
	"unsafe"
)

func TestHasPointers(t *testing.T) {
	type flat struct {
		A int
		B [3]float64
		C struct{ X, Y uint8 }
	}
	type deep struct {
		A int
		B [2]struct{ S string }
	}
	for _, c := range []struct {
		t    reflect.Type
		want bool
	}{
		{reflect.TypeFor[int](), false},
		{reflect.TypeFor[complex128](), false},
		{reflect.TypeFor[flat](), false},
		{reflect.TypeFor[[0]*int](), false},
		{reflect.TypeFor[struct{}](), false},
		{reflect.TypeFor[string](), true},
		{reflect.TypeFor[[]byte](), true},
		{reflect.TypeFor[*int](), true},
		{reflect.TypeFor[map[int]int](), true},
		{reflect.TypeFor[chan int](), true},
		{reflect.TypeFor[func()](), true},
		{reflect.TypeFor[any](), true},
		{reflect.TypeFor[unsafe.Pointer](), true},
		{reflect.TypeFor[deep](), true},
		{reflect.TypeFor[[4]deep](), true},
	} {
		if got := HasPointers(c.t); got != c.want {
			t.Errorf("HasPointers(%v) = %v, want %v", c.t, got, c.want)
		}
	}
}
