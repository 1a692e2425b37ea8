package gdtext

import (
	"testing"

	"github.com/gdvar/gdvar/variant"
)

func TestParsePrefix(t *testing.T) {
	for _, c := range []struct {
		text string
		rest string
	}{
		{"1\nnext=2", "\nnext=2"},
		{"{\n\"a\": [1, 2]\n}\nb=3", "\nb=3"},
		{"true\n[section]", "\n[section]"},
		{`Vector2(1, 2) x`, " x"},
		{`"s" ; comment`, " ; comment"},
	} {
		v, n, err := ParsePrefix(c.text, ParseOptions{})
		if err != nil {
			t.Fatalf("%q: %v", c.text, err)
		}
		rest := c.text[n:]
		if rest != c.rest && rest != c.rest[1:] {
			t.Errorf("%q: rest %q, want %q", c.text, rest, c.rest)
		}
		whole, err := Parse(c.text[:n], ParseOptions{})
		if err != nil || !variant.Equal(whole, v) {
			t.Errorf("%q: prefix %q reads %v (%v), ParsePrefix %v", c.text, c.text[:n], whole, err, v)
		}
	}
	if _, _, err := ParsePrefix("{\n\"a\": 1", ParseOptions{}); err == nil {
		t.Error("an unclosed Dictionary read")
	}
}

// ScanKey reads keys as the engines' file readers do (gdproject's
// TestEngine3ReadsKeys and TestEngine4ReadsKeys have the engines judge
// the same rules).
func TestScanKey(t *testing.T) {
	for _, c := range []struct {
		text, key string
		next      int
		ok        bool
	}{
		{"a=1", "a", 2, true},
		{"  x y =3", "xy", 7, true},
		{"a\xc3\xa9=", "a\u00c3\u00a9", 4, true},
		{"a\"b\"=1", "b", 5, true},
		{"\"a\"b=2", "ab", 5, true},
		{"c;d=3\ne=4", "ce", 8, true},
		{"#c\nf=5", "#cf", 5, true},
		{"\"k=v\" = 6", "k=v", 7, true},
		{"\"\"=8", "", 3, true},
		{"  [s]", "", 2, false},
		{"a[s]=1", "a[s]", 5, true},
		{"x", "", 1, false},
		{"x ; comment", "", 11, false},
		{"\"\\u00e9\"=1", "\uFFFD", 9, true}, // a file reader's string (Godot 4)
	} {
		key, next, ok, err := ScanKey(c.text, ParseOptions{})
		if err != nil || key != c.key || next != c.next || ok != c.ok {
			t.Errorf("ScanKey(%q) = %q, %d, %t, %v; want %q, %d, %t", c.text, key, next, ok, err, c.key, c.next, c.ok)
		}
	}
	if _, _, _, err := ScanKey("a\n\"b", ParseOptions{}); err == nil {
		t.Error("an unterminated quoted key: no error")
	} else if se, ok := err.(*SyntaxError); !ok || se.Line != 2 {
		t.Errorf("an unterminated quoted key: %v", err)
	}
}
