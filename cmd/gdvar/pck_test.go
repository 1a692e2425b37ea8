package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/pck"
)

const pckKey = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func TestPckList(t *testing.T) {
	golden := "../../pck/testdata/engine/"
	status, out, _ := gdvar(t, "", "pck", "list", golden+"godot3.2.3.pck")
	if status != 0 || !strings.Contains(out, "res://dir/sub/c.txt") || !strings.Contains(out, "4 entries, 60 bytes; pack format 1, Godot 3.2.3") {
		t.Errorf("list: %d\n%s", status, out)
	}
	status, _, stderr := gdvar(t, "", "pck", "list", golden+"godot4.6-encrypted.pck")
	if status != 1 || !strings.Contains(stderr, "give --key") {
		t.Errorf("no key: %d %s", status, stderr)
	}
	status, out, _ = gdvar(t, "", "pck", "list", "--json", "--key", pckKey, golden+"godot4.6-encrypted.pck")
	var j struct {
		Format  int
		Entries []struct {
			Path  string
			Flags []string
			MD5   string
		}
	}
	if err := json.Unmarshal([]byte(out), &j); status != 0 || err != nil || j.Format != 3 || len(j.Entries) != 4 ||
		j.Entries[1].Path != "a.txt" || j.Entries[1].Flags[0] != "encrypted" || len(j.Entries[1].MD5) != 32 {
		t.Errorf("json: %d %v\n%s", status, err, out)
	}
	if status, _, _ := gdvar(t, "", "pck", "list"); status != 2 {
		t.Errorf("no pack: %d", status)
	}
	if status, _, _ := gdvar(t, "", "pck", "frobnicate", "x"); status != 2 {
		t.Errorf("unknown: %d", status)
	}
}

func TestPckPackExtractVerify(t *testing.T) {
	src := t.TempDir()
	files := map[string]string{"project.godot": "config_version=5\n", "scenes/a.tscn": "A", "scenes/b.tscn": "B", "icon.png": "png"}
	for name, content := range files {
		p := filepath.Join(src, filepath.FromSlash(name))
		os.MkdirAll(filepath.Dir(p), 0o755)
		os.WriteFile(p, []byte(content), 0o644)
	}
	for _, c := range []struct {
		godot  string
		format pck.Format
		flags  []string
	}{
		{"3.2", pck.Format1, nil},
		{"4.2", pck.Format2, nil},
		{"4", pck.Format3, nil},
		{"4.6", pck.Format3, []string{"--key", pckKey, "--encrypt-dir"}},
	} {
		out := filepath.Join(t.TempDir(), "game.pck")
		args := append([]string{"pck", "pack", "--godot", c.godot}, c.flags...)
		if status, _, stderr := gdvar(t, "", append(args, src, out)...); status != 0 {
			t.Fatalf("%s: pack: %d %s", c.godot, status, stderr)
		}
		keyArgs := []string{}
		var key *gdfile.Key
		if len(c.flags) > 0 {
			keyArgs = []string{"--key", pckKey}
			k, _ := gdfile.ParseKey(pckKey)
			key = &k
		}
		status, outText, _ := gdvar(t, "", append(append([]string{"pck", "verify"}, keyArgs...), out)...)
		if status != 0 || !strings.Contains(outText, "4 entries: 4 verified") {
			t.Errorf("%s: verify: %d %s", c.godot, status, outText)
		}
		dst := t.TempDir()
		args = append(append([]string{"pck", "extract", "--out", dst}, keyArgs...), out, "res://scenes/*.tscn")
		if status, _, stderr := gdvar(t, "", args...); status != 0 {
			t.Fatalf("%s: extract: %d %s", c.godot, status, stderr)
		}
		for _, name := range []string{"scenes/a.tscn", "scenes/b.tscn"} {
			if b, err := os.ReadFile(filepath.Join(dst, name)); err != nil || string(b) != files[name] {
				t.Errorf("%s: %s: %q %v", c.godot, name, b, err)
			}
		}
		if _, err := os.Stat(filepath.Join(dst, "icon.png")); err == nil {
			t.Errorf("%s: extracted what did not match", c.godot)
		}
		status, catOut, _ := gdvar(t, "", append(append([]string{"pck", "cat"}, keyArgs...), out, "scenes/b.tscn")...)
		if status != 0 || catOut != "B" {
			t.Errorf("%s: cat: %d %q", c.godot, status, catOut)
		}
		r, err := pck.Open(out, &pck.Options{Key: key})
		if err != nil || r.Format != c.format {
			t.Fatalf("%s: %v", c.godot, err)
		}
		r.Close()
	}
}

