package variant

import (
	"reflect"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unsafe"
)

// The fixed-size math types (Vector2 … Projection, the integer vectors and
// Color) are each one row of typeFacts: the number and kind of their
// components, their Go type (Proto) and, where it differs from the wire's,
// the order of the components in that Go type. Everything that builds such
// a value from its components or reads them back asks the row: the decoder,
// the encoder, MathValue, AppendComponents and, through them, the other
// packages.
//
// The code below reaches a math value's components through memory: a
// value's Go struct is exactly its components (the init check below refuses
// any row whose Go type is not), so component i of the struct is at byte
// offset i times the component size.

// Components returns the number of components of a fixed-size math type
// (Reals, Ints or Floats, whichever it has), 0 for the other types.
func (f TypeFacts) Components() int { return f.Reals + f.Ints + f.Floats }

// GoIndex returns where the component that is i-th on the wire sits among
// the components of the type's Go struct (its fields flattened in order):
// i itself, except for Basis and Transform3D, whose structs hold the
// columns of the matrix while the wire (and the text form) holds its rows.
func (f TypeFacts) GoIndex(i int) int {
	if f.order == "" {
		return i
	}
	return int(f.order[i])
}

// compSize is the size in bytes of one component in Go memory: 8 for
// reals (float64), 4 for int32 and float32 components.
func (f *TypeFacts) compSize() uintptr {
	if f.Reals > 0 {
		return 8
	}
	return 4
}

// words is the number of 8-byte words the Go value of a math type takes.
func (f *TypeFacts) words() int { return (f.Components()*int(f.compSize()) + 7) / 8 }

// mathTabs holds, for each math type, the type word of its Proto as a
// Value (the interface's itab): a Value whose type word is that one holds
// exactly that Go type, which a type assertion checks the same way.
var mathTabs [TypeCount]unsafe.Pointer

func init() {
	for t := range TypeCount {
		f := &typeFacts[t]
		if err := checkMathRow(t, f); err != nil {
			panic("variant: the facts of " + t.String() + ": " + err.Error())
		}
		if f.Proto != nil {
			mathTabs[t] = (*ifaceWords)(unsafe.Pointer(&f.Proto)).tab
		}
	}
}

type rowError string

func (e rowError) Error() string { return string(e) }

// checkMathRow checks that the Go type of a math type's row holds exactly
// the row's components, of the row's kind, without padding, and that the
// row's order is a permutation of them: the unsafe code of this file
// relies on it.
func checkMathRow(t Type, f *TypeFacts) error {
	n := f.Components()
	if f.Proto == nil {
		if n != 0 || f.order != "" {
			return rowError("components without a Go type (Proto)")
		}
		return nil
	}
	if f.Proto.Type() != t {
		return rowError("Proto is a " + f.Proto.Type().String())
	}
	kinds := 0
	var want reflect.Kind
	if f.Reals > 0 {
		kinds, want = kinds+1, reflect.Float64
	}
	if f.Ints > 0 {
		kinds, want = kinds+1, reflect.Int32
	}
	if f.Floats > 0 {
		kinds, want = kinds+1, reflect.Float32
	}
	if kinds != 1 || n > 16 {
		return rowError("a math type has 1 to 16 components of one kind (Reals, Ints or Floats)")
	}
	if f.Size != 4*n {
		return rowError("Size " + strconv.Itoa(f.Size) + " is not 4 bytes per component")
	}
	rt := reflect.TypeOf(f.Proto)
	var leaves []reflect.StructField
	flatten(rt, 0, "", &leaves)
	if len(leaves) != n || rt.Size() != uintptr(n)*f.compSize() {
		return rowError(rt.String() + " is not exactly " + strconv.Itoa(n) + " components")
	}
	for i, l := range leaves {
		if l.Type.Kind() != want || l.Offset != uintptr(i)*f.compSize() {
			return rowError("component " + l.Name + " of " + rt.String() + " should be " + want.String() +
				" at offset " + strconv.Itoa(i*int(f.compSize())))
		}
	}
	if f.order != "" {
		seen := make([]bool, n)
		for i := range len(f.order) {
			if j := int(f.order[i]); j < n && !seen[j] {
				seen[j] = true
			}
		}
		if len(f.order) != n || slices.Contains(seen, false) {
			return rowError("order is not a permutation of the components")
		}
	}
	return nil
}

// flatten appends the non-struct fields of struct type t, at offset off,
// depth first, with their names as paths ("Basis.X.Y") and their offsets
// from the outermost struct.
func flatten(t reflect.Type, off uintptr, prefix string, out *[]reflect.StructField) {
	if t.Kind() != reflect.Struct {
		*out = append(*out, reflect.StructField{Name: prefix, Type: t, Offset: off})
		return
	}
	for i := range t.NumField() {
		sf := t.Field(i)
		name := sf.Name
		if prefix != "" {
			name = prefix + "." + name
		}
		flatten(sf.Type, off+sf.Offset, name, out)
	}
}

