package variant

import (
	"strings"
	"testing"
)

// TestMathRowChecks checks that the init check refuses a row whose Go type
// is not exactly its components: the unsafe code of math.go relies on it.
func TestMathRowChecks(t *testing.T) {
	for ty := range TypeCount {
		if err := checkMathRow(ty, &typeFacts[ty]); err != nil {
			t.Errorf("%v: %v", ty, err)
		}
	}
	bad := []struct {
		t    Type
		f    TypeFacts
		want string
	}{
		{TypeVector2, TypeFacts{Size: 8, Reals: 2}, "without a Go type"},
		{TypeVector2, TypeFacts{Size: 8, Reals: 2, Proto: Vector3{}}, "Proto is a Vector3"},
		{TypeVector3, TypeFacts{Size: 8, Reals: 2, Proto: Vector3{}}, "not exactly 2 components"},
		{TypeVector3, TypeFacts{Size: 16, Reals: 4, Proto: Vector3{}}, "not exactly 4 components"},
		{TypeVector3, TypeFacts{Size: 16, Reals: 3, Proto: Vector3{}}, "Size 16"},
		{TypeVector2i, TypeFacts{Size: 8, Reals: 2, Proto: Vector2i{}}, "not exactly 2 components"},
		{TypeColor, TypeFacts{Size: 16, Ints: 4, Proto: Color{}}, "should be int32 at offset 0"},
		{TypeColor, TypeFacts{Size: 16, Ints: 2, Floats: 2, Proto: Color{}}, "of one kind"},
		{TypeBasis, TypeFacts{Size: 36, Reals: 9, Proto: Basis{}, order: "\x00\x01"}, "not a permutation"},
		{TypeBasis, TypeFacts{Size: 36, Reals: 9, Proto: Basis{}, order: "\x00\x00\x01\x02\x03\x04\x05\x06\x07"}, "not a permutation"},
		{TypeBasis, TypeFacts{Size: 36, Reals: 9, Proto: Basis{}, order: "\x00\x01\x02\x03\x04\x05\x06\x07\x09"}, "not a permutation"},
	}
	for _, c := range bad {
		err := checkMathRow(c.t, &c.f)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v %+v: %v, want %q", c.t, c.f, err, c.want)
		}
	}
}

// TestMathDataRefusesLookalikes checks that a Go type of another package
// that embeds a math type, and so has its Type method, is not read as
// one.
func TestMathDataRefusesLookalikes(t *testing.T) {
	type padded struct {
		s string
		Vector3
	}
	v := padded{"x", Vector3{1, 2, 3}}
	if v.Type() != TypeVector3 {
		t.Fatal("the embedded Type method is not promoted")
	}
	if c := AppendComponents(nil, v); c != nil {
		t.Errorf("AppendComponents = %v", c)
	}
	if _, err := Encode(v); err == nil {
		t.Error("Encode accepts it")
	}
	if c := AppendComponents(nil, Vector3{1, 2, 3}); len(c) != 3 || c[2] != 3 {
		t.Errorf("AppendComponents(Vector3) = %v", c)
	}
	if AppendComponents(nil, nil) != nil || AppendComponents(nil, Int(3)) != nil {
		t.Error("AppendComponents of a non-math value appends")
	}
	if MathValue(TypeVector3, []float64{1, 2}) != nil || MathValue(TypeInt, []float64{1}) != nil || MathValue(TypeUnknown, nil) != nil {
		t.Error("MathValue builds from too few components or for a non-math type")
	}
}
