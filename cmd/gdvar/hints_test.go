package main

import (
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// Other kinds of Godot files given to the commands that read Variants, and
// files that are not packs given to gdvar pck, are named with the command
// that reads them.
func TestOtherFileKindHints(t *testing.T) {
	dir := t.TempDir()
	pack := "../../pck/testdata/engine/godot4.6-plain.pck"
	scene := filepath.Join(dir, "main.tscn")
	os.WriteFile(scene, []byte("[gd_scene load_steps=2 format=3]\n\n[node name=\"Main\" type=\"Node2D\"]\n"), 0o644)
	res := filepath.Join(dir, "a.res")
	os.WriteFile(res, []byte("RSRC\x00\x00\x00\x00\x04\x00\x00\x00"), 0o644)
	src := filepath.Join(dir, "src")
	os.MkdirAll(src, 0o755)
	os.WriteFile(filepath.Join(src, "a.txt"), []byte("A"), 0o644)
	exe := filepath.Join(dir, "game")
	os.WriteFile(filepath.Join(dir, "engine"), []byte("\x7fELF not really an executable"), 0o755)
	if status, _, stderr := gdvar(t, "", "pck", "pack", "--embed", filepath.Join(dir, "engine"), src, exe); status != 0 {
		t.Fatalf("pack: %d %s", status, stderr)
	}
	const packHint = "gdvar: hint: this is a resource pack (.pck): gdvar pck list shows its files, gdvar pck extract writes them out\n"
	cases := []struct {
		name   string
		args   []string
		status int
		stderr string
	}{
		{"decode a pack", []string{"decode", pack}, 1, packHint},
		{"decode --value a pack", []string{"decode", "--value", pack}, 1, packHint},
		{"migrate a pack", []string{"migrate", pack, filepath.Join(dir, "out.sav")}, 1, packHint},
		{"inspect a pack", []string{"inspect", pack}, 1, packHint},
		{"decode a game", []string{"decode", exe}, 1,
			"gdvar: hint: this is an executable with a resource pack embedded: gdvar pck list shows its files, gdvar pck extract writes them out\n"},
		{"decode a scene", []string{"decode", scene}, 1,
			"gdvar: hint: this is a text scene or resource (.tscn, .tres): gdvar res dump prints it (gdvar encode reads one value in Godot's text form)\n"},
		{"decode a binary resource", []string{"decode", res}, 1,
			"gdvar: hint: this is a binary resource or scene (.res, .scn): gdvar res dump prints it\n"},
		{"pck list a save file", []string{"pck", "list", "../../testdata/files/godot3/plain-many.sav"}, 1,
			"gdvar: hint: this is a save file (store_var values): gdvar decode reads it\n"},
		{"pck list a value", []string{"pck", "list", "../../testdata/sample/savegame.bin"}, 1,
			"gdvar: hint: this is one value (var_to_bytes, put_var): gdvar decode reads it\n"},
		{"pck list an encrypted save", []string{"pck", "list", "../../testdata/files/godot4/encrypted-key.sav"}, 1,
			"gdvar: hint: this is an encrypted save file (GDEC): gdvar decode --password P (or --key HEX) reads it\n"},
		{"pck list text", []string{"pck", "list", "../../README.md"}, 1, "gdvar: hint: this is text, not a resource pack\n"},
		{"pck list a directory", []string{"pck", "list", src}, 2, " is a directory, not a pack (.pck) or a game's executable\n"},
		{"pck pack a file", []string{"pck", "pack", scene, filepath.Join(dir, "x.pck")}, 2,
			"main.tscn is not a directory: pck pack puts every file under DIR into the pack OUT\n"},
		{"pck list, no pack", []string{"pck", "list"}, 2, "gdvar pck list: takes PACK, got 0 arguments\n"},
		{"pck cat, no path", []string{"pck", "cat", pack}, 2, "gdvar pck cat: takes PACK PATH, got 1 argument\n"},
		{"pck cat, a path not there", []string{"pck", "cat", pack, "nothere.txt"}, 1,
			"gdvar pck cat: nothere.txt: file does not exist (gdvar pck list shows the pack's paths)\n"},
	}
	for _, c := range cases {
		status, _, stderr := gdvar(t, "", c.args...)
		if status != c.status || !strings.Contains(stderr, c.stderr) {
			t.Errorf("%s: status %d (want %d), stderr %q, want it to hold %q", c.name, status, c.status, stderr, c.stderr)
		}
	}
	if _, err := os.Stat(filepath.Join(dir, "x.pck")); err == nil {
		t.Error("pck pack of a file wrote a pack")
	}
}

// Binary given where text is read (encode, convert --from json), save
// files given to convert (which reads one value), and directories given
// where a file is read, are named with what to do instead.
func TestWrongInputHints(t *testing.T) {
	dir := t.TempDir()
	cases := []struct {
		name   string
		args   []string
		status int
		stderr []string
	}{
		{"encode a value", []string{"encode", "--hex", "../../testdata/sample/savegame.bin"}, 1, []string{
			"gdvar: encode: text: line 1, column 2: unexpected NUL byte\n",
			"gdvar: hint: this is binary, not text: gdvar decode prints Godot's binary format (var_to_bytes, store_var) as text\n"}},
		{"encode --file an encrypted save", []string{"encode", "--hex", "--file", "../../testdata/files/godot4/encrypted-key.sav"}, 1, []string{
			"gdvar: hint: this is an encrypted save file (GDEC), not text: gdvar decode --password P (or --key HEX) prints its values as text\n"}},
		{"encode a pack", []string{"encode", "--hex", "../../pck/testdata/engine/godot4.6-plain.pck"}, 1, []string{
			"gdvar: hint: this is a resource pack (.pck)"}},
		{"convert --from json a value", []string{"convert", "--from", "json", "--to", "text", "../../testdata/sample/savegame.bin"}, 1, []string{
			"gdvar: convert: the json input is not UTF-8 text\n",
			"gdvar: hint: this is binary, not text: gdvar decode prints"}},
		{"convert an encrypted save", []string{"convert", "--to", "json", "../../testdata/files/godot3/encrypted-password.sav"}, 1, []string{
			"gdvar: hint: this is an encrypted save file (GDEC); convert reads one value: gdvar decode --password P --to FORMAT converts a save file's values\n"}},
		{"convert a save", []string{"convert", "--to", "json", "../../testdata/files/godot4/plain-many.sav"}, 1, []string{
			"gdvar: hint: this is a save file of several store_var values; convert reads one value: gdvar decode --to FORMAT converts a save file's values\n"}},
		{"convert text", []string{"convert", "--to", "json", "../../README.md"}, 1, []string{
			"gdvar: hint: this is text, not Godot's binary format (what var_to_bytes, store_var and put_var write); for hex text give --hex\n"}},
		{"decode a directory", []string{"decode", dir}, 1, []string{"gdvar: " + dir + " is a directory, not a file\n"}},
		{"inspect a directory", []string{"inspect", dir}, 1, []string{"gdvar: inspect: " + dir + " is a directory, not a file\n"}},
		{"migrate into a directory", []string{"migrate", "--force", "../../testdata/files/godot3/plain-one.sav", dir}, 1, []string{
			"gdvar: migrate: " + dir + " is a directory: OUT is the new file's name (--out-dir " + dir + " writes each file there under its own name)\n"}},
	}
	for _, c := range cases {
		status, _, stderr := gdvar(t, "", c.args...)
		ok := status == c.status
		for _, s := range c.stderr {
			ok = ok && strings.Contains(stderr, s)
		}
		if !ok {
			t.Errorf("%s: status %d (want %d), stderr %q, want it to hold %q", c.name, status, c.status, stderr, c.stderr)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("migrate wrote into the directory: %v", entries)
	}
}

// A port in use and a mistyped command are named with what to do.
func TestListenAndTypoHints(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	addr := l.Addr().String()
	status, _, stderr := gdvar(t, "", "serve", "--tcp", addr)
	if want := "gdvar: hint: another program (another gdvar serve or host, the game itself) listens on that port: stop it, or choose another port with --tcp, --udp or --ws\n"; status != 1 || !strings.HasSuffix(stderr, want) {
		t.Errorf("serve on a port in use: status %d, stderr %q", status, stderr)
	}
	for typo, want := range map[string]string{"decod": "decode", "ecnode": "encode", "hosts": "host", "pkc": "pck", "migrat": "migrate"} {
		status, _, stderr := gdvar(t, "", typo, "x")
		if wantErr := fmt.Sprintf("gdvar: unknown command %q (did you mean %q?)\n", typo, want); status != 2 || !strings.HasPrefix(stderr, wantErr) {
			t.Errorf("%s: status %d, stderr %q, want %q", typo, status, stderr, wantErr)
		}
	}
	if status, _, stderr := gdvar(t, "", "help", "hots"); status != 2 || !strings.HasPrefix(stderr, "gdvar help: unknown command \"hots\" (did you mean \"host\"?)\n") {
		t.Errorf("help hots: status %d, stderr %q", status, stderr)
	}
	if _, _, stderr := gdvar(t, "", "frobnicate"); strings.Contains(stderr, "did you mean") {
		t.Errorf("frobnicate: %q", stderr)
	}
}
