package gdvar_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"net/netip"
	"os"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

// The structs of the engine fixtures in testdata/marshal: their
// Dictionaries, built in GDScript with the keys in field order, were
// encoded by the real Godot 4.6 and 3.2.3.

type Stats struct {
	Strength  int `gdvar:"strength"`
	Dexterity int `gdvar:"dexterity"`
}

type Item struct {
	Item string `gdvar:"item"`
	Qty  int    `gdvar:"qty"`
}

type Place struct {
	Name string `gdvar:"name"`
}

type Character struct {
	Name      string            `gdvar:"name"`
	Stats     Stats             `gdvar:"stats"`
	Inventory []Item            `gdvar:"inventory"`
	Tags      []string          `gdvar:"tags"`
	Home      *Place            `gdvar:"home"`
	Notes     map[string]string `gdvar:"notes,omitempty"`
	Skipped   int               `gdvar:"-"`
}

type Base struct {
	ID   int    `gdvar:"id"`
	Kind string `gdvar:"kind"` // hidden by Monster.Kind
}

type Timestamps struct {
	Created time.Time `gdvar:"created"`
}

type Monster struct {
	Base
	*Timestamps
	Name string  `gdvar:"name"`
	Kind string  `gdvar:"kind"`
	HP   float32 `gdvar:"hp,omitempty"`
}

type Typed struct {
	Scores  []int              `gdvar:"scores,typed"`
	Levels  map[string]int     `gdvar:"levels,typed"`
	Points  []variant.Vector2i `gdvar:"points,typed"`
	Players []Player           `gdvar:"players,typed"`
	Untyped []int              `gdvar:"untyped"`
}

type AllKinds struct {
	B        bool                `gdvar:"b"`
	I        int                 `gdvar:"i"`
	I8       int8                `gdvar:"i8"`
	U16      uint16              `gdvar:"u16"`
	I64      int64               `gdvar:"i64"`
	U64      uint64              `gdvar:"u64"`
	F32      float32             `gdvar:"f32"`
	F64      float64             `gdvar:"f64"`
	S        string              `gdvar:"s"`
	SN       variant.StringName  `gdvar:"sn"`
	NP       variant.NodePath    `gdvar:"np"`
	V2       variant.Vector2     `gdvar:"v2"`
	V2i      variant.Vector2i    `gdvar:"v2i"`
	R2       variant.Rect2       `gdvar:"r2"`
	R2i      variant.Rect2i      `gdvar:"r2i"`
	V3       variant.Vector3     `gdvar:"v3"`
	V3i      variant.Vector3i    `gdvar:"v3i"`
	T2D      variant.Transform2D `gdvar:"t2d"`
	V4       variant.Vector4     `gdvar:"v4"`
	V4i      variant.Vector4i    `gdvar:"v4i"`
	Plane    variant.Plane       `gdvar:"plane"`
	Quat     variant.Quaternion  `gdvar:"quat"`
	AABB     variant.AABB        `gdvar:"aabb"`
	Basis    variant.Basis       `gdvar:"basis"`
	T3D      variant.Transform3D `gdvar:"t3d"`
	Proj     variant.Projection  `gdvar:"proj"`
	Color    variant.Color       `gdvar:"color"`
	RID      variant.RID         `gdvar:"rid"`
	Callable variant.Callable    `gdvar:"callable"`
	Signal   variant.Signal      `gdvar:"signal"`
	Bytes    []byte              `gdvar:"bytes"`
	I32s     []int32             `gdvar:"i32s"`
	I64s     []int64             `gdvar:"i64s"`
	F32s     []float32           `gdvar:"f32s"`
	F64s     []float64           `gdvar:"f64s"`
	Strs     []string            `gdvar:"strs"`
	V2s      []variant.Vector2   `gdvar:"v2s"`
	V3s      []variant.Vector3   `gdvar:"v3s"`
	Colors   []variant.Color     `gdvar:"colors"`
	V4s      []variant.Vector4   `gdvar:"v4s"`
	Arr      []any               `gdvar:"arr"`
	Ints     []int               `gdvar:"ints"`
	Grid     [2][2]int           `gdvar:"grid"`
	Map      map[string]int      `gdvar:"map"`
	Ptr      *int                `gdvar:"ptr"`
	Any      any                 `gdvar:"any"`
	When     time.Time           `gdvar:"when"`
	IP       netip.Addr          `gdvar:"ip"`
}

