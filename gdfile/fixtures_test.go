package gdfile

import (
	"testing"

	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/variant"
)

func fixtureOptions(fx filefixture.Fixture) Options {
	return Options{Key: (*Key)(fx.KeyBytes()), Dec: variant.DecOptions{AllowObjects: fx.Objects}}
}

func TestEngineFiles(t *testing.T) {
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		for _, fx := range filefixture.Load(t, fam) {
			t.Run(fam.String()+"/"+fx.File, func(t *testing.T) {
				// The family is found out from the values alone.
				f, err := Read(fx.Data(t), fixtureOptions(fx))
				if err != nil {
					t.Fatal(err)
				}
				if f.Godot != fam && len(fx.Values) > 0 && fx.File != "compressed-fastlz-small.sav" {
					t.Errorf("family %v, want %v", f.Godot, fam)
				}
				if f.BigEndian != fx.BigEndian {
					t.Errorf("big-endian %v, want %v", f.BigEndian, fx.BigEndian)
				}
				wantFormat := map[string]Format{"plain": Plain, "password": Encrypted, "key": Encrypted, "compressed": Compressed}[fx.How]
				if f.Container.Format != wantFormat {
					t.Errorf("container %v, want %v", f.Container, wantFormat)
				}
				if wantFormat == Encrypted && f.Container.Family != fam {
					t.Errorf("encrypted layout %v, want %v", f.Container.Family, fam)
				}
				if fx.Compression != nil && (f.Container.Compression != Compression(*fx.Compression) || f.Container.BlockSize != DefaultBlockSize) {
					t.Errorf("container %v, want mode %d", f.Container, *fx.Compression)
				}
				want := fx.EngineValues(t)
				if len(f.Values) != len(want) {
					t.Fatalf("%d values, want %d", len(f.Values), len(want))
				}
				for i := range want {
					if !variant.Equal(f.Values[i], want[i]) {
						t.Errorf("value %d differs from the engine's", i)
					}
				}
			})
		}
	}
}
