package gdfile

import (
	"bytes"
	"errors"
	"io"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/variant"
)

// Wrapping the engine's unwrapped data again gives the engine's bytes
// wherever the engine is deterministic: encryption (with the file's IV) and
// FastLZ, which is the engine's own algorithm.
func TestWrapMatchesEngine(t *testing.T) {
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		for _, fx := range filefixture.Load(t, fam) {
			data := fx.Data(t)
			o := fixtureOptions(fx)
			plain, c, err := Unwrap(data, o)
			if err != nil {
				t.Fatalf("%v %s: %v", fam, fx.File, err)
			}
			again, err := Wrap(plain, c, o)
			if err != nil {
				t.Fatalf("%v %s: %v", fam, fx.File, err)
			}
			exact := c.Format != Compressed || c.Compression == FastLZ
			if exact && !bytes.Equal(again, data) {
				t.Errorf("%v %s: Wrap gives %d bytes that differ from the engine's %d", fam, fx.File, len(again), len(data))
			}
			back, c2, err := Unwrap(again, o)
			if err != nil || !bytes.Equal(back, plain) || c2.Format != c.Format || c2.Compression != c.Compression {
				t.Errorf("%v %s: round trip: %v", fam, fx.File, err)
			}
		}
	}
}

func TestPasswordKey(t *testing.T) {
	k := PasswordKey("gdvar-secret")
	// md5("abc") in lower-case hex is the key of the password "abc".
	if k := PasswordKey("abc"); string(k[:]) != "900150983cd24fb0d6963f7d28e17f72" {
		t.Fatalf("key %q", k[:])
	}
	for _, c := range k {
		if !strings.ContainsRune("0123456789abcdef", rune(c)) {
			t.Fatalf("key %q is not lower-case hex", k[:])
		}
	}
	if _, err := ParseKey("00"); err == nil {
		t.Error("ParseKey accepted a short key")
	}
	k2, err := ParseKey(strings.Repeat("0a", 32))
	if err != nil || k2[31] != 10 {
		t.Errorf("ParseKey: %v %v", k2, err)
	}
}

func TestWrongKeyAndDamage(t *testing.T) {
	good := PasswordKey("right")
	bad := PasswordKey("wrong")
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		data, err := Wrap([]byte("some save data, long enough for two blocks"), Container{Format: Encrypted, Family: fam}, Options{Key: &good})
		if err != nil {
			t.Fatal(err)
		}
		if _, _, err := Unwrap(data, Options{Key: &bad}); !errors.Is(err, ErrWrongKey) {
			t.Errorf("%v: wrong key: %v", fam, err)
		}
		if _, _, err := Unwrap(data, Options{}); !errors.Is(err, ErrNeedKey) {
			t.Errorf("%v: no key: %v", fam, err)
		}
		damaged := bytes.Clone(data)
		damaged[len(damaged)-20] ^= 1 // a byte of the data, not of the padding
		if _, _, err := Unwrap(damaged, Options{Key: &good}); !errors.Is(err, ErrWrongKey) {
			t.Errorf("%v: damaged: %v", fam, err)
		}
		if _, _, err := Unwrap(data[:len(data)-1], Options{Key: &good}); !errors.Is(err, ErrTruncated) || !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("%v: truncated: %v", fam, err)
		}
		plain, c, err := Unwrap(data, Options{Key: &good})
		if err != nil || string(plain) != "some save data, long enough for two blocks" || c.Family != fam {
			t.Errorf("%v: %q %v %v", fam, plain, c, err)
		}
	}
}

func TestCompressedModes(t *testing.T) {
	// Sizes around the block boundaries, with repetitive and random data.
	rnd := make([]byte, 3*DefaultBlockSize+5)
	x := uint32(1)
	for i := range rnd {
		x = x*1664525 + 1013904223
		rnd[i] = byte(x >> 24)
	}
	inputs := [][]byte{nil, []byte("a"), []byte("0123456789abcde"), bytes.Repeat([]byte("ab"), 2048),
		bytes.Repeat([]byte("xyz"), 5000), rnd, rnd[:DefaultBlockSize]}
	for _, mode := range []Compression{FastLZ, Deflate, Zstd, Gzip} {
		for _, in := range inputs {
			for _, bs := range []int{0, 100} {
				c := Container{Format: Compressed, Compression: mode, BlockSize: bs}
				data, err := Wrap(in, c, Options{})
				if err != nil {
					t.Fatal(err)
				}
				out, c2, err := Unwrap(data, Options{})
				if err != nil || !bytes.Equal(out, in) {
					t.Fatalf("%v, %d bytes, block size %d: %v", mode, len(in), bs, err)
				}
				if c2.Compression != mode || c2.BlockSize != max(bs, DefaultBlockSize*(1-min(bs, 1))) {
					t.Errorf("%v: container %v", mode, c2)
				}
			}
		}
	}
	if _, err := Wrap([]byte("x"), Container{Format: Compressed, Compression: Brotli}, Options{}); !errors.Is(err, ErrUnsupported) {
		t.Errorf("Brotli write: %v", err)
	}
	// Any block size the header can hold is written as it is; only one
	// that does not fit is refused.
	for _, bs := range []int{1 << 31, 1<<32 - 1} {
		data, err := Wrap([]byte("abc"), Container{Format: Compressed, Compression: Zstd, BlockSize: bs}, Options{})
		if err != nil {
			t.Fatalf("block size %d: %v", bs, err)
		}
		if out, c, err := Unwrap(data, Options{}); err != nil || string(out) != "abc" || c.BlockSize != bs {
			t.Errorf("block size %d: %q, %v, %v", bs, out, c, err)
		}
	}
	for _, bs := range []int{-1, 1 << 32} {
		if _, err := Wrap([]byte("abc"), Container{Format: Compressed, Compression: Zstd, BlockSize: bs}, Options{}); err == nil {
			t.Errorf("block size %d written", bs)
		}
	}
}

