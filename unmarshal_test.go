package gdvar_test

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io"
	"math"
	"net/netip"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

func enc(t testing.TB, v variant.Value) []byte {
	t.Helper()
	b, err := variant.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func enc3(t testing.TB, v variant.Value) []byte {
	t.Helper()
	m, _ := variant.EncOptions{Family: variant.Godot3}.EncMode()
	b, err := m.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func dict(kv ...variant.Value) *variant.Dictionary {
	d := variant.NewDictionary(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

func arr(vs ...variant.Value) *variant.Array { return variant.NewArray(vs...) }

type S = variant.String

// typedArray builds a Godot 4 Array[elem] holding the given values, which
// need not be of that type (the encoder would refuse them).
func typedArray(t testing.TB, elem variant.Type, vs ...variant.Value) []byte {
	t.Helper()
	plain := enc(t, arr(vs...))
	out := binary.LittleEndian.AppendUint32(nil, uint32(variant.TypeArray)|1<<16)
	out = binary.LittleEndian.AppendUint32(out, uint32(elem))
	return append(out, plain[4:]...)
}

func TestUnmarshalIntRanges(t *testing.T) {
	for _, c := range []struct {
		target any
		v      int64
		ok     bool
	}{
		{new(int8), 127, true}, {new(int8), -128, true}, {new(int8), 128, false}, {new(int8), -129, false},
		{new(int16), 32767, true}, {new(int16), -32769, false},
		{new(int32), math.MaxInt32, true}, {new(int32), math.MaxInt32 + 1, false},
		{new(int64), math.MinInt64, true}, {new(int), math.MaxInt64, true},
		{new(uint8), 255, true}, {new(uint8), 256, false}, {new(uint8), -1, false},
		{new(uint16), 65535, true}, {new(uint16), 65536, false},
		{new(uint32), math.MaxUint32, true}, {new(uint32), math.MaxUint32 + 1, false}, {new(uint32), -1, false},
		{new(uint64), math.MaxInt64, true}, {new(uint64), -1, false}, {new(uint), -5, false},
		{new(uintptr), 7, true}, {new(uintptr), -7, false},
		{new(float32), 1 << 40, true}, {new(float64), math.MinInt64, true},
	} {
		err := gdvar.Unmarshal(enc(t, variant.Int(c.v)), c.target)
		got := reflect.ValueOf(c.target).Elem()
		switch {
		case c.ok && err != nil:
			t.Errorf("%d into %v: %v", c.v, got.Type(), err)
		case c.ok && fmt.Sprint(got) != fmt.Sprint(c.v) && got.Kind() != reflect.Float32 && got.Kind() != reflect.Float64:
			t.Errorf("%d into %v gave %v", c.v, got.Type(), got)
		case !c.ok && !errors.Is(err, gdvar.ErrOverflow):
			t.Errorf("%d into %v: got %v, want ErrOverflow", c.v, got.Type(), err)
		case !c.ok && !got.IsZero():
			t.Errorf("%d into %v wrapped to %v", c.v, got.Type(), got)
		}
	}
	var f32 float32
	if err := gdvar.Unmarshal(enc(t, variant.Float(1e300)), &f32); !errors.Is(err, gdvar.ErrOverflow) {
		t.Errorf("1e300 into float32: %v", err)
	}
	if err := gdvar.Unmarshal(enc(t, variant.Float(math.Inf(-1))), &f32); err != nil || !math.IsInf(float64(f32), -1) {
		t.Errorf("-Inf into float32: %v %v", f32, err)
	}
	var i int
	if err := gdvar.Unmarshal(enc(t, variant.Float(2)), &i); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("float into int: %v", err)
	}
}

func TestUnmarshalErrorPath(t *testing.T) {
	type player struct {
		Inventory []string `gdvar:"inventory"`
	}
	type world struct {
		Player player `gdvar:"player"`
	}
	data := enc(t, dict(S("player"), dict(S("inventory"), arr(S("sword"), S("shield"), variant.Vector2{X: 1, Y: 2}))))
	var w world
	err := gdvar.Unmarshal(data, &w)
	if err == nil || !strings.HasSuffix(err.Error(), "player.inventory[2]: cannot unmarshal Vector2 into string") {
		t.Fatalf("got %v", err)
	}
	var e *gdvar.Error
	if !errors.As(err, &e) || !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Fatalf("%T %v", err, err)
	}
	if e.Path != "player.inventory[2]" || e.Type != variant.TypeVector2 || e.GoType != reflect.TypeFor[string]() ||
		e.Op != "unmarshal" || data[e.Offset] != byte(variant.TypeVector2) {
		t.Errorf("%+v", e)
	}

	// Map keys, StringName keys and Godot 3 names appear in paths.
	var m map[string][]int
	err = gdvar.Unmarshal(enc(t, dict(S("a"), arr(variant.Int(1), S("x")))), &m)
	if err == nil || !strings.Contains(err.Error(), `["a"][1]: cannot unmarshal String into int`) {
		t.Errorf("map: %v", err)
	}
	var q variant.Vector2
	dec3 := mustDec(gdvar.DecOptions{Family: variant.Godot3})
	if err := dec3.Unmarshal(enc3(t, variant.Quaternion{}), &q); err == nil || !strings.Contains(err.Error(), "cannot unmarshal Quat into variant.Vector2") {
		t.Errorf("godot 3: %v", err)
	}
}

func TestUnmarshalWireErrors(t *testing.T) {
	data := enc(t, dict(S("id"), variant.Int(1), S("pos"), variant.Vector2{X: 1, Y: 2}))
	var p Player
	err := gdvar.Unmarshal(data[:len(data)-2], &p)
	var ve *variant.Error
	if !errors.Is(err, variant.ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &ve) {
		t.Fatalf("%v", err)
	}
	_, _, want := variant.Decode(data[:len(data)-2])
	if ve.Error() != want.Error() || ve.Path != `["pos"]` {
		t.Errorf("variant error %v, variant.Decode says %v", ve, want)
	}
	var e *gdvar.Error
	if !errors.As(err, &e) || e.Path != "pos" || e.Offset != ve.Offset {
		t.Errorf("%+v", e)
	}
	if got := err.Error(); got != "unmarshal: byte 40, pos (Vector2): data truncated: need 8 bytes, have 6" {
		t.Errorf("message %q", got)
	}

	// Malformed data wins over a value that does not fit, wherever it is.
	bad := enc(t, arr(S("not an int"), variant.Int(2)))
	bad[len(bad)-8] = 0xEE // the second element's type byte
	var ints []int
	if err := gdvar.Unmarshal(bad, &ints); !errors.Is(err, variant.ErrInvalidType) {
		t.Errorf("got %v, want the wire error", err)
	}
	// Also in entries the struct skips, and with objects.
	obj, err := mustVEnc(variant.EncOptions{FullObjects: true}).Encode(dict(S("id"), variant.Int(1), S("extra"), &variant.Object{Class: "Node"}))
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := variant.Decode(obj); !errors.Is(err, variant.ErrObjectsNotAllowed) {
		t.Fatal(err)
	}
	if err := gdvar.Unmarshal(obj, &p); !errors.Is(err, variant.ErrObjectsNotAllowed) {
		t.Errorf("object in a skipped entry: %v", err)
	}
	withObjects, _ := gdvar.DecOptions{AllowObjects: true}.DecMode()
	if err := withObjects.Unmarshal(obj, &p); err != nil || p.ID != 1 {
		t.Errorf("with objects: %v", err)
	}
	if err := gdvar.Unmarshal([]byte{4, 0, 0, 0, 2, 0, 0, 0, 0xC3, 0x28, 0, 0}, new(string)); !errors.Is(err, variant.ErrInvalidUTF8) {
		t.Errorf("invalid UTF-8: %v", err)
	}
}

func TestUnmarshalStructKeys(t *testing.T) {
	data := enc(t, dict(S("ID"), variant.Int(1), S("id"), variant.Int(2), S("extra"), arr(variant.Int(1)),
		variant.StringName("name"), S("sn"), S("hp"), variant.Float(3)))
	var p Player
	if err := gdvar.Unmarshal(data, &p); err != nil {
		t.Fatal(err)
	}
	if p.ID != 2 || p.Name != "sn" || p.HP != 3 {
		t.Errorf("case-sensitive, StringName keys: %+v", p)
	}
	strict, _ := gdvar.DecOptions{RejectUnknownFields: true}.DecMode()
	err := strict.Unmarshal(data, &p)
	if !errors.Is(err, gdvar.ErrUnknownField) || !strings.Contains(err.Error(), `unknown field "ID"`) {
		t.Errorf("RejectUnknownFields: %v", err)
	}
	if err := gdvar.Unmarshal(enc(t, dict(variant.Int(1), variant.Int(2))), &p); !errors.Is(err, gdvar.ErrTypeMismatch) ||
		!strings.Contains(err.Error(), "int key") {
		t.Errorf("int key: %v", err)
	}
	// Repeated keys: the last one wins, as in the engine.
	rep := enc(t, arr(S("id"), variant.Int(1), S("id"), variant.Int(9)))
	rep[0] = byte(variant.TypeDictionary)
	binary.LittleEndian.PutUint32(rep[4:], 2)
	if err := gdvar.Unmarshal(rep, &p); err != nil || p.ID != 9 {
		t.Errorf("repeated key: %v %+v", err, p)
	}
}

func TestUnmarshalNilAndReuse(t *testing.T) {
	nilData := enc(t, nil)
	i, s, ptr, sl, m := 5, "x", new(int), []int{1}, map[string]int{"a": 1}
	var a any = 3
	p := Player{ID: 1}
	for _, target := range []any{&i, &s, &ptr, &sl, &m, &a, &p} {
		if err := gdvar.Unmarshal(nilData, target); err != nil {
			t.Fatal(err)
		}
	}
	if i != 5 || s != "x" || ptr != nil || sl != nil || m != nil || a != nil || p.ID != 1 {
		t.Errorf("Nil: %v %v %v %v %v %v %v", i, s, ptr, sl, m, a, p)
	}

	// A struct keeps the fields the Dictionary does not name; a map its
	// other entries; a slice reuses its array, elements zeroed first.
	p = Player{ID: 1, Name: "keep"}
	if err := gdvar.Unmarshal(enc(t, dict(S("hp"), variant.Float(2))), &p); err != nil || p.Name != "keep" || p.HP != 2 {
		t.Errorf("struct merge: %+v %v", p, err)
	}
	m = map[string]int{"old": 1}
	if err := gdvar.Unmarshal(enc(t, dict(S("new"), variant.Int(2))), &m); err != nil || len(m) != 2 {
		t.Errorf("map merge: %v %v", m, err)
	}
	ps := make([]Player, 3, 10)
	ps[0] = Player{Name: "stale", HP: 1}
	backing := &ps[:1][0]
	if err := gdvar.Unmarshal(enc(t, arr(dict(S("id"), variant.Int(4)))), &ps); err != nil {
		t.Fatal(err)
	}
	if len(ps) != 1 || &ps[0] != backing || ps[0] != (Player{ID: 4}) {
		t.Errorf("slice reuse: %+v", ps)
	}
	var empty []int
	if err := gdvar.Unmarshal(enc(t, arr()), &empty); err != nil || empty == nil || len(empty) != 0 {
		t.Errorf("empty Array: %#v %v", empty, err)
	}
	// A pointer already set is followed.
	q := &Player{Name: "kept"}
	keep := q
	if err := gdvar.Unmarshal(enc(t, dict(S("id"), variant.Int(8))), &q); err != nil || q != keep || q.ID != 8 || q.Name != "kept" {
		t.Errorf("pointer: %+v %v", q, err)
	}
	var inAny any = &Player{}
	if err := gdvar.Unmarshal(enc(t, dict(S("id"), variant.Int(8))), &inAny); err != nil || inAny.(*Player).ID != 8 {
		t.Errorf("pointer in any: %#v %v", inAny, err)
	}
}

func TestUnmarshalAny(t *testing.T) {
	for _, c := range []struct {
		v    variant.Value
		want any
	}{
		{nil, nil},
		{variant.Bool(true), true},
		{variant.Int(-7), int64(-7)},
		{variant.Int(1 << 40), int64(1 << 40)},
		{variant.Float(0.1), 0.1},
		{S("héllo"), "héllo"},
		{variant.StringName("sn"), variant.StringName("sn")},
		{variant.Vector2{X: 1, Y: 2}, variant.Vector2{X: 1, Y: 2}},
		{variant.Color{R: 1}, variant.Color{R: 1}},
		{variant.NodePath{Names: []string{"a"}}, variant.NodePath{Names: []string{"a"}}},
		{variant.ObjectID(9), variant.ObjectID(9)},
		{variant.RID(3), variant.RID(3)},
		{arr(variant.Int(1), arr(S("x"))), []any{int64(1), []any{"x"}}},
		{&variant.Array{Elem: variant.Typed(variant.TypeFloat), Values: []variant.Value{variant.Float(1)}}, []any{1.0}},
		{dict(S("a"), variant.Int(1), variant.StringName("b"), dict()), map[string]any{"a": int64(1), "b": map[string]any{}}},
		{dict(variant.Int(1), S("x")), dict(variant.Int(1), S("x"))},
		{variant.PackedByteArray{1, 2}, []byte{1, 2}},
		{variant.PackedInt32Array{1}, []int32{1}},
		{variant.PackedInt64Array{1}, []int64{1}},
		{variant.PackedFloat32Array{1}, []float32{1}},
		{variant.PackedFloat64Array{1}, []float64{1}},
		{variant.PackedStringArray{"a"}, []string{"a"}},
		{variant.PackedVector2Array{{X: 1}}, []variant.Vector2{{X: 1}}},
		{variant.PackedVector3Array{{X: 1}}, []variant.Vector3{{X: 1}}},
		{variant.PackedColorArray{{R: 1}}, []variant.Color{{R: 1}}},
		{variant.PackedVector4Array{{X: 1}}, []variant.Vector4{{X: 1}}},
	} {
		var got any
		if err := gdvar.Unmarshal(enc(t, c.v), &got); err != nil {
			t.Errorf("%#v: %v", c.v, err)
			continue
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%#v: got %#v, want %#v", c.v, got, c.want)
		}
		var v variant.Value
		if err := gdvar.Unmarshal(enc(t, c.v), &v); err != nil || !variant.Equal(v, c.v) {
			t.Errorf("into Value: %#v, %v", v, err)
		}
	}
	var st fmt.Stringer
	if err := gdvar.Unmarshal(enc(t, S("x")), &st); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("into fmt.Stringer: %v", err)
	}
}

func TestUnmarshalConversions(t *testing.T) {
	var i64 []int64
	if err := gdvar.Unmarshal(enc(t, variant.PackedInt32Array{1, -2}), &i64); err != nil || fmt.Sprint(i64) != "[1 -2]" {
		t.Errorf("PackedInt32Array into []int64: %v %v", i64, err)
	}
	var i8 []int8
	if err := gdvar.Unmarshal(enc(t, variant.PackedInt32Array{1, 300}), &i8); !errors.Is(err, gdvar.ErrOverflow) {
		t.Errorf("PackedInt32Array into []int8: %v %v", i8, err)
	}
	var f64 []float64
	if err := gdvar.Unmarshal(enc(t, arr(variant.Int(1), variant.Float(0.5))), &f64); err != nil || fmt.Sprint(f64) != "[1 0.5]" {
		t.Errorf("Array into []float64: %v %v", f64, err)
	}
	dec3, _ := gdvar.DecOptions{Family: variant.Godot3}.DecMode()
	if err := dec3.Unmarshal(enc3(t, variant.PackedFloat32Array{0.5}), &f64); err != nil || fmt.Sprint(f64) != "[0.5]" {
		t.Errorf("PoolRealArray into []float64: %v %v", f64, err)
	}
	var strs []string
	if err := gdvar.Unmarshal(enc(t, arr(S("a"), variant.StringName("b"))), &strs); err != nil || fmt.Sprint(strs) != "[a b]" {
		t.Errorf("Array into []string: %v %v", strs, err)
	}
	var a4 [4]byte
	if err := gdvar.Unmarshal(enc(t, variant.PackedByteArray{1, 2, 3, 4}), &a4); err != nil || a4 != [4]byte{1, 2, 3, 4} {
		t.Errorf("[4]byte: %v %v", a4, err)
	}
	if err := gdvar.Unmarshal(enc(t, variant.PackedByteArray{1, 2, 3}), &a4); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("3 bytes into [4]byte: %v", err)
	}
	var a2 [2]int
	if err := gdvar.Unmarshal(enc(t, arr(variant.Int(1), variant.Int(2), variant.Int(3))), &a2); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("3 elements into [2]int: %v", err)
	}
	var sn variant.StringName
	if err := gdvar.Unmarshal(enc(t, S("x")), &sn); err != nil || sn != "x" {
		t.Errorf("String into StringName: %v", err)
	}
	var np variant.NodePath
	if err := gdvar.Unmarshal(enc(t, S("x")), &np); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("String into NodePath: %v", err)
	}
	var arrV *variant.Array
	if err := gdvar.Unmarshal(enc(t, arr(variant.Int(1))), &arrV); err != nil || arrV.Len() != 1 {
		t.Errorf("*variant.Array: %v", err)
	}
}

