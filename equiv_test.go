package gdvar_test

import (
	"bytes"
	"cmp"
	"encoding"
	"errors"
	"fmt"
	"math"
	"math/rand"
	"reflect"
	"slices"
	"strings"
	"testing"
	"testing/quick"
	"time"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

// refOptions are the settings the reference conversion depends on.
type refOptions struct {
	fam   variant.Family
	typed bool
}

var errRefOverflow = errors.New("reference: uint64 above the largest int")

// ref converts a Go value to the Variant that the package documentation
// says it maps to. It is written from the documentation, without the
// package's code, so that Marshal(x) can be checked against
// variant.Encode(ref(x)).
func ref(v reflect.Value, o refOptions) (variant.Value, error) {
	if !v.IsValid() {
		return nil, nil
	}
	t := v.Type()
	if x, ok := v.Interface().(variant.Value); ok && t.Kind() != reflect.Interface {
		switch x.(type) {
		case *variant.Array, *variant.Dictionary, *variant.Object:
			return x, nil
		}
		if t.Kind() != reflect.Pointer {
			return x, nil
		}
	}
	if t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface {
		if m, ok := addr(v).Interface().(gdvar.Marshaler); ok {
			return m.MarshalVariant()
		}
		if tm, ok := v.Interface().(time.Time); ok {
			return variant.Float(float64(tm.Unix()) + float64(tm.Nanosecond())/1e9), nil
		}
		if m, ok := addr(v).Interface().(encoding.TextMarshaler); ok {
			text, err := m.MarshalText()
			return variant.String(text), err
		}
	}
	switch t.Kind() {
	case reflect.Bool:
		return variant.Bool(v.Bool()), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return variant.Int(v.Int()), nil
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		if v.Uint() > math.MaxInt64 {
			return nil, errRefOverflow
		}
		return variant.Int(v.Uint()), nil
	case reflect.Float32, reflect.Float64:
		return variant.Float(v.Float()), nil
	case reflect.String:
		return variant.String(v.String()), nil
	case reflect.Pointer, reflect.Interface:
		if v.IsNil() {
			return nil, nil
		}
		return ref(v.Elem(), o)
	case reflect.Slice, reflect.Array:
		return refList(v, o)
	case reflect.Map:
		return refMap(v, o)
	case reflect.Struct:
		return refStruct(v, o)
	}
	return nil, fmt.Errorf("reference: no Variant for %v", t)
}

// addr returns a pointer to a copy of v, so that methods with pointer
// receivers can be called.
func addr(v reflect.Value) reflect.Value {
	p := reflect.New(v.Type())
	p.Elem().Set(v)
	return p
}

func hasMethods(t reflect.Type) bool {
	for _, it := range []reflect.Type{reflect.TypeFor[gdvar.Marshaler](), reflect.TypeFor[encoding.TextMarshaler]()} {
		if t.Implements(it) || reflect.PointerTo(t).Implements(it) {
			return true
		}
	}
	return false
}

func refList(v reflect.Value, o refOptions) (variant.Value, error) {
	et := v.Type().Elem()
	n := v.Len()
	plain := !hasMethods(et) && !strings.HasPrefix(et.PkgPath(), "github.com/gdvar/gdvar/variant")
	switch {
	case plain && et.Kind() == reflect.Uint8:
		out := make(variant.PackedByteArray, n)
		for i := range n {
			out[i] = byte(v.Index(i).Uint())
		}
		return out, nil
	case plain && et.Kind() == reflect.Int32:
		out := make(variant.PackedInt32Array, n)
		for i := range n {
			out[i] = int32(v.Index(i).Int())
		}
		return out, nil
	case plain && et.Kind() == reflect.Int64 && o.fam == variant.Godot4:
		out := make(variant.PackedInt64Array, n)
		for i := range n {
			out[i] = v.Index(i).Int()
		}
		return out, nil
	case plain && et.Kind() == reflect.Float32:
		out := make(variant.PackedFloat32Array, n)
		for i := range n {
			out[i] = float32(v.Index(i).Float())
		}
		return out, nil
	case plain && et.Kind() == reflect.Float64 && o.fam == variant.Godot4:
		out := make(variant.PackedFloat64Array, n)
		for i := range n {
			out[i] = v.Index(i).Float()
		}
		return out, nil
	case plain && et.Kind() == reflect.String:
		out := make(variant.PackedStringArray, n)
		for i := range n {
			out[i] = v.Index(i).String()
		}
		return out, nil
	case et == reflect.TypeFor[variant.Vector2]():
		out := make(variant.PackedVector2Array, n)
		reflect.Copy(reflect.ValueOf(out), v)
		return out, nil
	case et == reflect.TypeFor[variant.Vector3]():
		out := make(variant.PackedVector3Array, n)
		reflect.Copy(reflect.ValueOf(out), v)
		return out, nil
	case et == reflect.TypeFor[variant.Color]():
		out := make(variant.PackedColorArray, n)
		reflect.Copy(reflect.ValueOf(out), v)
		return out, nil
	case et == reflect.TypeFor[variant.Vector4]():
		out := make(variant.PackedVector4Array, n)
		reflect.Copy(reflect.ValueOf(out), v)
		return out, nil
	}
	a := &variant.Array{Values: make([]variant.Value, n)}
	for i := range n {
		e, err := ref(v.Index(i), o)
		if err != nil {
			return nil, err
		}
		a.Values[i] = e
	}
	if o.typed {
		a.Elem = variant.Typed(refType(et, o))
	}
	return a, nil
}

// refType is the one Variant type values of t map to, or Nil.
func refType(t reflect.Type, o refOptions) variant.Type {
	switch t.Kind() {
	case reflect.Pointer, reflect.Interface:
		return variant.TypeNil
	}
	if t.Implements(reflect.TypeFor[gdvar.Marshaler]()) || reflect.PointerTo(t).Implements(reflect.TypeFor[gdvar.Marshaler]()) {
		return variant.TypeNil
	}
	z, err := ref(reflect.Zero(t), o)
	if err != nil || variant.TypeOf(z) == variant.TypeObject {
		return variant.TypeNil
	}
	return variant.TypeOf(z)
}

func refMap(v reflect.Value, o refOptions) (variant.Value, error) {
	type entry struct {
		k    reflect.Value
		kv   variant.Value
		kenc []byte
	}
	var entries []entry
	for it := v.MapRange(); it.Next(); {
		kv, err := ref(it.Key(), o)
		if err != nil {
			return nil, err
		}
		enc, _ := variant.Encode(kv)
		entries = append(entries, entry{it.Key(), kv, enc})
	}
	kt := v.Type().Key()
	slices.SortStableFunc(entries, func(a, b entry) int {
		if !hasMethods(kt) && !strings.HasPrefix(kt.PkgPath(), "github.com/gdvar/gdvar/variant") {
			switch kt.Kind() {
			case reflect.String:
				return strings.Compare(a.k.String(), b.k.String())
			case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
				return cmp.Compare(a.k.Int(), b.k.Int())
			case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
				return cmp.Compare(a.k.Uint(), b.k.Uint())
			case reflect.Float32, reflect.Float64:
				return cmp.Compare(a.k.Float(), b.k.Float())
			case reflect.Bool:
				return cmp.Compare(fmt.Sprint(a.k.Bool()), fmt.Sprint(b.k.Bool()))
			}
		}
		return bytes.Compare(a.kenc, b.kenc)
	})
	d := variant.NewDictionary(len(entries))
	if o.typed {
		d.SetTypes(variant.Typed(refType(kt, o)), variant.Typed(refType(v.Type().Elem(), o)))
	}
	for _, e := range entries {
		val, err := ref(v.MapIndex(e.k), o)
		if err != nil {
			return nil, err
		}
		d.Set(e.kv, val)
	}
	return d, nil
}

// refStruct handles structs without name conflicts: exported fields by tag
// or name, embedded structs flattened, "-" skipped, omitempty.
func refStruct(v reflect.Value, o refOptions) (variant.Value, error) {
	d := variant.NewDictionary(v.NumField())
	var walk func(v reflect.Value) error
	walk = func(v reflect.Value) error {
		for i := range v.NumField() {
			sf := v.Type().Field(i)
			tag := sf.Tag.Get("gdvar")
			name, opts, _ := strings.Cut(tag, ",")
			if tag == "-" || !sf.IsExported() && !sf.Anonymous {
				continue
			}
			fv := v.Field(i)
			if sf.Anonymous && name == "" {
				if fv.Kind() == reflect.Pointer {
					if fv.IsNil() {
						continue
					}
					fv = fv.Elem()
				}
				if fv.Kind() == reflect.Struct {
					if err := walk(fv); err != nil {
						return err
					}
					continue
				}
			}
			if name == "" {
				name = sf.Name
			}
			if strings.Contains(opts, "omitempty") && isEmpty(fv) || strings.Contains(opts, "omitzero") && fv.IsZero() {
				continue
			}
			val, err := ref(fv, refOptions{fam: o.fam, typed: o.typed || strings.Contains(opts, "typed")})
			if err != nil {
				return err
			}
			d.Set(variant.String(name), val)
		}
		return nil
	}
	return d, walk(v)
}

func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Slice, reflect.Map, reflect.String, reflect.Array:
		return v.Len() == 0
	case reflect.Pointer, reflect.Interface:
		return v.IsNil()
	case reflect.Struct:
		return false
	}
	return v.IsZero()
}

