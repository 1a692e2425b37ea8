package gdjson_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdjson"
	"github.com/gdvar/gdvar/internal/keytest"
	"github.com/gdvar/gdvar/variant"
)

// Typed JSON is read about as fast per byte for Dictionaries of deep keys
// as for Dictionaries of flat keys.
func TestDeepKeysParseInLinearTime(t *testing.T) {
	keytest.ParseInLinearTime(t,
		func(v variant.Value) (string, error) {
			return gdjson.Format(v, gdjson.Options{Form: gdjson.Typed, KeepOrder: true})
		},
		func(s string) error {
			_, err := gdjson.Parse(s, gdjson.ParseOptions{Form: gdjson.Typed})
			return err
		})
}

// TestTypedKeysAreOneKey parses, in the typed form, a Dictionary of 32,768
// empty typed Dictionaries as keys, one class name each: one key, as in
// Godot 4.6 (element types do not make keys different). When the hash saw
// only their size and equality their types, each key was compared with
// every earlier one.
func TestTypedKeysAreOneKey(t *testing.T) {
	const n = 32768
	var b strings.Builder
	b.WriteString(`{"type":"Dictionary","args":[`)
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"type":"Dictionary","key_type":"C%d","value_type":"int","args":[]},"i:%d"`, i, i)
	}
	b.WriteString("]}")
	v, err := gdjson.Parse(b.String(), gdjson.ParseOptions{Form: gdjson.Typed, AllowObjects: true})
	if err != nil {
		t.Fatal(err)
	}
	d := v.(*variant.Dictionary)
	if d.Len() != 1 {
		t.Fatalf("%d keys, want 1", d.Len())
	}
	for k, val := range d.All() {
		if val != variant.Int(n-1) || k.(*variant.Dictionary).KeyType().Name != "C0" {
			t.Errorf("the key %v holds %v, want the first key holding the last value", k, val)
		}
	}
}
