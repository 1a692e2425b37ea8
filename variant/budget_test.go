package variant

import (
	"errors"
	"testing"
)

// DecodeBudget takes the value and what it holds from the budget, packed
// numeric arrays excepted, and refuses a value that needs more before
// allocating it.
func TestDecodeBudget(t *testing.T) {
	array := func(n int) []byte { // an Array of n Nils
		b := []byte{byte(TypeArray), 0, 0, 0, byte(n), byte(n >> 8), byte(n >> 16), 0}
		return append(b, make([]byte, 4*n)...)
	}
	packed := append([]byte{byte(TypePackedInt32Array), 0, 0, 0, 0, 1, 0, 0}, make([]byte, 4*256)...)
	dict := []byte{byte(TypeDictionary), 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}
	cases := []struct {
		name   string
		in     []byte
		budget int64
		left   int64 // -1: ErrTooLarge
	}{
		{"nil", []byte{0, 0, 0, 0}, 1, 0},
		{"nil, no budget", []byte{0, 0, 0, 0}, 0, -1},
		{"Array of 10", array(10), 11, 0},
		{"Array of 10, one short", array(10), 10, -1},
		{"Array of 100000", array(100000), 1000, -1},
		{"PackedInt32Array of 256", packed, 1, 0},
		{"Dictionary of 2", dict, 5, 2},
	}
	dm, _ := DecOptions{}.DecMode()
	for _, c := range cases {
		budget := c.budget
		v, _, err := dm.DecodeBudget(c.in, &budget)
		if c.left < 0 {
			if !errors.Is(err, ErrTooLarge) || v != nil {
				t.Errorf("%s: %v, %v; want ErrTooLarge", c.name, v, err)
			}
			continue
		}
		if err != nil || budget != c.left {
			t.Errorf("%s: %v, %d left; want %d", c.name, err, budget, c.left)
		}
	}
	// A refused container is not allocated.
	budget := int64(10)
	big := array(1 << 20)
	if a := testing.AllocsPerRun(5, func() { budget = 10; dm.DecodeBudget(big, &budget) }); a > 4 {
		t.Errorf("a refused Array of 2^20 elements: %v allocations", a)
	}
}
