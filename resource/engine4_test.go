package resource

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/internal/godot4web"
)

// TestGodot4LoadsConversions: Godot 4.6 loads every file gdvar converts
// from the engine's corpus (binary to text, text to binary, and each form
// written back) to a resource equal, property by property and for scenes
// node by node, to the one it loads from its own file.
func TestGodot4LoadsConversions(t *testing.T) {
	godot4web.Skip(t)
	dir := t.TempDir()
	var with, pairs []string
	for name, data := range engineFiles(t, "godot4", ".res", ".scn", ".tres", ".tscn") {
		orig := filepath.Join(dir, name)
		if err := os.WriteFile(orig, data, 0o644); err != nil {
			t.Fatal(err)
		}
		with = append(with, orig)
		f, err := Read(data, Options{})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		ext := filepath.Ext(name)
		textExt, binExt := ".tres", ".res"
		if f.Scene != nil {
			textExt, binExt = ".tscn", ".scn"
		}
		for _, conv := range []struct {
			ext    string
			encode func() ([]byte, error)
		}{{textExt, f.EncodeText}, {binExt, f.EncodeBinary}} {
			out, err := conv.encode()
			if err != nil {
				t.Fatalf("%s to %s: %v", name, conv.ext, err)
			}
			cname := "gdvar_" + strings.TrimSuffix(name, ext) + strings.TrimPrefix(ext, ".") + conv.ext
			if err := os.WriteFile(filepath.Join(dir, cname), out, 0o644); err != nil {
				t.Fatal(err)
			}
			with = append(with, filepath.Join(dir, cname))
			pair := name + "|" + cname
			if conv.ext == binExt {
				pair += "|untyped"
			}
			pairs = append(pairs, pair)
		}
	}
	r := godot4web.Run(t, godot4web.Job{Script: "testdata/check4.gd", With: with, Args: pairs})
	if r.Code != 0 {
		t.Fatalf("engine exit %d:\n%s", r.Code, r.Stderr)
	}
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(r.Stdout), "\n") {
		switch {
		case strings.HasPrefix(line, "same "):
			seen++
		case strings.HasPrefix(line, "DIFF "):
			seen++
			t.Error(line)
		}
	}
	if seen != len(pairs) {
		t.Errorf("%d results for %d pairs:\n%s\n%s", seen, len(pairs), r.Stdout, r.Stderr)
	}
}