func TestUnmarshalTypedContainers(t *testing.T) {
	// What the engine converts or drops in a typed Array: 2.5 becomes 2, a
	// String goes.
	data := typedArray(t, variant.TypeInt, variant.Int(1), variant.Float(2.5), S("x"), variant.Int(4))
	var ints []int
	if err := gdvar.Unmarshal(data, &ints); err != nil || fmt.Sprint(ints) != "[1 2 4]" {
		t.Errorf("[]int: %v %v", ints, err)
	}
	var anys []any
	if err := gdvar.Unmarshal(data, &anys); err != nil || fmt.Sprint(anys) != "[1 2 4]" {
		t.Errorf("[]any: %v %v", anys, err)
	}
	v, _, err := variant.Decode(data)
	if err != nil || v.(*variant.Array).Len() != 3 {
		t.Fatal(v, err)
	}
	// Exactly typed containers decode in place.
	good := enc(t, &variant.Array{Elem: variant.Typed(variant.TypeString), Values: []variant.Value{S("a"), S("b")}})
	var strs []string
	if err := gdvar.Unmarshal(good, &strs); err != nil || fmt.Sprint(strs) != "[a b]" {
		t.Errorf("Array[String]: %v %v", strs, err)
	}
	// A typed Dictionary whose key the engine converts: a StringName key
	// in a Dictionary[String, int] still names the field.
	typedDict := variant.NewDictionary(1)
	typedDict.SetTypes(variant.Typed(variant.TypeStringName), variant.ContainerType{})
	typedDict.Set(variant.StringName("id"), variant.Int(3))
	tb := enc(t, typedDict)
	var p Player
	if err := gdvar.Unmarshal(tb, &p); err != nil || p.ID != 3 {
		t.Errorf("Dictionary[StringName, Variant] into struct: %+v %v", p, err)
	}
	// Change the key to a String: the engine converts it to StringName.
	plain := enc(t, dict(S("id"), variant.Int(5)))
	conv := append(tb[:8:8], plain[4:]...)
	if _, _, err := variant.Decode(conv); err != nil {
		t.Fatal(err)
	}
	if err := gdvar.Unmarshal(conv, &p); err != nil || p.ID != 5 {
		t.Errorf("String key in Dictionary[StringName, …]: %+v %v", p, err)
	}
	var m map[string]int
	if err := gdvar.Unmarshal(conv, &m); err != nil || m["id"] != 5 {
		t.Errorf("into a map: %v %v", m, err)
	}
}

