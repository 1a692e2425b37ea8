package gdtext

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// FuzzParse checks that Parse never panics and that whatever it reads,
// Format writes (on one line and multi-line) and Parse reads back as an
// equal value. It is seeded with the test tables and the engines' texts of
// the golden fixtures.
func FuzzParse(f *testing.F) {
	for _, tt := range parseTests {
		f.Add(tt.text, tt.fam == variant.Godot3)
	}
	for _, tt := range formatTests {
		f.Add(tt.g4, false)
		if tt.g3 != "" {
			f.Add(tt.g3, true)
		}
	}
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		for _, fx := range loadFixtures(f, fam) {
			f.Add(fx.Text, fam == variant.Godot3)
		}
	}
	// Keys that differ only in element types (one key), only in String
	// and StringName elements (two keys), and keys holding NaN (a new key
	// each time).
	f.Add(`{Dictionary[Ca, int]({}): 1, Dictionary[Cb, int]({}): 2, Array[Ca]([]): 3, []: 4, [nan]: 5, [nan]: 6, ["a"]: 7, [&"a"]: 8, {"k": nan}: 9, {&"k": 1}: 10, {"k": 1}: 11}`, false)
	for _, s := range []string{"\"\xed\xa0\xbd\"", "[\"a\\ud83d\xf4\x90\x80\x80\"]", "\"\xe0\x80\xaf\xfc\x84\x80\x80\x80\x80\""} {
		f.Add(s, true)
	}
	f.Fuzz(func(t *testing.T, text string, g3 bool) {
		fam := variant.Godot4
		if g3 {
			fam = variant.Godot3
		}
		v, err := Parse(text, ParseOptions{Family: fam})
		if err != nil {
			if _, ok := err.(*SyntaxError); !ok {
				t.Fatalf("Parse(%q): error %v is not a *SyntaxError", text, err)
			}
			return
		}
		for _, multi := range []bool{false, true} {
			out, err := Format(v, Options{Family: fam, Multiline: multi})
			if err != nil {
				t.Fatalf("Parse(%q) = %#v, which Format refuses: %v", text, v, err)
			}
			back, err := Parse(out, ParseOptions{Family: fam})
			if err != nil {
				t.Fatalf("Parse(Format(Parse(%q))) = Parse(%q): %v", text, out, err)
			}
			if !variant.Equal(v, back) {
				t.Fatalf("Parse(%q) = %#v\nFormat: %q\nParse again: %#v", text, v, out, back)
			}
			if limit := len(out) / 2; limit > 0 {
				cut, err := Format(v, Options{Family: fam, Multiline: multi, MaxBytes: limit})
				body, ok := strings.CutSuffix(cut, variant.TextCut)
				// The cut never splits a character: it may stop up to 3
				// bytes short (UTF-8), or 5 in Godot 3 text, whose strings
				// may hold the engine's 5- and 6-byte sequences.
				short := 3
				if fam == variant.Godot3 {
					short = 5
				}
				if err != nil || !ok || !strings.HasPrefix(out, body) || len(body) > limit || len(body) < limit-short {
					t.Fatalf("Format(%q) with MaxBytes %d = %q, %v", out, limit, cut, err)
				}
			}
		}
	})
}

// FuzzDecodedText checks that every value the binary decoder accepts has a
// text that Parse reads back as an equal value, in both families (objects
// allowed), except full Objects and typed containers whose class name is
// not an identifier, which the text form cannot name, and up to NaN
// payloads, which the text does not keep.
func FuzzDecodedText(f *testing.F) {
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		for _, fx := range loadFixtures(f, fam) {
			b, _ := hex.DecodeString(fx.Hex)
			f.Add(b, fam == variant.Godot3)
		}
	}
	f.Add([]byte("\x04\x00\x00\x00\x06\x00\x00\x00\xfc\x84\x80\x80\x80\x80\x00\x00"), true)
	f.Add([]byte("\x1c\x00\x02\x00\x00\x00\x00\x00\x00\x00\x00\x00"), false)
	modes := map[bool]*variant.DecMode{}
	for _, g3 := range []bool{false, true} {
		fam := variant.Godot4
		if g3 {
			fam = variant.Godot3
		}
		modes[g3], _ = variant.DecOptions{Family: fam, AllowObjects: true, MaxSize: 1 << 16}.DecMode()
	}
	f.Fuzz(func(t *testing.T, b []byte, g3 bool) {
		v, _, err := modes[g3].Decode(b)
		if err != nil {
			return
		}
		fam := modes[g3].Options().Family
		text, err := Format(v, Options{Family: fam})
		if err != nil {
			if strings.Contains(err.Error(), "is not an identifier") {
				return
			}
			t.Fatalf("% x decodes to %v, which Format refuses: %v", b, v, err)
		}
		back, err := Parse(text, ParseOptions{Family: fam})
		if err != nil || !variant.Equal(v, back) && !strings.Contains(text, "nan") {
			t.Fatalf("% x: Parse(%q) = %v, %v", b, text, back, err)
		}
	})
}
