package variant

import (
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"testing"
)

// engineVector is one byte vector from the engine's own unit tests
// (testdata/engine-vectors.json, with its sources).
type engineVector struct {
	Godot       string `json:"godot"`
	Source      string `json:"source"`
	Description string `json:"description"`
	Value       string `json:"value"`
	Hex         string `json:"hex"`
	Direction   string `json:"direction"`
	FullObjects bool   `json:"full_objects"`
}

func loadEngineVectors(t *testing.T) []engineVector {
	t.Helper()
	data, err := os.ReadFile("testdata/engine-vectors.json")
	if err != nil {
		t.Fatal(err)
	}
	var vs []engineVector
	if err := json.Unmarshal(data, &vs); err != nil {
		t.Fatal(err)
	}
	if len(vs) != 26 {
		t.Fatalf("got %d vectors, want 26", len(vs))
	}
	return vs
}

func TestEngineVectors(t *testing.T) {
	const i64 = Int(-1070935975390360081)
	// What each vector's bytes decode to (the "value" column in Go terms);
	// nil with wantErr for the ones the engine refuses.
	want := map[string]struct {
		v       Value
		wantErr error
	}{
		"00000000":                 {v: nil},
		"0200000078563412":         {v: Int(305419896)},
		"02000100efcdab89674523f1": {v: i64},
		"030000000000203e":         {v: Float(0.15625)},
		"03000100555555555555d53f": {v: Float(1.0 / 3.0)},
		"00":                       {wantErr: ErrTruncated},
		"ff000000":                 {wantErr: ErrInvalidType},
		"1c000100020000000100000002000100efcdab89674523f1": {
			v: &Array{Elem: Typed(TypeInt), Values: []Value{i64}}},
		"1b00050002000000020000000100000002000100efcdab89674523f102000100efcdab89674523f1": {
			v: func() Value {
				d := NewTypedDictionary(Typed(TypeInt), Typed(TypeInt), 0)
				d.Set(i64, i64)
				return d
			}()},
		"1c0000000300000003000100333333333333f33f030001003333333333330b4003000100cc6a666666661640": {
			v: NewArray(Float(1.2), Float(3.4), Float(5.600000000001))},
		"1c00000003000000020000002a0000001800010053000057000000800100000001000000": {
			v: NewArray(Int(42), ObjectID(0x8000000057000053), Bool(true))},
		"1c00000003000000020000002a0000001800010054000058000000800100000001000000": {
			v: NewArray(Int(42), ObjectID(0x8000000058000054), Bool(true))},
	}
	for i, vec := range loadEngineVectors(t) {
		b, err := hex.DecodeString(vec.Hex)
		if err != nil {
			t.Fatal(err)
		}
		m, err := DecOptions{AllowObjects: vec.FullObjects}.DecMode()
		if err != nil {
			t.Fatal(err)
		}
		v, n, err := m.Decode(b)
		w, known := want[vec.Hex]
		switch {
		case known && w.wantErr != nil:
			if !errors.Is(err, w.wantErr) {
				t.Errorf("vector %d (%s): err = %v, want %v", i, vec.Description, err, w.wantErr)
			}
			continue
		case !vec.FullObjects && vec.Value == "null" && vec.Hex != "00000000":
			// A full object decoded without allow_objects.
			if !errors.Is(err, ErrObjectsNotAllowed) {
				t.Errorf("vector %d: err = %v, want ErrObjectsNotAllowed", i, err)
			}
			var e *Error
			if !errors.As(err, &e) || e.Code != ErrCodeUnauthorized || e.Path != "[1]" {
				t.Errorf("vector %d: error %#v, want ERR_UNAUTHORIZED at [1]", i, e)
			}
			continue
		}
		if err != nil {
			t.Errorf("vector %d (%s): %v", i, vec.Description, err)
			continue
		}
		if n != len(b) {
			t.Errorf("vector %d: used %d bytes, want %d", i, n, len(b))
		}
		if known && !Equal(v, w.v) {
			t.Errorf("vector %d: decoded %#v, want %#v", i, v, w.v)
		}
		em, _ := EncOptions{FullObjects: vec.FullObjects}.EncMode()
		again, err := em.Encode(v)
		if err != nil {
			t.Errorf("vector %d: re-encode: %v", i, err)
			continue
		}
		if got := hex.EncodeToString(again); got != vec.Hex {
			t.Errorf("vector %d (%s):\nre-encoded %s\nwant       %s", i, vec.Description, got, vec.Hex)
		}
	}
}

func TestEngineVectorObjects(t *testing.T) {
	vs := loadEngineVectors(t)
	b, _ := hex.DecodeString(vs[21].Hex)
	m, _ := DecOptions{AllowObjects: true}.DecMode()
	v, _, err := m.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	obj, ok := v.(*Array).Values[1].(*Object)
	if !ok || obj.Class != "InputEventKey" || len(obj.Properties) != 16 {
		t.Fatalf("got %#v, want an InputEventKey with 16 properties", v.(*Array).Values[1])
	}
	if k, _ := obj.Get("keycode"); k != Int(65) {
		t.Errorf("keycode = %v, want 65", k)
	}
	if p, _ := obj.Get("pressed"); p != Bool(true) {
		t.Errorf("pressed = %v, want true", p)
	}
	b, _ = hex.DecodeString(vs[25].Hex)
	v, _, err = m.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	res := v.(*Array).Values[1].(*Object)
	if x, _ := res.Get("metadata/example"); x != Float(123.456) {
		t.Errorf("metadata/example = %v, want 123.456", x)
	}
}