// AllKinds3 has the kinds of AllKinds that Godot 3 has.
type AllKinds3 struct {
	B      bool                `gdvar:"b"`
	I      int                 `gdvar:"i"`
	I64    int64               `gdvar:"i64"`
	F32    float32             `gdvar:"f32"`
	F64    float64             `gdvar:"f64"`
	S      string              `gdvar:"s"`
	NP     variant.NodePath    `gdvar:"np"`
	V2     variant.Vector2     `gdvar:"v2"`
	R2     variant.Rect2       `gdvar:"r2"`
	V3     variant.Vector3     `gdvar:"v3"`
	T2D    variant.Transform2D `gdvar:"t2d"`
	Plane  variant.Plane       `gdvar:"plane"`
	Quat   variant.Quaternion  `gdvar:"quat"`
	AABB   variant.AABB        `gdvar:"aabb"`
	Basis  variant.Basis       `gdvar:"basis"`
	T3D    variant.Transform3D `gdvar:"t3d"`
	Color  variant.Color       `gdvar:"color"`
	Bytes  []byte              `gdvar:"bytes"`
	I32s   []int32             `gdvar:"i32s"`
	I64s   []int64             `gdvar:"i64s"`
	F32s   []float32           `gdvar:"f32s"`
	F64s   []float64           `gdvar:"f64s"`
	Strs   []string            `gdvar:"strs"`
	V2s    []variant.Vector2   `gdvar:"v2s"`
	V3s    []variant.Vector3   `gdvar:"v3s"`
	Colors []variant.Color     `gdvar:"colors"`
	Arr    []any               `gdvar:"arr"`
	Ints   []int               `gdvar:"ints"`
	Map    map[string]int      `gdvar:"map"`
	Ptr    *int                `gdvar:"ptr"`
	Any    any                 `gdvar:"any"`
	When   time.Time           `gdvar:"when"`
}

var basis = variant.Basis{X: variant.Vector3{X: 1, Y: 2, Z: 3}, Y: variant.Vector3{X: 4, Y: 5, Z: 6}, Z: variant.Vector3{X: 7, Y: 8, Z: 9}}

var allKinds = AllKinds{
	B: true, I: -42, I8: -128, U16: 65535, I64: 1 << 40, U64: 1 << 32, F32: 1.5, F64: 0.1,
	S: "héllo", SN: "name",
	NP:       variant.NodePath{Names: []string{"root", "abcd"}, Subnames: []string{"efgh"}, Absolute: true},
	V2:       variant.Vector2{X: 1.5, Y: -2},
	V2i:      variant.Vector2i{X: 3, Y: -4},
	R2:       variant.Rect2{Position: variant.Vector2{X: 1, Y: 2}, Size: variant.Vector2{X: 3, Y: 4}},
	R2i:      variant.Rect2i{Position: variant.Vector2i{X: -1, Y: -2}, Size: variant.Vector2i{X: 3, Y: 4}},
	V3:       variant.Vector3{X: 1, Y: 2, Z: 3},
	V3i:      variant.Vector3i{X: 1, Y: -2, Z: 3},
	T2D:      variant.Transform2D{X: variant.Vector2{X: 1, Y: 2}, Y: variant.Vector2{X: 3, Y: 4}, Origin: variant.Vector2{X: 5, Y: 6}},
	V4:       variant.Vector4{X: 1, Y: 2, Z: 3, W: 4},
	V4i:      variant.Vector4i{X: 1, Y: 2, Z: 3, W: -4},
	Plane:    variant.Plane{Normal: variant.Vector3{Y: 1}, D: 2.5},
	Quat:     variant.Quaternion{Z: 0.5, W: 0.75},
	AABB:     variant.AABB{Position: variant.Vector3{X: 1, Y: 2, Z: 3}, Size: variant.Vector3{X: 4, Y: 5, Z: 6}},
	Basis:    basis,
	T3D:      variant.Transform3D{Basis: basis, Origin: variant.Vector3{X: 10, Y: 11, Z: 12}},
	Proj:     variant.Projection{X: variant.Vector4{X: 1, Y: 2, Z: 3, W: 4}, Y: variant.Vector4{X: 5, Y: 6, Z: 7, W: 8}, Z: variant.Vector4{X: 9, Y: 10, Z: 11, W: 12}, W: variant.Vector4{X: 13, Y: 14, Z: 15, W: 16}},
	Color:    variant.Color{R: 1, G: 0.5, B: 0.25, A: 1},
	Bytes:    []byte{1, 2, 3},
	I32s:     []int32{1, -2},
	I64s:     []int64{1 << 40},
	F32s:     []float32{0.5},
	F64s:     []float64{0.1},
	Strs:     []string{"a", "bcd"},
	V2s:      []variant.Vector2{{X: 1, Y: 2}},
	V3s:      []variant.Vector3{{X: 1, Y: 2, Z: 3}},
	Colors:   []variant.Color{{R: 0, G: 0.5, B: 1, A: 1}},
	V4s:      []variant.Vector4{{X: 1, Y: 2, Z: 3, W: 4}},
	Arr:      []any{int64(1), "x", nil, 2.5},
	Ints:     []int{1, 2, 3},
	Grid:     [2][2]int{{1, 2}, {3, 4}},
	Map:      map[string]int{"x": 1},
	Any:      variant.Vector3{X: 1, Y: 2, Z: 3},
	When:     time.Unix(1700000000, 250_000_000).UTC(),
	IP:       netip.MustParseAddr("10.0.0.1"),
	Callable: variant.Callable{},
}

