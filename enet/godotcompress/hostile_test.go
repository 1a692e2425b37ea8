package godotcompress

import (
	"bytes"
	"compress/zlib"
	"runtime"
	"testing"

	"github.com/gdvar/gdvar/enet"
)

// zstdRLEFrame is a Zstandard frame without a content size whose window
// is 2^windowLog bytes and whose blocks are RLE blocks of block bytes
// each, blocks of them: n bytes of frame make n/4*block bytes of output.
func zstdRLEFrame(windowLog uint, block, blocks int) []byte {
	f := []byte{0x28, 0xb5, 0x2f, 0xfd, 0x00, byte(windowLog-10) << 3}
	for i := range blocks {
		h := uint32(block)<<3 | 1<<1 // RLE
		if i == blocks-1 {
			h |= 1
		}
		f = append(f, byte(h), byte(h>>8), byte(h>>16), 'x')
	}
	return f
}

// hostileBodies are datagram bodies (at most 3,992 bytes) that claim or
// expand to far more than a datagram, for each compression mode.
func hostileBodies(t testing.TB) map[string][]byte {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(make([]byte, 1<<20))
	w.Close()
	zb := z.Bytes()
	if len(zb) > 3992 {
		t.Fatalf("zlib bomb of %d bytes", len(zb))
	}
	// FastLZ level 2 (0x20): a literal byte, then long matches (length
	// code 7, extended by 255, 255, 255, 0) at distance 1: 774 bytes out
	// for every 6 in.
	lz := []byte{0x20, 'x'}
	for len(lz)+6 <= 3992 {
		lz = append(lz, 7<<5, 255, 255, 255, 0, 0)
	}
	if out, _ := NewFastLZ().Decompress(nil, lz, 1<<20); len(out) < 256<<10 {
		t.Fatalf("the FastLZ body expands to only %d bytes", len(out))
	}
	rc := new(enet.RangeCoder)
	rcb := rc.Compress(nil, make([]byte, 1<<20), 1<<20)
	if len(rcb) > 3992 {
		rcb = rcb[:3992]
	}
	return map[string][]byte{
		"zstd window 1 MiB":   zstdRLEFrame(20, 128<<10, 998)[:3992],
		"zstd window 128 KiB": zstdRLEFrame(17, 128<<10, 998)[:3992],
		"zstd window 4 KiB":   zstdRLEFrame(12, 4<<10, 998)[:3992],
		"zstd window 1 KiB":   zstdRLEFrame(10, 1<<10, 998)[:3992],
		"zlib":                zb,
		"fastlz":              lz,
		"rangecoder":          rcb,
	}
}

// decompressors are every mode's decompressor, as a host uses them.
func decompressors(t testing.TB) map[string]enet.Compressor {
	out := map[string]enet.Compressor{}
	for _, m := range []Mode{RangeCoder, FastLZ, Zlib, Zstd} {
		var cfg enet.Config
		if err := Configure(&cfg, m); err != nil {
			t.Fatal(err)
		}
		c := cfg.Compressor
		if c == nil {
			c = enet.NewCompressor(cfg.Compression)
		}
		out[m.String()] = c
	}
	return out
}

// A hostile compressed body costs a host at most about one datagram of
// output and a few allocations, in every mode: the limit is applied while
// decompressing, and decoders are made once per host, not per datagram.
func TestHostileDecompressionBounded(t *testing.T) {
	bodies := hostileBodies(t)
	const limit = 4096 - 4
	for mode, c := range decompressors(t) {
		for name, body := range bodies {
			dst := make([]byte, 0, 8192)
			c.Decompress(dst, body, limit) // warm up pools and buffers
			var out []byte
			var ok bool
			allocs := testing.AllocsPerRun(20, func() {
				out, ok = c.Decompress(dst[:4], body, limit)
			})
			if ok && len(out)-4 > limit {
				t.Errorf("%s / %s: %d bytes out, limit %d", mode, name, len(out)-4, limit)
			}
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			const runs = 50
			for range runs {
				c.Decompress(dst[:4], body, limit)
			}
			runtime.ReadMemStats(&after)
			perRun := (after.TotalAlloc - before.TotalAlloc) / runs
			t.Logf("%s / %s: %.0f allocations, %d bytes a datagram", mode, name, allocs, perRun)
			if allocs > 4 || perRun > 16<<10 {
				t.Errorf("%s / %s: %.0f allocations and %d bytes allocated per hostile datagram; want at most 4 and 16 KiB",
					mode, name, allocs, perRun)
			}
		}
	}
}