// Types for the property test.

type quickInner struct {
	A int8    `gdvar:"a"`
	B string  `gdvar:"b,omitempty"`
	C []int16 `gdvar:"c"`
}

type QuickEmbedded struct {
	E1 uint32
	E2 []bool `gdvar:"e2"`
}

type quickStruct struct {
	QuickEmbedded
	N      int                       `gdvar:"n"`
	F      float32                   `gdvar:"f"`
	S      string                    `gdvar:"name"`
	P      *quickInner               `gdvar:"p"`
	In     quickInner                `gdvar:"in"`
	L      []quickInner              `gdvar:"l"`
	M      map[string]int64          `gdvar:"m,omitempty"`
	V      variant.Vector3           `gdvar:"v"`
	Skip   string                    `gdvar:"-"`
	Bytes  [3]byte                   `gdvar:"bytes"`
	Ptrs   []*int                    `gdvar:"ptrs"`
	Nested map[int][]string          `gdvar:"nested"`
	Z      int                       `gdvar:"z,omitzero"`
	Keys   map[variant.Vector2i]bool `gdvar:"keys"`
}

var quickTypes = []reflect.Type{
	reflect.TypeFor[bool](), reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[int16](),
	reflect.TypeFor[int32](), reflect.TypeFor[int64](), reflect.TypeFor[uint](), reflect.TypeFor[uint8](),
	reflect.TypeFor[uint16](), reflect.TypeFor[uint32](), reflect.TypeFor[uint64](), reflect.TypeFor[uintptr](),
	reflect.TypeFor[float32](), reflect.TypeFor[float64](), reflect.TypeFor[string](),
	reflect.TypeFor[[]byte](), reflect.TypeFor[[5]byte](), reflect.TypeFor[[]int32](), reflect.TypeFor[[]int64](),
	reflect.TypeFor[[]float32](), reflect.TypeFor[[]float64](), reflect.TypeFor[[]string](),
	reflect.TypeFor[[]variant.Vector2](), reflect.TypeFor[[]variant.Vector3](), reflect.TypeFor[[]variant.Color](),
	reflect.TypeFor[[]variant.Vector4](), reflect.TypeFor[[3]int32](), reflect.TypeFor[[]int](), reflect.TypeFor[[]bool](),
	reflect.TypeFor[[][]int](), reflect.TypeFor[[2][]string](), reflect.TypeFor[[]uint16](),
	reflect.TypeFor[map[string]int](), reflect.TypeFor[map[int8]string](), reflect.TypeFor[map[uint16]bool](),
	reflect.TypeFor[map[float64]int](), reflect.TypeFor[map[bool]string](), reflect.TypeFor[map[variant.Vector2i]int](),
	reflect.TypeFor[map[string][]float32](), reflect.TypeFor[*int](), reflect.TypeFor[**string](),
	reflect.TypeFor[quickInner](), reflect.TypeFor[quickStruct](), reflect.TypeFor[[]quickStruct](),
	reflect.TypeFor[variant.Vector2](), reflect.TypeFor[variant.Vector2i](), reflect.TypeFor[variant.Rect2](),
	reflect.TypeFor[variant.Rect2i](), reflect.TypeFor[variant.Vector3](), reflect.TypeFor[variant.Vector3i](),
	reflect.TypeFor[variant.Transform2D](), reflect.TypeFor[variant.Vector4](), reflect.TypeFor[variant.Vector4i](),
	reflect.TypeFor[variant.Plane](), reflect.TypeFor[variant.Quaternion](), reflect.TypeFor[variant.AABB](),
	reflect.TypeFor[variant.Basis](), reflect.TypeFor[variant.Transform3D](), reflect.TypeFor[variant.Projection](),
	reflect.TypeFor[variant.Color](), reflect.TypeFor[variant.StringName](), reflect.TypeFor[variant.NodePath](),
	reflect.TypeFor[variant.RID](), reflect.TypeFor[variant.ObjectID](), reflect.TypeFor[variant.Signal](),
	reflect.TypeFor[variant.PackedInt64Array](), reflect.TypeFor[variant.PackedFloat64Array](),
	reflect.TypeFor[variant.PackedStringArray](), reflect.TypeFor[[]variant.StringName](),
	reflect.TypeFor[map[variant.StringName]variant.NodePath](), reflect.TypeFor[time.Time](),
}