// stamp implements Unmarshaler and Marshaler with a pointer receiver.
type stamp struct{ text string }

func (s *stamp) UnmarshalVariant(v variant.Value) error {
	str, ok := v.(variant.String)
	if !ok {
		return errors.New("want a String")
	}
	s.text = "<" + string(str) + ">"
	return nil
}

func (s *stamp) MarshalVariant() (variant.Value, error) {
	return variant.String(strings.Trim(s.text, "<>")), nil
}

func TestUnmarshalMethods(t *testing.T) {
	type rec struct {
		S    stamp      `gdvar:"s"`
		P    *stamp     `gdvar:"p"`
		IP   netip.Addr `gdvar:"ip"`
		When time.Time  `gdvar:"when"`
	}
	data := enc(t, dict(S("s"), S("a"), S("p"), S("b"), S("ip"), S("::1"), S("when"), variant.Float(1.5)))
	var r rec
	if err := gdvar.Unmarshal(data, &r); err != nil {
		t.Fatal(err)
	}
	if r.S.text != "<a>" || r.P.text != "<b>" || r.IP != netip.MustParseAddr("::1") || !r.When.Equal(time.Unix(1, 5e8)) {
		t.Errorf("%+v", r)
	}
	back, err := gdvar.Marshal(&r)
	if err != nil {
		t.Fatal(err)
	}
	if string(back) != string(data) {
		t.Errorf("re-marshal\n got %x\nwant %x", back, data)
	}
	err = gdvar.Unmarshal(enc(t, dict(S("s"), variant.Int(1))), &r)
	if err == nil || !strings.Contains(err.Error(), "s: UnmarshalVariant of gdvar_test.stamp: want a String") {
		t.Errorf("method error: %v", err)
	}
	if err := gdvar.Unmarshal(enc(t, dict(S("ip"), S("nope"))), &r); err == nil || !strings.Contains(err.Error(), "UnmarshalText") {
		t.Errorf("UnmarshalText error: %v", err)
	}
	for _, c := range []struct {
		v    variant.Value
		want time.Time
	}{
		{variant.Int(1700000000), time.Unix(1700000000, 0)},
		{variant.Float(-0.25), time.Unix(-1, 75e7)},
		{S("2026-11-22T10:30:00"), time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC)},
		{S("2026-11-22 10:30:00"), time.Date(2026, 11, 22, 10, 30, 0, 0, time.UTC)},
		{S("2026-11-22"), time.Date(2026, 11, 22, 0, 0, 0, 0, time.UTC)},
		{S("2026-11-22T10:30:00.5+02:00"), time.Date(2026, 11, 22, 8, 30, 0, 5e8, time.UTC)},
	} {
		var tm time.Time
		if err := gdvar.Unmarshal(enc(t, c.v), &tm); err != nil || !tm.Equal(c.want) {
			t.Errorf("%#v: %v %v", c.v, tm, err)
		}
	}
	var tm time.Time
	if err := gdvar.Unmarshal(enc(t, S("yesterday")), &tm); err == nil {
		t.Error("a time from nonsense")
	}
}

