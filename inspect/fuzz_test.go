package inspect

import (
	"io"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// FuzzValue checks that Value never panics and always reaches the
// decoder's verdict, in both families, with and without objects.
func FuzzValue(f *testing.F) {
	golden(f, func(_ string, b []byte, fam variant.Family, objects bool) {
		if len(b) <= 4096 {
			f.Add(b, uint8(fam), objects)
		}
	})
	f.Fuzz(func(t *testing.T, b []byte, fam uint8, objects bool) {
		family := variant.Godot4
		if fam%2 == 1 {
			family = variant.Godot3
		}
		agree(t, "fuzz", b, Options{Godot: family, AllowObjects: objects, MaxDepth: 64})
		d := Value(b, Options{Godot: family, AllowObjects: objects, MaxDepth: 64})
		d.WriteTo(io.Discard)
	})
}

// FuzzFile checks that File never panics on any input, containers
// included, and never holds more than a bounded amount of data.
func FuzzFile(f *testing.F) {
	k := gdfile.PasswordKey("x")
	for _, s := range [][]byte{
		[]byte("GCPF\x02\x00\x00\x00\x00\x10\x00\x00\x08\x00\x00\x00\x11\x00\x00\x00"),
		[]byte("GDEC\x01\x00\x00\x00"),
		{8, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0},
	} {
		f.Add(s)
	}
	for _, c := range []gdfile.Container{
		{Format: gdfile.Compressed, Compression: gdfile.FastLZ}, {Format: gdfile.Compressed, Compression: gdfile.Zstd},
		{Format: gdfile.Compressed, Compression: gdfile.Deflate}, {Format: gdfile.Compressed, Compression: gdfile.Gzip},
		{Format: gdfile.Encrypted, Family: variant.Godot3}, {Format: gdfile.Encrypted, Family: variant.Godot4},
	} {
		data, err := (&gdfile.File{Container: c, Values: []variant.Value{variant.Int(1), variant.String("ab")}}).Encode(gdfile.Options{Key: &k})
		if err != nil {
			f.Fatal(err)
		}
		f.Add(data)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		d := File(b, Options{Key: &k, MaxSize: 1 << 20})
		d.WriteTo(io.Discard)
	})
}
