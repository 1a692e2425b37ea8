package pck

import (
	"bytes"
	"encoding/base64"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/gdproject"
	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/variant"
)

// engineFiles are the files testdata/engine/pack4.gd packs (FILES there).
var engineFiles = map[string]string{
	"project.godot": "config_version=5\n",
	"a.txt":         "hello from the engine\n",
	"dir/b.bin":     "caf\u00e9 \x01\x7f binary",
	"dir/sub/c.txt": "deeper",
}

// engineKey is KEY in pack4.gd.
var engineKey = testKey

// The packs Godot 4.6's PCKPacker wrote, committed in testdata/engine
// (made by TestEngine4PCKPacker with GDVAR_UPDATE_GOLDEN=1, which runs
// `node internal/godot4web/run.mjs pck/testdata/engine/pack4.gd -- make`).
func TestGodot46Goldens(t *testing.T) {
	for _, c := range []struct {
		file   string
		key    *gdfile.Key
		flags  Flags
		efiles FileFlags
	}{
		{"godot4.6-plain.pck", nil, RelFileBase, 0},
		{"godot4.6-encrypted.pck", engineKey, RelFileBase | DirEncrypted, FileEncrypted},
		{"godot4.6-encfiles.pck", engineKey, RelFileBase, FileEncrypted},
		{"godot4.6-removal.pck", nil, RelFileBase, 0},
	} {
		t.Run(c.file, func(t *testing.T) {
			r, err := Open(filepath.Join("testdata", "engine", c.file), &Options{Key: c.key})
			if err != nil {
				t.Fatal(err)
			}
			defer r.Close()
			if strings.Contains(c.file, "removal") {
				checkRemovalPack(t, &r.Reader)
				return
			}
			checkEnginePack(t, &r.Reader, c.flags, c.efiles)
		})
	}
}

// checkRemovalPack checks the pack pack4.gd makes with add_file_removal.
func checkRemovalPack(t *testing.T, r *Reader) {
	t.Helper()
	if len(r.Entries) != 2 || r.Entries[1].Path != "dir/b.bin" || r.Entries[1].Flags != FileRemoval || r.Entries[1].Size != 0 {
		t.Fatalf("removal pack: %+v", r.Entries[1])
	}
	if b, err := r.ReadFile("a.txt"); err != nil || string(b) != engineFiles["a.txt"] {
		t.Errorf("a.txt: %q %v", b, err)
	}
	if _, err := r.Stat("dir/b.bin"); err == nil {
		t.Error("a removal entry is in the file system view")
	}
	if _, err := r.OpenEntry(r.Entries[1]); !errors.Is(err, ErrUnsupported) {
		t.Errorf("opening a removal: %v", err)
	}
}