func TestCompressedLimits(t *testing.T) {
	data, err := Wrap(bytes.Repeat([]byte{0}, 100000), Container{Format: Compressed, Compression: Zstd}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if _, _, err := Unwrap(data, Options{MaxSize: 99999}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("MaxSize: %v", err)
	}
	// A header that claims 4 GiB in one block of a tiny file.
	bomb := []byte("GCPF\x02\x00\x00\x00\xff\xff\xff\x7f\xff\xff\xff\x7f\x09\x00\x00\x00")
	if _, _, err := Unwrap(bomb, Options{}); !errors.Is(err, ErrTooLarge) {
		t.Errorf("huge claim: %v", err)
	}
	// A block that decompresses to less than announced.
	short := bytes.Clone(data)
	short[12]++ // total + 1
	if _, _, err := Unwrap(short, Options{}); !errors.Is(err, ErrCorrupt) {
		t.Errorf("short block: %v", err)
	}
	if _, _, err := Unwrap(data[:40], Options{}); !errors.Is(err, ErrTruncated) {
		t.Errorf("truncated: %v", err)
	}
	zero := bytes.Clone(data)
	zero[8], zero[9], zero[10], zero[11] = 0, 0, 0, 0
	if _, _, err := Unwrap(zero, Options{}); !errors.Is(err, ErrCorrupt) || !strings.Contains(err.Error(), "block size 0") {
		t.Errorf("block size 0: %v", err)
	}
}

func TestDetect(t *testing.T) {
	for in, want := range map[string]Format{"GDEC...": Encrypted, "GCPF": Compressed, "GDE": Plain, "\x08\x00\x00\x00": Plain, "": Plain} {
		if got := Detect([]byte(in)); got != want {
			t.Errorf("Detect(%q) = %v, want %v", in, got, want)
		}
	}
}

// A length near 2^64 must not wrap around when padded to whole blocks.
func TestEncryptedHugeLength(t *testing.T) {
	k := PasswordKey("x")
	for _, hdr := range []string{
		"GDEC" + strings.Repeat("\x00", 16) + "\xf9\xff\xff\xff\xff\xff\xff\xff" + strings.Repeat("\x00", 32),
		"GDEC\x01\x00\x00\x00" + strings.Repeat("\x00", 16) + "\xf9\xff\xff\xff\xff\xff\xff\xff" + strings.Repeat("\x00", 32),
	} {
		if _, _, err := Unwrap([]byte(hdr), Options{Key: &k}); !errors.Is(err, ErrTruncated) {
			t.Errorf("%q: %v", hdr[:8], err)
		}
	}
}

// TestWrapReusesWriters: a zlib or gzip writer costs about 1 MB to set up;
// Wrap made one per block (16 MB for 64 KiB in 4 KiB blocks) and now
// takes one from a pool for all of them.
func TestWrapReusesWriters(t *testing.T) {
	data := make([]byte, 64<<10)
	for i := range data {
		data[i] = byte(i * i >> 7)
	}
	for _, mode := range []Compression{Deflate, Gzip} {
		c := Container{Format: Compressed, Compression: mode, BlockSize: 4096}
		Wrap(data, c, Options{}) // fills the pool
		var out []byte
		n := allocated(func() {
			var err error
			if out, err = Wrap(data, c, Options{}); err != nil {
				t.Fatal(err)
			}
		})
		if n > 2<<20 {
			t.Errorf("%v: Wrap of 16 blocks allocated %d bytes", mode, n)
		}
		if back, _, err := Unwrap(out, Options{}); err != nil || !bytes.Equal(back, data) {
			t.Errorf("%v: round trip: %v", mode, err)
		}
	}
}
