package main

import (
	"os"
	"strings"
	"testing"
)

func TestConvert(t *testing.T) {
	sample, err := os.ReadFile("../../testdata/sample/savegame.bin")
	if err != nil {
		t.Fatal(err)
	}
	// Binary → typed JSON → binary gives the engine's bytes back.
	status, typed, stderr := gdvar(t, "", "convert", "--to", "typed-json", "../../testdata/sample/savegame.bin")
	if status != 0 || !strings.HasPrefix(typed, `{"args":["s:version"`) {
		t.Fatalf("to typed-json: %d %q", status, stderr)
	}
	status, back, stderr := gdvar(t, typed, "convert", "--from", "typed-json", "--to", "binary")
	if status != 0 || back != string(sample) {
		t.Errorf("typed-json to binary: %d %q: %d bytes, want the sample's %d", status, stderr, len(back), len(sample))
	}
	// Text and JSON.
	status, out, _ := gdvar(t, `{"args":[1.0,2.0],"type":"Vector2"}`, "convert", "--from", "typed-json", "--to", "text")
	if status != 0 || out != "Vector2(1, 2)\n" {
		t.Errorf("typed-json to text: %d %q", status, out)
	}
	status, out, _ = gdvar(t, `{"b": Vector2(1, 2), "a": 1}`, "convert", "--from", "text", "--to", "json")
	if status != 0 || out != `{"a":1,"b":"(1.0, 2.0)"}`+"\n" {
		t.Errorf("text to json: %d %q", status, out)
	}
	// Between families.
	status, out, _ = gdvar(t, "Transform3D(1, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0)", "convert", "--from", "text", "--to", "text", "--to-godot", "3")
	if status != 0 || !strings.HasPrefix(out, "Transform(") {
		t.Errorf("to Godot 3: %d %q", status, out)
	}
	status, _, stderr = gdvar(t, "0d0000000000803f", "convert", "--godot", "3", "--hex", "--to", "binary", "--to-godot", "4")
	if status != 1 || !strings.Contains(stderr, "byte 0 (Transform): data truncated") {
		t.Errorf("truncated Godot 3 input: %d %q", status, stderr)
	}
	status, _, stderr = gdvar(t, `&"id"`, "convert", "--from", "text", "--to", "binary", "--to-godot", "3")
	if status != 1 || !strings.Contains(stderr, "StringName: no equivalent in Godot 3") {
		t.Errorf("StringName to Godot 3: %d %q", status, stderr)
	}
	status, out, stderr = gdvar(t, `&"id"`, "convert", "--from", "text", "--to", "binary", "--to-godot", "3", "--lossy", "--hex")
	if status != 0 || out != "04000000020000006964000000"[:24]+"\n" || !strings.Contains(stderr, "becomes String") {
		t.Errorf("--lossy: %d %q %q", status, out, stderr)
	}
	for _, c := range []struct {
		args   []string
		status int
		errHas string
	}{
		{[]string{"convert"}, 2, "--to is required"},
		{[]string{"convert", "--to", "yaml"}, 2, "want one of"},
		{[]string{"convert", "--to", "binary", "--to-godot", "3", "--double"}, 2, "no double-precision"},
	} {
		status, _, stderr := gdvar(t, "", c.args...)
		if status != c.status || !strings.Contains(stderr, c.errHas) {
			t.Errorf("%v: %d %q", c.args, status, stderr)
		}
	}
}

func TestDecodeEncodeJSON(t *testing.T) {
	status, out, _ := gdvar(t, "1b000000010000000400000001000000610000000500000000000040000080bf", "decode", "--hex", "--to", "json")
	if status != 0 || out != `{"a":"(2.0, -1.0)"}`+"\n" {
		t.Errorf("decode --to json: %d %q", status, out)
	}
	status, out, _ = gdvar(t, "1b000000010000000400000001000000610000000500000000000040000080bf", "decode", "--hex", "--to", "typed-json")
	if status != 0 || out != `{"args":["s:a",{"args":[2.0,-1.0],"type":"Vector2"}],"type":"Dictionary"}`+"\n" {
		t.Errorf("decode --to typed-json: %d %q", status, out)
	}
	status, out, _ = gdvar(t, `{"args":["s:a",{"args":[2.0,-1.0],"type":"Vector2"}],"type":"Dictionary"}`, "encode", "--from", "typed-json", "--hex")
	if status != 0 || out != "1b000000010000000400000001000000610000000500000000000040000080bf\n" {
		t.Errorf("encode --from typed-json: %d %q", status, out)
	}
	// JSON numbers are floats, as JSON.parse_string makes them.
	status, out, _ = gdvar(t, `{"level": 12}`, "encode", "--from", "json", "--hex")
	want := "1b0000000100000004000000050000006c6576656c0000000300000000004041"
	if status != 0 || out != want+"\n" {
		t.Errorf("encode --from json: %d %q", status, out)
	}
	status, out, _ = gdvar(t, "\"a\"\n[1, \n", "encode", "--from", "json", "--lines")
	if status != 1 || !strings.HasPrefix(out, "040000000100000061000000\nERROR encode: gdjson: line 1") {
		t.Errorf("encode --from json --lines: %d %q", status, out)
	}
}
