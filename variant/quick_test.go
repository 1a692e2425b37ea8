package variant

import (
	"math"
	"testing"
)

func TestMatchKey(t *testing.T) {
	m, _ := DecOptions{}.DecMode()
	for _, name := range []string{"a", "id", "pos", "name", "abcde", "abcdefgh"} {
		k := NewKeyWords(name)
		enc, err := Encode(String(name))
		if err != nil {
			t.Fatal(err)
		}
		if k.Size() != len(enc) {
			t.Errorf("%q: Size %d, encoding %d bytes", name, k.Size(), len(enc))
		}
		in := append(append([]byte{}, enc...), 0xEE, 0xEE, 0xEE, 0xEE) // what follows is not compared
		r := m.Reader(in)
		if !r.MatchKey(&k, 0) {
			t.Errorf("%q: no match on its own encoding", name)
		}
		if len(in) >= 16 {
			short := m.Reader(in[:15])
			if short.MatchKey(&k, 0) {
				t.Errorf("%q: a match with 15 bytes left", name)
			}
		}
		for i := range k.Size() {
			bad := append([]byte{}, in...)
			bad[i] ^= 0x40 // header, length, text or padding
			r := m.Reader(bad)
			if r.MatchKey(&k, 0) {
				t.Errorf("%q: a match with byte %d changed", name, i)
			}
		}
		other := NewKeyWords(name + "x")
		if name != "abcdefgh" && r.MatchKey(&other, 0) {
			t.Errorf("%q matches %q", name, name+"x")
		}
	}
	var zero KeyWords
	r := m.Reader(make([]byte, 32))
	if zero.Size() != 0 || r.MatchKey(&zero, 0) {
		t.Error("the zero KeyWords match zero bytes")
	}
	for _, name := range []string{"", "abcdefghi"} { // matched by their bytes elsewhere
		k := NewKeyWords(name)
		enc, _ := Encode(String(name))
		r := m.Reader(append(enc, make([]byte, 16)...))
		if k.Size() != 0 || r.MatchKey(&k, 0) {
			t.Errorf("%q: Size %d, matches %v; want 0 and no match", name, k.Size(), r.MatchKey(&k, 0))
		}
	}
}

func TestQuickValues(t *testing.T) {
	m, _ := DecOptions{}.DecMode()
	enc := func(v Value, double bool) []byte {
		o := EncOptions{}
		if double {
			o.Precision = Double
		}
		e, err := o.EncMode()
		if err != nil {
			t.Fatal(err)
		}
		b, err := e.Encode(v)
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	r := m.Reader(enc(Int(-7), false))
	if x, ok := r.QuickInt(0); !ok || x != -7 {
		t.Errorf("QuickInt(-7) = %d, %v", x, ok)
	}
	r = m.Reader(enc(Int(1<<40), false)) // 64-bit: left to the decoder
	if _, ok := r.QuickInt(0); ok {
		t.Error("QuickInt took a 64-bit Int")
	}
	r = m.Reader(enc(Float(2.5), false))
	if x, ok := r.QuickFloat(0); !ok || x != 2.5 {
		t.Errorf("QuickFloat(2.5) = %v, %v", x, ok)
	}
	if _, ok := r.QuickInt(0); ok {
		t.Error("QuickInt took a Float")
	}
	r = m.Reader(enc(Float(math.Pi), true)) // double precision: left to the decoder
	if _, ok := r.QuickFloat(0); ok {
		t.Error("QuickFloat took a 64-bit Float")
	}
	r = m.Reader(enc(Bool(true), false))
	if x, ok := r.QuickBool(0); !ok || !x {
		t.Errorf("QuickBool(true) = %v, %v", x, ok)
	}
	r = m.Reader(enc(Vector2{1.5, -2}, false))
	if x, ok := r.QuickVector2(0); !ok || x != (Vector2{1.5, -2}) {
		t.Errorf("QuickVector2 = %v, %v", x, ok)
	}
	b := enc(Vector2{1.5, -2}, false)
	r = m.Reader(b[:11])
	if _, ok := r.QuickVector2(0); ok {
		t.Error("QuickVector2 took a truncated Vector2")
	}
	r = m.Reader(enc(String("hi"), false))
	if !r.QuickString(0) {
		t.Error("QuickString refused a String")
	}
	r = m.Reader(enc(StringName("hi"), false))
	if r.QuickString(0) {
		t.Error("QuickString took a StringName")
	}
}
