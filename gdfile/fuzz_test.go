package gdfile

import (
	"bytes"
	"runtime"
	"testing"

	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/variant"
)

// fuzzMaxSize bounds what a fuzzed container may unwrap to.
const fuzzMaxSize = 1 << 20

// FuzzRead checks that no input makes Read or Unwrap panic or allocate out
// of proportion, and that what they accept writes back to the same data.
// The seeds are the engines' own files, cut to 1 KiB.
func FuzzRead(f *testing.F) {
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		for _, fx := range filefixture.Load(f, fam) {
			data := fx.Data(f)
			f.Add(data[:min(len(data), 1024)], fx.How == "password")
		}
	}
	key := PasswordKey(filefixture.Password)
	f.Fuzz(func(t *testing.T, data []byte, useKey bool) {
		o := Options{MaxSize: fuzzMaxSize, Dec: variant.DecOptions{AllowObjects: true, MaxDepth: 64}}
		if useKey {
			o.Key = &key
		}
		var before runtime.MemStats
		runtime.ReadMemStats(&before)
		plain, c, err := Unwrap(data, o)
		var after runtime.MemStats
		runtime.ReadMemStats(&after)
		if grew := after.TotalAlloc - before.TotalAlloc; grew > 64*uint64(len(data))+4*fuzzMaxSize+1<<20 {
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
