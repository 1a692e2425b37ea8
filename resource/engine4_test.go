package resource

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/internal/godot4web"
)

// conversions writes every file of the engine-made corpus testdata/dir
// into out, with its conversions to text and to binary by this package
// beside it, and returns the pairs to compare, "ENGINE|OURS" (with
// "|untyped" when OURS is binary).
func conversions(t *testing.T, dir, out string) (files, pairs []string) {
	for name, data := range engineFiles(t, dir, ".gd") {
		if err := os.WriteFile(filepath.Join(out, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, filepath.Join(out, name))
	}
	for name, data := range engineFiles(t, dir, ".res", ".scn", ".tres", ".tscn") {
		orig := filepath.Join(out, name)
		if err := os.WriteFile(orig, data, 0o644); err != nil {
			t.Fatal(err)
		}
		files = append(files, orig)
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
			b, err := conv.encode()
			if err != nil {
				t.Fatalf("%s to %s: %v", name, conv.ext, err)
			}
			cname := "gdvar_" + strings.TrimSuffix(name, ext) + strings.TrimPrefix(ext, ".") + conv.ext
			if err := os.WriteFile(filepath.Join(out, cname), b, 0o644); err != nil {
				t.Fatal(err)
			}
			files = append(files, filepath.Join(out, cname))
			pair := name + "|" + cname
			if conv.ext == binExt {
				pair += "|untyped"
			}
			pairs = append(pairs, pair)
		}
	}
	return files, pairs
}

// checkResults fails the test for every DIFF line of an engine check and
// when results are missing.
func checkResults(t *testing.T, stdout string, pairs int) {
	t.Helper()
	seen := 0
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		switch {
		case strings.HasPrefix(line, "same "):
			seen++
		case strings.HasPrefix(line, "DIFF "):
			seen++
			t.Error(line)
		}
	}
	if seen != pairs {
		t.Errorf("%d results for %d pairs:\n%s", seen, pairs, stdout)
	}
}

// TestGodot4LoadsConversions: Godot 4.6 loads every file gdvar converts
// from the engine's corpus (binary to text, text to binary, and each form
// written back) to a resource equal, property by property and for scenes
// node by node, to the one it loads from its own file.
func TestGodot4LoadsConversions(t *testing.T) {
	godot4web.Skip(t)
	with, pairs := conversions(t, "godot4", t.TempDir())
	r := godot4web.Run(t, godot4web.Job{Script: "testdata/check4.gd", With: with, Args: pairs})
	if r.Code != 0 {
		t.Fatalf("engine exit %d:\n%s", r.Code, r.Stderr)
	}
	checkResults(t, r.Stdout, len(pairs))
}
