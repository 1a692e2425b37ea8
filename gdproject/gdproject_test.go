package gdproject

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// The golden files were saved by the engines with ProjectSettings.save_custom,
// running testdata/settings3.gd and settings4.gd: TestEngine3SavesGoldens and
// TestEngine4SavesGoldens check that they still do, and rewrite them with
// GDVAR_UPDATE_GOLDEN=1.
var goldens = []struct {
	name   string
	family variant.Family
	count  int
}{
	{"godot3.2.3", variant.Godot3, 11},
	{"godot4.6", variant.Godot4, 12},
}

func read(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestBinaryGoldens(t *testing.T) {
	for _, g := range goldens {
		data := read(t, g.name+"-project.binary")
		s, err := DecodeBinary(data, 0)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		if s.Family != g.family || len(s.Settings) != g.count {
			t.Errorf("%s: family %v, %d settings", g.name, s.Family, len(s.Settings))
		}
		if v, ok := s.Get("gdvar/values/string"); !ok || v != variant.String("héllo \"q\"\nline") {
			t.Errorf("%s: string %v", g.name, v)
		}
		again, err := s.EncodeBinary()
		if err != nil || !bytes.Equal(again, data) {
			t.Errorf("%s: re-encoded differs (%v)\n%x\n%x", g.name, err, again, data)
		}
	}
}

// The text the engine saved holds the same settings as its binary file
// (and config_version, which only the text has).
func TestTextGoldens(t *testing.T) {
	for _, g := range goldens {
		bin, err := DecodeBinary(read(t, g.name+"-project.binary"), g.family)
		if err != nil {
			t.Fatal(err)
		}
		txt, err := ParseText(string(read(t, g.name+"-project.godot")), 0)
		if err != nil {
			t.Fatalf("%s: %v", g.name, err)
		}
		if txt.Family != g.family {
			t.Errorf("%s: text family %v", g.name, txt.Family)
		}
		if len(txt.Settings) != len(bin.Settings)+1 || txt.Settings[0].Key != "config_version" {
			t.Errorf("%s: %d settings in the text, %d in the binary", g.name, len(txt.Settings), len(bin.Settings))
		}
		for _, st := range bin.Settings {
			v, ok := txt.Get(st.Key)
			if !ok || !variant.Equal(v, st.Value) {
				t.Errorf("%s: %s: text %v, binary %v", g.name, st.Key, v, st.Value)
			}
		}
		// Our text reads back to the same settings.
		text, err := bin.Text()
		if err != nil {
			t.Fatal(err)
		}
		back, err := ParseText(text, g.family)
		if err != nil {
			t.Fatalf("%s: %v\n%s", g.name, err, text)
		}
		b1, _ := bin.EncodeBinary()
		b2, _ := back.EncodeBinary()
		if !bytes.Equal(b1, b2) {
			t.Errorf("%s: text round trip differs\n%s", g.name, text)
		}
	}
}

func TestHostile(t *testing.T) {
	for _, data := range [][]byte{
		nil, []byte("ECFG"), []byte("ECFG\xff\xff\xff\xff"),
		[]byte("ECFG\x01\x00\x00\x00\xff\xff\xff\x7f"),
		[]byte("ECFG\x01\x00\x00\x00\x01\x00\x00\x00a\xff\xff\xff\x7f"),
		[]byte("XCFG\x00\x00\x00\x00"),
	} {
		if _, err := DecodeBinary(data, 0); err == nil {
			t.Errorf("%q decoded", data)
		}
	}
	for _, text := range []string{"[a\nb=1", "x", "a={", "a=1 2"} {
		if _, err := ParseText(text, 0); err == nil {
			t.Errorf("%q parsed", text)
		}
	}
}

func FuzzDecodeBinary(f *testing.F) {
	for _, g := range goldens {
		b, _ := os.ReadFile(filepath.Join("testdata", g.name+"-project.binary"))
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		s, err := DecodeBinary(data, 0)
		if err != nil {
			return
		}
		if _, err := s.EncodeBinary(); err != nil {
			t.Fatal(err)
		}
		s.Text()
	})
}

// A project.godot as the 4.6 editor writes it, with input events (full
// objects) and autoloads, survives text → binary → text.
func TestEditorText(t *testing.T) {
	text := `; Engine configuration file.

config_version=5

[application]

config/name="Platformer"
run/main_scene="uid://b8x3"
config/features=PackedStringArray("4.6", "Forward Plus")

[autoload]

Global="*res://global.gd"

[input]

jump={
"deadzone": 0.2,
"events": [Object(InputEventKey,"resource_local_to_scene":false,"resource_name":"","device":-1,"window_id":0,"alt_pressed":false,"shift_pressed":false,"ctrl_pressed":false,"meta_pressed":false,"pressed":false,"keycode":0,"physical_keycode":32,"key_label":0,"unicode":32,"location":0,"echo":false,"script":null)
]
}

[rendering]

textures/canvas_textures/default_texture_filter=0 ; nearest
`
	s, err := ParseText(text, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Settings) != 7 {
		t.Fatalf("%d settings", len(s.Settings))
	}
	bin, err := s.EncodeBinary()
	if err != nil {
		t.Fatal(err)
	}
	back, err := DecodeBinary(bin, variant.Godot4)
	if err != nil {
		t.Fatal(err)
	}
	jump, _ := back.Get("input/jump")
	if !variant.Equal(jump, s.Settings[5].Value) {
		t.Fatalf("input/jump: %v", jump)
	}
	out, err := back.Text()
	if err != nil {
		t.Fatal(err)
	}
	again, err := ParseText(out, variant.Godot4)
	if err != nil || len(again.Settings) != 7 {
		t.Fatalf("%v\n%s", err, out)
	}
}

// FuzzParseText reads any text as project.godot: no panic, and what it
// reads writes back as text that reads to the same settings.
func FuzzParseText(f *testing.F) {
	for _, g := range goldens {
		b, _ := os.ReadFile(filepath.Join("testdata", g.name+"-project.godot"))
		f.Add(string(b))
	}
	f.Add("a=1\n[s]\nb={\n\"k\": [1,\n2]\n} ; c\n")
	f.Fuzz(func(t *testing.T, text string) {
		s, err := ParseText(text, 0)
		if err != nil {
			return
		}
		out, err := s.Text()
		if err != nil {
			return
		}
		back, err := ParseText(out, s.Family)
		if err != nil {
			t.Fatalf("%q: our text does not read back: %v\n%s", text, err, out)
		}
		if len(back.Settings) != len(s.Settings) {
			t.Fatalf("%q: %d settings, %d after a round trip\n%s", text, len(s.Settings), len(back.Settings), out)
		}
	})
}

// ParseText reads keys as the engine does (TestEngine3ReadsKeys has the
// engine judge the same rules): a quoted key is a string that may hold
// '=', a bare one loses its spaces and control characters and keeps its
// other bytes as they are, an empty one sets nothing.
func TestParseKeys(t *testing.T) {
	s, err := ParseText("\"a=b\" = 1\n x\ty\x01 = 2\nk\xffé=3\n\"\"=4\n=5\n[sec]\n\"\\\"q\\\"\"=6\n", variant.Godot4)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, st := range s.Settings {
		keys = append(keys, st.Key)
	}
	if want := []string{"a=b", "xy", "k\xffé", "sec/\"q\""}; !slices.Equal(keys, want) {
		t.Errorf("keys %q, want %q", keys, want)
	}
}