var allKinds3 = AllKinds3{
	B: true, I: -42, I64: 1 << 40, F32: 1.5, F64: 0.1, S: "héllo",
	NP: allKinds.NP, V2: allKinds.V2, R2: allKinds.R2, V3: allKinds.V3, T2D: allKinds.T2D,
	Plane: allKinds.Plane, Quat: allKinds.Quat, AABB: allKinds.AABB, Basis: basis, T3D: allKinds.T3D,
	Color: allKinds.Color, Bytes: allKinds.Bytes, I32s: allKinds.I32s, I64s: allKinds.I64s,
	F32s: allKinds.F32s, F64s: allKinds.F64s, Strs: allKinds.Strs, V2s: allKinds.V2s, V3s: allKinds.V3s,
	Colors: allKinds.Colors, Arr: allKinds.Arr, Ints: allKinds.Ints, Map: allKinds.Map,
	Any: allKinds.Any, When: allKinds.When,
}

type goldenCase struct {
	expr  string
	value any // a pointer to the Go value
}

var godot4Cases = []goldenCase{
	{`{"id": 7, "name": "player7", "pos": Vector2(7, -7), "hp": 99.5}`,
		&Player{ID: 7, Name: "player7", Pos: variant.Vector2{X: 7, Y: -7}, HP: 99.5}},
	{`{"id": 0, "name": "", "pos": Vector2(0, 0), "hp": 0.0}`, &Player{}},
	{`{"id": 2147483648, "name": "Zoë 🎮", "pos": Vector2(0.5, -1024), "hp": 0.1}`,
		&Player{ID: 1 << 31, Name: "Zoë 🎮", Pos: variant.Vector2{X: 0.5, Y: -1024}, HP: 0.1}},
	{`[{"id": 1, "name": "a", "pos": Vector2(1, -1), "hp": 99.5}, {"id": 2, "name": "bc", "pos": Vector2(2, -2), "hp": 99.5}]`,
		&[]Player{{1, "a", variant.Vector2{X: 1, Y: -1}, 99.5}, {2, "bc", variant.Vector2{X: 2, Y: -2}, 99.5}}},
	{`{"name": "Ada", "stats": {"strength": 14, "dexterity": 12}, "inventory": [{"item": "sword", "qty": 1}, {"item": "potion", "qty": 3}], "tags": PackedStringArray(["hero", "mage"]), "home": null}`,
		&Character{Name: "Ada", Stats: Stats{14, 12}, Inventory: []Item{{"sword", 1}, {"potion", 3}}, Tags: []string{"hero", "mage"}}},
	{`{"name": "Bob", "stats": {"strength": 0, "dexterity": 0}, "inventory": [], "tags": PackedStringArray([]), "home": {"name": "Inn"}, "notes": {"a": "x", "b": "y"}}`,
		&Character{Name: "Bob", Inventory: []Item{}, Tags: []string{}, Home: &Place{"Inn"}, Notes: map[string]string{"b": "y", "a": "x"}}},
	{`{"id": 5, "created": 1700000000.5, "name": "Slime", "kind": "blob"}`,
		&Monster{Base: Base{ID: 5}, Timestamps: &Timestamps{time.Unix(1700000000, 500_000_000).UTC()}, Name: "Slime", Kind: "blob"}},
	{`{"id": 6, "created": 1700000000.0, "name": "Bat", "kind": "bat", "hp": 2.5}`,
		&Monster{Base: Base{ID: 6}, Timestamps: &Timestamps{time.Unix(1700000000, 0).UTC()}, Name: "Bat", Kind: "bat", HP: 2.5}},
	{`{"a": 1, "b": 2, "c": 3}`, &map[string]int{"c": 3, "a": 1, "b": 2}},
	{`{1: "a", 3: "c", 10: "j"}`, &map[int]string{10: "j", 3: "c", 1: "a"}},
	{`{Vector2(1, 2): true}`, &map[variant.Vector2]bool{{X: 1, Y: 2}: true}},
	{`{"scores": Array([1, 2, 3], TYPE_INT, "", null), "levels": Dictionary({"a": 1, "b": 2}, TYPE_STRING, StringName(""), null, TYPE_INT, StringName(""), null), "points": Array([Vector2i(1, 2)], TYPE_VECTOR2I, "", null), "players": Array([{"id": 1, "name": "p", "pos": Vector2(1, -1), "hp": 99.5}], TYPE_DICTIONARY, "", null), "untyped": [1, 2]}`,
		&Typed{Scores: []int{1, 2, 3}, Levels: map[string]int{"a": 1, "b": 2}, Points: []variant.Vector2i{{X: 1, Y: 2}},
			Players: []Player{{1, "p", variant.Vector2{X: 1, Y: -1}, 99.5}}, Untyped: []int{1, 2}}},
	{"AllKinds", &allKinds},
}

