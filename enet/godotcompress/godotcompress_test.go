package godotcompress

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/gdvar/gdvar/enet"
)

// Bodies shorter than 16 bytes are padded to 16 before FastLZ, as the
// engine's Compression::compress does: they decompress to 16 bytes, the
// padding as trailing zeros.
func TestFastLZShortBody(t *testing.T) {
	c := NewFastLZ()
	body := []byte{0x83, 0xff, 0, 1, 0, 0, 0, 1} // an 8-byte command
	z := c.Compress([]byte("hdr"), body, 100)
	// Level 1: one literal run of the 16 padded bytes.
	want := append([]byte("hdr\x0f"), append(body, make([]byte, 8)...)...)
	if !bytes.Equal(z, want) {
		t.Fatalf("compressed %x, want %x", z, want)
	}
	out, ok := c.Decompress([]byte("hdr"), z[3:], 4096)
	if !ok || !bytes.Equal(out, append([]byte("hdr"), append(body, make([]byte, 8)...)...)) {
		t.Fatalf("decompressed %x %v", out, ok)
	}
	if c.Compress(nil, body, 10) != nil {
		t.Error("a result over the limit was returned")
	}
}

func TestRoundTrip(t *testing.T) {
	body := bytes.Repeat([]byte("godot enet "), 100)
	for _, m := range []Mode{FastLZ, Zstd} {
		var cfg enet.Config
		if err := Configure(&cfg, m); err != nil {
			t.Fatal(err)
		}
		c := cfg.Compressor
		z := c.Compress(nil, body, len(body))
		if z == nil || len(z) >= len(body) {
			t.Fatalf("%v: %d bytes compressed to %d", m, len(body), len(z))
		}
		out, ok := c.Decompress(nil, z, len(body))
		if !ok || !bytes.Equal(out, body) {
			t.Fatalf("%v: round trip failed", m)
		}
		if _, ok := c.Decompress(nil, z, len(body)-1); ok {
			t.Errorf("%v: decompressed beyond the limit", m)
		}
		if _, ok := c.Decompress(nil, []byte{0xff, 1, 2}, 100); ok {
			t.Errorf("%v: garbage accepted", m)
		}
	}
}

func TestParseMode(t *testing.T) {
	for i, s := range []string{"none", "Range_Coder", "FASTLZ", "zlib", "zstd"} {
		m, err := ParseMode(s)
		if err != nil || m != Mode(i) {
			t.Errorf("%q: %v %v", s, m, err)
		}
	}
	if _, err := ParseMode("lz4"); err == nil {
		t.Error("lz4 accepted")
	}
	var cfg enet.Config
	if err := Configure(&cfg, RangeCoder); err != nil || cfg.Compression != enet.CompressRangeCoder || cfg.Compressor != nil {
		t.Errorf("range coder: %+v %v", cfg, err)
	}
	if err := Configure(&cfg, 9); err == nil {
		t.Error("mode 9 accepted")
	}
}

// A host that speaks with Godot games set to COMPRESS_ZSTD.
func ExampleConfigure() {
	var cfg enet.Config
	if err := Configure(&cfg, Zstd); err != nil {
		panic(err)
	}
	h, err := enet.Listen("udp", "127.0.0.1:0", &cfg)
	if err != nil {
		panic(err)
	}
	defer h.Close()
	fmt.Println(Zstd)
	// Output: zstd
}
