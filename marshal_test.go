package gdvar_test

import (
	"bytes"
	"errors"
	"math"
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

// marshalsTo checks that v marshals (with m, or the default mode) to the
// encoding of want.
func marshalsTo(t *testing.T, m *gdvar.EncMode, v any, want variant.Value) {
	t.Helper()
	if m == nil {
		m = mustEnc(gdvar.EncOptions{})
	}
	got, err := m.Marshal(v)
	if err != nil {
		t.Errorf("Marshal(%#v): %v", v, err)
		return
	}
	vm, _ := variant.EncOptions{Family: m.Options().Family, Version: m.Options().Version,
		Precision: m.Options().Precision, FullObjects: m.Options().FullObjects}.EncMode()
	wantBytes, err := vm.Encode(want)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, wantBytes) {
		t.Errorf("Marshal(%#v)\n got %x\nwant %x", v, got, wantBytes)
	}
}

func TestMarshalTags(t *testing.T) {
	type inner struct {
		A int `gdvar:"a"`
	}
	type tags struct {
		Plain     int
		Renamed   int             `gdvar:"renamed"`
		Dash      int             `gdvar:"-,"`
		Skipped   int             `gdvar:"-"`
		unexp     int             //nolint:unused // not a key
		JSON      string          `json:"json_name,omitempty"`
		Both      int             `gdvar:"g" json:"j"`
		Empty     string          `gdvar:",omitempty"`
		EmptyS    []int           `gdvar:"es,omitempty"`
		EmptyM    map[string]int  `gdvar:"em,omitempty"`
		EmptyP    *int            `gdvar:"ep,omitempty"`
		EmptyI    any             `gdvar:"ei,omitempty"`
		EmptyF    float64         `gdvar:"ef,omitempty"`
		EmptyB    bool            `gdvar:"eb,omitempty"`
		EmptyA    [0]int          `gdvar:"ea,omitempty"`
		StructOE  inner           `gdvar:"soe,omitempty"` // structs are never empty
		ZeroS     inner           `gdvar:"zs,omitzero"`
		ZeroV     variant.Vector2 `gdvar:"zv,omitzero"`
		NotZeroV  variant.Vector2 `gdvar:"nzv,omitzero"`
		ZeroSlice []int           `gdvar:"zsl,omitzero"`
	}
	v := tags{Plain: 1, Renamed: 2, Dash: 3, Skipped: 4, unexp: 5, Both: 6, NotZeroV: variant.Vector2{X: 1}, ZeroSlice: []int{}}
	marshalsTo(t, nil, &v, dict(S("Plain"), variant.Int(1), S("renamed"), variant.Int(2), S("-"), variant.Int(3),
		S("g"), variant.Int(6), S("soe"), dict(S("a"), variant.Int(0)), S("nzv"), variant.Vector2{X: 1},
		S("zsl"), arr()))
	v.JSON, v.Empty, v.EmptyS, v.EmptyF = "j", "e", []int{1}, math.Copysign(0, -1)
	marshalsTo(t, nil, &v, dict(S("Plain"), variant.Int(1), S("renamed"), variant.Int(2), S("-"), variant.Int(3),
		S("json_name"), S("j"), S("g"), variant.Int(6), S("Empty"), S("e"), S("es"), arr(variant.Int(1)),
		S("soe"), dict(S("a"), variant.Int(0)), S("nzv"), variant.Vector2{X: 1}, S("zsl"), arr()))
}

type Embedded1 struct {
	A, B int
	C    int `gdvar:"c"`
}

type Embedded2 struct {
	B int
	C int `gdvar:"c"`
	D int
}

type Named struct{ X int }

type embedding struct {
	Embedded1
	*Embedded2
	Named `gdvar:"named"`
	D     int `gdvar:"D"`
}

