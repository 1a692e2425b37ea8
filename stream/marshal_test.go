package stream

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/variant"
)

type player struct {
	Name  string          `gdvar:"name"`
	HP    int             `gdvar:"hp"`
	Pos   variant.Vector2 `gdvar:"pos"`
	Items []string        `gdvar:"items"`
}

// Encode writes what gdvar's Marshal writes for the stream's family and
// precision, framed; Decode reads it back into the struct.
func TestEncodeDecodeStructs(t *testing.T) {
	p := player{Name: "Ada", HP: 7, Pos: variant.Vector2{X: 1.5, Y: -2}, Items: []string{"key"}}
	for _, c := range []struct {
		name string
		o    Options
		eo   gdvar.EncOptions
		dict uint32 // the Dictionary's type ID
	}{
		{"godot4", Options{}, gdvar.EncOptions{}, 27},
		{"godot3", Options{Godot: variant.Godot3}, gdvar.EncOptions{Family: variant.Godot3}, 18},
		{"godot4 double", Options{Enc: variant.EncOptions{Precision: variant.Double}},
			gdvar.EncOptions{Precision: variant.Double}, 27},
		{"godot3 store big-endian", Options{Godot: variant.Godot3, Kind: frame.Store, BigEndian: true},
			gdvar.EncOptions{Family: variant.Godot3}, 18},
	} {
		em, err := c.eo.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		want, err := em.Marshal(p)
		if err != nil {
			t.Fatal(err)
		}
		if got := binary.LittleEndian.Uint32(want); got != c.dict {
			t.Fatalf("%s: Dictionary type %d, want %d", c.name, got, c.dict)
		}
		var buf bytes.Buffer
		enc := NewEncoder(&buf, c.o)
		if err := enc.Encode(p); err != nil {
			t.Fatal(c.name, err)
		}
		if err := enc.Encode(&p); err != nil {
			t.Fatal(c.name, err)
		}
		framed, _ := frame.Append(nil, want, c.o.FrameOptions())
		if !bytes.Equal(buf.Bytes(), append(framed, framed...)) {
			t.Errorf("%s: Encode wrote\n%x\nwant twice\n%x", c.name, buf.Bytes(), framed)
		}
		dec := NewDecoder(&buf, c.o)
		for range 2 {
			var got player
			if err := dec.Decode(&got); err != nil {
				t.Fatal(c.name, err)
			}
			if got.Name != p.Name || got.HP != p.HP || got.Pos != p.Pos || len(got.Items) != 1 || got.Items[0] != "key" {
				t.Errorf("%s: decoded %+v", c.name, got)
			}
		}
		if err := dec.Decode(new(player)); err != io.EOF {
			t.Errorf("%s: at the end: %v", c.name, err)
		}
	}
}

// Decode applies the Options' limits, reports a value that does not fit
// its Go value with the frame's offset, and goes on with the next frame.
func TestDecodeErrorsAndLimits(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf, Options{})
	enc.Encode([]int{1, 2, 3, 4, 5, 6})
	enc.Encode(variant.Vector2{X: 1})
	enc.Encode("ok")
	dec := NewDecoder(bytes.NewReader(buf.Bytes()), Options{Dec: variant.DecOptions{MaxElements: 5}})

	var ints []int
	err := dec.Decode(&ints)
	var fe *frame.Error
	if !errors.Is(err, variant.ErrTooLarge) || !errors.As(err, &fe) || fe.Offset != 0 || IsFramingError(err) {
		t.Errorf("6 elements with MaxElements 5: %v", err)
	}
	var s string
	err = dec.Decode(&s)
	var ge *gdvar.Error
	if !errors.Is(err, gdvar.ErrTypeMismatch) || !errors.As(err, &ge) || !errors.As(err, &fe) || fe.Offset == 0 || IsFramingError(err) {
		t.Errorf("Vector2 into string: %v", err)
	}
	if err := dec.Decode(&s); err != nil || s != "ok" {
		t.Errorf("next frame: %q %v", s, err)
	}
	if err := dec.Decode(nil); err != io.EOF {
		t.Errorf("end: %v", err)
	}

	// The version the Options target is honoured: typed Dictionaries need
	// Godot 4.4.
	o := Options{Enc: variant.EncOptions{Version: variant.Version{Major: 4, Minor: 3}}, TypedContainers: true}
	if err := NewEncoder(io.Discard, o).Encode(map[string]int{"a": 1}); !errors.Is(err, variant.ErrUnsupported) {
		t.Errorf("typed Dictionary for 4.3: %v", err)
	}
	o.Enc.Version.Minor = 4
	if err := NewEncoder(io.Discard, o).Encode(map[string]int{"a": 1}); err != nil {
		t.Errorf("typed Dictionary for 4.4: %v", err)
	}
	// RejectUnknownFields.
	buf.Reset()
	NewEncoder(&buf, Options{}).Encode(map[string]any{"name": "x", "mana": 3})
	if err := NewDecoder(&buf, Options{RejectUnknownFields: true}).Decode(new(player)); !errors.Is(err, gdvar.ErrUnknownField) {
		t.Errorf("unknown field: %v", err)
	}
	// Bad options fail every call.
	bad := Options{Godot: 7}
	if err := NewDecoder(&buf, bad).Decode(new(player)); err == nil {
		t.Error("Decode with bad options")
	}
	if err := NewEncoder(io.Discard, bad).Encode(1); err == nil {
		t.Error("Encode with bad options")
	}
}