func TestUnmarshalLimits(t *testing.T) {
	deep := variant.Value(variant.Int(1))
	for range 6 {
		deep = arr(deep)
	}
	data := enc(t, deep)
	shallow, _ := gdvar.DecOptions{MaxDepth: 5}.DecMode()
	for _, target := range []any{new(any), new([][][][][][]int), new(variant.Value)} {
		err := shallow.Unmarshal(data, target)
		if !errors.Is(err, variant.ErrTooDeep) {
			t.Errorf("%T: %v", target, err)
		}
	}
	ok, _ := gdvar.DecOptions{MaxDepth: 6}.DecMode()
	if err := ok.Unmarshal(data, new([][][][][][]int)); err != nil {
		t.Error(err)
	}

	few, _ := gdvar.DecOptions{MaxElements: 3}.DecMode()
	if err := few.Unmarshal(enc(t, arr(variant.Int(1), variant.Int(2), variant.Int(3), variant.Int(4))), new([]int)); !errors.Is(err, variant.ErrTooLarge) {
		t.Errorf("MaxElements: %v", err)
	}
	small, _ := gdvar.DecOptions{MaxSize: 8}.DecMode()
	if err := small.Unmarshal(enc(t, S("long enough")), new(string)); !errors.Is(err, variant.ErrTooLarge) {
		t.Errorf("MaxSize: %v", err)
	}
	strict, _ := gdvar.DecOptions{Strict: true}.DecMode()
	wide, _ := hex.DecodeString("020001000100000000000000") // 1 written in 64 bits
	var i int
	if err := gdvar.Unmarshal(wide, &i); err != nil || i != 1 {
		t.Errorf("tolerated: %v", err)
	}
	if err := strict.Unmarshal(wide, &i); !errors.Is(err, variant.ErrNonCanonical) {
		t.Errorf("Strict: %v", err)
	}
	if err := strict.Unmarshal(enc(t, dict(S("id"), variant.Int(1))), &Player{}); err != nil {
		t.Errorf("Strict, canonical: %v", err)
	}
}

