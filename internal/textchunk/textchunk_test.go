package textchunk

import (
	"strconv"
	"testing"
)

func TestStrings(t *testing.T) {
	var c Chunks
	var got []string
	var want []string
	long := string(make([]byte, Short+1))
	for i := range 2000 {
		s := "player" + strconv.Itoa(i)
		if i%100 == 0 {
			s = long
		}
		if i%7 == 0 {
			s = ""
		}
		raw := []byte(s)
		got = append(got, c.String(raw))
		clear(raw) // the caller's buffer changes; the string must not
		want = append(want, s)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d: %q, want %q", i, got[i], want[i])
		}
	}
	if len(c.block) != Max {
		t.Errorf("block size %d after many strings, want %d", len(c.block), Max)
	}
}

func TestAllocations(t *testing.T) {
	raw := []byte("player12345")
	var c Chunks
	if n := testing.AllocsPerRun(1000, func() { c.String(raw) }); n > 0.01 {
		t.Errorf("%v allocations a string", n)
	}
}

// TestStringsFromLargerInput takes the strings from one larger buffer, as
// decoders do, so that the short ones are copied as whole words: each
// string must hold its own bytes, whatever was copied past the end of the
// one before.
func TestStringsFromLargerInput(t *testing.T) {
	var in []byte
	var ends []int
	for i := range 3000 {
		d := strconv.Itoa(i * 7919)
		in = append(in, d[:min(i%9, len(d))]...)
		in = append(in, "abcdefghijklmnopqrstuvwxyz"[:i%23]...)
		ends = append(ends, len(in))
	}
	var c Chunks
	var got, want []string
	start := 0
	for _, end := range ends {
		got = append(got, c.String(in[start:end]))
		want = append(want, string(in[start:end]))
		start = end
	}
	clear(in)
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("string %d: %q, want %q", i, got[i], want[i])
		}
	}
}