func checkEnginePack(t *testing.T, r *Reader, flags Flags, efiles FileFlags) {
	t.Helper()
	if r.Format != Format3 || r.Engine != (Version{4, 6, 0}) || r.Flags != flags {
		t.Errorf("format %d, engine %v, flags %v", r.Format, r.Engine, r.Flags)
	}
	if len(r.Entries) != len(engineFiles) {
		t.Errorf("%d entries", len(r.Entries))
	}
	for _, e := range r.Entries {
		if e.Flags != efiles || !e.HasMD5() {
			t.Errorf("%s: flags %v, md5 %x", e.Path, e.Flags, e.MD5)
		}
		if err := r.Verify(e); err != nil {
			t.Error(err)
		}
	}
	for name, want := range engineFiles {
		got, err := r.ReadFile(name)
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
}

// Godot 4.6's PCKPacker writes packs that gdvar reads; with
// GDVAR_UPDATE_GOLDEN=1 they replace the golden files.
func TestEngine4PCKPacker(t *testing.T) {
	res := godot4web.Run(t, godot4web.Job{Script: filepath.Join("testdata", "engine", "pack4.gd"), Args: []string{"make"}})
	if res.Code != 0 {
		t.Fatalf("engine: code %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	n := 0
	for _, line := range strings.Split(res.Stdout, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 || f[0] != "pack" {
			continue
		}
		data, err := base64.StdEncoding.DecodeString(f[2])
		if err != nil {
			t.Fatal(err)
		}
		n++
		r, err := NewReader(bytes.NewReader(data), int64(len(data)), &Options{Key: engineKey})
		if err != nil {
			t.Fatalf("%s: %v", f[1], err)
		}
		flags, efiles := RelFileBase, FileFlags(0)
		if f[1] != "plain.pck" {
			efiles = FileEncrypted
		}
		if f[1] == "encrypted.pck" {
			flags |= DirEncrypted
		}
		if f[1] == "removal.pck" {
			checkRemovalPack(t, r)
		} else {
			checkEnginePack(t, r, flags, efiles)
		}
		golden := filepath.Join("testdata", "engine", "godot4.6-"+f[1])
		if os.Getenv("GDVAR_UPDATE_GOLDEN") != "" {
			if err := os.WriteFile(golden, data, 0o644); err != nil {
				t.Fatal(err)
			}
		} else if want, err := os.ReadFile(golden); err != nil || ((f[1] == "plain.pck" || f[1] == "removal.pck") && !bytes.Equal(want, data)) {
			t.Errorf("%s differs from %s (%v)", f[1], golden, err)
		}
	}
	if n != 4 {
		t.Fatalf("%d packs from the engine\n%s", n, res.Stderr)
	}
}

// Godot 4.6 loads the packs Writer makes, for each format it reads,
// encrypted with the key of the official export templates (all zeros), and
// reads back the same bytes.
func TestEngine4LoadsPacks(t *testing.T) {
	godot4web.Skip(t)
	var zero gdfile.Key
	dir := t.TempDir()
	cases := []struct {
		name string
		o    WriterOptions
	}{
		{"v46", WriterOptions{Engine: Version{4, 6, 0}}},
		{"v44", WriterOptions{Engine: Version{4, 4, 1}, Alignment: 32}},
		{"v42", WriterOptions{Engine: Version{4, 2, 2}}},
		{"v46enc", WriterOptions{Engine: Version{4, 6, 0}, Key: &zero, EncryptDirectory: true}},
		{"v46encfiles", WriterOptions{Engine: Version{4, 6, 0}, Key: &zero}},
		{"v42enc", WriterOptions{Engine: Version{4, 2, 0}, Key: &zero, EncryptDirectory: true}},
	}
	args := []string{"load"}
	var with, paths []string
	want := map[string]string{}
	for _, c := range cases {
		files := map[string]string{}
		for name, content := range testFiles {
			p := c.name + "/" + name
			files[p] = content + c.name
			want[p] = content + c.name
			paths = append(paths, p)
		}
		pckPath := filepath.Join(dir, c.name+".pck")
		if err := os.WriteFile(pckPath, build(t, c.o, files), 0o644); err != nil {
			t.Fatal(err)
		}
		with = append(with, pckPath)
		args = append(args, c.name+".pck")
	}
	// A pack loaded last removes one file of the first.
	var rm bytes.Buffer
	w, _ := NewWriter(&rm, WriterOptions{})
	w.CreateHeader(&FileHeader{Name: "v46/icon.png", Removal: true})
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	rmPath := filepath.Join(dir, "zremoval.pck")
	os.WriteFile(rmPath, rm.Bytes(), 0o644)
	with = append(with, rmPath)
	args = append(args, "zremoval.pck")
	delete(want, "v46/icon.png")
	args = append(append(args, "//"), paths...)
	res := godot4web.Run(t, godot4web.Job{Script: filepath.Join("testdata", "engine", "pack4.gd"), With: with, Args: args})
	if res.Code != 0 {
		t.Fatalf("engine: code %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
	got := map[string]string{}
	removed := false
	for _, line := range strings.Split(res.Stdout, "\n") {
		if line == "missing v46/icon.png" {
			removed = true
			continue
		}
		if strings.HasPrefix(line, "load failed") || strings.HasPrefix(line, "missing") {
			t.Error(line)
			continue
		}
		f := strings.Split(line, "\t")
		if len(f) == 3 && f[0] == "file" {
			b, err := base64.StdEncoding.DecodeString(f[2])
			if err != nil {
				t.Fatal(err)
			}
			got[f[1]] = string(b)
		}
	}
	for p, w := range want {
		if g, ok := got[p]; !ok || g != w {
			t.Errorf("%s: engine read %q (present %v), want %q", p, g, ok, w)
		}
	}
	if !removed {
		t.Error("the removal entry did not remove v46/icon.png")
	}
}

// Godot 4.6 starts from a pack that Writer made, given as --main-pack: the
// project's settings as a project.binary from gdproject (naming the script
// as the main loop, as internal/godot4web/pck.mjs does in text), the global
// class cache, the script and a file, with the directory encrypted with
// the official templates' key (zeros).
func TestEngine4MainPack(t *testing.T) {
	godot4web.Skip(t)
	settings, err := gdproject.ParseText(`config_version=5

[application]

config/name="gdvar main pack"
run/main_loop_type="GdvarMain"
config/features=PackedStringArray("4.6")

[audio]

driver/driver="Dummy"

[rendering]

renderer/rendering_method="gl_compatibility"
`, variant.Godot4)
	if err != nil {
		t.Fatal(err)
	}
	project, err := settings.EncodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "engine", "main4.gd"))
	if err != nil {
		t.Fatal(err)
	}
	classCache := `list=[{
"base": &"SceneTree",
"class": &"GdvarMain",
"icon": "",
"is_abstract": false,
"is_tool": false,
"language": &"GDScript",
"path": "res://main4.gd"
}]
`
	var zero gdfile.Key
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, WriterOptions{Engine: Version{4, 6, 0}, Key: &zero, EncryptDirectory: true})
	for _, f := range []struct {
		name string
		data []byte
	}{
		{"project.binary", project},
		{".godot/global_script_class_cache.cfg", []byte(classCache)},
		{"main4.gd", script},
		{"data/hello.txt", []byte("hi from the pack")},
	} {
		fw, _ := w.Create(f.name)
		fw.Write(f.data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "main.pck")
	os.WriteFile(p, buf.Bytes(), 0o644)
	res := godot4web.Run(t, godot4web.Job{Script: filepath.Join("testdata", "engine", "main4.gd"), MainPack: p})
	if res.Code != 0 || !strings.Contains(res.Stdout, "name=gdvar main pack data=hi from the pack\n") {
		t.Fatalf("code %d\n%s\n%s", res.Code, res.Stdout, res.Stderr)
	}
}