// specialValues are values random generation rarely hits.
var specialValues = []any{
	math.NaN(), float32(math.NaN()), math.Inf(1), math.Inf(-1), math.Copysign(0, -1), float32(math.Copysign(0, -1)),
	0.1, 1e300, 5e-324, math.MaxFloat32, 16777217.0, float32(16777216),
	math.MaxInt32, math.MinInt32, math.MaxInt32 + 1, math.MinInt32 - 1, int64(math.MaxInt64), int64(math.MinInt64),
	uint64(math.MaxInt64), uint64(math.MaxInt64) + 1, uint32(math.MaxUint32), int8(-128),
	"", "a", "ab", "abc", "abcd", "abcde", "Zoë 🎮", "\u0000x", "\uFEFFbom",
	[]byte{}, []byte(nil), []byte{1}, []byte{1, 2, 3, 4, 5}, []string{"", "a", "abcd"}, []string(nil),
	[]int(nil), map[string]int(nil), map[string]int{}, (*int)(nil), []any{nil, 1, "x", []any{}, map[string]any{"k": 1.5}},
	map[string]any{"a": []any{int64(1), "b"}, "c": map[string]any{}}, []any{variant.Vector2{X: 1}, variant.StringName("sn")},
	variant.Int(3), variant.Float(0.5), variant.String("s"), variant.Bool(true),
	&variant.Array{Elem: variant.Typed(variant.TypeInt), Values: []variant.Value{variant.Int(1)}},
	variant.NewDictionary(0), (*variant.Array)(nil), (*variant.Dictionary)(nil), (*variant.Object)(nil),
	variant.NodePath{}, variant.NodePath{Names: []string{"a"}, Subnames: []string{"b", "c"}},
	variant.Callable{}, variant.Signal{Name: "pressed", Object: 7}, variant.ObjectID(0), variant.ObjectID(5),
	variant.RID(1 << 40), time.Unix(-5, 999_999_999).UTC(), time.Time{}, []time.Time{{}, time.Unix(1, 0)},
	[]variant.Vector2(nil), []variant.Color{{R: 1}}, variant.PackedVector4Array{{W: 1}},
	struct {
		A []int              `gdvar:",typed"`
		B map[string]float64 `gdvar:",typed"`
	}{[]int{1}, map[string]float64{"x": 1}},
	struct {
		A []*int `gdvar:"a"`
		B []any  `gdvar:"b"`
	}{},
}