var godot3Cases = []goldenCase{
	{`{"id": 7, "name": "player7", "pos": Vector2(7, -7), "hp": 99.5}`, godot4Cases[0].value},
	{`{"id": 2147483648, "name": "Zoë 🎮", "pos": Vector2(0.5, -1024), "hp": 0.1}`, godot4Cases[2].value},
	{`[{"id": 1, "name": "a", "pos": Vector2(1, -1), "hp": 99.5}, {"id": 2, "name": "bc", "pos": Vector2(2, -2), "hp": 99.5}]`, godot4Cases[3].value},
	{`{"name": "Ada", "stats": {"strength": 14, "dexterity": 12}, "inventory": [{"item": "sword", "qty": 1}, {"item": "potion", "qty": 3}], "tags": PoolStringArray(["hero", "mage"]), "home": null}`, godot4Cases[4].value},
	{`{"id": 5, "created": 1700000000.5, "name": "Slime", "kind": "blob"}`, godot4Cases[6].value},
	{`{"a": 1, "b": 2, "c": 3}`, godot4Cases[8].value},
	{`{1: "a", 3: "c", 10: "j"}`, godot4Cases[9].value},
	{"AllKinds3", &allKinds3},
}

// readFixtures reads encode.sh output: hex, a tab, the expression.
func readFixtures(t *testing.T, name string) map[string][]byte {
	t.Helper()
	f, err := os.Open(name)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	out := map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		h, expr, ok := strings.Cut(sc.Text(), "\t")
		if !ok {
			t.Fatalf("%s: bad line %q", name, sc.Text())
		}
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		if strings.HasPrefix(expr, `{"b": true`) {
			expr = map[bool]string{true: "AllKinds", false: "AllKinds3"}[strings.Contains(expr, `"sn"`)]
		}
		out[expr] = b
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestGoldenStructs checks that Go structs, slices and maps marshal to the
// very bytes Godot writes for the Dictionary built in GDScript with the
// keys in field order, and that those bytes unmarshal back into the same
// Go value.
func TestGoldenStructs(t *testing.T) {
	for _, fam := range []struct {
		family variant.Family
		file   string
		cases  []goldenCase
	}{
		{variant.Godot4, "testdata/marshal/godot4.hex", godot4Cases},
		{variant.Godot3, "testdata/marshal/godot3.hex", godot3Cases},
	} {
		fixtures := readFixtures(t, fam.file)
		if len(fixtures) != len(fam.cases) {
			t.Errorf("%s has %d lines, the test %d cases", fam.file, len(fixtures), len(fam.cases))
		}
		enc, err := gdvar.EncOptions{Family: fam.family}.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		dec, err := gdvar.DecOptions{Family: fam.family}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		for _, c := range fam.cases {
			want, ok := fixtures[c.expr]
			if !ok {
				t.Errorf("%v: no fixture for %s", fam.family, c.expr)
				continue
			}
			got, err := enc.Marshal(c.value)
			if err != nil {
				t.Errorf("%v: Marshal(%s): %v", fam.family, c.expr, err)
				continue
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%v: Marshal for %s\n got %x\nwant %x", fam.family, c.expr, got, want)
			}
			back := reflect.New(reflect.TypeOf(c.value).Elem())
			if err := dec.Unmarshal(want, back.Interface()); err != nil {
				t.Errorf("%v: Unmarshal(%s): %v", fam.family, c.expr, err)
				continue
			}
			if !reflect.DeepEqual(back.Interface(), c.value) {
				t.Errorf("%v: Unmarshal(%s)\n got %+v\nwant %+v", fam.family, c.expr, back.Elem(), reflect.ValueOf(c.value).Elem())
			}
		}
	}
}
