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