func TestUnmarshalFirstAndTargets(t *testing.T) {
	data := append(enc(t, variant.Int(7)), 0xFF, 0xFF)
	var i int
	n, err := mustDec(gdvar.DecOptions{}).UnmarshalFirst(data, &i)
	if err != nil || n != 8 || i != 7 {
		t.Errorf("UnmarshalFirst: %d %d %v", n, i, err)
	}
	for _, target := range []any{nil, i, (*int)(nil), Player{}} {
		err := gdvar.Unmarshal(data, target)
		if !errors.Is(err, gdvar.ErrInvalidTarget) {
			t.Errorf("%#v: %v", target, err)
		}
	}
	type cycle *cycle
	var c cycle
	if err := gdvar.Unmarshal(enc(t, variant.Int(1)), &c); !errors.Is(err, gdvar.ErrUnsupportedType) {
		t.Errorf("pointer cycle: %v", err)
	}
	var ch chan int
	if err := gdvar.Unmarshal(enc(t, variant.Int(1)), &ch); !errors.Is(err, gdvar.ErrUnsupportedType) {
		t.Errorf("chan: %v", err)
	}
}

type hidden struct{ X int }

func TestUnmarshalEmbedded(t *testing.T) {
	var m Monster
	if err := gdvar.Unmarshal(enc(t, dict(S("id"), variant.Int(1), S("created"), variant.Int(10))), &m); err != nil {
		t.Fatal(err)
	}
	if m.ID != 1 || m.Timestamps == nil || m.Created.Unix() != 10 {
		t.Errorf("%+v", m)
	}
	type outer struct {
		*hidden
	}
	var o outer
	err := gdvar.Unmarshal(enc(t, dict(S("X"), variant.Int(1))), &o)
	if !errors.Is(err, gdvar.ErrUnsupportedType) {
		t.Errorf("nil pointer to an unexported embedded struct: %v", err)
	}
	o.hidden = &hidden{}
	if err := gdvar.Unmarshal(enc(t, dict(S("X"), variant.Int(1))), &o); err != nil || o.X != 1 {
		t.Errorf("set one: %v %+v", err, o.hidden)
	}
}

