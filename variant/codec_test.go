package variant

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"math"
	"runtime"
	"slices"
	"strings"
	"testing"
)

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mode(t testing.TB, o EncOptions) *EncMode {
	t.Helper()
	m, err := o.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

func dmode(t testing.TB, o DecOptions) *DecMode {
	t.Helper()
	m, err := o.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	return m
}

// Byte-exact cases: encoding v gives hex, and decoding hex gives v back.
var exactCases = []struct {
	name string
	fam  Family
	prec Precision
	v    Value
	hex  string
}{
	{"true", Godot4, Single, Bool(true), "01000000 01000000"},
	{"abc", Godot4, Single, String("abc"), "04000000 03000000 61626300"},
	{"abcd no pad", Godot4, Single, String("abcd"), "04000000 04000000 61626364"},
	{"empty string", Godot4, Single, String(""), "04000000 00000000"},
	{"StringName", Godot4, Single, StringName("abc"), "15000000 03000000 61626300"},
	{"Vector2", Godot4, Single, Vector2{1, 2}, "05000000 0000803f 00000040"},
	{"Vector2 godot3", Godot3, Single, Vector2{1, 2}, "05000000 0000803f 00000040"},
	{"Vector2i", Godot4, Single, Vector2i{1, -1}, "06000000 01000000 ffffffff"},
	{"empty NodePath", Godot4, Single, NodePath{}, "16000000 00000080 00000000 00000000"},
	{"empty NodePath godot3", Godot3, Single, NodePath{}, "0f000000 00000080 00000000 00000000"},
	{"NodePath /root/a:b", Godot4, Single, NodePath{Names: []string{"root", "a"}, Subnames: []string{"b"}, Absolute: true},
		"16000000 02000080 01000000 01000000 04000000 726f6f74 01000000 61000000 01000000 62000000"},
	{"PackedByteArray", Godot4, Single, PackedByteArray{1, 2, 3}, "1d000000 03000000 01020300"},
	{"PackedStringArray", Godot4, Single, PackedStringArray{"a"}, "22000000 01000000 02000000 61000000"},
	{"PoolStringArray godot3", Godot3, Single, PackedStringArray{"a", "bc"}, "17000000 02000000 02000000 61000000 03000000 62630000"},
	{"PackedStringArray empty element", Godot4, Single, PackedStringArray{""}, "22000000 01000000 01000000 00000000"},
	{"PackedInt64Array", Godot4, Single, PackedInt64Array{1}, "1f000000 01000000 01000000 00000000"},
	{"empty Array", Godot4, Single, NewArray(), "1c000000 00000000"},
	{"empty Dictionary", Godot4, Single, NewDictionary(0), "1b000000 00000000"},
	{"empty Array godot3", Godot3, Single, NewArray(), "13000000 00000000"},
	{"Callable", Godot4, Single, Callable{}, "19000000"},
	{"RID 13", Godot4, Single, RID(13), "17000000 0d000000 00000000"},
	{"RID godot3", Godot3, Single, RID(0), "10000000"},
	{"int 2^31-1", Godot4, Single, Int(math.MaxInt32), "02000000 ffffff7f"},
	{"int -2^31", Godot4, Single, Int(math.MinInt32), "02000000 00000080"},
	{"int 2^31", Godot4, Single, Int(1 << 31), "02000100 00000080 00000000"},
	{"int 1<<40 godot3", Godot3, Single, Int(1 << 40), "02000100 00000000 00010000"},
	{"int64 min", Godot4, Single, Int(math.MinInt64), "02000100 00000000 00000080"},
	{"float 2.5", Godot4, Single, Float(2.5), "03000000 00002040"},
	{"float 0.1", Godot3, Single, Float(0.1), "03000100 9a999999 9999b93f"},
	{"float -0", Godot4, Single, Float(math.Copysign(0, -1)), "03000000 00000080"},
	{"float +inf", Godot4, Single, Float(math.Inf(1)), "03000000 0000807f"},
	{"float nan", Godot4, Single, Float(math.NaN()), "03000100 01000000 0000f87f"},
	{"float 16777217", Godot4, Single, Float(16777217), "03000100 00000010 00007041"},
	{"Basis rows", Godot3, Single, Basis{X: Vector3{1, 2, 3}, Y: Vector3{4, 5, 6}, Z: Vector3{7, 8, 9}},
		"0c000000 0000803f 00008040 0000e040 00000040 0000a040 00000041 00004040 0000c040 00001041"},
	{"Color", Godot4, Single, Color{0.5, 0.25, 1, 1}, "14000000 0000003f 0000803e 0000803f 0000803f"},
	{"Object as ID", Godot4, Single, ObjectID(0x8000000057000053), "18000100 53000057 00000080"},
	{"null ObjectID is Nil", Godot4, Single, nil, "00000000"},
	{"Signal", Godot4, Single, Signal{Name: "hit", Object: 7}, "1a000000 03000000 68697400 07000000 00000000"},
	{"Quat godot3", Godot3, Single, Quaternion{1, 2, 3, 4}, "0a000000 0000803f 00000040 00004040 00008040"},
	{"typed Array[String]", Godot4, Single, &Array{Elem: Typed(TypeString), Values: []Value{String("a")}},
		"1c000100 04000000 01000000 04000000 01000000 61000000"},
	{"typed Dictionary[String,int]", Godot4, Single, func() Value {
		d := NewTypedDictionary(Typed(TypeString), Typed(TypeInt), 0)
		d.Set(String("a"), Int(1))
		return d
	}(), "1b000500 04000000 02000000 01000000 04000000 01000000 61000000 02000000 01000000"},
	// Double-precision engine builds: bit 16 on math types, float64 components.
	{"double Vector2", Godot4, Double, Vector2{1, 0.1}, "05000100 00000000 0000f03f 9a999999 9999b93f"},
	{"double Vector3", Godot4, Double, Vector3{1, 2, 3}, "09000100 00000000 0000f03f 00000000 00000040 00000000 00000840"},
	{"double PackedVector2Array", Godot4, Double, PackedVector2Array{{1, 2}}, "23000100 01000000 00000000 0000f03f 00000000 00000040"},
	{"double Color stays float32", Godot4, Double, Color{1, 1, 1, 1}, "14000000 0000803f 0000803f 0000803f 0000803f"},
	{"double Vector2i stays int32", Godot4, Double, Vector2i{1, 2}, "06000000 01000000 02000000"},
}

func TestExactCases(t *testing.T) {
	for _, c := range exactCases {
		t.Run(c.name, func(t *testing.T) {
			want := mustHex(t, c.hex)
			got, err := mode(t, EncOptions{Family: c.fam, Precision: c.prec}).Encode(c.v)
			if err != nil {
				t.Fatal(err)
			}
			if !bytes.Equal(got, want) {
				t.Errorf("encode:\ngot  %x\nwant %x", got, want)
			}
			v, n, err := dmode(t, DecOptions{Family: c.fam}).Decode(want)
			if err != nil {
				t.Fatal(err)
			}
			if n != len(want) {
				t.Errorf("used %d bytes, want %d", n, len(want))
			}
			if !Equal(v, c.v) {
				t.Errorf("decode: got %#v, want %#v", v, c.v)
			}
		})
	}
}

// A double-precision payload decodes without loss and re-encodes to the
// same bytes with Precision: Double, whatever the type.
func TestDoublePrecisionRoundTrip(t *testing.T) {
	third := 1.0 / 3
	values := []Value{
		Vector2{third, 2}, Rect2{Vector2{third, 1}, Vector2{2, 3}}, Vector3{1, third, 3},
		Transform2D{Vector2{1, 2}, Vector2{3, third}, Vector2{5, 6}}, Vector4{1, 2, 3, third},
		Plane{Vector3{third, 0, 1}, 2}, Quaternion{0, 0, third, 1}, AABB{Vector3{1, 2, 3}, Vector3{4, 5, third}},
		Basis{Vector3{1, 2, 3}, Vector3{4, 5, 6}, Vector3{7, 8, third}},
		Transform3D{Basis{Vector3{1, 2, 3}, Vector3{4, 5, 6}, Vector3{7, 8, 9}}, Vector3{10, 11, third}},
		Projection{Vector4{1, 2, 3, 4}, Vector4{5, 6, 7, 8}, Vector4{9, 10, 11, 12}, Vector4{13, 14, 15, third}},
		PackedVector2Array{{third, 1}}, PackedVector3Array{{1, third, 1}}, PackedVector4Array{{1, 1, 1, third}},
	}
	m := mode(t, EncOptions{Precision: Double})
	for _, v := range values {
		b, err := m.Encode(v)
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		if b[2] != 1 {
			t.Errorf("%T: header %x lacks the 64-bit flag", v, b[:4])
		}
		got, _, err := Decode(b)
		if err != nil {
			t.Fatalf("%T: %v", v, err)
		}
		if !Equal(got, v) {
			t.Errorf("%T: got %#v, want %#v", v, got, v)
		}
		again, _ := m.Encode(got)
		if !bytes.Equal(again, b) {
			t.Errorf("%T: re-encoded %x, want %x", v, again, b)
		}
		// Single precision loses the third, as a float build would.
		single, _ := Encode(v)
		if len(single) >= len(b) {
			t.Errorf("%T: single encoding (%d bytes) not shorter than double (%d)", v, len(single), len(b))
		}
	}
}

// Godot 3 types and type numbers.
func TestGodot3Numbering(t *testing.T) {
	m := mode(t, EncOptions{Family: Godot3})
	cases := []struct {
		v  Value
		id byte
	}{
		{Transform2D{}, 8}, {Plane{}, 9}, {Quaternion{}, 10}, {AABB{}, 11}, {Basis{}, 12},
		{Transform3D{}, 13}, {Color{}, 14}, {NodePath{}, 15}, {RID(0), 16}, {ObjectID(1), 17},
		{NewDictionary(0), 18}, {NewArray(), 19}, {PackedByteArray{}, 20}, {PackedInt32Array{}, 21},
		{PackedFloat32Array{}, 22}, {PackedStringArray{}, 23}, {PackedVector2Array{}, 24},
		{PackedVector3Array{}, 25}, {PackedColorArray{}, 26},
	}
	for _, c := range cases {
		b, err := m.Encode(c.v)
		if err != nil {
			t.Fatalf("%T: %v", c.v, err)
		}
		if b[0] != c.id {
			t.Errorf("%T: id %d, want %d", c.v, b[0], c.id)
		}
		v, _, err := dmode(t, DecOptions{Family: Godot3}).Decode(b)
		if err != nil || TypeOf(v) != TypeOf(c.v) {
			t.Errorf("%T: decoded %#v, %v", c.v, v, err)
		}
	}
	for _, v := range []Value{Vector2i{}, StringName("a"), Callable{}, Signal{}, PackedInt64Array{}, Projection{},
		&Array{Elem: Typed(TypeInt)}} {
		if _, err := m.Encode(v); !errors.Is(err, ErrUnsupported) {
			t.Errorf("%T in Godot 3: err = %v, want ErrUnsupported", v, err)
		}
	}
}

func TestVersionGates(t *testing.T) {
	typedArr := &Array{Elem: Typed(TypeInt)}
	typedDict := NewTypedDictionary(Typed(TypeString), ContainerType{}, 0)
	cases := []struct {
		v       Value
		version Version
		prec    Precision
		ok      bool
	}{
		{PackedVector4Array{}, Version{4, 2}, Single, false},
		{PackedVector4Array{}, Version{4, 3}, Single, true},
		{typedArr, Version{4, 2}, Single, false},
		{typedArr, Version{4, 3}, Single, true},
		{typedDict, Version{4, 3}, Single, false},
		{typedDict, Version{4, 4}, Single, true},
		{NewArray(), Version{4, 0}, Single, true},
		{Vector4{}, Version{4, 1}, Double, false},
		{Vector4{}, Version{4, 2}, Double, true},
		{Quaternion{}, Version{4, 2}, Double, false},
		{Quaternion{}, Version{4, 2}, Single, true},
	}
	for _, c := range cases {
		_, err := mode(t, EncOptions{Version: c.version, Precision: c.prec}).Encode(c.v)
		if (err == nil) != c.ok {
			t.Errorf("%T for %v (%v): err = %v, want ok=%v", c.v, c.version, c.prec, err, c.ok)
		}
		if err != nil && !errors.Is(err, ErrUnsupported) {
			t.Errorf("%T: err %v is not ErrUnsupported", c.v, err)
		}
	}
}

func TestObjects(t *testing.T) {
	obj := &Object{Class: "Resource", Properties: []Property{{"resource_name", String("x")}, {"script", nil}}}
	if _, err := Encode(obj); !errors.Is(err, ErrObjectsNotAllowed) {
		t.Errorf("encode without FullObjects: %v", err)
	}
	b, err := mode(t, EncOptions{FullObjects: true}).Encode(obj)
	if err != nil {
		t.Fatal(err)
	}
	want := mustHex(t, "18000000 08000000 5265736f 75726365 02000000 0d000000 7265736f 75726365 5f6e616d 65000000 04000000 01000000 78000000 06000000 73637269 70740000 00000000")
	if !bytes.Equal(b, want) {
		t.Errorf("got  %x\nwant %x", b, want)
	}
	if _, _, err := Decode(b); !errors.Is(err, ErrObjectsNotAllowed) {
		t.Errorf("decode without AllowObjects: %v", err)
	}
	v, _, err := dmode(t, DecOptions{AllowObjects: true}).Decode(b)
	if err != nil || !Equal(v, obj) {
		t.Errorf("decode: %#v, %v", v, err)
	}
	// Null objects are Nil on the wire; the full null form decodes to nil.
	for _, null := range []Value{(*Object)(nil), &Object{}, ObjectID(0)} {
		if b, _ := mode(t, EncOptions{FullObjects: true}).Encode(null); !bytes.Equal(b, []byte{0, 0, 0, 0}) {
			t.Errorf("%#v encodes as %x, want Nil", null, b)
		}
	}
	v, _, err = dmode(t, DecOptions{AllowObjects: true}).Decode(mustHex(t, "18000000 00000000"))
	if err != nil || v != nil {
		t.Errorf("full null object: %#v, %v", v, err)
	}
	// Array[Object] is written with the builtin kind; decoded without
	// objects it becomes Array[EncodedObjectAsID], as in the engine.
	b, _ = Encode(&Array{Elem: Typed(TypeObject)})
	if want := "1c0001001800000000000000"; hex.EncodeToString(b) != want {
		t.Errorf("Array[Object] = %x, want %s", b, want)
	}
	v, _, _ = Decode(b)
	if ct := v.(*Array).Elem; ct.Kind != ClassName || ct.Name != "EncodedObjectAsID" {
		t.Errorf("Array[Object] decoded without objects: %+v", ct)
	}
	v, _, _ = dmode(t, DecOptions{AllowObjects: true}).Decode(b)
	if ct := v.(*Array).Elem; ct != Typed(TypeObject) {
		t.Errorf("Array[Object] decoded with objects: %+v", ct)
	}
	// Typed containers of object classes: without full objects the engine
	// names the class EncodedObjectAsID.
	arr := &Array{Elem: ContainerType{Kind: ClassName, Builtin: TypeObject, Name: "Node"}}
	b, _ = Encode(arr)
	if want := "1c00020011000000456e636f6465644f626a6563744173494400000000000000"; hex.EncodeToString(b) != want {
		t.Errorf("Array[Node] = %x, want %s", b, want)
	}
	b, _ = mode(t, EncOptions{FullObjects: true}).Encode(arr)
	if want := "1c000200040000004e6f646500000000"; hex.EncodeToString(b) != want {
		t.Errorf("Array[Node] full = %x, want %s", b, want)
	}
}

func TestDictionaryOrderAndKeys(t *testing.T) {
	d := NewDictionary(0)
	d.Set(String("b"), Int(1))
	d.Set(String("a"), Int(2))
	d.Set(Int(1), String("int"))
	d.Set(Float(1), String("float"))
	d.Set(StringName("b"), Int(3)) // same key as "b": replaced in place
	d.Set(Vector2{1, 2}, nil)
	d.Set(NewArray(Int(1)), Bool(true))
	if d.Len() != 6 {
		t.Fatalf("len %d, want 6", d.Len())
	}
	if v, _ := d.Get(String("b")); v != Int(3) {
		t.Errorf("b = %v", v)
	}
	if v, ok := d.Get(NewArray(Int(1))); !ok || v != Bool(true) {
		t.Errorf("array key: %v %v", v, ok)
	}
	b, _ := Encode(d)
	v, _, err := Decode(b)
	if err != nil || !Equal(v, d) {
		t.Fatalf("round trip: %v", err)
	}
	if k := v.(*Dictionary).Entries()[0].Key; k != String("b") {
		t.Errorf("first key %#v, want \"b\" (order kept)", k)
	}
	// Big dictionaries use an index; lookups and deletes stay right.
	big := NewDictionary(0)
	for i := range 100 {
		big.Set(Int(i), Int(i*i))
	}
	big.Set(Int(50), Int(-1))
	if !big.Delete(Int(3)) || big.Delete(Int(3)) {
		t.Error("delete")
	}
	if v, _ := big.Get(Int(50)); v != Int(-1) || big.Len() != 99 {
		t.Errorf("50 = %v, len %d", v, big.Len())
	}
	if v, _ := big.Get(Int(99)); v != Int(99*99) {
		t.Errorf("99 = %v", v)
	}
	// Repeated keys on the wire: the last value wins, in the first place.
	v, _, err = Decode(mustHex(t, "1b000000 02000000 02000000 01000000 02000000 0a000000 02000000 01000000 02000000 14000000"))
	if err != nil {
		t.Fatal(err)
	}
	if dv := v.(*Dictionary); dv.Len() != 1 || dv.Entries()[0].Value != Int(20) {
		t.Errorf("repeated key: %#v", dv.Entries())
	}
}

func TestDecodeErrors(t *testing.T) {
	cases := []struct {
		name   string
		fam    Family
		hex    string
		err    error
		code   Code
		offset int
		path   string
	}{
		{"empty", Godot4, "", ErrTruncated, ErrCodeInvalidData, 0, ""},
		{"short header", Godot4, "0200", ErrTruncated, ErrCodeInvalidData, 0, ""},
		{"type 39", Godot4, "27000000", ErrInvalidType, ErrCodeInvalidData, 0, ""},
		{"type 27 in godot3", Godot3, "1b000000", ErrInvalidType, ErrCodeInvalidData, 0, ""},
		{"int truncated", Godot4, "02000000 0100", ErrTruncated, ErrCodeInvalidData, 0, ""},
		{"int64 truncated", Godot4, "02000100 01000000", ErrTruncated, ErrCodeInvalidData, 0, ""},
		{"Vector2 truncated", Godot4, "05000000 0000803f", ErrTruncated, ErrCodeInvalidData, 0, ""},
		{"double Vector2 truncated", Godot4, "05000100 0000803f 00000040", ErrTruncated, ErrCodeInvalidData, 0, ""},
		{"string too long", Godot4, "04000000 05000000 61", ErrTruncated, ErrCodeFileEOF, 4, ""},
		{"string padding missing", Godot4, "04000000 03000000 616263", ErrTruncated, ErrCodeFileEOF, 4, ""},
		{"string negative", Godot4, "04000000 ffffffff", ErrInvalidData, ErrCodeFileEOF, 4, ""},
		{"invalid UTF-8", Godot4, "04000000 01000000 80000000", ErrInvalidUTF8, ErrCodeInvalidData, 4, ""},
		{"surrogate 4.x", Godot4, "04000000 03000000 eda08000", ErrInvalidUTF8, ErrCodeInvalidData, 4, ""},
		{"overlong NUL 3.x", Godot3, "04000000 02000000 c0800000", ErrInvalidUTF8, ErrCodeInvalidData, 4, ""},
		{"old NodePath", Godot4, "16000000 01000000 61000000", ErrInvalidData, ErrCodeInvalidData, 0, ""},
		{"packed negative count", Godot4, "1e000000 ffffffff", ErrInvalidData, ErrCodeInvalidData, 0, ""},
		{"packed count too big", Godot4, "1e000000 02000000 01000000", ErrTruncated, ErrCodeInvalidData, 0, ""},
		{"huge array count", Godot4, "1c000000 ffffff7f", ErrTruncated, ErrCodeInvalidData, 8, "[0]"},
		{"nested error path", Godot4, "1c000000 02000000 02000000 01000000 04000000 09000000", ErrTruncated, ErrCodeFileEOF, 20, "[1]"},
		{"dict value path", Godot4, "1b000000 01000000 04000000 01000000 6b000000 05000000", ErrTruncated, ErrCodeInvalidData, 20, `["k"]`},
		{"typed array bad builtin", Godot4, "1c000100 27000000 00000000", ErrInvalidData, ErrCodeInvalidData, 0, ""},
		{"full object refused", Godot4, "18000000 00000000", ErrObjectsNotAllowed, ErrCodeUnauthorized, 0, ""},
		{"object id truncated", Godot4, "18000100 01000000", ErrTruncated, ErrCodeInvalidData, 0, ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			_, _, err := dmode(t, DecOptions{Family: c.fam}).Decode(mustHex(t, c.hex))
			if !errors.Is(err, c.err) {
				t.Fatalf("err = %v, want %v", err, c.err)
			}
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("%T is not *Error", err)
			}
			if e.Code != c.code || e.Offset != c.offset || e.Path != c.path {
				t.Errorf("got code %v offset %d path %q, want %v %d %q (%v)", e.Code, e.Offset, e.Path, c.code, c.offset, c.path, err)
			}
		})
	}
	if _, _, err := Decode(nil); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("ErrTruncated does not match io.ErrUnexpectedEOF: %v", err)
	}
}

