package gdvar_test

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/classdb"
	"github.com/gdvar/gdvar/variant"
)

// fuzzRecord is a struct target of FuzzUnmarshal with fields of many
// kinds, so that dictionaries from the fuzzer meet all the decoders.
type fuzzRecord struct {
	ID    int                 `gdvar:"id"`
	Name  string              `gdvar:"name"`
	Pos   variant.Vector2     `gdvar:"pos"`
	HP    float32             `gdvar:"hp"`
	On    bool                `gdvar:"on"`
	Small int8                `gdvar:"small"`
	U     uint16              `gdvar:"u"`
	Tags  []string            `gdvar:"tags"`
	Ints  []int               `gdvar:"ints"`
	Raw   []byte              `gdvar:"raw"`
	Fix   [2]int32            `gdvar:"fix"`
	Kids  []*fuzzRecord       `gdvar:"kids"`
	Map   map[string]int64    `gdvar:"map"`
	Keys  map[int]string      `gdvar:"keys"`
	Any   any                 `gdvar:"any"`
	Val   variant.Value       `gdvar:"val"`
	SN    variant.StringName  `gdvar:"sn"`
	NP    variant.NodePath    `gdvar:"np"`
	Obj   *variant.Object     `gdvar:"obj"`
	Arr   *variant.Array      `gdvar:"arr"`
	T3D   variant.Transform3D `gdvar:"t3d"`
	Color variant.Color       `gdvar:"color"`
	V2s   []variant.Vector2   `gdvar:"v2s"`
	Next  *fuzzRecord         `gdvar:"next"`
}

// fuzzTargets make the Go values FuzzUnmarshal decodes into.
var fuzzTargets = []func() any{
	func() any { return new(any) },
	func() any { return new(variant.Value) },
	func() any { return new(fuzzRecord) },
	func() any { return new([]fuzzRecord) },
	func() any { return new(map[string]any) },
	func() any { return new([]any) },
	func() any { return new(map[int]string) },
	func() any { return new([]int32) },
	func() any { return new([]string) },
	func() any { return new([4]byte) },
	func() any { return new(*Player) },
	func() any { return new([]float64) },
	func() any { return new(map[variant.Vector2]any) },
	func() any { return new(string) },
	func() any { return new(int16) },
	func() any { return new(Monster) },
	func() any { return new(AllKinds) },
	func() any { return new(Typed) },
	func() any { return new([]Character) },
	func() any { return new(map[string]Temperature) },
	func() any { return new(map[any]any) },
	func() any { return new(map[variant.Value]int) },
}

var fuzzModes = []gdvar.DecOptions{
	{},
	{AllowObjects: true, MaxDepth: 5},
	{Family: variant.Godot3, AllowObjects: true, MaxDepth: 4},
	{MaxElements: 12},
	{Strict: true, MaxSize: 200},
	{AllowObjects: true, Classes: classdb.Godot4.Has, Scripts: func(p string) bool { return strings.HasSuffix(p, ".gd") }},
	{Family: variant.Godot3, AllowObjects: true, Classes: classdb.Godot3.Has},
}

// addFuzzSeeds adds real engine output and Marshal output to the corpus.
// fuzzFinds are inputs the fuzzer once found interesting.
var fuzzFinds = []string{
	// A Dictionary typed by a script with an empty path: accepted without
	// objects, and not encodable with them.
	"1b30433000000000020000000030303000303030003030300030303030",
}

