package gdfile

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"strings"
	"testing"

	"github.com/andybalholm/brotli"
)

// tinyValues returns n store_var frames of the smallest value: a 4-byte
// length prefix and a Nil header. Each costs 8 bytes of data.
func tinyValues(n int) []byte {
	b := make([]byte, 8*n)
	for i := range n {
		binary.LittleEndian.PutUint32(b[8*i:], 4)
	}
	return b
}

// bomb wraps plain in a compressed container of one block, the shape that
// compresses best. Brotli, which Wrap cannot write, is built by hand.
func bomb(t testing.TB, plain []byte, mode Compression) []byte {
	t.Helper()
	if mode != Brotli {
		b, err := Wrap(plain, Container{Format: Compressed, Compression: mode, BlockSize: len(plain)}, Options{})
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	var block bytes.Buffer
	w := brotli.NewWriterLevel(&block, brotli.BestCompression)
	w.Write(plain)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out := []byte("GCPF")
	for _, x := range []uint32{uint32(Brotli), uint32(len(plain)), uint32(len(plain)), uint32(block.Len()), 0} {
		out = binary.LittleEndian.AppendUint32(out, x)
	}
	out = append(out, block.Bytes()...)
	return append(out, "GCPF"...)
}

// allocated returns the bytes f allocates.
func allocated(f func()) uint64 {
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

// Bombs: 5.5 million of the smallest values, 44 MB of data that
// compresses to a few kilobytes (4756 bytes with Zstandard, 110 with
// Brotli). Unbounded, reading one allocated 1.15 GB.
func TestReadBombs(t *testing.T) {
	if testing.Short() {
		t.Skip("builds 44 MB bombs")
	}
	plain := tinyValues(5_500_000)
	files := map[string][]byte{"plain": plain}
	for _, mode := range []Compression{FastLZ, Deflate, Zstd, Gzip, Brotli} {
		files[mode.String()] = bomb(t, plain, mode)
	}
	for name, data := range files {
		// Over the default MaxSize: refused from the header, or the size
		// of a plain file.
		var err error
		n := allocated(func() { _, err = Read(data, Options{}) })
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "raise Options.MaxSize") {
			t.Errorf("%s: %v", name, err)
		}
		if n > 1<<20 {
			t.Errorf("%s (%d bytes): refusing it allocates %d bytes", name, len(data), n)
		}
		// Within a MaxSize of 64 MiB, but over its budget of 4 Mi values:
		// refused once the frames are counted, before any is decoded.
		o := Options{MaxSize: 64 << 20}
		n = allocated(func() { _, err = Read(data, o) })
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "MaxValues (4194304)") {
			t.Errorf("%s: %v", name, err)
		}
		if limit := uint64(3*len(plain)) + 4<<20; n > limit {
			t.Errorf("%s (%d bytes): refusing 44 MB of values allocates %d bytes, more than %d", name, len(data), n, limit)
		}
		t.Logf("%s: %d bytes; refused, with MaxSize 64 MiB, after allocating %.1f MB", name, len(data), float64(n)/1e6)
	}
}

// shapes are store_var data of the shapes that cost the most memory per
// byte, each as a single value of n elements in about size bytes.
func shapes(size int) map[string][]byte {
	frame := func(payload []byte) []byte {
		return append(binary.LittleEndian.AppendUint32(nil, uint32(len(payload))), payload...)
	}
	array := func(elem []byte) []byte {
		n := (size - 12) / len(elem)
		b := binary.LittleEndian.AppendUint32([]byte{28, 0, 0, 0}, uint32(n))
		return frame(append(b, bytes.Repeat(elem, n)...))
	}
	dict := func(entry []byte) []byte {
		n := (size - 12) / len(entry)
		b := binary.LittleEndian.AppendUint32([]byte{27, 0, 0, 0}, uint32(n))
		return frame(append(b, bytes.Repeat(entry, n)...))
	}
	return map[string][]byte{
		"store_var Nils":              tinyValues(size / 8),
		"Array of Nils":               array([]byte{0, 0, 0, 0}),
		"Array of ints":               array([]byte{2, 0, 0, 0, 1, 0, 0, 0}),
		"Array of empty Strings":      array([]byte{4, 0, 0, 0, 0, 0, 0, 0}),
		"Array of empty Arrays":       array([]byte{28, 0, 0, 0, 0, 0, 0, 0}),
		"Array of empty Dictionaries": array([]byte{27, 0, 0, 0, 0, 0, 0, 0}),
		"Dictionary int: Nil":         dict([]byte{2, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0}),
	}
}

// Read's documented bound: within MaxSize and MaxValues, reading the
// shapes that cost the most per byte allocates less than 3 × MaxSize +
// 128 bytes per value (measured: 96 for an Array of empty Dictionaries);
// one value over the budget is refused before the values are allocated.
func TestReadMemoryPerValue(t *testing.T) {
	const size = 2 << 20
	for name, data := range shapes(size) {
		n, _, err := CountFrames(data, LittleEndian)
		if err != nil {
			t.Fatal(err)
		}
		if n == 1 { // one value: count what it holds
			n += int(binary.LittleEndian.Uint32(data[8:]))
		}
		o := Options{MaxSize: size, MaxValues: n}
		var f *File
		all := allocated(func() { f, err = Read(data, o) })
		if err != nil || f == nil {
			t.Fatalf("%s: %v", name, err)
		}
		if limit := uint64(3*size + 128*n); all > limit {
			t.Errorf("%s: %d values allocate %d bytes, more than %d", name, n, all, limit)
		}
		t.Logf("%s: %d values, %.1f MB, %.0f bytes per value", name, n, float64(all)/1e6, float64(all-size)/float64(n))
		o.MaxValues--
		over := allocated(func() { f, err = Read(data, o) })
		if !errors.Is(err, ErrTooLarge) || !strings.Contains(err.Error(), "raise Options.MaxValues") {
			t.Errorf("%s, one value over: %v", name, err)
		}
		if over > 1<<20 {
			t.Errorf("%s: refusing it allocates %d bytes", name, over)
		}
	}
}
