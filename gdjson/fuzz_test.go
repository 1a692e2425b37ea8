package gdjson

import (
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// FuzzParse checks that no text makes Parse panic, and that what the typed
// form reads writes back to text that reads as the same value (the plain
// form, lossy, must at least write and read again).
func FuzzParse(f *testing.F) {
	for _, l := range loadGolden(f) {
		for _, s := range []string{l.Plain, l.Typed, l.ToNative, l.Parse} {
			if s != "" {
				f.Add(s, true)
				f.Add(s, false)
			}
		}
	}
	f.Add(`[1,2,]`, false)
	f.Add(`{"type":"Array","elem_type":"int","args":["i:1"]}`, true)
	// Keys that differ only in element types: one key.
	f.Add(`{"type":"Dictionary","args":[{"type":"Dictionary","key_type":"Ca","value_type":"int","args":[]},"i:1",{"type":"Dictionary","key_type":"Cb","value_type":"int","args":[]},"i:2",{"type":"Array","elem_type":"Ca","args":[]},"i:3",{"type":"Array","args":[]},"i:4"]}`, true)
	f.Fuzz(func(t *testing.T, text string, typed bool) {
		form := Plain
		if typed {
			form = Typed
		}
		v, err := Parse(text, ParseOptions{Form: form, AllowObjects: true, MaxDepth: 64})
		if err != nil {
			return
		}
		out, err := Format(v, Options{Form: form, FullObjects: true})
		if err != nil {
			t.Fatalf("Format of what Parse read: %v", err)
		}
		back, err := Parse(out, ParseOptions{Form: form, AllowObjects: true, MaxDepth: 64})
		if err != nil {
			if !typed && strings.Contains(out, `\v`) {
				return // the engine writes \v and refuses it: so do we
			}
			t.Fatalf("Parse of %q: %v", out, err)
		}
		if typed && !variant.Equal(back, v) {
			t.Fatalf("typed round trip of %q changed the value", out)
		}
	})
}