func TestDecodeTolerances(t *testing.T) {
	cases := []struct {
		name string
		fam  Family
		hex  string
		want Value
		used int
	}{
		{"trailing bytes", Godot4, "02000000 01000000 ffffffff", Int(1), 8},
		{"header byte 1 and unknown flags", Godot4, "0201f000 01000000", Int(1), 8},
		{"64-bit flag on small int", Godot4, "02000100 01000000 00000000", Int(1), 12},
		{"64-bit flag ignored on Vector2 in godot3", Godot3, "05000100 0000803f 00000040", Vector2{1, 2}, 12},
		{"bool 2 is true", Godot4, "01000000 02000000", Bool(true), 8},
		{"count bit 31", Godot4, "1c000000 00000080", NewArray(), 8},
		{"byte array without final padding", Godot4, "1d000000 03000000 010203", PackedByteArray{1, 2, 3}, 11},
		{"BOM dropped", Godot4, "04000000 04000000 efbbbf61", String("a"), 12},
		{"NUL ends a string", Godot4, "04000000 03000000 61006200", String("a"), 12},
		{"negative string array count", Godot4, "22000000 ffffffff", PackedStringArray{}, 8},
		{"string array element without NUL", Godot4, "22000000 01000000 01000000 61000000", PackedStringArray{"a"}, 16},
		{"NodePath obsolete property flag", Godot4, "16000000 01000080 00000000 02000000 01000000 61000000 01000000 62000000",
			NodePath{Names: []string{"a"}, Subnames: []string{"b"}}, 32},
		{"godot3 empty NodePath drops absolute", Godot3, "0f000000 00000080 00000000 01000000", NodePath{}, 16},
		{"godot3 NodePath of subnames keeps absolute", Godot3, "0f000000 00000080 01000000 01000000 01000000 62000000",
			NodePath{Subnames: []string{"b"}, Absolute: true}, 24},
		{"NodePath counts add as uint32", Godot4, "16000000 02000080 ffffffff 00000000 01000000 61000000",
			NodePath{Names: []string{"a"}}, 24},
		{"godot3 surrogate kept", Godot3, "04000000 03000000 eda08000", String("\xed\xa0\x80"), 12},
		{"godot3 overlong slash", Godot3, "04000000 03000000 e080af00", String("/"), 12},
		{"typed array converts float to int", Godot4, "1c000100 02000000 01000000 03000000 00002040",
			&Array{Elem: Typed(TypeInt), Values: []Value{Int(2)}}, 20},
		{"typed array drops String and null", Godot4, "1c000100 02000000 02000000 04000000 01000000 61000000 00000000",
			&Array{Elem: Typed(TypeInt)}, 28},
		{"typed array builtin NIL is untyped", Godot4, "1c000100 00000000 01000000 00000000", NewArray(nil), 16},
		{"object id 0 is null", Godot4, "18000100 00000000 00000000", nil, 12},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			v, n, err := dmode(t, DecOptions{Family: c.fam}).Decode(mustHex(t, c.hex))
			if err != nil {
				t.Fatal(err)
			}
			if !Equal(v, c.want) || n != c.used {
				t.Errorf("got %#v (%d bytes), want %#v (%d bytes)", v, n, c.want, c.used)
			}
		})
	}
}

