package gdvar

import (
	"github.com/gdvar/gdvar/variant"
)

// Unmarshal reads the wire format with variant.Reader, the reader
// variant.Decode is built on: the same pieces read by the same code, with
// the same decisions and the same errors (offsets, sentinels, engine codes
// and details). So Unmarshal accepts and refuses exactly what
// variant.Decode accepts and refuses.

// asError returns err as this package's error: a *variant.Error of the
// Reader becomes a wire error of Unmarshal.
func asError(err error) error {
	if ve, ok := err.(*variant.Error); ok {
		return wireError("unmarshal", ve)
	}
	return err
}

// validString reports whether s can be encoded for fam.
func validString(fam variant.Family, s string) bool { return fam.ValidString(s) }
