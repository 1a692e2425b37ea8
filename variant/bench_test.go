package variant

import (
	"strconv"
	"testing"
)

// Workload A: a PackedFloat32Array of 1,000,000 elements.
func packedFloats() Value {
	v := make(PackedFloat32Array, 1_000_000)
	for i := range v {
		v[i] = float32(i) * 0.5
	}
	return v
}

// Workload B: an Array of 100,000 small Dictionaries
// {"id": i, "name": "player<i>", "pos": Vector2(i, -i), "hp": 99.5}.
func players() Value {
	a := &Array{Values: make([]Value, 100_000)}
	for i := range a.Values {
		d := NewDictionary(4)
		d.Set(String("id"), Int(i))
		d.Set(String("name"), String("player"+strconv.Itoa(i)))
		d.Set(String("pos"), Vector2{float64(i), float64(-i)})
		d.Set(String("hp"), Float(99.5))
		a.Values[i] = d
	}
	return a
}

func benchEncode(b *testing.B, v Value) {
	buf, err := Append(nil, v)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = Append(buf[:0], v); err != nil {
			b.Fatal(err)
		}
	}
}

func benchDecode(b *testing.B, v Value) {
	buf, err := Encode(v)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := Decode(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodePackedFloat32Array1M(b *testing.B) { benchEncode(b, packedFloats()) }
func BenchmarkDecodePackedFloat32Array1M(b *testing.B) { benchDecode(b, packedFloats()) }
func BenchmarkDecodePackedFloat32Array1MZeroCopy(b *testing.B) {
	buf, _ := Encode(packedFloats())
	m, _ := DecOptions{ZeroCopy: true}.DecMode()
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := m.Decode(buf); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkEncodePlayers100k(b *testing.B) { benchEncode(b, players()) }
func BenchmarkDecodePlayers100k(b *testing.B) { benchDecode(b, players()) }

// BenchmarkTextLimit formats an 8 MiB PackedByteArray in full and with a
// 2000-byte limit (as gdvar serve prints values).
func BenchmarkTextLimit(b *testing.B) {
	v := make(PackedByteArray, 8<<20)
	for i := range v {
		v[i] = byte(i)
	}
	for _, limit := range []int{0, 2000} {
		name := "full"
		if limit > 0 {
			name = "limit2000"
		}
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			var buf []byte
			for b.Loop() {
				buf, _ = AppendText(buf[:0], v, TextOptions{MaxBytes: limit})
			}
			b.ReportMetric(float64(len(buf)), "textbytes")
		})
	}
}