func addFuzzSeeds(f *testing.F) {
	for _, h := range fuzzFinds {
		if b, err := hex.DecodeString(h); err == nil {
			f.Add(b)
		}
	}
	files, _ := filepath.Glob("testdata/golden/*.jsonl")
	for _, name := range files {
		file, err := os.Open(name)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var line struct{ Hex string }
			if json.Unmarshal(sc.Bytes(), &line) == nil {
				if b, err := hex.DecodeString(line.Hex); err == nil {
					f.Add(b)
				}
			}
		}
		file.Close()
	}
	files, _ = filepath.Glob("testdata/marshal/*.hex")
	for _, name := range files {
		data, _ := os.ReadFile(name)
		for line := range strings.Lines(string(data)) {
			h, _, _ := strings.Cut(line, "\t")
			if b, err := hex.DecodeString(h); err == nil {
				f.Add(b)
			}
		}
	}
	for _, c := range godot4Cases {
		if b, err := gdvar.Marshal(c.value); err == nil {
			f.Add(b)
		}
	}
	// Typed containers with elements the engine converts or drops.
	f.Add(typedArray(f, variant.TypeInt, variant.Int(1), variant.Float(2.5), variant.String("x"), variant.Bool(true)))
	f.Add(typedArray(f, variant.TypeArray, arr(variant.Int(1)), variant.PackedInt32Array{1}, variant.Int(3)))
	f.Add(typedArray(f, variant.TypeVector2, variant.Vector2i{X: 1}, nil, variant.Vector2{Y: 1}))
	f.Add(typedArray(f, variant.TypeObject, nil, variant.ObjectID(3), variant.Int(1)))
	td := variant.NewDictionary(1)
	td.SetTypes(variant.Typed(variant.TypeStringName), variant.ContainerType{})
	td.Set(variant.StringName("id"), variant.Int(3))
	tb, _ := variant.Encode(td)
	plain, _ := variant.Encode(dict(variant.String("id"), variant.Int(5), variant.Int(7), variant.Int(8), variant.String("name"), variant.String("n")))
	f.Add(append(tb[:8:8], plain[4:]...))
	kid := &fuzzRecord{ID: 2, Name: "kid", Any: []any{1, "x"}, Val: variant.Int(3)}
	rec := fuzzRecord{
		ID: 1, Name: "n", Tags: []string{"a"}, Ints: []int{1, 2}, Raw: []byte{1}, Fix: [2]int32{1, 2},
		Kids: []*fuzzRecord{kid, nil}, Map: map[string]int64{"a": 1}, Keys: map[int]string{1: "a"},
		Any: map[string]any{"k": 1.5}, Val: variant.Vector2{X: 1}, SN: "sn",
		NP: variant.NodePath{Names: []string{"a"}}, Arr: variant.NewArray(variant.Int(1)), Next: kid,
	}
	if b, err := gdvar.Marshal(&rec); err == nil {
		f.Add(b)
	}
	if b, err := (gdvar.EncOptions{TypedContainers: true}).EncMode(); err == nil {
		if out, err := b.Marshal(&rec); err == nil {
			f.Add(out)
		}
	}
}

// naturalOf is what the package documentation says Unmarshal stores in
// an `any` for a decoded Value.
func naturalOf(v variant.Value) any {
	switch x := v.(type) {
	case nil:
		return nil
	case variant.Bool:
		return bool(x)
	case variant.Int:
		return int64(x)
	case variant.Float:
		return float64(x)
	case variant.String:
		return string(x)
	case *variant.Array:
		out := make([]any, x.Len())
		for i, e := range x.Values {
			out[i] = naturalOf(e)
		}
		return out
	case *variant.Dictionary:
		out := map[string]any{}
		for k, e := range x.All() {
			switch k := k.(type) {
			case variant.String:
				out[string(k)] = naturalOf(e)
			case variant.StringName:
				out[string(k)] = naturalOf(e)
			default:
				return x
			}
		}
		return out
	case variant.PackedByteArray:
		return []byte(x)
	case variant.PackedInt32Array:
		return []int32(x)
	case variant.PackedInt64Array:
		return []int64(x)
	case variant.PackedFloat32Array:
		return []float32(x)
	case variant.PackedFloat64Array:
		return []float64(x)
	case variant.PackedStringArray:
		return []string(x)
	case variant.PackedVector2Array:
		return []variant.Vector2(x)
	case variant.PackedVector3Array:
		return []variant.Vector3(x)
	case variant.PackedColorArray:
		return []variant.Color(x)
	case variant.PackedVector4Array:
		return []variant.Vector4(x)
	}
	return v
}

