package resource

import (
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// TestDiffTolerance: reals within the tolerance, or that round to the
// same 32-bit real (a subnormal written with its float32's few digits),
// are equal; others differ.
func TestDiffTolerance(t *testing.T) {
	sub := float64(float32(1.7287819e-41)) // a subnormal float32
	file := func(x float64) *File {
		return &File{Type: "Resource", Properties: []variant.Property{{Name: "v", Value: variant.Vector3{X: x}}}}
	}
	for _, c := range []struct {
		a, b float64
		tol  float64
		same bool
	}{
		{sub, 1.7288e-41, 1e-5, true},    // 1.04e-5 apart, the same float32
		{sub, 1.7288e-41, 0, false},      // no tolerance: exact
		{1, 1.000001, 1e-5, true},        // within 1e-5
		{1, 1.0001, 1e-5, false},         // beyond, and other float32s
		{1e-41, 1.0002e-41, 1e-5, false}, // subnormals that are other float32s
	} {
		d := Diff(file(c.a), file(c.b), DiffOptions{Tolerance: c.tol})
		if (d == "") != c.same {
			t.Errorf("%v vs %v, tolerance %v: %q, want same %v", c.a, c.b, c.tol, d, c.same)
		}
	}
}

// TestDiffToleranceKeys: with a tolerance, a Dictionary key holding reals
// matches the key that is equal within it (a Vector2 key written with its
// float32's digits reads back as another float64).
func TestDiffToleranceKeys(t *testing.T) {
	x := float64(float32(7.8812993e+17))
	dict := func(x float64, v int) *File {
		d := variant.NewDictionary(2)
		d.Set(variant.String("a"), variant.Int(1))
		d.Set(variant.Vector2{X: x, Y: x}, variant.Int(v))
		return &File{Type: "Resource", Properties: []variant.Property{{Name: "d", Value: d}}}
	}
	if d := Diff(dict(x, 2), dict(7.8812993e+17, 2), DiffOptions{Tolerance: 1e-5}); d != "" {
		t.Errorf("keys within the tolerance: %s", d)
	}
	if d := Diff(dict(x, 2), dict(7.8812993e+17, 2), DiffOptions{}); d == "" {
		t.Error("keys compared exactly: no difference")
	}
	if d := Diff(dict(x, 2), dict(7.8812993e+17, 3), DiffOptions{Tolerance: 1e-5}); d == "" {
		t.Error("values of matching keys differ: no difference")
	}
	if d := Diff(dict(x, 2), dict(7.9e+17, 2), DiffOptions{Tolerance: 1e-5}); d == "" {
		t.Error("keys beyond the tolerance: no difference")
	}
}

// TestDiffNearKeysBounded: matching keys within the tolerance stops after
// maxNearWork values compared, so that dictionaries whose keys all differ
// slightly cost time in proportion to their size; below it they match.
func TestDiffNearKeysBounded(t *testing.T) {
	pair := func(n int) (*File, *File) {
		a, b := variant.NewDictionary(n), variant.NewDictionary(n)
		for i := range n {
			x := float64(i + 1)
			a.Set(variant.Vector2{X: x}, variant.Int(i))
		}
		for i := n - 1; i >= 0; i-- { // reversed: the k-th key is found after n-k others
			x := float64(i+1) * (1 + 1e-7)
			b.Set(variant.Vector2{X: x}, variant.Int(i))
		}
		f := func(d *variant.Dictionary) *File {
			return &File{Type: "Resource", Properties: []variant.Property{{Name: "d", Value: d}}}
		}
		return f(a), f(b)
	}
	small, smallB := pair(100) // 5,050 comparisons
	if d := Diff(small, smallB, DiffOptions{Tolerance: 1e-5}); d != "" {
		t.Errorf("100 keys: %s", d)
	}
	n := 1448 // about 2^20 key comparisons of 3 values each: three times the bound
	big, bigB := pair(n)
	if d := Diff(big, bigB, DiffOptions{Tolerance: 1e-5}); d == "" {
		t.Errorf("%d keys matched past %d values compared", n, maxNearWork)
	}
}
