package gdjson_test

import (
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
