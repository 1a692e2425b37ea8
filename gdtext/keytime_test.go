package gdtext_test

import (
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
