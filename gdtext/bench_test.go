package gdtext

import (
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// benchValue is an Array of 1,000 small Dictionaries, like the engine
// oracles' benchmark.
func benchValue() variant.Value {
	a := variant.NewArray()
	for i := range 1000 {
		d := variant.NewDictionary(4)
		d.Set(variant.String("id"), variant.Int(i))
		d.Set(variant.String("name"), variant.String("player"+string(rune('a'+i%26))))
		d.Set(variant.String("pos"), variant.Vector2{X: float64(i), Y: -float64(i) / 3})
		d.Set(variant.String("hp"), variant.Float(99.5))
		a.Values = append(a.Values, d)
	}
	return a
}

func BenchmarkFormat(b *testing.B) {
	v := benchValue()
	buf, _ := Append(nil, v, Options{})
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = Append(buf[:0], v, Options{})
	}
}

func BenchmarkParse(b *testing.B) {
	text, _ := Format(benchValue(), Options{})
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := Parse(text, ParseOptions{}); err != nil {
			b.Fatal(err)
		}
	}
}
