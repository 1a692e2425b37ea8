package growbuf

import (
	"bytes"
	"testing"
)

func TestGrow(t *testing.T) {
	for _, c := range []struct {
		len, cap, n, most int
		wantCap           int
	}{
		{0, 0, 1, 1 << 20, 4096},        // at least 4 KiB
		{10, 16, 6, 1 << 20, 16},        // room already
		{5000, 5000, 1, 1 << 20, 10000}, // twice the capacity
		{5000, 5000, 1, 6000, 6000},     // but no more than most
		{5000, 5000, 3000, 6000, 8000},  // unless n needs more
		{100, 100, 10, 50, 110},         // most below the length: just n more
	} {
		dst := make([]byte, c.len, c.cap)
		for i := range dst {
			dst[i] = byte(i)
		}
		got := Grow(dst, c.n, c.most)
		if cap(got) != c.wantCap || !bytes.Equal(got, dst) {
			t.Errorf("Grow(len %d cap %d, %d, %d): len %d cap %d, want cap %d and the same bytes",
				c.len, c.cap, c.n, c.most, len(got), cap(got), c.wantCap)
		}
	}
}