func TestUnmarshalGodot3(t *testing.T) {
	dec3, _ := gdvar.DecOptions{Family: variant.Godot3}.DecMode()
	data := enc3(t, dict(S("id"), variant.Int(1), S("name"), S("x"), S("pos"), variant.Vector2{X: 1}, S("hp"), variant.Float(1)))
	var p Player
	if err := dec3.Unmarshal(data, &p); err != nil || p != (Player{1, "x", variant.Vector2{X: 1}, 1}) {
		t.Errorf("%+v %v", p, err)
	}
	if err := gdvar.Unmarshal(data, &p); err == nil {
		t.Error("Godot 3 bytes read as Godot 4") // 18 is a Transform3D in Godot 4
	}
	var ints []int64
	if err := dec3.Unmarshal(enc3(t, arr(variant.Int(1<<40))), &ints); err != nil || ints[0] != 1<<40 {
		t.Errorf("Array into []int64: %v %v", ints, err)
	}
}

func mustDec(o gdvar.DecOptions) *gdvar.DecMode {
	m, err := o.DecMode()
	if err != nil {
		panic(err)
	}
	return m
}

func mustEnc(o gdvar.EncOptions) *gdvar.EncMode {
	m, err := o.EncMode()
	if err != nil {
		panic(err)
	}
	return m
}

func mustVEnc(o variant.EncOptions) *variant.EncMode {
	m, err := o.EncMode()
	if err != nil {
		panic(err)
	}
	return m
}

