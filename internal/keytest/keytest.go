// Package keytest checks, from the tests of the text forms (gdtext and
// gdjson), that a parser reads a Dictionary whose keys are nested deep
// about as fast per byte as one whose keys are flat: keys are hashed whole,
// once, so the time per byte must not grow with the depth of the keys.
package keytest

import (
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// ParseInLinearTime formats a Dictionary of about 40,000 bytes whose keys
// are Arrays nested 120 deep around distinct Ints, and one whose keys are
// one deep, and fails t when parsing the first takes more than 8 times as
// long per byte as the second: keys that hashed alike below some depth, or
// were hashed again at each level, would take hundreds of times longer.
func ParseInLinearTime(t *testing.T, format func(variant.Value) (string, error), parse func(string) error) {
	t.Helper()
	if testing.Short() {
		t.Skip("measures parsing for a few seconds")
	}
	perByte := func(s string) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				if err := parse(s); err != nil {
					b.Fatal(err)
				}
			}
		})
		return float64(r.NsPerOp()) / float64(len(s))
	}
	flat, deep := perByte(deepKeys(t, format, 1, 40_000)), perByte(deepKeys(t, format, 120, 40_000))
	t.Logf("%.1f ns per byte with keys 120 deep, %.1f with flat keys", deep, flat)
	if deep > 8*flat {
		t.Errorf("%.0f ns per byte with keys 120 deep, %.0f with flat keys", deep, flat)
	}
}

// deepKeys returns the text, in format, of a Dictionary of about size
// bytes whose keys are Arrays nested depth deep around distinct Ints.
func deepKeys(t *testing.T, format func(variant.Value) (string, error), depth, size int) string {
	t.Helper()
	key := func(i int) variant.Value {
		var k variant.Value = variant.Int(i)
		for range depth {
			k = &variant.Array{Values: []variant.Value{k}}
		}
		return k
	}
	text := func(n int) string {
		d := variant.NewDictionary(n)
		for i := range n {
			d.Set(key(i), nil)
		}
		s, err := format(d)
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return text(max(size/len(text(1)), 2))
}