func TestMarshalEmbedding(t *testing.T) {
	// B and c appear in both embedded structs at the same depth: hidden.
	// D is shadowed by the shallower field. Named has a tag: not flattened.
	v := embedding{Embedded1{1, 2, 3}, &Embedded2{4, 5, 6}, Named{7}, 8}
	marshalsTo(t, nil, &v, dict(S("A"), variant.Int(1), S("named"), dict(S("X"), variant.Int(7)), S("D"), variant.Int(8)))
	v.Embedded2 = nil
	marshalsTo(t, nil, &v, dict(S("A"), variant.Int(1), S("named"), dict(S("X"), variant.Int(7)), S("D"), variant.Int(8)))

	// Fields promoted through a nil embedded pointer are left out.
	m := Monster{Base: Base{ID: 1}, Name: "x", Kind: "k"}
	marshalsTo(t, nil, &m, dict(S("id"), variant.Int(1), S("name"), S("x"), S("kind"), S("k")))
	var back Monster
	if err := gdvar.Unmarshal(mustMarshal(t, &v), &back); err != nil {
		t.Fatal(err)
	}
}

func mustMarshal(t testing.TB, v any) []byte {
	t.Helper()
	b, err := gdvar.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

type node struct {
	Name     string  `gdvar:"name"`
	Children []*node `gdvar:"children"`
	Next     *node   `gdvar:"next"`
}

func TestMarshalCycles(t *testing.T) {
	n := &node{Name: "loop"}
	n.Next = n
	_, err := gdvar.Marshal(n)
	if !errors.Is(err, variant.ErrTooDeep) {
		t.Fatalf("self-referencing struct: %v", err)
	}
	if !strings.Contains(err.Error(), "next.next.next") {
		t.Errorf("path: %v", err)
	}
	m := map[string]any{}
	m["self"] = m
	if _, err := gdvar.Marshal(m); !errors.Is(err, variant.ErrTooDeep) {
		t.Errorf("map holding itself: %v", err)
	}
	s := []any{nil}
	s[0] = s
	if _, err := gdvar.Marshal(s); !errors.Is(err, variant.ErrTooDeep) {
		t.Errorf("slice holding itself: %v", err)
	}
	type cycle *cycle
	var c cycle
	c = &c
	if _, err := gdvar.Marshal(c); !errors.Is(err, gdvar.ErrUnsupportedType) {
		t.Errorf("pointer cycle: %v", err)
	}
	var x any
	x = &x
	if _, err := gdvar.Marshal(x); !errors.Is(err, gdvar.ErrUnsupportedType) {
		t.Errorf("interface cycle: %v", err)
	}
	a := variant.NewArray()
	a.Values = append(a.Values, a)
	if _, err := gdvar.Marshal(struct{ A *variant.Array }{a}); !errors.Is(err, variant.ErrTooDeep) {
		t.Errorf("model Array holding itself: %v", err)
	}

	// The limit is the engine's, as for variant.Encode.
	deep := &node{Name: "0"}
	for range 9 {
		deep = &node{Children: []*node{deep}}
	}
	// The innermost fields sit at depth 19: ten Dictionaries and nine
	// Arrays around them.
	shallow := mustEnc(gdvar.EncOptions{MaxDepth: 18})
	if _, err := shallow.Marshal(deep); !errors.Is(err, variant.ErrTooDeep) {
		t.Errorf("depth 19 with MaxDepth 18: %v", err)
	}
	if _, err := mustEnc(gdvar.EncOptions{MaxDepth: 19}).Marshal(deep); err != nil {
		t.Errorf("depth 19 with MaxDepth 19: %v", err)
	}
}

func TestMarshalErrors(t *testing.T) {
	for _, c := range []struct {
		v    any
		want error
		text string
	}{
		{make(chan int), gdvar.ErrUnsupportedType, "cannot marshal chan int"},
		{struct{ F func() }{}, gdvar.ErrUnsupportedType, "byte 20, F: cannot marshal func()"},
		{complex(1, 2), gdvar.ErrUnsupportedType, "complex128"},
		{uint64(math.MaxUint64), gdvar.ErrOverflow, "18446744073709551615 exceeds the largest Godot int"},
		{map[string]uint{"big": math.MaxUint64}, gdvar.ErrOverflow, `["big"]`},
		{"\xff", variant.ErrInvalidValue, "string is not valid UTF-8"},
		{[]string{"ok", "\xff"}, variant.ErrInvalidValue, "[1]"},
		{struct {
			A []*int `gdvar:"a,typed"`
		}{}, gdvar.ErrUnsupportedType, "no single Variant type"},
		{&variant.Object{Class: "Node"}, variant.ErrObjectsNotAllowed, "needs FullObjects"},
		{struct{ T stamp2 }{}, errStamp, "T: MarshalVariant of gdvar_test.stamp2: no"},
	} {
		out := []byte("prefix")
		got, err := gdvar.Append(out, c.v)
		if !errors.Is(err, c.want) || !strings.Contains(err.Error(), c.text) {
			t.Errorf("%#v: got %v, want %v (%q)", c.v, err, c.want, c.text)
		}
		if string(got) != "prefix" {
			t.Errorf("%#v: Append changed dst to %q", c.v, got)
		}
		var e *gdvar.Error
		if !errors.As(err, &e) || e.Op != "marshal" {
			t.Errorf("%T %v", err, err)
		}
	}
	g3 := mustEnc(gdvar.EncOptions{Family: variant.Godot3})
	for _, v := range []any{variant.StringName("x"), struct{ V variant.Vector2i }{}, variant.PackedInt64Array{1},
		struct {
			A []int `gdvar:",typed"`
		}{}} {
		if _, err := g3.Marshal(v); !errors.Is(err, variant.ErrUnsupported) {
			t.Errorf("Godot 3, %#v: %v", v, err)
		}
	}
	// Not a model type: a plain []int64 is an Array in Godot 3.
	marshalsTo(t, g3, []int64{1 << 40}, arr(variant.Int(1<<40)))
	old := mustEnc(gdvar.EncOptions{Version: variant.Version{Major: 4, Minor: 3}, TypedContainers: true})
	if _, err := old.Marshal(map[string]int{}); !errors.Is(err, variant.ErrUnsupported) {
		t.Errorf("typed Dictionary for 4.3: %v", err)
	}
	marshalsTo(t, old, []int{1}, &variant.Array{Elem: variant.Typed(variant.TypeInt), Values: []variant.Value{variant.Int(1)}})
}

var errStamp = errors.New("no")

type stamp2 struct{}

func (stamp2) MarshalVariant() (variant.Value, error) { return nil, errStamp }

// level is a Marshaler with a value receiver, used as a map key too.
type level int

func (l level) MarshalVariant() (variant.Value, error) {
	return variant.String(strings.Repeat("*", int(l))), nil
}

func TestMarshalMethodsAndKeys(t *testing.T) {
	marshalsTo(t, nil, map[level]bool{2: true, 1: false}, dict(S("*"), variant.Bool(false), S("**"), variant.Bool(true)))
	marshalsTo(t, nil, []level{1, 2}, arr(S("*"), S("**")))
	marshalsTo(t, nil, map[bool]int{true: 1, false: 0}, dict(variant.Bool(false), variant.Int(0), variant.Bool(true), variant.Int(1)))
	marshalsTo(t, nil, map[float64]int{2.5: 1, -1: 2}, dict(variant.Float(-1), variant.Int(2), variant.Float(2.5), variant.Int(1)))
	marshalsTo(t, nil, map[any]int{"b": 1, 2: 2, "a": 3},
		dict(variant.Int(2), variant.Int(2), S("a"), variant.Int(3), S("b"), variant.Int(1)))
	marshalsTo(t, nil, map[variant.StringName]int{"b": 1, "a": 2}, dict(variant.StringName("a"), variant.Int(2), variant.StringName("b"), variant.Int(1)))
	nan := map[float64]int{math.NaN(): 1, math.NaN(): 2}
	if _, err := gdvar.Marshal(nan); err != nil {
		t.Errorf("NaN keys: %v", err)
	}
	// Nil and empty containers: empty Arrays and Dictionaries, as in
	// GDScript, where they are never null.
	marshalsTo(t, nil, struct {
		S []int
		M map[string]int
		B []byte
		P *int
		I any
	}{}, dict(S("S"), arr(), S("M"), dict(), S("B"), variant.PackedByteArray{}, S("P"), nil, S("I"), nil))
	// Model pointer types follow package variant: a nil *Array is empty.
	marshalsTo(t, nil, struct{ A *variant.Array }{}, dict(S("A"), arr()))
	full := mustEnc(gdvar.EncOptions{FullObjects: true})
	obj := &variant.Object{Class: "Node", Properties: []variant.Property{{Name: "name", Value: S("n")}}}
	marshalsTo(t, full, struct{ O *variant.Object }{obj}, dict(S("O"), obj))
}

func TestMarshalPrecision(t *testing.T) {
	type shapes struct {
		P   variant.Vector2     `gdvar:"p"`
		Q   variant.Quaternion  `gdvar:"q"`
		T   variant.Transform3D `gdvar:"t"`
		Pts []variant.Vector3   `gdvar:"pts"`
	}
	v := shapes{variant.Vector2{X: 0.1}, variant.Quaternion{W: 1}, variant.Transform3D{Basis: basis}, []variant.Vector3{{Z: 0.1}}}
	want := dict(S("p"), v.P, S("q"), v.Q, S("t"), v.T, S("pts"), variant.PackedVector3Array(v.Pts))
	marshalsTo(t, mustEnc(gdvar.EncOptions{Precision: variant.Double}), &v, want)
	marshalsTo(t, nil, &v, want)
	old := mustEnc(gdvar.EncOptions{Precision: variant.Double, Version: variant.Version{Major: 4, Minor: 2}})
	if _, err := old.Marshal(&v); !errors.Is(err, variant.ErrUnsupported) || !strings.Contains(err.Error(), "q (Quaternion)") {
		t.Errorf("double Quaternion for 4.2: %v", err)
	}
	var back shapes
	dbl, _ := mustEnc(gdvar.EncOptions{Precision: variant.Double}).Marshal(&v)
	if err := gdvar.Unmarshal(dbl, &back); err != nil || !reflect.DeepEqual(back, v) {
		t.Errorf("double precision back: %+v %v", back, err)
	}
}

func TestMarshalAllocations(t *testing.T) {
	p := Player{ID: 7, Name: "player7", Pos: variant.Vector2{X: 7, Y: -7}, HP: 99.5}
	buf := make([]byte, 0, 256)
	c := Character{Name: "Ada", Stats: Stats{1, 2}, Inventory: []Item{{"a", 1}}, Tags: []string{"x"}}
	if n := testing.AllocsPerRun(100, func() { buf, _ = gdvar.Append(buf[:0], &p) }); n != 0 {
		t.Errorf("Append(&Player) allocates %v times", n)
	}
	if n := testing.AllocsPerRun(100, func() { buf, _ = gdvar.Append(buf[:0], &c) }); n != 0 {
		t.Errorf("Append(&Character) allocates %v times", n)
	}
	data := mustMarshal(t, &p)
	var out Player
	if n := testing.AllocsPerRun(100, func() { _ = gdvar.Unmarshal(data, &out) }); n != 1 {
		t.Errorf("Unmarshal into Player allocates %v times, want 1 (the name)", n)
	}
	ps := []Player{p, p, p}
	data = mustMarshal(t, &ps)
	var outs []Player
	_ = gdvar.Unmarshal(data, &outs)
	if n := testing.AllocsPerRun(100, func() { _ = gdvar.Unmarshal(data, &outs) }); n != 3 {
		t.Errorf("Unmarshal into a reused []Player allocates %v times, want 3 (the names)", n)
	}
}

func TestConcurrentUse(t *testing.T) {
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for j := range 50 {
				var v any
				switch (i + j) % 4 {
				case 0:
					v = &allKinds
				case 1:
					v = godot4Cases[4].value
				case 2:
					v = map[string][]Item{"x": {{"a", j}}}
				default:
					v = &quickStruct{N: j}
				}
				b, err := gdvar.Marshal(v)
				if err != nil {
					t.Error(err)
					return
				}
				back := reflect.New(reflect.TypeOf(v).Elem())
				if reflect.TypeOf(v).Kind() != reflect.Pointer {
					back = reflect.New(reflect.TypeOf(v))
				}
				if err := gdvar.Unmarshal(b, back.Interface()); err != nil {
					t.Error(err)
				}
			}
		})
	}
	wg.Wait()
}
