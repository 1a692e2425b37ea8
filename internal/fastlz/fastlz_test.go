package fastlz

import (
	"bytes"
	"testing"
)

// Blocks under 16 bytes are padded to 16, as the engine pads them: they
// decompress to 16 bytes.
func TestCompressBlockPads(t *testing.T) {
	z := CompressBlock(nil, []byte("abc"))
	out, err := Decompress(nil, z, 64, 64)
	if err != nil || !bytes.Equal(out, append([]byte("abc"), make([]byte, 13)...)) {
		t.Fatalf("%x: %v", out, err)
	}
	big := bytes.Repeat([]byte("abcdefgh"), 100)
	if !bytes.Equal(CompressBlock(nil, big), Compress(nil, big)) {
		t.Error("a block of 16 bytes or more was changed before compression")
	}
}

// FuzzFastLZ checks the decompressor on any input, and that the compressor
// round-trips any input.
func FuzzFastLZ(f *testing.F) {
	f.Add([]byte("aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaab"), 64)
	f.Add([]byte{0x1f, 1, 2, 3}, 16)
	f.Fuzz(func(t *testing.T, in []byte, limit int) {
		limit = min(max(limit, 0), 1<<16)
		// After data of an earlier block, which no match may reach.
		if out, err := Decompress([]byte("earlier"), in, limit, limit); err == nil && len(out)-7 > limit || string(out[:7]) != "earlier" {
			t.Fatalf("%d bytes out, limit %d", len(out)-7, limit)
		}
		packed := Compress(nil, in)
		back, err := Decompress(nil, packed, len(in), len(in))
		if len(in) > 0 && (err != nil || !bytes.Equal(back, in)) {
			t.Fatalf("round trip of %d bytes: %v", len(in), err)
		}
	})
}
