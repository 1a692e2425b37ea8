package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/internal/filefixture"
)

func TestInspect(t *testing.T) {
	g4 := filepath.Join(filefixture.Root(), "godot4")
	g3 := filepath.Join(filefixture.Root(), "godot3")
	status, out, _ := gdvar(t, "", "inspect", "../../testdata/sample/savegame.bin")
	if status != 0 || !strings.HasPrefix(out, "value: ") || !strings.Contains(out, `"Ada Lovelace"`) {
		t.Errorf("sample: %d\n%s", status, out)
	}
	// A truncated packet: the fields up to the bad one, then the error.
	status, out, _ = gdvar(t, "1c000000 02000000 02000000 01000000 05000000 0000803f", "inspect", "--hex")
	if status != 1 || !strings.Contains(out, "[1] Vector2") ||
		!strings.HasSuffix(out, "error: decode: byte 16, [1] (Vector2): data truncated: need 8 bytes, have 4\n") {
		t.Errorf("truncated: %d\n%s", status, out)
	}
	// Files and containers are found out.
	status, out, _ = gdvar(t, "", "inspect", "--password", filefixture.Password, filepath.Join(g3, "encrypted-password.sav"))
	if status != 0 || !strings.Contains(out, "AES-256-ECB") || !strings.Contains(out, "decrypted data: ") ||
		!strings.Contains(out, "9 store_var values, Godot 3") || !strings.Contains(out, "PoolIntArray") {
		t.Errorf("encrypted: %d\n%s", status, out)
	}
	status, out, _ = gdvar(t, "", "inspect", filepath.Join(g4, "compressed-gzip.sav"))
	if status != 0 || !strings.Contains(out, "3: gzip") || !strings.Contains(out, "decompressed data: 18792 bytes") {
		t.Errorf("compressed: %d\n%s", status, out)
	}
	status, out, stderr := gdvar(t, "", "inspect", filepath.Join(g4, "encrypted-key.sav"))
	if status != 1 || !strings.Contains(stderr, "give --password or --key") || !strings.Contains(out, "iv") {
		t.Errorf("no key: %d %q\n%s", status, stderr, out)
	}
	// --value reads a store_var file as one raw value (an int: the length).
	status, out, _ = gdvar(t, "", "inspect", "--value", filepath.Join(g4, "plain-one.sav"))
	if status != 1 || !strings.Contains(out, "error: decode: byte 0: invalid Variant type") {
		t.Errorf("--value: %d\n%s", status, out)
	}
	status, out, _ = gdvar(t, "", "inspect", "--all", filepath.Join(g4, "plain-many.sav"))
	if status != 0 || !strings.Contains(out, "[1999]") {
		t.Errorf("--all: %d", status)
	}
	if status, _, stderr := gdvar(t, "", "inspect", "--value", "--file"); status != 2 || !strings.Contains(stderr, "not both") {
		t.Errorf("--value --file: %d %q", status, stderr)
	}
}
