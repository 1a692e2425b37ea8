package migrate

import (
	"errors"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/variant"
)

func readFixture(t *testing.T, fx filefixture.Fixture) *gdfile.File {
	t.Helper()
	f, err := gdfile.Read(fx.Data(t), gdfile.Options{Key: (*gdfile.Key)(fx.KeyBytes()), Godot: fx.Family,
		Dec: variant.DecOptions{AllowObjects: true}})
	if err != nil {
		t.Fatal(err)
	}
	return f
}

// Every file Godot 3.2.3 wrote becomes a Godot 4 file of the same
// container that reads back as the values Godot 3 stored.
func TestGodot3FilesTo4(t *testing.T) {
	for _, fx := range filefixture.Load(t, variant.Godot3) {
		t.Run(fx.File, func(t *testing.T) {
			f := readFixture(t, fx)
			g, warnings, err := File(f, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if (fx.File == "objects-renamed.sav") != (len(warnings) > 0) {
				t.Errorf("warnings: %v", warnings)
			}
			full := false
			for _, v := range g.Values {
				full = full || HasObjects(v)
			}
			if full != fx.Objects {
				t.Errorf("HasObjects %v, want %v", full, fx.Objects)
			}
			key := (*gdfile.Key)(fx.KeyBytes())
			data, err := g.Encode(gdfile.Options{Key: key, Enc: variant.EncOptions{FullObjects: full}})
			if err != nil {
				t.Fatal(err)
			}
			back, err := gdfile.Read(data, gdfile.Options{Key: key, Godot: variant.Godot4, Dec: variant.DecOptions{AllowObjects: true}})
			if err != nil {
				t.Fatal(err)
			}
			c := back.Container
			if c.Format != f.Container.Format || c.Compression != f.Container.Compression || back.BigEndian != fx.BigEndian ||
				(c.Format == gdfile.Encrypted && c.Family != variant.Godot4) {
				t.Errorf("container %v big-endian %v, want %v big-endian %v", c, back.BigEndian, f.Container, fx.BigEndian)
			}
			want := fx.EngineValues(t)
			if len(back.Values) != len(want) {
				t.Fatalf("%d values, want %d", len(back.Values), len(want))
			}
			for i := range want {
				if !variant.Equal(back.Values[i], want[i]) {
					t.Errorf("value %d differs", i)
				}
			}
		})
	}
}

// Godot 4 files go back to Godot 3 only where nothing is lost.
func TestGodot4FilesTo3(t *testing.T) {
	for _, fx := range filefixture.Load(t, variant.Godot4) {
		f := readFixture(t, fx)
		g, _, err := File(f, Options{To: variant.Godot3})
		if len(f.Values) > 0 && fx.Values[0][:2] == "1b" && fx.File != "objects.sav" {
			// The save game holds Vector2i, StringName, typed containers…
			var e *Error
			if !errors.As(err, &e) || !strings.HasPrefix(e.Path, "value 0[") {
				t.Errorf("%s: %v", fx.File, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", fx.File, err)
			continue
		}
		if g.Godot != variant.Godot3 {
			t.Errorf("%s: family %v", fx.File, g.Godot)
		}
	}
}