func nest(depth int) []byte {
	var b []byte
	for range depth {
		b = append(b, 0x1c, 0, 0, 0, 1, 0, 0, 0)
	}
	return append(b, 0, 0, 0, 0)
}

func TestDepthLimit(t *testing.T) {
	// 1024 Arrays around a Nil: the Nil sits at depth 1024, accepted.
	if _, _, err := Decode(nest(1024)); err != nil {
		t.Errorf("depth 1024: %v", err)
	}
	_, _, err := Decode(nest(1025))
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, ErrTooDeep) || e.Code != ErrCodeOutOfMemory {
		t.Errorf("depth 1025: %v", err)
	}
	// Encoding: a container that holds itself fails cleanly.
	a := NewArray()
	a.Values = append(a.Values, a)
	if _, err := Encode(a); !errors.Is(err, ErrTooDeep) {
		t.Errorf("cyclic encode: %v", err)
	}
}

// A short packet claiming huge counts must fail without allocating in
// proportion to the claim.
func TestHostileCountsAllocateLittle(t *testing.T) {
	inputs := [][]byte{
		mustHex(t, "1c000000 ffffff7f 00000000"),          // Array of 2^31-1
		mustHex(t, "1b000000 ffffff7f 00000000"),          // Dictionary
		mustHex(t, "1e000000 ffffff7f 00000000"),          // PackedInt32Array
		mustHex(t, "22000000 ffffff7f 00000000"),          // PackedStringArray
		mustHex(t, "16000000 ffffffff ffffffff 00000000"), // NodePath names and subnames
		mustHex(t, "04000000 ffffff7f 00000000"),          // String
	}
	for _, in := range inputs {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		for range 100 {
			if _, _, err := Decode(in); err == nil {
				t.Fatalf("%x decoded", in)
			}
		}
		runtime.ReadMemStats(&after)
		if perCall := (after.TotalAlloc - before.TotalAlloc) / 100; perCall > 1024 {
			t.Errorf("%x: %d bytes allocated per decode", in, perCall)
		}
	}
}

