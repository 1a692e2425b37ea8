package gdtext_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/internal/keytest"
	"github.com/gdvar/gdvar/variant"
)

// gdtext.Parse reads Dictionaries of deep keys about as fast per byte as
// Dictionaries of flat keys.
func TestDeepKeysParseInLinearTime(t *testing.T) {
	keytest.ParseInLinearTime(t,
		func(v variant.Value) (string, error) { return gdtext.Format(v, gdtext.Options{}) },
		func(s string) error {
			_, err := gdtext.Parse(s, gdtext.ParseOptions{})
			return err
		})
}

// TestTypedKeysAreOneKey parses a Dictionary of 32,768 empty typed
// Dictionaries and Arrays as keys, one class name each (1.2 MB of text):
// they are one key each, as in Godot 4.6 (element types do not make keys
// different). When the hash saw only their size and equality their types,
// each key was compared with every earlier one: 11 s for this text.
func TestTypedKeysAreOneKey(t *testing.T) {
	const n = 32768
	for _, shape := range []string{"Dictionary[C%d, int]({})", "Array[C%d]([])"} {
		var b strings.Builder
		b.WriteString("{\n")
		for i := range n {
			fmt.Fprintf(&b, shape+": %d,\n", i, i)
		}
		b.WriteString("}")
		v, err := gdtext.Parse(b.String(), gdtext.ParseOptions{})
		if err != nil {
			t.Fatal(err)
		}
		d := v.(*variant.Dictionary)
		if d.Len() != 1 {
			t.Fatalf("%s: %d keys, want 1", shape, d.Len())
		}
		for _, val := range d.All() {
			if val != variant.Int(n-1) {
				t.Errorf("%s: the key holds %v, want the last value", shape, val)
			}
		}
	}
}
