package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/pck"
	"github.com/gdvar/gdvar/resource"
)

const resCorpus = "../../resource/testdata/"

func TestResDump(t *testing.T) {
	status, out, stderr := gdvar(t, "", "res", "dump", resCorpus+"godot4/level.scn")
	if status != 0 || stderr != "" {
		t.Fatalf("status %d, stderr %q", status, stderr)
	}
	for _, want := range []string{"; binary resource, written by Godot 4.6, format version 6\n",
		"[node name=\"A\" type=\"Node2D\" parent=\".\"", "[connection signal=\"timeout\" from=\"A/B\" to=\".\" method=\"set_meta\" binds= [\"k\", 1]]"} {
		if !strings.Contains(out, want) {
			t.Errorf("dump lacks %q:\n%s", want, out)
		}
	}
	// The dump is itself a text resource file that reads as the same one.
	f, err := resource.ReadText([]byte(out), resource.Options{})
	if err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(resCorpus + "godot4/level.scn")
	g, _ := resource.ReadBinary(data, resource.Options{})
	if d := resource.Diff(g, f, resource.DiffOptions{Tolerance: 1e-7}); d != "" {
		t.Error(d)
	}

	status, out, _ = gdvar(t, "", "res", "dump", "--json", resCorpus+"godot3/theme.res")
	var j map[string]any
	if status != 0 || json.Unmarshal([]byte(out), &j) != nil || j["type"] != "Theme" {
		t.Fatalf("json: status %d, %s", status, out)
	}
	if !strings.Contains(out, `"value": "SubResource( 1 )"`) {
		t.Errorf("json lacks the sub-resource reference:\n%s", out)
	}
}

func TestResConvert(t *testing.T) {
	dir := t.TempDir()
	out := filepath.Join(dir, "level.tscn")
	if status, _, stderr := gdvar(t, "", "res", "convert", resCorpus+"godot3/level.scn", out); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	bin := filepath.Join(dir, "level.scn")
	if status, _, stderr := gdvar(t, "", "res", "convert", "--compress", "zstd", out, bin); status != 0 {
		t.Fatalf("status %d: %s", status, stderr)
	}
	data, _ := os.ReadFile(bin)
	if !strings.HasPrefix(string(data), "RSCC") {
		t.Errorf("not compressed: %q", data[:4])
	}
	if status, _, stderr := gdvar(t, "", "res", "convert", out, bin); status != 1 || !strings.Contains(stderr, "--force") {
		t.Errorf("existing output: status %d, %q", status, stderr)
	}
	if status, _, stderr := gdvar(t, "", "res", "convert", out, filepath.Join(dir, "x.bin")); status != 2 || !strings.Contains(stderr, "--to") {
		t.Errorf("unknown extension: status %d, %q", status, stderr)
	}
	status, text, _ := gdvar(t, "", "res", "convert", "--to", "text", bin, "-")
	orig, _ := os.ReadFile(out)
	if status != 0 || text != string(orig) {
		t.Errorf("text -> binary -> text changed:\n%s\n---\n%s", text, orig)
	}
	if status, _, stderr := gdvar(t, "", "res", "dump", filepath.Join(dir, "game.pck")+":res://level.scn"); status != 1 || !strings.Contains(stderr, "game.pck: no such file") {
		t.Errorf("a missing pack: status %d, %q", status, stderr)
	}
	bad := filepath.Join(dir, "bad.res")
	os.WriteFile(bad, []byte("RSRC\x00\x00\x00\x00"), 0o644)
	if status, _, stderr := gdvar(t, "", "res", "dump", bad); status != 1 || !strings.Contains(stderr, "byte ") {
		t.Errorf("bad file: status %d, %q", status, stderr)
	}
}

// A resource inside a pack: gdvar res dump PACK:res://PATH reads it from
// the pack, as from the file; a missing path names the pack's listing.
func TestResDumpFromPack(t *testing.T) {
	scn, err := os.ReadFile(resCorpus + "godot4/level.scn")
	if err != nil {
		t.Fatal(err)
	}
	packPath := filepath.Join(t.TempDir(), "game.pck")
	out, err := os.Create(packPath)
	if err != nil {
		t.Fatal(err)
	}
	w, err := pck.NewWriter(out, pck.WriterOptions{})
	if err != nil {
		t.Fatal(err)
	}
	fw, err := w.Create("res://levels/level.scn")
	if err != nil {
		t.Fatal(err)
	}
	fw.Write(scn)
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	out.Close()
	_, fromFile, _ := gdvar(t, "", "res", "dump", resCorpus+"godot4/level.scn")
	status, fromPack, stderr := gdvar(t, "", "res", "dump", packPath+":res://levels/level.scn")
	if status != 0 || stderr != "" || fromPack != fromFile {
		t.Errorf("from the pack: status %d, stderr %q, same dump %v", status, stderr, fromPack == fromFile)
	}
	status, _, stderr = gdvar(t, "", "res", "dump", packPath+":res://nope.tscn")
	if status != 1 || !strings.Contains(stderr, "no res://nope.tscn in the pack") {
		t.Errorf("missing path: status %d, stderr %q", status, stderr)
	}
}