// quickValues returns random values of the property test's types, and the
// special values.
func quickValues(t *testing.T, n int) []any {
	r := rand.New(rand.NewSource(1))
	var out []any
	for _, typ := range quickTypes {
		for range n {
			if typ == reflect.TypeFor[time.Time]() {
				out = append(out, time.Unix(r.Int63n(1<<40)-1<<39, r.Int63n(1e9)).UTC())
				continue
			}
			v, ok := quick.Value(typ, r)
			if !ok {
				t.Fatalf("quick cannot make %v", typ)
			}
			out = append(out, v.Interface())
		}
	}
	return append(out, specialValues...)
}

var equivModes = []struct {
	name string
	enc  gdvar.EncOptions
	var_ variant.EncOptions
	ref  refOptions
}{
	{"godot4", gdvar.EncOptions{}, variant.EncOptions{}, refOptions{fam: variant.Godot4}},
	{"godot4-double", gdvar.EncOptions{Precision: variant.Double}, variant.EncOptions{Precision: variant.Double}, refOptions{fam: variant.Godot4}},
	{"godot4-typed", gdvar.EncOptions{TypedContainers: true}, variant.EncOptions{}, refOptions{fam: variant.Godot4, typed: true}},
	{"godot4.2", gdvar.EncOptions{Version: variant.Version{Major: 4, Minor: 2}}, variant.EncOptions{Version: variant.Version{Major: 4, Minor: 2}}, refOptions{fam: variant.Godot4}},
	{"godot4.2-double", gdvar.EncOptions{Version: variant.Version{Major: 4, Minor: 2}, Precision: variant.Double}, variant.EncOptions{Version: variant.Version{Major: 4, Minor: 2}, Precision: variant.Double}, refOptions{fam: variant.Godot4}},
	{"godot3", gdvar.EncOptions{Family: variant.Godot3}, variant.EncOptions{Family: variant.Godot3}, refOptions{fam: variant.Godot3}},
	{"godot3-depth2", gdvar.EncOptions{Family: variant.Godot3, MaxDepth: 2}, variant.EncOptions{Family: variant.Godot3, MaxDepth: 2}, refOptions{fam: variant.Godot3}},
}

