package pck

import (
	"bytes"
	"context"
	"encoding/base64"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/gdproject"
	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/variant"
)

// engine3Files are the files testdata/engine/pack3.gd packs.
var engine3Files = map[string]string{
	"project.godot": "config_version=4\n",
	"a.txt":         "hello from the engine\n",
	"dir/b.bin":     "caf\u00e9 \x01\x7f binary",
	"dir/sub/c.txt": "deeper",
}

func checkEngine3Pack(t *testing.T, r *Reader) {
	t.Helper()
	if r.Format != Format1 || r.Engine != (Version{3, 2, 3}) || r.Flags != 0 {
		t.Errorf("format %d, engine %v, flags %v", r.Format, r.Engine, r.Flags)
	}
	if len(r.Entries) != len(engine3Files) {
		t.Errorf("%d entries", len(r.Entries))
	}
	for _, e := range r.Entries {
		if e.HasMD5() || !strings.HasPrefix(e.Path, "res://") {
			t.Errorf("%s: md5 %x (Godot 3's PCKPacker writes none)", e.Path, e.MD5)
		}
		if err := r.Verify(e); err != nil {
			t.Error(err)
		}
	}
	for name, want := range engine3Files {
		got, err := r.ReadFile(name)
		if err != nil || string(got) != want {
			t.Errorf("%s: %q, %v", name, got, err)
		}
	}
}

// The packs Godot 3.2.3's PCKPacker wrote, committed in testdata/engine
// (made by TestEngine3PCKPacker with GDVAR_UPDATE_GOLDEN=1, which runs
// pack3.gd make DIR).
func TestGodot323Goldens(t *testing.T) {
	for _, name := range []string{"godot3.2.3.pck", "godot3.2.3-align16.pck"} {
		r, err := Open(filepath.Join("testdata", "engine", name), nil)
		if err != nil {
			t.Fatal(err)
		}
		checkEngine3Pack(t, &r.Reader)
		r.Close()
	}
}

func TestEngine3PCKPacker(t *testing.T) {
	enginetest.Godot3(t)
	dir := t.TempDir()
	out := enginetest.RunGodot3(t, filepath.Join("testdata", "engine", "pack3.gd"), "make", dir)
	if strings.TrimSpace(out) != "done" {
		t.Fatalf("engine: %q", out)
	}
	for _, name := range []string{"godot3.2.3.pck", "godot3.2.3-align16.pck"} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if err != nil {
			t.Fatal(err)
		}
		r, err := NewReader(bytes.NewReader(data), int64(len(data)), nil)
		if err != nil {
			t.Fatal(err)
		}
		checkEngine3Pack(t, r)
		golden := filepath.Join("testdata", "engine", name)
		if os.Getenv("GDVAR_UPDATE_GOLDEN") != "" {
			os.WriteFile(golden, data, 0o644)
		} else if want, _ := os.ReadFile(golden); !bytes.Equal(want, data) {
			t.Errorf("%s differs from the golden file", name)
		}
	}
}

// Godot 3.2.3 loads the format 1 packs Writer makes and reads back the
// same bytes.
func TestEngine3LoadsPacks(t *testing.T) {
	enginetest.Godot3(t)
	dir := t.TempDir()
	args := []string{"load"}
	var paths []string
	want := map[string]string{}
	for _, c := range []struct {
		name string
		o    WriterOptions
	}{
		{"v32", WriterOptions{Engine: Version{3, 2, 3}}},
		{"v30", WriterOptions{Engine: Version{3, 0, 0}, Alignment: 64}},
	} {
		files := map[string]string{}
		for name, content := range testFiles {
			if name == "project.godot" {
				// Godot 3.2.3 does not return from File.open of
				// res://v32/project.godot out of a pack loaded at run
				// time (not looked into further); left out.
				continue
			}
			p := c.name + "/" + name
			files[p] = content + c.name
			want[p] = content + c.name
			paths = append(paths, p)
		}
		p := filepath.Join(dir, c.name+".pck")
		if err := os.WriteFile(p, build(t, c.o, files), 0o644); err != nil {
			t.Fatal(err)
		}
		args = append(args, p)
	}
	args = append(append(args, "//"), paths...)
	out := enginetest.RunGodot3(t, filepath.Join("testdata", "engine", "pack3.gd"), args...)
	got := map[string]string{}
	for _, line := range strings.Split(out, "\n") {
		if strings.HasPrefix(line, "load failed") || strings.HasPrefix(line, "missing") {
			t.Error(line)
		}
		if f := strings.Split(line, "\t"); len(f) == 3 && f[0] == "file" {
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
}

// Godot 3.2.3 runs a pack that Writer made as its main pack: its
// project.binary (written by gdproject), a script and a file.
func TestEngine3MainPack(t *testing.T) {
	bin := enginetest.Godot3(t)
	settings, err := gdproject.ParseText("config_version=4\n\n[application]\n\nconfig/name=\"gdvar main pack\"\n", variant.Godot3)
	if err != nil {
		t.Fatal(err)
	}
	project, err := settings.EncodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	script, err := os.ReadFile(filepath.Join("testdata", "engine", "main3.gd"))
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	w, _ := NewWriter(&buf, WriterOptions{Engine: Version{3, 2, 0}})
	for _, f := range []struct {
		name string
		data []byte
	}{{"project.binary", project}, {"main.gd", script}, {"data/hello.txt", []byte("hi from the pack")}} {
		fw, _ := w.Create(f.name)
		fw.Write(f.data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	p := filepath.Join(dir, "game.pck")
	os.WriteFile(p, buf.Bytes(), 0o644)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, bin, "--main-pack", p, "--script", "res://main.gd")
	cmd.Dir = dir
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "name=gdvar main pack data=hi from the pack\n") {
		t.Fatalf("%v\n%s", err, out)
	}
}

// Godot 3.2.3 finds and runs a format 1 pack that Writer appended to a copy
// of the engine's executable, with the trailer (offsets from the file's
// start).
func TestEngine3Embedded(t *testing.T) {
	bin := enginetest.Godot3(t)
	script, err := os.ReadFile(filepath.Join("testdata", "engine", "main3.gd"))
	if err != nil {
		t.Fatal(err)
	}
	exe := filepath.Join(t.TempDir(), "game")
	f, err := os.OpenFile(exe, os.O_CREATE|os.O_WRONLY, 0o755)
	if err != nil {
		t.Fatal(err)
	}
	src, err := os.Open(bin)
	if err != nil {
		t.Fatal(err)
	}
	n, err := io.Copy(f, src)
	src.Close()
	if err != nil {
		t.Fatal(err)
	}
	f.Write(make([]byte, (8-n%8)%8))
	w, _ := NewWriter(f, WriterOptions{Engine: Version{3, 2, 0}, Trailer: true})
	for _, e := range []struct{ name, data string }{
		{"project.godot", "config_version=4\n\n[application]\n\nconfig/name=\"gdvar main pack\"\n"},
		{"main.gd", string(script)},
		{"data/hello.txt", "hi from the pack"},
	} {
		fw, _ := w.Create(e.name)
		io.WriteString(fw, e.data)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, exe, "--script", "res://main.gd")
	cmd.Dir = t.TempDir()
	out, err := cmd.Output()
	if err != nil || !strings.Contains(string(out), "name=gdvar main pack data=hi from the pack\n") {
		t.Fatalf("%v\n%s", err, out)
	}
}