func TestUnmarshalOddFieldNames(t *testing.T) {
	// Keys are compared as the engine reads them: a NUL ends a key, a
	// leading BOM is dropped, invalid UTF-8 is refused.
	type odd struct {
		NUL int `gdvar:"a\x00b"`
		BOM int `gdvar:"\ufeffc"`
		Bad int `gdvar:"\xff"`
		A   int `gdvar:"a"`
		C   int `gdvar:"c"`
	}
	data, err := gdvar.Marshal(&odd{NUL: 1, BOM: 2, A: 3, C: 4})
	if err == nil {
		t.Fatalf("marshalled an invalid UTF-8 key: %x", data)
	}
	type odd2 struct {
		NUL int `gdvar:"a\x00b"`
		BOM int `gdvar:"\ufeffc"`
	}
	data, err = gdvar.Marshal(&odd2{NUL: 1, BOM: 2})
	if err != nil {
		t.Fatal(err)
	}
	var back odd
	if err := gdvar.Unmarshal(data, &back); err != nil {
		t.Fatal(err)
	}
	if back != (odd{A: 1, C: 2}) {
		t.Errorf("got %+v: keys must be read as the engine reads them", back)
	}
	var back2 odd2
	if err := gdvar.Unmarshal(data, &back2); err != nil || back2 != (odd2{}) {
		t.Errorf("got %+v, %v", back2, err)
	}
}

func TestUnmarshalTypedIntoGoArray(t *testing.T) {
	// The engine drops the String from this Array[int]: two elements are
	// left, which is what a [2]int needs.
	data := typedArray(t, variant.TypeInt, variant.Int(1), variant.Int(2), S("x"))
	var a [2]int
	if err := gdvar.Unmarshal(data, &a); err != nil || a != [2]int{1, 2} {
		t.Errorf("%v %v", a, err)
	}
	data = typedArray(t, variant.TypeInt, variant.Int(1), variant.Int(2), variant.Int(3))
	if err := gdvar.Unmarshal(data, &a); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("three into [2]int: %v", err)
	}
}

func TestUnmarshalNilKeys(t *testing.T) {
	data := enc(t, dict(nil, variant.Int(1)))
	var ms map[string]int
	if err := gdvar.Unmarshal(data, &ms); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("Nil key into map[string]int: %v %v", ms, err)
	}
	var mi map[int]int
	if err := gdvar.Unmarshal(data, &mi); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("Nil key into map[int]int: %v %v", mi, err)
	}
	var msa map[string]any
	if err := gdvar.Unmarshal(data, &msa); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("Nil key into map[string]any: %v %v", msa, err)
	}
	var ma map[any]int
	if err := gdvar.Unmarshal(data, &ma); err != nil || ma[nil] != 1 {
		t.Errorf("Nil key into map[any]int: %v %v", ma, err)
	}
	var a any
	if err := gdvar.Unmarshal(data, &a); err != nil || a.(*variant.Dictionary).Len() != 1 {
		t.Errorf("into any: %#v %v", a, err)
	}
}

type tree []tree

func TestUnmarshalTypedNestingIsLinear(t *testing.T) {
	// Array[Array]([Array[Array]([…, PackedInt32Array()]), PackedInt32Array()]):
	// each level's last element is converted by the engine (a packed array
	// into an Array), after the level below has been decoded.
	const depth = 1000
	inner := enc(t, arr())
	packed := enc(t, variant.PackedInt32Array{})
	for range depth {
		level := binary.LittleEndian.AppendUint32(nil, uint32(variant.TypeArray)|1<<16)
		level = binary.LittleEndian.AppendUint32(level, uint32(variant.TypeArray))
		level = binary.LittleEndian.AppendUint32(level, 2)
		level = append(level, inner...)
		inner = append(level, packed...)
	}
	var v tree
	start := time.Now()
	if err := gdvar.Unmarshal(inner, &v); err != nil {
		t.Fatal(err)
	}
	took := time.Since(start)
	start = time.Now()
	if _, _, err := variant.Decode(inner); err != nil {
		t.Fatal(err)
	}
	ref := time.Since(start)
	if len(v) != 2 || len(v[1]) != 0 {
		t.Errorf("%d elements", len(v))
	}
	if took > 50*ref+50*time.Millisecond {
		t.Errorf("Unmarshal took %v, variant.Decode %v: not linear", took, ref)
	}
	t.Logf("Unmarshal %v, variant.Decode %v", took, ref)
}

