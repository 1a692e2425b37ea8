package wire

import (
	"bytes"
	"encoding/hex"
	"math"
	"testing"
)

func TestPad4(t *testing.T) {
	for n, want := range []int{0, 3, 2, 1, 0, 3, 2, 1, 0} {
		if got := Pad4(n); got != want {
			t.Errorf("Pad4(%d) = %d, want %d", n, got, want)
		}
	}
}

func TestStrings(t *testing.T) {
	cases := []struct {
		s, str, strz string
	}{
		{"", "00000000", "0100000000000000"},
		{"a", "0100000061000000", "0200000061000000"},
		{"ab", "020000006162" + "0000", "03000000616200" + "00"},
		{"abc", "03000000616263" + "00", "0400000061626300"},
		{"abcd", "0400000061626364", "050000006162636400000000"},
	}
	for _, c := range cases {
		if got := hex.EncodeToString(AppendString(nil, c.s)); got != c.str {
			t.Errorf("AppendString(%q) = %s, want %s", c.s, got, c.str)
		}
		if got := hex.EncodeToString(AppendStringZ(nil, c.s)); got != c.strz {
			t.Errorf("AppendStringZ(%q) = %s, want %s", c.s, got, c.strz)
		}
		if SizeString(c.s) != len(c.str)/2 || SizeStringZ(c.s) != len(c.strz)/2 {
			t.Errorf("sizes of %q: %d %d", c.s, SizeString(c.s), SizeStringZ(c.s))
		}
	}
}

func TestFixed(t *testing.T) {
	b := AppendU32(nil, 0x12345678)
	b = AppendU64(b, 0x0102030405060708)
	b = AppendF32(b, 0.15625)
	b = AppendF64(b, 1.0/3)
	want := "78563412" + "0807060504030201" + "0000203e" + "555555555555d53f"
	if got := hex.EncodeToString(b); got != want {
		t.Fatalf("got %s, want %s", got, want)
	}
	if U32(b) != 0x12345678 || U64(b[4:]) != 0x0102030405060708 || F32(b[12:]) != 0.15625 || F64(b[16:]) != 1.0/3 {
		t.Error("readers disagree with writers")
	}
}

func TestBulk(t *testing.T) {
	i32 := []int32{1, -1, math.MaxInt32, math.MinInt32}
	i64 := []int64{1, -1, math.MaxInt64, math.MinInt64}
	f32 := []float32{0.5, float32(math.Inf(-1)), -0}
	f64 := []float64{0.1, math.NaN(), math.Copysign(0, -1)}

	b := AppendInt32s(nil, i32)
	if hex.EncodeToString(b) != "01000000ffffffffffffff7f00000080" {
		t.Errorf("AppendInt32s: %x", b)
	}
	gi32 := make([]int32, len(i32))
	Int32s(gi32, b)
	gi64 := make([]int64, len(i64))
	Int64s(gi64, AppendInt64s(nil, i64))
	gf32 := make([]float32, len(f32))
	Float32s(gf32, AppendFloat32s(nil, f32))
	gf64 := make([]float64, len(f64))
	Float64s(gf64, AppendFloat64s(nil, f64))
	for i := range i32 {
		if gi32[i] != i32[i] || gi64[i] != i64[i] {
			t.Errorf("int %d: %d %d", i, gi32[i], gi64[i])
		}
	}
	for i := range f32 {
		if math.Float32bits(gf32[i]) != math.Float32bits(f32[i]) || math.Float64bits(gf64[i]) != math.Float64bits(f64[i]) {
			t.Errorf("float %d: %v %v", i, gf32[i], gf64[i])
		}
	}
	// Appending keeps what was there.
	if b := AppendFloat64s([]byte{9}, []float64{1}); !bytes.Equal(b, []byte{9, 0, 0, 0, 0, 0, 0, 0xf0, 0x3f}) {
		t.Errorf("AppendFloat64s after a prefix: %x", b)
	}
	if AppendInt32s(nil, nil) != nil {
		t.Error("empty append allocated")
	}
}

func TestCopyAndAlias(t *testing.T) {
	src := AppendFloat32s(nil, []float32{1, 2.5, -3})
	c := Copy[float32](src, 3)
	if len(c) != 3 || c[1] != 2.5 || c[2] != -3 {
		t.Fatalf("Copy: %v", c)
	}
	src[0] = 0xff // the copy does not share memory
	if c[0] != 1 {
		t.Error("Copy shares memory with its source")
	}
	if e := Copy[int64](nil, 0); e == nil || len(e) != 0 {
		t.Errorf("empty Copy: %#v", e)
	}
	buf := make([]byte, 20)
	copy(buf[4:], AppendInt32s(nil, []int32{7, 8, 9, 10}))
	a, ok := Alias[int32](buf[4:], 4)
	if ok {
		if a[0] != 7 || a[3] != 10 {
			t.Errorf("Alias: %v", a)
		}
		buf[4] = 1
		if a[0] != 1 {
			t.Error("Alias does not share memory")
		}
	}
	// Misaligned source: Alias declines, Copy still works.
	if _, ok := Alias[int64](buf[4:], 2); ok {
		t.Error("Alias accepted a misaligned int64 source")
	}
	if c := Copy[int64](buf[4:], 2); len(c) != 2 {
		t.Errorf("Copy of misaligned source: %v", c)
	}
}
