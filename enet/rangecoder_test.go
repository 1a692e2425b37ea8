package enet

import (
	"bytes"
	"math/rand/v2"
	"os/exec"
	"testing"
)

func rangeCoderInputs() [][]byte {
	r := rand.New(rand.NewPCG(1, 2))
	var in [][]byte
	in = append(in, []byte("a"), []byte("hello, hello, hello world"), bytes.Repeat([]byte{0}, 1400))
	for _, n := range []int{10, 100, 1000, 1400, 4000, 20000, 60000} {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		in = append(in, b)
		t := make([]byte, n)
		for i := range t {
			t[i] = "ENet packets: 0123456789 "[r.IntN(25)]
		}
		in = append(in, t)
		in = append(in, fill(n, uint32(n)))
	}
	return in
}

// TestRangeCoderMatchesC compresses with the Go and the C range coder and
// requires the same bytes, and each decodes the other's.
func TestRangeCoderMatchesC(t *testing.T) {
	bin := cpeer(t)
	for i, in := range rangeCoderInputs() {
		cmd := exec.Command(bin, "compress")
		cmd.Stdin = bytes.NewReader(in)
		want, err := cmd.Output()
		if err != nil {
			t.Fatal(err)
		}
		var rc RangeCoder
		got := rc.Compress(nil, in, 1<<20)
		if !bytes.Equal(got, want) {
			n := 0
			for n < len(got) && n < len(want) && got[n] == want[n] {
				n++
			}
			t.Fatalf("input %d (%d bytes): Go coded %d bytes, C %d; first difference at %d", i, len(in), len(got), len(want), n)
		}
		back, ok := rc.Decompress(nil, want, 1<<20)
		if !ok || !bytes.Equal(back, in) {
			t.Fatalf("input %d: decoding C's coding failed (ok %v, %d bytes)", i, ok, len(back))
		}
	}
}

func TestRangeCoderRoundTrip(t *testing.T) {
	var rc RangeCoder
	for i, in := range rangeCoderInputs() {
		z := rc.Compress(nil, in, 1<<20)
		out, ok := rc.Decompress(nil, z, len(in))
		if !ok || !bytes.Equal(out, in) {
			t.Fatalf("input %d: round trip failed", i)
		}
		if len(in) > 1 {
			if _, ok := rc.Decompress(nil, z, len(in)-1); ok {
				t.Fatalf("input %d: decoding past the limit not refused", i)
			}
		}
	}
}
