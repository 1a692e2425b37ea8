package gdjson

import (
	"strings"
	"testing"
)

// TestDefaultMaxDepth: by default both forms read Arrays nested as deep as
// the binary decoder takes them (DefaultMaxDepth, 1024 levels below the
// top) and refuse one level more, with an error and no panic.
func TestDefaultMaxDepth(t *testing.T) {
	for _, form := range []Form{Plain, Typed} {
		leaf := "1"
		if form == Typed {
			leaf = `"i:1"`
		}
		nested := func(levels int) string {
			return strings.Repeat("[", levels) + leaf + strings.Repeat("]", levels)
		}
		if _, err := Parse(nested(DefaultMaxDepth), ParseOptions{Form: form}); err != nil {
			t.Errorf("%v, %d levels: %v", form, DefaultMaxDepth, err)
		}
		if _, err := Parse(nested(DefaultMaxDepth+1), ParseOptions{Form: form}); err == nil {
			t.Errorf("%v, %d levels: accepted", form, DefaultMaxDepth+1)
		}
		if _, err := Parse(nested(100_000), ParseOptions{Form: form}); err == nil {
			t.Errorf("%v, 100,000 levels: accepted", form)
		}
	}
}