// FuzzUnmarshal checks Unmarshal against variant.Decode, for several
// modes and many Go targets: both refuse the same inputs with the same
// *variant.Error (offset, sentinel, engine code, detail, Variant path, type);
// when variant accepts, Unmarshal either succeeds, using the same number
// of bytes, or fails only because a value does not fit its Go destination;
// into variant.Value it gets the identical Value, into `any` the natural
// form of it.
func FuzzUnmarshal(f *testing.F) {
	addFuzzSeeds(f)
	type mode struct {
		dec  *gdvar.DecMode
		vdec *variant.DecMode
		enc  *gdvar.EncMode
	}
	var modes []mode
	for _, o := range fuzzModes {
		dec, err := o.DecMode()
		if err != nil {
			f.Fatal(err)
		}
		vdec, err := variant.DecOptions{Family: o.Family, AllowObjects: o.AllowObjects, MaxDepth: o.MaxDepth,
			MaxElements: o.MaxElements, MaxSize: o.MaxSize, Strict: o.Strict, Classes: o.Classes, Scripts: o.Scripts}.DecMode()
		if err != nil {
			f.Fatal(err)
		}
		enc, err := gdvar.EncOptions{Family: o.Family, Precision: precisionFor(o.Family), FullObjects: true, MaxDepth: 1 << 16}.EncMode()
		if err != nil {
			f.Fatal(err)
		}
		modes = append(modes, mode{dec, vdec, enc})
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, m := range modes {
			vv, vn, verr := m.vdec.Decode(data)
			for _, mk := range fuzzTargets {
				target := mk()
				n, err := m.dec.UnmarshalFirst(data, target)
				var ve *variant.Error
				isWire := errors.As(err, &ve) && ve.Op == "decode" // the bytes are at fault
				if verr != nil {
					want := verr.(*variant.Error)
					if !isWire {
						t.Fatalf("%+v into %T: variant refuses (%v), Unmarshal says %v", m.dec.Options(), target, verr, err)
					}
					if ve.Offset != want.Offset || ve.Err != want.Err || ve.Code != want.Code ||
						ve.Detail != want.Detail || ve.Path != want.Path || ve.Type != want.Type {
						t.Fatalf("%+v into %T:\nUnmarshal: %v (path %q)\nvariant:   %v (path %q)",
							m.dec.Options(), target, ve, ve.Path, want, want.Path)
					}
					continue
				}
				if err != nil {
					if isWire {
						t.Fatalf("%+v into %T: variant accepts, Unmarshal says %v\ninput %x", m.dec.Options(), target, err, data)
					}
					continue
				}
				if n != vn {
					t.Fatalf("%+v into %T: Unmarshal used %d bytes, variant %d", m.dec.Options(), target, n, vn)
				}
				switch p := target.(type) {
				case *variant.Value:
					if !variant.Equal(*p, vv) {
						t.Fatalf("%+v: into Value %#v, variant %#v", m.dec.Options(), *p, vv)
					}
				case *any:
					got, err1 := m.enc.Marshal(*p)
					want, err2 := m.enc.Marshal(naturalOf(vv))
					if fmt.Sprint(err1) != fmt.Sprint(err2) || !bytes.Equal(got, want) {
						t.Fatalf("%+v: into any %#v (%v), natural %#v (%v)", m.dec.Options(), *p, err1, naturalOf(vv), err2)
					}
				default:

					// The bytes path (with its fast paths for records as the
					// engine writes them) and UnmarshalValue (fill.go)
					// decide alike: compared through their encodings, which
					// are NaN-safe.
					alt := mk()
					if err := m.dec.UnmarshalValue(vv, alt); err != nil {
						t.Fatalf("%+v into %T: Unmarshal accepts, UnmarshalValue says %v\ninput %x", m.dec.Options(), target, err, data)
					}
					got, err1 := m.enc.Marshal(target)
					want, err2 := m.enc.Marshal(alt)
					if fmt.Sprint(err1) != fmt.Sprint(err2) || !bytes.Equal(got, want) {
						t.Fatalf("%+v into %T: Unmarshal %+v, UnmarshalValue %+v\ninput %x", m.dec.Options(), target, target, alt, data)
					}
				}
			}
		}
	})
}

func precisionFor(f variant.Family) variant.Precision {
	if f == variant.Godot3 {
		return variant.Single
	}
	return variant.Double
}

// TestFuzzTargetsAreDistinct keeps the fuzz targets honest: each makes a
// pointer to a different type.
func TestFuzzTargetsAreDistinct(t *testing.T) {
	seen := map[reflect.Type]bool{}
	for _, mk := range fuzzTargets {
		typ := reflect.TypeOf(mk())
		if typ.Kind() != reflect.Pointer || seen[typ] {
			t.Errorf("fuzz target %v", typ)
		}
		seen[typ] = true
	}
}