// heapWords returns n zeroed 8-byte words from the heap, memory the
// collector does not scan: enough for a math value, which holds no
// pointers.
func heapWords(n int) unsafe.Pointer { return unsafe.Pointer(unsafe.SliceData(make([]uint64, n))) }

// storeMath writes the components c, in wire order, into the Go value of
// the math type of f at p.
func (f *TypeFacts) storeMath(p unsafe.Pointer, c []float64) {
	switch {
	case f.Reals > 0 && f.order == "":
		copy(unsafe.Slice((*float64)(p), f.Reals), c)
	case f.Reals > 0:
		for i, x := range c[:f.Reals] {
			*(*float64)(unsafe.Add(p, 8*uintptr(f.order[i]))) = x
		}
	case f.Ints > 0:
		for i, x := range c[:f.Ints] {
			*(*int32)(unsafe.Add(p, 4*f.GoIndex(i))) = int32(x)
		}
	default:
		for i, x := range c[:f.Floats] {
			*(*float32)(unsafe.Add(p, 4*f.GoIndex(i))) = float32(x)
		}
	}
}

// MathValue builds the fixed-size math value of type t (one with
// TypeFacts.Components) from its components in wire order: a Basis (and a
// Transform3D's) row by row, see TypeFacts.GoIndex. The components of an
// integer vector or a Color are converted to int32 or float32 as Go
// converts (give values in range). It returns nil for other types and when
// c is too short.
func MathValue(t Type, c []float64) Value {
	f := facts(t)
	if n := f.Components(); n == 0 || len(c) < n {
		return nil
	}
	p := heapWords(f.words())
	f.storeMath(p, c)
	return boxAt(f.Proto, p)
}

// BasisFromRows builds a Basis (columns) from nine components given row by
// row, the engine's storage and the order of its binary and text forms.
func BasisFromRows(r []float64) Basis {
	return Basis{
		X: Vector3{r[0], r[3], r[6]},
		Y: Vector3{r[1], r[4], r[7]},
		Z: Vector3{r[2], r[5], r[8]},
	}
}

// mathData returns the type of v, its facts and a pointer to v's
// components when v is a fixed-size math value, else nil facts.
func mathData(v Value) (Type, *TypeFacts, unsafe.Pointer) {
	w := (*ifaceWords)(unsafe.Pointer(&v))
	if w.tab == nil {
		return TypeNil, nil, nil
	}
	// A Go type of another package that embeds a math type has its Type
	// method but not its layout: only the row's own Go type is read.
	if t := v.Type(); t < TypeCount && mathTabs[t] == w.tab {
		return t, &typeFacts[t], w.data
	}
	return TypeUnknown, nil, nil
}

// AppendComponents appends the components of v, a fixed-size math value,
// to dst in wire order (a Basis row by row) and returns the extended
// slice; int32 and float32 components convert to float64 exactly. For any
// other value it returns dst unchanged.
func AppendComponents(dst []float64, v Value) []float64 {
	_, f, p := mathData(v)
	if f == nil {
		return dst
	}
	switch {
	case f.Reals > 0:
		for i := range f.Reals {
			dst = append(dst, *(*float64)(unsafe.Add(p, 8*f.GoIndex(i))))
		}
	case f.Ints > 0:
		for i := range f.Ints {
			dst = append(dst, float64(*(*int32)(unsafe.Add(p, 4*f.GoIndex(i)))))
		}
	default:
		for i := range f.Floats {
			dst = append(dst, float64(*(*float32)(unsafe.Add(p, 4*f.GoIndex(i)))))
		}
	}
	return dst
}

// componentNames holds each math type's component names in wire order.
var componentNames = sync.OnceValue(func() (names [TypeCount][]string) {
	for t := range TypeCount {
		f := &typeFacts[t]
		if f.Proto == nil {
			continue
		}
		var leaves []reflect.StructField
		flatten(reflect.TypeOf(f.Proto), 0, "", &leaves)
		names[t] = make([]string, len(leaves))
		for i := range leaves {
			names[t][i] = strings.ToLower(leaves[f.GoIndex(i)].Name)
		}
	}
	return names
})

// ComponentNames returns the names of the components of the fixed-size
// math type t in wire order, as paths of GDScript's property names:
// "x", "position.x", "basis.y.x" (for a Transform3D's second real, the x
// of its basis's Y column). It returns nil for other types.
func ComponentNames(t Type) []string {
	if t >= TypeCount {
		return nil
	}
	return slices.Clone(componentNames()[t])
}
