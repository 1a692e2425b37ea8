package gdtext

import (
	"bufio"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// TestGodot3StringsGolden checks strings that only Godot 3 holds
// (surrogates, characters above U+10FFFF, overlong forms) against what
// Godot 3.2.3 did with them (testdata/strings3.tsv, made by
// testdata/strings3.sh): the decoder refuses what the engine refuses and
// keeps what it keeps; Format writes the text the engine was given, which
// str2var read back to the same bytes; Parse reads that text and the
// engine's own var2str text to the same bytes.
func TestGodot3StringsGolden(t *testing.T) {
	f, err := os.Open(filepath.Join("testdata", "strings3.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	dec, _ := variant.DecOptions{Family: variant.Godot3}.DecMode()
	enc, _ := variant.EncOptions{Family: variant.Godot3}.EncMode()
	encode := func(v variant.Value) string {
		b, err := enc.Encode(v)
		if err != nil {
			return "encode: " + err.Error()
		}
		return hex.EncodeToString(b)
	}
	unhex := func(s string) string { b, _ := hex.DecodeString(s); return string(b) }
	sc := bufio.NewScanner(f)
	lines := 0
	for sc.Scan() {
		lines++
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 6 {
			t.Fatalf("line %d: %d columns", lines, len(c))
		}
		raw, decoded, var2str, again, text, read := c[0], c[1], c[2], c[3], c[4], c[5]
		v, _, err := dec.Decode(wire.AppendString(wire.AppendU32(nil, 4), unhex(raw)))
		if decoded == "ERROR" {
			if !errors.Is(err, variant.ErrInvalidUTF8) {
				t.Errorf("%s: decoded as %v, %v; Godot 3 refuses it", raw, v, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", raw, err)
			continue
		}
		if got := encode(v); got != decoded || again != decoded || read != decoded {
			t.Errorf("%s: re-encoded %s; the engine: %s (its text read back: %s, ours: %s)", raw, got, decoded, again, read)
		}
		ours, err := Format(v, Options{Family: variant.Godot3})
		if err != nil || ours != unhex(text) {
			t.Errorf("%s: Format = %q, %v; the engine was given %q", raw, ours, err, unhex(text))
		}
		for _, in := range []string{unhex(text), unhex(var2str)} {
			p, err := Parse(in, ParseOptions{Family: variant.Godot3})
			if err != nil {
				t.Errorf("%s: Parse(%q): %v", raw, in, err)
			} else if got := encode(p); got != decoded {
				t.Errorf("%s: Parse(%q) encodes to %s, want %s", raw, in, got, decoded)
			}
		}
		_ = v.(variant.String).String() // prints, in Godot 4 text
	}
	if err := sc.Err(); err != nil || lines < 20 {
		t.Fatalf("%d lines, %v", lines, err)
	}
}

// TestGodot3StringsRoundTrip checks that such strings survive Format and
// Parse wherever strings appear.
func TestGodot3StringsRoundTrip(t *testing.T) {
	odd := []string{"\xed\xa0\xbd", "a\xed\xa0\xbd\xed\xb8\x80b", "\xf4\x90\x80\x80", "\xfd\xbf\xbf\xbf\xbf\xbf", "x\"\xf8\x88\x80\x80\x80\n"}
	for _, s := range odd {
		d := variant.NewDictionary(1)
		d.Set(variant.String(s), variant.NewArray(variant.String(s), variant.PackedStringArray{s, "b"},
			variant.NodePath{Names: []string{s}, Subnames: []string{s}}, &variant.Object{Class: "Node", Properties: []variant.Property{{Name: s, Value: variant.String(s)}}}))
		text, err := Format(d, Options{Family: variant.Godot3})
		if err != nil {
			t.Fatalf("%q: %v", s, err)
		}
		back, err := Parse(text, ParseOptions{Family: variant.Godot3})
		if err != nil || !variant.Equal(d, back) {
			t.Errorf("%q: Parse(%q) = %v, %v", s, text, back, err)
		}
		if _, err := Format(d, Options{}); err == nil {
			t.Errorf("%q: Godot 4 text written", s)
		}
	}
	// What Godot 3 cannot hold either, or holds in another form.
	for _, s := range []string{"\xff", "\xe0\x80\xaf", "\xed\xa0"} {
		if text, err := Format(variant.String(s), Options{Family: variant.Godot3}); err == nil {
			t.Errorf("%q: written as %q", s, text)
		}
	}
	// Surrogate escapes stay single characters; overlong forms in the text
	// are read as Godot 3 reads them.
	for text, want := range map[string]string{
		`"\uD83D\uDE00"`:         "\xed\xa0\xbd\xed\xb8\x80",
		"\"\xe0\x80\xaf\"":       "/",
		"\"\\\xf4\x90\x80\x80\"": "\xf4\x90\x80\x80",
	} {
		v, err := Parse(text, ParseOptions{Family: variant.Godot3})
		if err != nil || v != variant.String(want) {
			t.Errorf("Parse(%q) = %q, %v; want %q", text, v, err, want)
		}
	}
}
