package gdfile

import (
	"bytes"
	"runtime/metrics"
	"testing"

	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/variant"
)

// fuzzMaxSize bounds what a fuzzed container may unwrap to.
const fuzzMaxSize = 1 << 20

// FuzzRead checks that no input makes Read or Unwrap panic or allocate out
// of proportion, and that what they accept writes back to the same data.
//
// The seeds are small: the engines' own files, cut to their first 256
// bytes (whole when smaller: headers as the engines write them), and
// whole files of every container (plain in both byte orders, encrypted in
// both families, compressed in every mode, in one block and in several)
// around a few values, which open and read through. The fuzzer's
// minimizer tries every subset of an input's bytes, quadratic in its
// length: with seeds of 1 KiB, each new input took it seconds, and a 10 s
// run tried a few dozen inputs a second.
func FuzzRead(f *testing.F) {
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		for _, fx := range filefixture.Load(f, fam) {
			data := fx.Data(f)
			f.Add(data[:min(len(data), 256)], fx.How == "password")
		}
	}
	key := PasswordKey(filefixture.Password)
	for _, s := range fuzzSeeds(f, &key) {
		f.Add(s.data, s.useKey)
	}
	f.Fuzz(func(t *testing.T, data []byte, useKey bool) {
		o := Options{MaxSize: fuzzMaxSize, Dec: variant.DecOptions{AllowObjects: true, MaxDepth: 64}}
		if useKey {
			o.Key = &key
		}
		before := heapAllocs()
		plain, c, err := Unwrap(data, o)
		if grew := heapAllocs() - before; grew > 64*uint64(len(data))+4*fuzzMaxSize+1<<20 {
			t.Fatalf("Unwrap of %d bytes allocated %d bytes", len(data), grew)
		}
		if err != nil {
			return
		}
		if len(plain) > fuzzMaxSize {
			t.Fatalf("unwrapped %d bytes, more than MaxSize", len(plain))
		}
		// What unwraps wraps again (but Brotli, read-only) and unwraps to
		// the same data.
		if c.Format == Compressed && c.Compression == Brotli {
			return
		}
		again, err := Wrap(plain, c, o)
		if err != nil {
			t.Fatalf("Wrap of what Unwrap gave: %v", err)
		}
		back, _, err := Unwrap(again, o)
		if err != nil || !bytes.Equal(back, plain) {
			t.Fatalf("round trip: %v", err)
		}
		if file, err := Read(data, o); err == nil {
			if _, err := file.Encode(Options{Key: o.Key, Enc: variant.EncOptions{FullObjects: true, MaxDepth: 64}}); err != nil {
				t.Fatalf("Encode of what Read gave: %v", err)
			}
		}
	})
}

// heapAllocs returns the bytes allocated so far, as runtime/metrics counts
// them: without stopping the world, as runtime.ReadMemStats does (8 µs a
// call here, twice per input), and exact for large allocations, those of
// a decompression bomb; small ones are counted when their span is full,
// at most some hundreds of KB late, well within the bound checked.
func heapAllocs() uint64 {
	s := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(s)
	return s[0].Value.Uint64()
}

// fuzzSeed is a FuzzRead input.
type fuzzSeed struct {
	data   []byte
	useKey bool
}

// fuzzSeeds returns whole files of every container around a few values.
func fuzzSeeds(t testing.TB, key *Key) []fuzzSeed {
	t.Helper()
	values := []variant.Value{variant.Int(7), variant.String("ab"), variant.Vector2{X: 1, Y: 2},
		variant.NewArray(variant.Float(0.5), nil)}
	var seeds []fuzzSeed
	add := func(f *File, o Options) {
		b, err := f.Encode(o)
		if err != nil {
			t.Fatal(err)
		}
		seeds = append(seeds, fuzzSeed{b, o.Key != nil})
	}
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		add(&File{Godot: fam, Values: values}, Options{})
		add(&File{Godot: fam, BigEndian: true, Values: values}, Options{})
		add(&File{Godot: fam, Values: values, Container: Container{Format: Encrypted, Family: fam}}, Options{Key: key})
	}
	for _, mode := range []Compression{FastLZ, Deflate, Zstd, Gzip} {
		for _, block := range []int{0, 16} {
			add(&File{Values: values, Container: Container{Format: Compressed, Compression: mode, BlockSize: block}}, Options{})
		}
	}
	plain, err := (&File{Values: values}).Encode(Options{})
	if err != nil {
		t.Fatal(err)
	}
	return append(seeds, fuzzSeed{bomb(t, plain, Brotli), false})
}

var sink []byte

// TestHeapAllocsSeesLargeAllocations checks the measure FuzzRead bounds
// allocations with: an allocation of 8 MiB shows.
func TestHeapAllocsSeesLargeAllocations(t *testing.T) {
	before := heapAllocs()
	sink = make([]byte, 8<<20)
	if grew := heapAllocs() - before; grew < 8<<20 {
		t.Errorf("8 MiB allocated, %d bytes counted", grew)
	}
	sink = nil
}

// TestFuzzSeedsOpen checks that the made seeds are whole files that read
// through, so that the fuzzer starts from inputs that reach every step.
func TestFuzzSeedsOpen(t *testing.T) {
	key := PasswordKey(filefixture.Password)
	for i, s := range fuzzSeeds(t, &key) {
		o := Options{}
		if s.useKey {
			o.Key = &key
		}
		if f, err := Read(s.data, o); err != nil || len(f.Values) != 4 {
			t.Errorf("seed %d (%d bytes): %v", i, len(s.data), err)
		}
		if len(s.data) > 256 {
			t.Errorf("seed %d: %d bytes", i, len(s.data))
		}
	}
}
