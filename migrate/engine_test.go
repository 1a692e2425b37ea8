package migrate

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/variant"
)

// how returns the read3.gd / read4.gd way to open a fixture's file.
func how(fx filefixture.Fixture) (string, int) {
	switch {
	case fx.How == "compressed":
		return "compressed", *fx.Compression
	case fx.BigEndian:
		return "bigendian", 0
	}
	return fx.How, 0
}

// migrateFile migrates a fixture file to family to and writes the result
// into dir under the same name.
func migrateFile(t *testing.T, fx filefixture.Fixture, dir string, to variant.Family, o Options) {
	t.Helper()
	key := (*gdfile.Key)(fx.KeyBytes())
	f, err := gdfile.Read(fx.Data(t), gdfile.Options{Key: key, Godot: fx.Family, Dec: variant.DecOptions{AllowObjects: true}})
	if err != nil {
		t.Fatal(err)
	}
	o.To = to
	g, _, err := File(f, o)
	if err != nil {
		t.Fatalf("%s: %v", fx.File, err)
	}
	data, err := g.Encode(gdfile.Options{Key: key, Enc: variant.EncOptions{FullObjects: fx.Objects}})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, fx.File), data, 0o644); err != nil {
		t.Fatal(err)
	}
}

// The end-to-end promise: a save that Godot 3.2.3 wrote, plain, encrypted
// (with a password and with a key), compressed (each mode), big-endian,
// with several values and with objects, migrated, is read by the real
// Godot 4.6 FileAccess.get_var as the values Godot 3 stored.
func TestMigratedGodot3SavesReadByGodot4(t *testing.T) {
	godot4web.Skip(t)
	dir := t.TempDir()
	var written []filefixture.Written
	job := godot4web.Job{Script: filefixture.Script(variant.Godot4), Timeout: 3 * time.Minute}
	for _, fx := range filefixture.Load(t, variant.Godot3) {
		if fx.File == "objects-renamed.sav" {
			continue // a Spatial, which Godot 4 refuses (migrate warns)
		}
		migrateFile(t, fx, dir, variant.Godot4, Options{})
		h, mode := how(fx)
		w := filefixture.Written{Name: fx.File, How: h, Mode: mode, Values: fx.EngineValues(t)}
		written = append(written, w)
		job.With = append(job.With, filepath.Join(dir, fx.File))
		job.Args = append(job.Args, w.Spec())
	}
	r := godot4web.Run(t, job)
	if r.Code != 0 {
		t.Fatalf("Godot 4 exited with %d\n%s", r.Code, r.Stderr)
	}
	report := filefixture.CheckRead(t, variant.Godot4, written, r.Stdout)
	if strings.Contains(r.Stderr, "ERROR") {
		t.Logf("engine messages:\n%s", r.Stderr)
	}
	filefixture.Record(t, "check-migrate-godot4.txt", "# Godot 3.2.3's files in testdata/files/godot3, migrated to Godot 4 by package migrate\n"+
		"# (go test -run TestMigratedGodot3SavesReadByGodot4 ./migrate), read by Godot 4.6\n"+
		"# (internal/godot4web) with testdata/files/read4.gd and compared with the values Godot 3 stored.", report)
}

// And back: Godot 4 files of values Godot 3 has, migrated to Godot 3, are
// read by the real Godot 3.2.3 as the same values.
func TestMigratedGodot4SavesReadByGodot3(t *testing.T) {
	enginetest.Godot3(t)
	dir := t.TempDir()
	var written []filefixture.Written
	args := []string{dir}
	for _, fx := range filefixture.Load(t, variant.Godot3) {
		if fx.File == "objects-renamed.sav" {
			continue
		}
		// The values Godot 3 stored, written by Godot 4 rules in the same
		// container, then migrated back.
		key := (*gdfile.Key)(fx.KeyBytes())
		f, err := gdfile.Read(fx.Data(t), gdfile.Options{Key: key, Godot: variant.Godot3, Dec: variant.DecOptions{AllowObjects: true}})
		if err != nil {
			t.Fatal(err)
		}
		g4, _, err := File(f, Options{To: variant.Godot4})
		if err != nil {
			t.Fatal(err)
		}
		g3, _, err := File(g4, Options{To: variant.Godot3})
		if err != nil {
			t.Fatalf("%s: %v", fx.File, err)
		}
		data, err := g3.Encode(gdfile.Options{Key: key, Enc: variant.EncOptions{FullObjects: fx.Objects}})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, fx.File), data, 0o644); err != nil {
			t.Fatal(err)
		}
		h, mode := how(fx)
		w := filefixture.Written{Name: fx.File, How: h, Mode: mode, Values: fx.EngineValues(t)}
		written = append(written, w)
		args = append(args, w.Spec())
	}
	out := enginetest.RunGodot3(t, filefixture.Script(variant.Godot3), args...)
	report := filefixture.CheckRead(t, variant.Godot3, written, out)
	filefixture.Record(t, "check-migrate-godot3.txt", "# Godot 3.2.3's values in Godot 4 files, migrated back to Godot 3 by package migrate\n"+
		"# (go test -run TestMigratedGodot4SavesReadByGodot3 ./migrate), read by Godot 3.2.3\n"+
		"# with testdata/files/read3.gd.", report)
}

// Godot 3 writes the surrogates of a character above U+FFFF (two
// characters in its UTF-16 Strings on Windows) as CESU-8, which Godot 4
// refuses; migrated, Godot 4.6 reads the character itself, in Strings,
// PackedStringArrays, Dictionary keys and NodePaths.
func TestMigratedSurrogatesReadByGodot4(t *testing.T) {
	enginetest.Godot3(t)
	godot4web.Skip(t)
	out := strings.TrimSpace(enginetest.RunGodot3(t, filepath.Join("testdata", "surrogates3.gd")))
	b, err := hex.DecodeString(out)
	if err != nil {
		t.Fatalf("Godot 3 printed %q: %v", out, err)
	}
	if !bytes.Contains(b, []byte("\xed\xa0\xbd\xed\xb8\x80")) {
		t.Fatalf("Godot 3 did not write CESU-8: %x", b)
	}
	dec, err := variant.DecOptions{Family: variant.Godot3}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	v, _, err := dec.Decode(b)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := variant.Encode(v); err == nil {
		t.Fatal("Godot 4 bytes of the CESU-8 strings as they are")
	}
	v4, warnings, err := Value(v, Options{})
	if err != nil || len(warnings) != 0 {
		t.Fatal(err, warnings)
	}
	b4, err := variant.Encode(v4)
	if err != nil {
		t.Fatal(err)
	}
	r := godot4web.Run(t, godot4web.Job{Script: filepath.Join("testdata", "strings4.gd"), Args: []string{base64.StdEncoding.EncodeToString(b4)}})
	if r.Code != 0 {
		t.Fatalf("Godot 4: %d\n%s", r.Code, r.Stderr)
	}
	const want = "1F600 78\n61 1F600\n1F600\n2F 72 6F 6F 74 2F 1F600 3A 70"
	if got := strings.TrimSpace(r.Stdout); got != want {
		t.Errorf("Godot 4.6 read\n%s\nwant\n%s", got, want)
	}
}
