package gdproject

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
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
	// (A key without '=' at the end, "x", and what follows a value
	// without one, "a=1 2", set nothing, as in the engine: TestParseKeys.)
	for _, text := range []string{"[a\nb=1", "a={", "\"x", "\"x\n=1", "a=\"x"} {
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
		b, err := s.EncodeBinary()
		if err != nil {
			t.Fatal(err)
		}
		back, err := DecodeBinary(b, s.Family)
		if err != nil {
			t.Fatalf("re-encoded project.binary does not decode: %v", err)
		}
		sameEncoded(t, "re-encoded", s, back)
		// As gdvar pck cat shows it: the text reads as the same settings.
		text, err := s.Text()
		if err != nil || strings.Contains(text, "nan") {
			return // the text form has no NaN payloads
		}
		parsed, err := ParseText(text, s.Family)
		if err != nil {
			t.Fatalf("its text does not parse: %v\n%s", err, text)
		}
		sameSettings(t, "as text", s, parsed)
	})
}

// sameEncoded is sameSettings for values compared as EncodeBinary writes
// them: the components of math types in 32 bits (single precision, as
// the engine and EncodeBinary write them).
func sameEncoded(t *testing.T, what string, a, b *Settings) {
	t.Helper()
	enc, err := variant.EncOptions{Family: a.Family, FullObjects: true}.EncMode()
	if err != nil {
		t.Fatal(err)
	}
	keys := map[string]bool{}
	for _, st := range a.Settings {
		keys[st.Key] = true
		w, _ := a.Get(st.Key)
		got, ok := b.Get(st.Key)
		wb, err1 := enc.Encode(w)
		gb, err2 := enc.Encode(got)
		if !ok || err1 != nil || err2 != nil || !bytes.Equal(wb, gb) {
			t.Fatalf("%s: %q is %v (%t), want %v", what, st.Key, got, ok, w)
		}
	}
	for _, st := range b.Settings {
		if !keys[st.Key] {
			t.Fatalf("%s: %q was not there", what, st.Key)
		}
	}
}

// sameSettings fails t unless every key of a has the same value in b and
// b has no other key.
func sameSettings(t *testing.T, what string, a, b *Settings) {
	t.Helper()
	keys := map[string]bool{}
	for _, st := range a.Settings {
		keys[st.Key] = true
		w, _ := a.Get(st.Key)
		if got, ok := b.Get(st.Key); !ok || !variant.Equal(got, w) {
			t.Fatalf("%s: %q is %v (%t), want %v", what, st.Key, got, ok, w)
		}
	}
	for _, st := range b.Settings {
		if !keys[st.Key] {
			t.Fatalf("%s: %q was not there", what, st.Key)
		}
	}
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
		if !strings.Contains(out, "nan") {
			sameSettings(t, "text round trip", s, back)
		}
		// And as project.binary, which gdvar pck pack writes from it (a
		// string ends at a NUL there, as in the engine).
		b, err := s.EncodeBinary()
		if err != nil || strings.Contains(out, `\u0000`) || strings.ContainsRune(out, 0) {
			return
		}
		bin, err := DecodeBinary(b, s.Family)
		if err != nil {
			t.Fatalf("%q: its project.binary does not decode: %v", text, err)
		}
		sameEncoded(t, "as project.binary", s, bin)
	})
}

// ParseText reads keys as the engines do (TestEngine3ReadsKeys and
// TestEngine4ReadsKeys have them judge the same rules): a quoted key is a
// string that may hold '=' and replaces what was read before it; a bare
// one loses its spaces and control characters, its other bytes are one
// character each, and it goes on after a comment and over line breaks; an
// empty one sets nothing; keys may share a line; a key without '=' at the
// end sets nothing; an empty section name changes nothing; '#' is part
// of a key.
func TestParseKeys(t *testing.T) {
	s, err := ParseText("\"a=b\" = 1\n x\ty\x01 = 2\nk\xff\xc3\xa9=3\n\"\"=4\n=5\n[sec]\n\"\\\"q\\\"\"=6\n"+
		"m\"n\"=7 o;p=8\nq=9\n[]\n#r\ns=10\nt", variant.Godot4)
	if err != nil {
		t.Fatal(err)
	}
	var keys []string
	for _, st := range s.Settings {
		keys = append(keys, st.Key)
	}
	if want := []string{"a=b", "xy", "k\u00ff\u00c3\u00a9", "sec/\"q\"", "sec/n", "sec/oq", "sec/#rs"}; !slices.Equal(keys, want) {
		t.Errorf("keys %q, want %q", keys, want)
	}
	for _, c := range []struct {
		family     variant.Family
		text, want string
		unwritable bool
	}{
		{variant.Godot3, "[s\xc3\xa9 ]\nk=1\n", "s\u00c3\u00a9/k", false},
		{variant.Godot3, "[a\\]b]=1\n", "a\\/b]", false},
		{variant.Godot4, "[s\xc3\xa9 ]\nk=1\n", "s\u00e9/k", false},
		{variant.Godot4, "[a\\]b]\nk=1\n", "a]b/k", true},
		{variant.Godot4, "[a\\\\]b]\nk=1\n", "a\\]b/k", true},
		{variant.Godot4, "[a\\b\xff]\nk=1\n", "a\\b\uFFFD/k", false},
	} {
		s, err := ParseText(c.text, c.family)
		if err != nil || len(s.Settings) != 1 || s.Settings[0].Key != c.want {
			t.Errorf("%v %q: %v %v, want %q", c.family, c.text, s, err, c.want)
			continue
		}
		// Text writes the section so that the engine reads it back, or
		// refuses it.
		out, err := s.Text()
		if c.unwritable {
			if !errors.Is(err, ErrFormat) {
				t.Errorf("%v %q: %v, want ErrFormat", c.family, c.text, err)
			}
			continue
		}
		back, err := ParseText(out, c.family)
		if err != nil || len(back.Settings) != 1 || back.Settings[0].Key != c.want {
			t.Errorf("%v %q: wrote %q, read back %v %v", c.family, c.text, out, back, err)
		}
	}
	if _, err := ParseText("[s\nk=1\n", variant.Godot4); !errors.Is(err, ErrFormat) {
		t.Errorf("a section without ']': %v", err)
	}
}
