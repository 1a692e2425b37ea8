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
