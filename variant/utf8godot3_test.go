package variant

import (
	"testing"
	"unicode/utf8"
)

// TestRuneGodot3 checks that every character Godot 3 writes reads back as
// itself with the width written, that valid UTF-8 reads as UTF-8 does, and
// the engine's verdicts on malformed bytes (checked with Godot 3.2.3, see
// gdtext/testdata/strings3.tsv).
func TestRuneGodot3(t *testing.T) {
	for _, r := range []rune{0, 'a', 0x7f, 0x80, 0x7ff, 0x800, 0xd800, 0xdbff, 0xdc00, 0xdfff, 0xfffd, 0xffff,
		0x10000, 0x10ffff, 0x110000, 0x1fffff, 0x200000, 0x3ffffff, 0x4000000, 0x7fffffff} {
		b := AppendRuneGodot3(nil, r)
		if got, n := DecodeRuneGodot3(string(b)); got != r || n != len(b) {
			t.Errorf("%#x: written % x, read %#x (%d bytes)", r, b, got, n)
		}
		if utf8.ValidRune(r) && string(b) != string(utf8.AppendRune(nil, r)) {
			t.Errorf("%#x: % x is not its UTF-8", r, b)
		}
	}
	for in, want := range map[string]rune{
		"\xe0\x80\xaf": '/', "\xf0\x80\x88\x80": 0x200, "\xf0\x8d\xa0\x80": 0xd800, "\xf8\x84\x90\x80\x80": 0x110000,
	} {
		if got, n := DecodeRuneGodot3(in); got != want || n != len(in) {
			t.Errorf("% x: %#x (%d bytes), want %#x", in, got, n, want)
		}
		if s, ok := DecodeStringGodot3([]byte(in)); !ok || s != string(AppendRuneGodot3(nil, want)) {
			t.Errorf("% x: string % x %v", in, s, ok)
		}
	}
	for _, in := range []string{"\xfc\x80\x80\x80\x80\x80", "\xf0\x80\x80\xaf", "\xe0\x80\x80", "\xc0\xaf", "\xc1\xbf",
		"\x80", "\xfe", "\xff", "\xed\xa0", "\xf0\x9f\x98", "\xe0\x41\x80"} {
		if r, n := DecodeRuneGodot3(in); r != utf8.RuneError || n != 1 {
			t.Errorf("% x: %#x (%d bytes), want refused", in, r, n)
		}
		if _, ok := DecodeStringGodot3([]byte("a" + in)); ok {
			t.Errorf("% x: string accepted", in)
		}
	}
	if r, n := DecodeRuneGodot3(""); r != utf8.RuneError || n != 0 {
		t.Errorf("empty: %#x %d", r, n)
	}
}