func TestEncodeInvalidValues(t *testing.T) {
	cases := []struct {
		v   Value
		err error
	}{
		{String("\xff"), ErrInvalidValue},
		{PackedStringArray{"ok", "\xc0\x80"}, ErrInvalidValue},
		{&Array{Elem: Typed(TypeInt), Values: []Value{String("x")}}, ErrInvalidValue},
		{&Array{Elem: ContainerType{Kind: Script, Name: "x.gd"}}, nil}, // without full objects: EncodedObjectAsID
	}
	for _, c := range cases {
		_, err := Encode(c.v)
		if !errors.Is(err, c.err) && !(c.err == nil && err == nil) {
			t.Errorf("%#v: err = %v, want %v", c.v, err, c.err)
		}
	}
	full := mode(t, EncOptions{FullObjects: true})
	if _, err := full.Encode(&Array{Elem: ContainerType{Kind: Script, Name: "x.gd"}}); !errors.Is(err, ErrInvalidValue) {
		t.Errorf("script path without res://: %v", err)
	}
	// On error Append returns dst unchanged.
	dst := []byte{1, 2, 3}
	out, err := Append(dst, NewArray(Int(1), String("\xff")))
	if err == nil || !bytes.Equal(out, []byte{1, 2, 3}) {
		t.Errorf("Append on error: %x, %v", out, err)
	}
	var e *Error
	if errors.As(err, &e); e.Path != "[1]" || e.Offset != 16 {
		t.Errorf("error location: %+v", e)
	}
}