// The zstd decoder stops a frame once its output passes the limit: the
// output it produces is bounded by the limit plus one block of the
// largest window it accepts (4 KiB), whatever the frame says.
func TestZstdStopsAtLimit(t *testing.T) {
	z, err := NewZstd()
	if err != nil {
		t.Fatal(err)
	}
	for _, wl := range []uint{10, 11, 12} {
		f := zstdRLEFrame(wl, 1<<wl, 998)
		out, ok := z.Decompress(make([]byte, 0, 1<<20), f, 4092)
		if ok {
			t.Errorf("window 2^%d: accepted", wl)
		}
		if len(out) > 4092+4096 {
			t.Errorf("window 2^%d: decoded %d bytes before stopping", wl, len(out))
		}
	}
	// Frames with a window larger than a datagram are refused from their
	// header.
	if out, ok := z.Decompress(nil, zstdRLEFrame(13, 1<<13, 2), 1<<20); ok || len(out) > 0 {
		t.Errorf("8 KiB window accepted: %d bytes", len(out))
	}
}

// Every body a datagram can carry round-trips through each mode with the
// limits above, compressible or not.
func TestEveryBodySizeRoundTrips(t *testing.T) {
	for mode, c := range decompressors(t) {
		for _, n := range []int{1, 15, 16, 100, 1023, 1024, 1025, 2048, 4000, 4092} {
			for _, body := range [][]byte{bytes.Repeat([]byte{7}, n), randomBytes(n)} {
				z := c.Compress(nil, body, 1<<20)
				if z == nil {
					t.Fatalf("%s: %d bytes not compressed", mode, n)
				}
				out, ok := c.Decompress(nil, z, 4092)
				if mode == "fastlz" && n < 16 {
					out = out[:min(len(out), n)]
				}
				if !ok || !bytes.Equal(out, body) {
					t.Errorf("%s: %d bytes: round trip failed (%v)", mode, n, ok)
				}
			}
		}
	}
}

func randomBytes(n int) []byte {
	b := make([]byte, n)
	x := uint32(2463534242)
	for i := range b {
		x ^= x << 13
		x ^= x >> 17
		x ^= x << 5
		b[i] = byte(x)
	}
	return b
}

// FuzzDecompress feeds any body to every mode's decompressor: nothing
// panics, nothing beyond the limit is returned as valid, and what a
// decompressor returns holds at most the limit and one Zstandard block.
func FuzzDecompress(f *testing.F) {
	for _, b := range hostileBodies(f) {
		f.Add(b)
	}
	for _, c := range decompressors(f) {
		f.Add(c.Compress(nil, bytes.Repeat([]byte("enet "), 200), 1<<20))
	}
	cs := decompressors(f)
	f.Fuzz(func(t *testing.T, body []byte) {
		const limit = 4092
		for mode, c := range cs {
			out, ok := c.Decompress(make([]byte, 4, 64), body, limit)
			if ok && len(out)-4 > limit {
				t.Fatalf("%s: %d bytes accepted, limit %d", mode, len(out)-4, limit)
			}
			if len(out)-4 > limit+maxZstdWindow {
				t.Fatalf("%s: %d bytes decoded, limit %d", mode, len(out)-4, limit)
			}
		}
	})
}