func TestPckVerifyDamaged(t *testing.T) {
	data, err := os.ReadFile("../../pck/testdata/engine/godot4.6-plain.pck")
	if err != nil {
		t.Fatal(err)
	}
	data[0xa0] ^= 1 // inside a.txt
	p := filepath.Join(t.TempDir(), "bad.pck")
	os.WriteFile(p, data, 0o644)
	status, out, _ := gdvar(t, "", "pck", "verify", p)
	if status != 1 || !strings.Contains(out, "FAIL a.txt") || !strings.Contains(out, "1 failed") {
		t.Errorf("%d\n%s", status, out)
	}
}

func TestPckCatProjectBinary(t *testing.T) {
	bin, err := os.ReadFile("../../gdproject/testdata/godot4.6-project.binary")
	if err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(t.TempDir(), "game.pck")
	f, _ := os.Create(p)
	w, _ := pck.NewWriter(f, pck.WriterOptions{})
	fw, _ := w.Create("project.binary")
	fw.Write(bin)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	f.Close()
	status, out, _ := gdvar(t, "", "pck", "cat", p, "res://project.binary")
	if status != 0 || !strings.Contains(out, "[gdvar]\n\nvalues/int=42\n") || !strings.Contains(out, `config/features=PackedStringArray("4.6")`) {
		t.Errorf("%d\n%s", status, out)
	}
	status, out, _ = gdvar(t, "", "pck", "cat", "--raw", p, "project.binary")
	if status != 0 || out != string(bin) {
		t.Errorf("--raw: %d", status)
	}
	if status, _, _ := gdvar(t, "", "pck", "cat", p, "nope"); status != 1 {
		t.Errorf("missing: %d", status)
	}
}

// A path with control characters is listed quoted, not sent to the terminal.
func TestPckListQuotes(t *testing.T) {
	if printable("a/b.txt") != "a/b.txt" || printable("\x1b[2Jx") != `"\x1b[2Jx"` || printable("a\xffb") != `"a\xffb"` {
		t.Fatal(printable("\x1b[2Jx"))
	}
}

func TestPckEmbed(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "src")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("A"), 0o644)
	exe := filepath.Join(dir, "engine")
	os.WriteFile(exe, []byte("not really an executable, 37 bytes.."), 0o755)
	for _, godot := range []string{"3.2", "4.2", "4.6"} {
		out := filepath.Join(dir, "game"+godot)
		if status, _, stderr := gdvar(t, "", "pck", "pack", "--godot", godot, "--embed", exe, src, out); status != 0 {
			t.Fatalf("%s: %d %s", godot, status, stderr)
		}
		status, list, _ := gdvar(t, "", "pck", "list", out)
		if status != 0 || !strings.Contains(list, "embedded at offset 40") {
			t.Errorf("%s: %d\n%s", godot, status, list)
		}
		if status, cat, _ := gdvar(t, "", "pck", "cat", out, "a.txt"); status != 0 || cat != "A" {
			t.Errorf("%s: cat %d %q", godot, status, cat)
		}
		if fi, _ := os.Stat(out); fi.Mode()&0o100 == 0 {
			t.Errorf("%s: not executable", godot)
		}
	}
}