// TestMarshalEqualsVariantEncode checks, for thousands of Go values and
// every mode, that Marshal writes exactly what variant.Encode writes for
// the equivalent Variant, or fails when it fails; and that what Marshal
// wrote unmarshals into a value that marshals to the same bytes.
func TestMarshalEqualsVariantEncode(t *testing.T) {
	values := quickValues(t, 20)
	for _, m := range equivModes {
		enc, err := m.enc.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		venc, err := m.var_.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		dec, err := gdvar.DecOptions{Family: m.ref.fam, MaxDepth: m.enc.MaxDepth}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		for _, x := range values {
			got, gerr := enc.Marshal(x)
			want, werr := ref(reflect.ValueOf(x), m.ref)
			var wantBytes []byte
			if werr == nil {
				wantBytes, werr = venc.Encode(want)
			}
			switch {
			case werr != nil && gerr == nil:
				t.Errorf("%s: %T %.200v: Marshal succeeded, variant: %v", m.name, x, x, werr)
				continue
			case werr == nil && gerr != nil:
				t.Errorf("%s: %T %.200v: Marshal: %v", m.name, x, x, gerr)
				continue
			case werr != nil:
				var ve *variant.Error
				if errors.As(werr, &ve) && !errors.Is(gerr, ve.Err) {
					t.Errorf("%s: %T %.200v: Marshal error %v, variant %v", m.name, x, x, gerr, werr)
				}
				if errors.Is(werr, errRefOverflow) && !errors.Is(gerr, gdvar.ErrOverflow) {
					t.Errorf("%s: %T: Marshal error %v, want ErrOverflow", m.name, x, gerr)
				}
				continue
			}
			if !bytes.Equal(got, wantBytes) {
				t.Errorf("%s: %T %.200v:\n got %x\nwant %x", m.name, x, x, got, wantBytes)
				continue
			}
			// Back into the same Go type, and again to bytes.
			back := reflect.New(reflect.TypeOf(x))
			if err := dec.Unmarshal(got, back.Interface()); err != nil {
				t.Errorf("%s: %T %.200v: Unmarshal: %v", m.name, x, x, err)
				continue
			}
			// The same bytes through variant: what the engine would make
			// of them (a NUL ends a string, a leading BOM goes, …).
			vdec, _ := variant.DecOptions{Family: m.ref.fam}.DecMode()
			vv, _, err := vdec.Decode(got)
			if err != nil {
				t.Fatal(err)
			}
			vagain, err := venc.Encode(vv)
			if err != nil {
				t.Fatal(err)
			}
			again, err := enc.Marshal(back.Interface())
			if err != nil || !bytes.Equal(again, vagain) {
				t.Errorf("%s: %T %.200v: round trip gave %.200v: %x, %v", m.name, x, x, back.Elem(), again, err)
			}
		}
	}
}