// TestUnmarshalElementBudget checks that Unmarshal counts elements for
// MaxElements exactly as variant.Decode does, whatever path a value takes:
// the limit variant just accepts, Unmarshal accepts; one less, it refuses.
func TestUnmarshalElementBudget(t *testing.T) {
	typedKeys := variant.NewDictionary(1)
	typedKeys.SetTypes(variant.Typed(variant.TypeStringName), variant.ContainerType{})
	typedKeys.Set(variant.StringName("id"), variant.Int(3))
	tk := enc(t, typedKeys)
	plain := enc(t, dict(S("id"), variant.Int(5), S("extra"), arr(variant.Int(1), variant.Int(2)), variant.Int(7), variant.PackedInt32Array{1, 2}))
	typedDict := append(tk[:8:8], plain[4:]...)
	for _, c := range []struct {
		name    string
		data    []byte
		targets []func() any
	}{
		{"typed keys converted and dropped", typedDict, []func() any{
			func() any { return new(Player) }, func() any { return new(map[string]any) }, func() any { return new(any) },
			func() any { return new(map[variant.StringName]any) }}},
		{"typed Array converted", typedArray(t, variant.TypeArray, arr(variant.Int(1)), variant.PackedInt32Array{1, 2, 3}, S("x")),
			[]func() any{func() any { return new([][]int) }, func() any { return new(any) }, func() any { return new([]any) }}},
		{"int key", enc(t, dict(S("a"), arr(variant.Int(1)), variant.Int(1), variant.NodePath{Names: []string{"a", "b"}})),
			[]func() any{func() any { return new(any) }, func() any { return new(map[any]any) }}},
		{"unknown fields", enc(t, dict(S("id"), variant.Int(1), S("x"), arr(arr(variant.Int(1)), variant.PackedStringArray{"a"}))),
			[]func() any{func() any { return new(Player) }}},
	} {
		limit := 0
		for ; limit < 100; limit++ {
			vdec, _ := variant.DecOptions{MaxElements: limit + 1}.DecMode()
			if _, _, err := vdec.Decode(c.data); err == nil {
				break
			}
		}
		limit++
		for _, mk := range c.targets {
			at := mustDec(gdvar.DecOptions{MaxElements: limit})
			below := mustDec(gdvar.DecOptions{MaxElements: limit - 1})
			target := mk()
			if err := at.Unmarshal(c.data, target); err != nil {
				t.Errorf("%s into %T: MaxElements %d (variant's limit): %v", c.name, target, limit, err)
			}
			if err := below.Unmarshal(c.data, mk()); !errors.Is(err, variant.ErrTooLarge) {
				t.Errorf("%s into %T: MaxElements %d: %v", c.name, target, limit-1, err)
			}
		}
	}
}

func TestUnmarshalUnhashableKeys(t *testing.T) {
	data := enc(t, dict(arr(variant.Int(1)), variant.Int(1), variant.PackedByteArray{1}, variant.Int(2)))
	var m map[any]int
	if err := gdvar.Unmarshal(data, &m); !errors.Is(err, gdvar.ErrTypeMismatch) || !strings.Contains(err.Error(), "[]interface {} as a key") {
		t.Errorf("map[any]int: %v", err)
	}
	var mv map[variant.Value]int
	if err := gdvar.Unmarshal(data, &mv); !errors.Is(err, gdvar.ErrTypeMismatch) {
		t.Errorf("map[variant.Value]int: %v", err)
	}
	var a any
	if err := gdvar.Unmarshal(data, &a); err != nil || a.(*variant.Dictionary).Len() != 2 {
		t.Errorf("any: %v", err)
	}
	// Pointer keys are fine.
	var mp map[variant.Value]int
	if err := gdvar.Unmarshal(enc(t, dict(arr(), variant.Int(1))), &mp); err != nil || len(mp) != 1 {
		t.Errorf("*variant.Array key: %v", err)
	}
}

// TestStringKeysMergeIntoInterfaceMaps: a Dictionary holding &"a" and then
// "a" holds one entry in the engine (Godot 4 matches String and StringName
// keys by text): the first key, with the last value. Into a map whose keys
// are interfaces, where the two are different Go values, Unmarshal keeps
// one entry too, as UnmarshalValue of the decoded Dictionary does.
func TestStringKeysMergeIntoInterfaceMaps(t *testing.T) {
	in, err := hex.DecodeString("1b0000000200000015000000010000006100000002000000010000000400000001000000610000000200000002000000")
	if err != nil {
		t.Fatal(err)
	}
	var m map[any]any
	if err := gdvar.Unmarshal(in, &m); err != nil {
		t.Fatal(err)
	}
	if len(m) != 1 || fmt.Sprint(m[variant.StringName("a")]) != "2" {
		t.Errorf("into map[any]any: %#v, want one entry &\"a\": 2", m)
	}
	var mv map[variant.Value]int
	if err := gdvar.Unmarshal(in, &mv); err != nil {
		t.Fatal(err)
	}
	if len(mv) != 1 || mv[variant.StringName("a")] != 2 {
		t.Errorf("into map[variant.Value]int: %#v, want one entry &\"a\": 2", mv)
	}
	// Many string keys: the same past the small list.
	d := variant.NewDictionary(0)
	for i := range 40 {
		d.Set(variant.StringName("k"+strconv.Itoa(i)), variant.Int(i))
	}
	b, err := variant.Encode(d)
	if err != nil {
		t.Fatal(err)
	}
	extra := append([]byte{}, b...)
	extra[4]++ // one more entry: "k39" as a String, value 99
	extra = append(extra, enc(t, variant.String("k39"))...)
	extra = append(extra, enc(t, variant.Int(99))...)
	m = nil
	if err := gdvar.Unmarshal(extra, &m); err != nil {
		t.Fatal(err)
	}
	if len(m) != 40 || fmt.Sprint(m[variant.StringName("k39")]) != "99" {
		t.Errorf("40 StringName keys and a String one: %d entries, k39 = %v; want 40 and 99", len(m), m[variant.StringName("k39")])
	}
}
