package gdvar_test

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

// typedKeyDict builds a Godot 4 Dictionary[key, Variant] holding the given
// entries, whose keys need not be of that type (the encoder would refuse
// them).
func typedKeyDict(t testing.TB, key variant.Type, kv ...variant.Value) []byte {
	t.Helper()
	empty := variant.NewDictionary(0)
	empty.SetTypes(variant.Typed(key), variant.ContainerType{})
	head := enc(t, empty)[:8:8]
	return append(head, enc(t, dict(kv...))[4:]...)
}

// TestUnmarshalConverted covers the elements and keys that the engine
// converts in typed containers, and packed arrays read element by element:
// the converted Values are stored straight into the Go values, with the
// results and errors (offsets and paths in the input) of the same values
// decoded from bytes.
func TestUnmarshalConverted(t *testing.T) {
	big := variant.Float(1e10)
	for _, c := range []struct {
		name   string
		data   []byte
		target func() any
		want   string // the result (%v of the target's value), or the error
		is     error
	}{
		{"float into Array[int] into []int8", typedArray(t, variant.TypeInt, variant.Int(1), variant.Float(-2.5)),
			func() any { return new([]int8) }, "[1 -2]", nil},
		{"float into Array[int] overflows []int32", typedArray(t, variant.TypeInt, variant.Int(1), big),
			func() any { return new([]int32) }, "unmarshal: byte 20, [1]: int 10000000000 does not fit int32", gdvar.ErrOverflow},
		{"float into Array[int] into [2]uint16", typedArray(t, variant.TypeInt, variant.Float(7.9), variant.Bool(true)),
			func() any { return new([2]uint16) }, "[7 1]", nil},
		{"converted into a full Go array", typedArray(t, variant.TypeInt, variant.Int(1), variant.Int(2), variant.Float(3)),
			func() any { return new([2]int) }, "unmarshal: byte 0: cannot unmarshal an Array of 3 elements into [2]int", gdvar.ErrTypeMismatch},
		{"converted into a string", typedArray(t, variant.TypeInt, variant.Float(3)),
			func() any { return new([]string) }, "unmarshal: byte 12, [0]: cannot unmarshal int into string", gdvar.ErrTypeMismatch},
		{"converted into any", typedArray(t, variant.TypeFloat, variant.Int(3), variant.Bool(true)),
			func() any { return new([]any) }, "[3 1]", nil},
		{"converted into variant.Value", typedArray(t, variant.TypeStringName, S("a")),
			func() any { return new([]variant.Value) }, "[&\"a\"]", nil},
		{"converted into pointers", typedArray(t, variant.TypeInt, variant.Float(4)),
			func() any { return new([]*int) }, "ptr 4", nil},
		{"StringName into Array[String]", typedArray(t, variant.TypeString, variant.StringName("n"), variant.NodePath{Names: []string{"a", "b"}}),
			func() any { return new([]string) }, "[n a/b]", nil},
		{"Vector2i into Array[Vector2]", typedArray(t, variant.TypeVector2, variant.Vector2i{X: 1, Y: 2}),
			func() any { return new([]variant.Vector2) }, "[Vector2(1, 2)]", nil},
		{"Vector2i into Array[Vector2] into []string", typedArray(t, variant.TypeVector2, variant.Vector2{}, variant.Vector2i{X: 1, Y: 2}),
			func() any { return new([]string) }, "unmarshal: byte 12, [0]: cannot unmarshal Vector2 into string", gdvar.ErrTypeMismatch},
		{"converted mismatch at its offset", typedArray(t, variant.TypeVector2, variant.Vector2i{X: 1, Y: 2}),
			func() any { return new([]string) }, "unmarshal: byte 12, [0]: cannot unmarshal Vector2 into string", gdvar.ErrTypeMismatch},
		{"int into Array[String] drops it", typedArray(t, variant.TypeString, variant.Int(1), S("a")),
			func() any { return new([]string) }, "[a]", nil},
		{"Array into Array[PackedInt32Array]", typedArray(t, variant.TypePackedInt32Array, arr(variant.Int(1), variant.Float(2.5), S("x"))),
			func() any { return new([][]int32) }, "[[1 2 0]]", nil},
		{"Array into Array[PackedInt32Array] into [][]int8", typedArray(t, variant.TypePackedInt32Array, variant.PackedInt32Array{1}, arr(variant.Int(1), variant.Int(300))),
			func() any { return new([][]int8) }, "unmarshal: byte 24, [1][1]: int 300 does not fit int8", gdvar.ErrOverflow},
		{"packed into Array[Array] into [][]int8", typedArray(t, variant.TypeArray, variant.PackedInt32Array{1, 300}),
			func() any { return new([][]int8) }, "unmarshal: byte 12, [0][1]: int 300 does not fit int8", gdvar.ErrOverflow},
		{"packed into Array[Array] into [][2]float32", typedArray(t, variant.TypeArray, variant.PackedFloat64Array{1.5, 2}),
			func() any { return new([][2]float32) }, "[[1.5 2]]", nil},
		{"packed into Array[Array] into [][3]int", typedArray(t, variant.TypeArray, variant.PackedInt64Array{1, 2}),
			func() any { return new([][3]int) }, "unmarshal: byte 12, [0]: cannot unmarshal an Array of 2 elements into [3]int", gdvar.ErrTypeMismatch},
		{"packed into Array[Array] into [][]any", typedArray(t, variant.TypeArray, variant.PackedStringArray{"a"}, variant.PackedVector2Array{{X: 1}}),
			func() any { return new([][]any) }, "[[a] [Vector2(1, 0)]]", nil},
		{"packed into Array[Array] into []map[string]int", typedArray(t, variant.TypeArray, variant.PackedByteArray{1}),
			func() any { return new([]map[string]int) }, "unmarshal: byte 12, [0]: cannot unmarshal Array into map[string]int", gdvar.ErrTypeMismatch},
		{"String key into Dictionary[StringName]", typedKeyDict(t, variant.TypeStringName, S("a"), variant.Int(1)),
			func() any { return new(map[variant.StringName]int) }, "map[&\"a\":1]", nil},
		{"float key into Dictionary[int]", typedKeyDict(t, variant.TypeInt, variant.Float(2.5), variant.Int(1), S("x"), variant.Int(2)),
			func() any { return new(map[int8]int) }, "map[2:1]", nil},
		{"float key into Dictionary[int] overflows", typedKeyDict(t, variant.TypeInt, variant.Int(1), variant.Int(1), variant.Float(1000), variant.Int(2)),
			func() any { return new(map[int8]int) }, "unmarshal: byte 28, {key 1}: int 1000 does not fit int8", gdvar.ErrOverflow},
		{"float key into Dictionary[int] into map[string]int", typedKeyDict(t, variant.TypeInt, variant.Float(1), variant.Int(1)),
			func() any { return new(map[string]int) }, "unmarshal: byte 12, {key 0}: cannot unmarshal int into string", gdvar.ErrTypeMismatch},
		{"packed key into Dictionary[Array] into map[any]int", typedKeyDict(t, variant.TypeArray, variant.PackedInt32Array{1}, variant.Int(1)),
			func() any { return new(map[any]int) }, "unmarshal: byte 12, {key 0}: cannot use a []interface {} as a key of map[interface {}]int", gdvar.ErrTypeMismatch},
		{"Object key into Dictionary[RID]", typedKeyDict(t, variant.TypeRID, variant.ObjectID(7), variant.Int(1)),
			func() any { return new(map[variant.RID]int) }, "map[RID():1]", nil},
		{"String key into Dictionary[StringName] into a struct", typedKeyDict(t, variant.TypeStringName, S("id"), variant.Int(9)),
			func() any { return new(Player) }, "id 9", nil},
		{"packed into []int8", enc(t, variant.PackedInt32Array{1, 300}),
			func() any { return new([]int8) }, "unmarshal: byte 0, [1]: int 300 does not fit int8", gdvar.ErrOverflow},
		{"packed into [2]string", enc(t, variant.PackedInt32Array{1, 2}),
			func() any { return new([2]string) }, "unmarshal: byte 0, [0]: cannot unmarshal int into string", gdvar.ErrTypeMismatch},
		{"packed into []float32", enc(t, variant.PackedFloat64Array{1e300}),
			func() any { return new([]float32) }, "unmarshal: byte 0, [0]: float 1e+300 does not fit float32", gdvar.ErrOverflow},
		{"packed into a nested packed", enc(t, arr(variant.Int(1), variant.PackedColorArray{{R: 1}})),
			func() any { return new([]any) }, "[1 [Color(1, 0, 0, 0)]]", nil},
	} {
		target := c.target()
		err := gdvar.Unmarshal(c.data, target)
		got := ""
		switch {
		case err != nil:
			got = err.Error()
		case strings.HasPrefix(c.want, "ptr "):
			got = fmt.Sprint("ptr ", *(*target.(*[]*int))[0])
		case strings.HasPrefix(c.want, "id "):
			got = fmt.Sprint("id ", target.(*Player).ID)
		default:
			got = fmt.Sprint(reflectElem(target))
		}
		if got != c.want || (c.is != nil) != (err != nil) || c.is != nil && !errors.Is(err, c.is) {
			t.Errorf("%s: got %q (%v), want %q", c.name, got, err, c.want)
		}
	}
}

func reflectElem(p any) any { return reflect.ValueOf(p).Elem().Interface() }

// TestUnmarshalScalarsAllocateNothing checks that numbers, bools and
// times decoded into existing Go values allocate nothing.
func TestUnmarshalScalarsAllocateNothing(t *testing.T) {
	type scalars struct {
		A int8      `gdvar:"a"`
		B float32   `gdvar:"b"`
		C bool      `gdvar:"c"`
		D []uint16  `gdvar:"d"`
		T time.Time `gdvar:"t"`
	}
	data := enc(t, dict(S("a"), variant.Int(-3), S("b"), variant.Float(0.5), S("c"), variant.Bool(true),
		S("d"), arr(variant.Int(1), variant.Int(2), variant.Int(3)), S("t"), variant.Int(1700000000)))
	var v scalars
	if err := gdvar.Unmarshal(data, &v); err != nil || v.A != -3 || v.B != 0.5 || !v.C || len(v.D) != 3 || v.T.Unix() != 1700000000 {
		t.Fatalf("%+v %v", v, err)
	}
	if n := testing.AllocsPerRun(100, func() { _ = gdvar.Unmarshal(data, &v) }); n != 0 {
		t.Errorf("%v allocations per Unmarshal into a struct of scalars", n)
	}
}
