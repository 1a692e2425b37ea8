package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/variant"
)

// Every file Godot 3.2.3 wrote migrates to a Godot 4 file of the same kind
// that holds the values Godot 3 stored.
func TestMigrateGodot3Files(t *testing.T) {
	dir := t.TempDir()
	for _, fx := range filefixture.Load(t, variant.Godot3) {
		in := filepath.Join(fx.Dir, fx.File)
		out := filepath.Join(dir, fx.File)
		args := []string{"migrate", in, out}
		var key *gdfile.Key
		switch fx.How {
		case "password":
			args = append(args, "--password", filefixture.Password)
			k := gdfile.PasswordKey(filefixture.Password)
			key = &k
		case "key":
			k := filefixture.Key()
			args = append(args, "--key", "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f")
			key = (*gdfile.Key)(&k)
		}
		status, stdout, stderr := gdvar(t, "", args...)
		if status != 0 || stdout != "" || !strings.Contains(stderr, "-> "+out+" (Godot 4") {
			t.Errorf("%s: status %d, stderr %q", fx.File, status, stderr)
			continue
		}
		if strings.Contains(fx.File, "renamed") != strings.Contains(stderr, "Spatial is called Node3D") {
			t.Errorf("%s: warnings: %q", fx.File, stderr)
		}
		data, err := os.ReadFile(out)
		if err != nil {
			t.Fatal(err)
		}
		f, err := gdfile.Read(data, gdfile.Options{Key: key, Godot: variant.Godot4, Dec: variant.DecOptions{AllowObjects: true}})
		if err != nil {
			t.Errorf("%s: %v", fx.File, err)
			continue
		}
		want := fx.EngineValues(t)
		if len(f.Values) != len(want) {
			t.Fatalf("%s: %d values, want %d", fx.File, len(f.Values), len(want))
		}
		for i := range want {
			if !variant.Equal(f.Values[i], want[i]) {
				t.Errorf("%s: value %d differs", fx.File, i)
			}
		}
		if gdfile.Detect(data) != gdfile.Detect(fx.Data(t)) {
			t.Errorf("%s: the container changed", fx.File)
		}
	}
}

func TestMigrateOptionsAndErrors(t *testing.T) {
	dir := t.TempDir()
	g3 := filepath.Join(filefixture.Root(), "godot3")
	g4 := filepath.Join(filefixture.Root(), "godot4")
	out := filepath.Join(dir, "out.sav")

	// Another container.
	status, _, stderr := gdvar(t, "", "migrate", "--container", "zstd", filepath.Join(g3, "plain-many.sav"), out)
	if data, _ := os.ReadFile(out); status != 0 || gdfile.Detect(data) != gdfile.Compressed {
		t.Errorf("--container zstd: %d %q", status, stderr)
	}
	status, _, stderr = gdvar(t, "", "migrate", "--force", "--container", "plain", "--password", filefixture.Password,
		filepath.Join(g3, "encrypted-password.sav"), out)
	if data, _ := os.ReadFile(out); status != 0 || gdfile.Detect(data) != gdfile.Plain {
		t.Errorf("--container plain: %d %q", status, stderr)
	}
	// Back to Godot 3: the save game holds types Godot 3 lacks.
	status, _, stderr = gdvar(t, "", "migrate", "--force", "--to", "3", filepath.Join(g4, "plain-one.sav"), out)
	if status != 1 || !strings.Contains(stderr, `value 0["player"]["cell"] (Vector2i): no equivalent in Godot 3`) {
		t.Errorf("--to 3: %d %q", status, stderr)
	}
	status, _, stderr = gdvar(t, "", "migrate", "--force", "--to", "3", filepath.Join(g4, "compressed-fastlz-small.sav"), out)
	if data, _ := os.ReadFile(out); status != 0 || gdfile.Detect(data) != gdfile.Compressed {
		t.Errorf("--to 3 of an int: %d %q", status, stderr)
	}
	cases := []struct {
		args   []string
		status int
		errHas string
	}{
		{[]string{"migrate", "--force", filepath.Join(g3, "encrypted-key.sav"), out}, 1, "is encrypted: give --password or --key"},
		{[]string{"migrate", "--force", "--password", "wrong", filepath.Join(g3, "encrypted-password.sav"), out}, 1, "wrong password or key"},
		{[]string{"migrate", filepath.Join(g3, "plain-one.sav")}, 2, "want IN OUT"},
		{[]string{"migrate", "--force", "--password", "a", "--key", "00", "a", "b"}, 2, "not both"},
		{[]string{"migrate", "--force", "--key", "00", "a", "b"}, 2, "64 hex digits"},
		{[]string{"migrate", "--force", "--container", "bzip2", "a", "b"}, 2, "want one of"},
		{[]string{"migrate", "--force", "--container", "encrypted", filepath.Join(g3, "plain-one.sav"), out}, 2, "needs --password or --key"},
		{[]string{"migrate", "--force", "/nonexistent", out}, 1, "no such file"},
		{[]string{"migrate", "--force", filepath.Join(g4, "plain-many.sav"), out}, 1, "is not a Godot 3 file but a Godot 4 one already (--to 3"},
	}
	for _, c := range cases {
		status, _, stderr := gdvar(t, "", c.args...)
		if status != c.status || !strings.Contains(stderr, c.errHas) {
			t.Errorf("%v: status %d, stderr %q; want %d and %q", c.args, status, stderr, c.status, c.errHas)
		}
	}
	if status, out, _ := gdvar(t, "", "migrate", "--force", "--help"); status != 0 || !strings.Contains(out, "Examples:") {
		t.Errorf("--help: %d", status)
	}
}

func TestProgress(t *testing.T) {
	var sb strings.Builder
	p := progress(&sb, "reading", "bytes")
	p(10, 100)
	p(20, 100) // within half a second of the last report: quiet
	p(100, 100)
	if sb.String() != "gdvar: migrate: reading 10% (10 of 100 bytes)\ngdvar: migrate: reading 100% (100 of 100 bytes)\n" {
		t.Errorf("%q", sb.String())
	}
}
