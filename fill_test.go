package gdvar

import (
	"errors"
	"fmt"
	"math"
	"net/netip"
	"reflect"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

type fillPoint struct {
	X  int            `gdvar:"x"`
	Y  float32        `gdvar:"y"`
	N  string         `gdvar:"n"`
	In *fillPoint     `gdvar:"in"`
	M  map[string]int `gdvar:"m"`
}

type testUnmarshaler struct{ Got variant.Value }

func (u *testUnmarshaler) UnmarshalVariant(v variant.Value) error {
	if v == variant.Value(variant.Int(13)) {
		return errors.New("unlucky")
	}
	u.Got = v
	return nil
}

// TestFillAgreesWithDecode stores Values into Go values of many types
// both ways, from the bytes of the Value and from the Value itself (the
// path of what typed containers convert): results and errors (but for
// their offsets) must be the same.
func TestFillAgreesWithDecode(t *testing.T) {
	dict := func(kv ...variant.Value) *variant.Dictionary {
		d := variant.NewDictionary(len(kv) / 2)
		for i := 0; i < len(kv); i += 2 {
			d.Set(kv[i], kv[i+1])
		}
		return d
	}
	values := []variant.Value{
		nil, variant.Bool(true), variant.Bool(false), variant.Int(0), variant.Int(7), variant.Int(-300), variant.Int(13),
		variant.Int(1 << 40), variant.Int(math.MinInt64), variant.Float(1.5), variant.Float(-2), variant.Float(1e300),
		variant.Float(math.Inf(1)), variant.Float(1.7e9),
		variant.String("x"), variant.String(""), variant.String("2024-01-02T03:04:05Z"), variant.String("127.0.0.1"),
		variant.String("é"), variant.StringName("n"), variant.StringName("2024-01-02"),
		variant.NodePath{Names: []string{"a"}, Absolute: true},
		variant.Vector2{X: 1.5, Y: -2}, variant.Vector2i{X: 1, Y: 2}, variant.Rect2{Size: variant.Vector2{X: 1, Y: 1}},
		variant.Rect2i{}, variant.Vector3{X: 1}, variant.Vector3i{Z: -1}, variant.Vector4{W: 0.5}, variant.Vector4i{X: 9},
		variant.Color{R: 1, A: 0.5}, variant.Quaternion{W: 1}, variant.Basis{}, variant.Transform3D{}, variant.RID(5),
		variant.PackedByteArray{1, 2}, variant.PackedByteArray{}, variant.PackedInt32Array{1, 300}, variant.PackedInt64Array{-5},
		variant.PackedFloat32Array{0.5, 2}, variant.PackedFloat64Array{1e300}, variant.PackedStringArray{"a", "b"},
		variant.PackedVector2Array{{X: 1}}, variant.PackedVector3Array{{Y: 2}}, variant.PackedColorArray{{G: 1}},
		variant.PackedVector4Array{{Z: 1}},
		variant.NewArray(), variant.NewArray(variant.Int(1), variant.Int(2)), variant.NewArray(variant.Int(1), variant.String("a")),
		variant.NewArray(variant.NewArray(variant.Int(3)), nil), variant.NewArray(variant.PackedInt32Array{4}),
		&variant.Array{Elem: variant.Typed(variant.TypeInt), Values: []variant.Value{variant.Int(1), variant.Int(2), variant.Int(3)}},
		dict(), dict(variant.String("x"), variant.Int(1), variant.StringName("n"), variant.String("s")),
		dict(variant.String("x"), variant.String("no")), dict(variant.String("zz"), variant.Int(1)),
		dict(variant.String("in"), dict(variant.String("x"), variant.Int(2)), variant.String("m"), dict(variant.String("k"), variant.Int(3))),
		dict(variant.Int(1), variant.Int(2)), dict(nil, variant.Int(1)), dict(variant.NewArray(), variant.Int(1)),
		dict(variant.String("m"), dict(variant.String("k"), variant.Float(1))),
		dict(variant.String("in"), nil, variant.String("m"), nil, variant.String("x"), nil),
	}
	targets := []reflect.Type{
		reflect.TypeFor[bool](), reflect.TypeFor[int](), reflect.TypeFor[int8](), reflect.TypeFor[uint16](), reflect.TypeFor[uint64](),
		reflect.TypeFor[float32](), reflect.TypeFor[float64](), reflect.TypeFor[string](), reflect.TypeFor[time.Time](),
		reflect.TypeFor[netip.Addr](), reflect.TypeFor[testUnmarshaler](), reflect.TypeFor[*testUnmarshaler](),
		reflect.TypeFor[[]int](), reflect.TypeFor[[]int32](), reflect.TypeFor[[]int8](), reflect.TypeFor[[]any](),
		reflect.TypeFor[[]string](), reflect.TypeFor[[]byte](), reflect.TypeFor[[2]int](), reflect.TypeFor[[2]byte](),
		reflect.TypeFor[[]float32](), reflect.TypeFor[[]variant.Vector2](), reflect.TypeFor[[][]int](),
		reflect.TypeFor[map[string]int](), reflect.TypeFor[map[string]any](), reflect.TypeFor[map[any]any](),
		reflect.TypeFor[map[int]string](), reflect.TypeFor[map[variant.Value]int](), reflect.TypeFor[fillPoint](),
		reflect.TypeFor[*int](), reflect.TypeFor[**string](), reflect.TypeFor[any](), reflect.TypeFor[variant.Value](),
		reflect.TypeFor[error](), reflect.TypeFor[variant.Vector2](), reflect.TypeFor[variant.Vector2i](),
		reflect.TypeFor[variant.Color](), reflect.TypeFor[variant.StringName](), reflect.TypeFor[variant.NodePath](),
		reflect.TypeFor[variant.PackedInt32Array](), reflect.TypeFor[*variant.Array](), reflect.TypeFor[*variant.Dictionary](),
		reflect.TypeFor[variant.RID](), reflect.TypeFor[chan int](),
	}
	m := defaultDecMode
	encoded := make([][]byte, len(values))
	for i, v := range values {
		data, err := variant.Encode(v)
		if err != nil {
			t.Fatalf("%#v: %v", v, err)
		}
		encoded[i] = data
	}
	checked := 0
	for _, typ := range targets {
		// Unmarshal fills existing values: start from the zero value and
		// from values some of the others leave.
		var fits [][]byte
		for _, data := range encoded {
			if m.Unmarshal(data, reflect.New(typ).Interface()) == nil {
				fits = append(fits, data)
			}
		}
		seeds := [][]byte{nil}
		if len(fits) > 4 {
			fits = append(fits[:2], fits[len(fits)-3:]...)
		}
		seeds = append(seeds, fits...)
		for i, v := range values {
			for _, seed := range seeds {
				fromBytes, fromValue := reflect.New(typ), reflect.New(typ)
				if seed != nil {
					_ = m.Unmarshal(seed, fromBytes.Interface())
					_ = m.Unmarshal(seed, fromValue.Interface())
				}
				berr := m.Unmarshal(encoded[i], fromBytes.Interface())
				ferr := m.UnmarshalValue(v, fromValue.Interface())
				what := fmt.Sprintf("%v %v into %v (seed % x)", variant.TypeOf(v), v, typ, seed)
				if (berr == nil) != (ferr == nil) {
					t.Errorf("%s: from bytes %v, from the Value %v", what, berr, ferr)
					continue
				}
				if berr != nil {
					be, fe := berr.(*Error), ferr.(*Error)
					if be.Path != fe.Path || be.Detail != fe.Detail || be.Type != fe.Type || be.GoType != fe.GoType ||
						be.Err != fe.Err && be.Err.Error() != fe.Err.Error() {
						t.Errorf("%s:\nfrom bytes     %v\nfrom the Value %v", what, berr, ferr)
					}
					continue
				}
				if !same(fromBytes.Elem(), fromValue.Elem()) {
					t.Errorf("%s: from bytes %#v, from the Value %#v", what, fromBytes.Elem().Interface(), fromValue.Elem().Interface())
				}
				checked++
			}
		}
	}
	if checked < 1000 {
		t.Errorf("only %d pairs agree without error", checked)
	}
}

// same reports whether two Go values hold the same: deeply equal, or
// printing the same behind their pointers (Values held by pointer print
// their contents).
func same(a, b reflect.Value) bool {
	if reflect.DeepEqual(a.Interface(), b.Interface()) || fmt.Sprint(a.Interface()) == fmt.Sprint(b.Interface()) {
		return true
	}
	for a.Kind() == reflect.Pointer && b.Kind() == reflect.Pointer && !a.IsNil() && !b.IsNil() {
		a, b = a.Elem(), b.Elem()
	}
	return fmt.Sprintf("%+v", a.Interface()) == fmt.Sprintf("%+v", b.Interface())
}

// UnmarshalValue refuses a Value nested deeper than MaxDepth, as Unmarshal
// refuses its bytes, and a container that holds itself, without
// overflowing the stack.
func TestUnmarshalValueDepth(t *testing.T) {
	m, err := DecOptions{MaxDepth: 8}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	nest := func(n int, inner variant.Value) variant.Value {
		v := inner
		for range n {
			d := variant.NewDictionary(1)
			d.Set(variant.String("k"), variant.NewArray(v))
			v = d
		}
		return v
	}
	for _, c := range []struct {
		v    variant.Value
		deep bool
	}{
		{nest(4, variant.Int(1)), false},       // elements at depth 8
		{nest(4, variant.NewArray()), false},   // an empty Array at depth 8
		{nest(4, variant.NewArray(nil)), true}, // its element at depth 9
		{nest(5, variant.Int(1)), true},
	} {
		data, encErr := variant.Encode(c.v)
		if encErr != nil {
			t.Fatal(encErr)
		}
		var fromBytes, fromValue any
		berr := m.Unmarshal(data, &fromBytes)
		verr := m.UnmarshalValue(c.v, &fromValue)
		if errors.Is(berr, variant.ErrTooDeep) != c.deep || errors.Is(verr, variant.ErrTooDeep) != c.deep {
			t.Errorf("%v: from bytes %v, from the Value %v", c.v, berr, verr)
		}
		if !c.deep && !reflect.DeepEqual(fromBytes, fromValue) {
			t.Errorf("%v: from bytes %#v, from the Value %#v", c.v, fromBytes, fromValue)
		}
	}
	self := variant.NewArray(variant.Int(1))
	self.Values = append(self.Values, self)
	loop := variant.NewDictionary(1)
	loop.Set(variant.String("me"), loop)
	for _, v := range []variant.Value{self, loop} {
		for _, dst := range []any{new(any), new([]any), new(map[string]any), new(variant.Value)} {
			if err := UnmarshalValue(v, dst); !errors.Is(err, variant.ErrTooDeep) {
				t.Errorf("a container that holds itself into %T: %v", dst, err)
			}
		}
	}
	if err := UnmarshalValue(variant.Int(1), nil); !errors.Is(err, ErrInvalidTarget) {
		t.Errorf("nil target: %v", err)
	}
}