func TestOptionsValidation(t *testing.T) {
	bad := []EncOptions{{Family: 5}, {Family: Godot3, Precision: Double}, {MaxDepth: -1}, {Family: Godot3, Version: Version{4, 2}}}
	for _, o := range bad {
		if _, err := o.EncMode(); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
	if _, err := (DecOptions{Family: 2}).DecMode(); err == nil {
		t.Error("family 2 accepted")
	}
	m := mode(t, EncOptions{Version: Version{3, 2}})
	if o := m.Options(); o.Family != Godot3 || o.MaxDepth != DefaultMaxDepth {
		t.Errorf("defaults: %+v", o)
	}
}

func TestZeroCopy(t *testing.T) {
	in := NewArray(PackedByteArray{1, 2, 3}, PackedInt32Array{1, -2}, PackedFloat32Array{0.5}, String("héllo"),
		PackedInt64Array{1 << 40}, PackedFloat64Array{0.1}, PackedByteArray{})
	b, _ := Encode(in)
	m := dmode(t, DecOptions{ZeroCopy: true})
	v, _, err := m.Decode(b)
	if err != nil || !Equal(v, in) {
		t.Fatalf("%#v %v", v, err)
	}
	// The byte array shares the input's memory; the copying decoder's does not.
	b[16] = 9
	if got := v.(*Array).Values[0].(PackedByteArray)[0]; got != 9 {
		t.Errorf("ZeroCopy PackedByteArray does not alias the input: %d", got)
	}
	b[16] = 1
	v2, _, _ := Decode(b)
	b[16] = 9
	if got := v2.(*Array).Values[0].(PackedByteArray)[0]; got != 1 {
		t.Errorf("copying decode aliases the input")
	}
}

// TestClassesAndScripts checks DecOptions.Classes and Scripts: an Object
// of a refused class, or naming a script that does not exist, fails with
// ErrObjectsNotAllowed and the engine's code; allowed ones decode.
func TestClassesAndScripts(t *testing.T) {
	only := func(names ...string) func(string) bool {
		return func(s string) bool { return slices.Contains(names, s) }
	}
	scripted := &Object{Class: "Node", Properties: []Property{{"script", String("res://a.gd")}}}
	cases := []struct {
		fam     Family
		opts    DecOptions
		v       Value
		code    Code
		refused bool
	}{
		{Godot4, DecOptions{Classes: only("Node")}, &Object{Class: "Node"}, 0, false},
		{Godot4, DecOptions{Classes: only("Node")}, &Object{Class: "Sprite2D"}, ErrCodeInvalidData, true},
		{Godot4, DecOptions{Classes: only("Node")}, &Array{Values: []Value{Int(1), &Object{Class: "Script"}}}, ErrCodeInvalidData, true},
		{Godot4, DecOptions{Scripts: only("res://a.gd")}, scripted, 0, false},
		{Godot4, DecOptions{Scripts: only("res://b.gd")}, scripted, ErrCodeInvalidData, true},
		{Godot4, DecOptions{Scripts: only("res://b.gd")}, &Array{Elem: ContainerType{Kind: Script, Builtin: TypeObject, Name: "res://a.gd"}}, ErrCodeInvalidData, true},
		{Godot3, DecOptions{Classes: only("Spatial")}, &Object{Class: "Node3D"}, ErrCodeUnavailable, true},
	}
	for i, c := range cases {
		b := mode(t, EncOptions{Family: c.fam, FullObjects: true}).mustEncode(t, c.v)
		o := c.opts
		o.Family, o.AllowObjects = c.fam, true
		v, _, err := dmode(t, o).Decode(b)
		var e *Error
		switch {
		case !c.refused && (err != nil || !Equal(v, c.v)):
			t.Errorf("case %d: %#v, %v", i, v, err)
		case c.refused && (!errors.Is(err, ErrObjectsNotAllowed) || !errors.As(err, &e) || e.Code != c.code):
			t.Errorf("case %d: %v, want ErrObjectsNotAllowed with %v", i, err, c.code)
		}
		// Without AllowObjects the lists change nothing: objects are
		// refused anyway, and typed containers are not checked.
		o.AllowObjects = false
		if _, _, err := dmode(t, o).Decode(b); err != nil && !errors.Is(err, ErrObjectsNotAllowed) {
			t.Errorf("case %d without objects: %v", i, err)
		}
	}
}

func (m *EncMode) mustEncode(t *testing.T, v Value) []byte {
	b, err := m.Encode(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
