package gdtext_test

import (
	"testing"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
)

// deepKeys returns a Dictionary of about size bytes of text whose keys
// are Arrays nested depth deep around distinct Ints.
func deepKeys(t testing.TB, depth, size int) string {
	t.Helper()
	key := func(i int) variant.Value {
		var k variant.Value = variant.Int(i)
		for range depth {
			k = &variant.Array{Values: []variant.Value{k}}
		}
		return k
	}
	format := func(n int) string {
		d := variant.NewDictionary(n)
		for i := range n {
			d.Set(key(i), nil)
		}
		v := variant.Value(d)
		s, err := gdtext.Format(v, gdtext.Options{})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	return format(max(size/len(format(1)), 2))
}

// TestDeepKeysParseInLinearTime checks that gdtext.Parse takes about as
// long per byte for a Dictionary of deep keys as for one of flat keys
// (Dictionary keys are hashed whole, once): at most 8 times, where keys
// that hashed alike below some depth, or were hashed again at each level,
// would take hundreds of times longer.
func TestDeepKeysParseInLinearTime(t *testing.T) {
	if testing.Short() {
		t.Skip("measures parsing for a few seconds")
	}
	perByte := func(s string) float64 {
		r := testing.Benchmark(func(b *testing.B) {
			for b.Loop() {
				if _, err := gdtext.Parse(s, gdtext.ParseOptions{}); err != nil {
					b.Fatal(err)
				}
			}
		})
		return float64(r.NsPerOp()) / float64(len(s))
	}
	flat, deep := perByte(deepKeys(t, 1, 40_000)), perByte(deepKeys(t, 120, 40_000))
	t.Logf("%.1f ns per byte with keys 120 deep, %.1f with flat keys", deep, flat)
	if deep > 8*flat {
		t.Errorf("%.0f ns per byte with keys 120 deep, %.0f with flat keys", deep, flat)
	}
}
