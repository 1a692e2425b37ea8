package gdtext

import (
	"errors"

	"github.com/gdvar/gdvar/variant"
)

// Format returns the text of v for the engine family o.Family.
func Format(v variant.Value, o Options) (string, error) {
	b, err := Append(nil, v, o)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// Append appends the text of v for the engine family o.Family to dst. On
// error it returns dst unchanged, with an error saying what could not be
// written and where in v it is (a *variant.TextError, wrapped).
func Append(dst []byte, v variant.Value, o Options) ([]byte, error) {
	f, err := family(o.Family)
	if err != nil {
		return dst, err
	}
	if o.MaxBytes < 0 {
		return dst, errors.New("gdtext: Options.MaxBytes is negative")
	}
	out, err := variant.AppendText(dst, v, variant.TextOptions{Family: f, Multiline: o.Multiline, MaxBytes: o.MaxBytes, ResourceFormat: o.ResourceFormat, Reals32: o.Reals32})
	if err != nil {
		var te *variant.TextError
		if errors.As(err, &te) {
			err = &formatError{te}
		}
		return dst, err
	}
	return out, nil
}

// formatError is a *variant.TextError told as this package's error.
type formatError struct{ e *variant.TextError }

func (e *formatError) Error() string {
	if e.e.Path == "" {
		return "gdtext: " + e.e.Msg
	}
	return "gdtext: " + e.e.Msg + " (at " + e.e.Path + ")"
}

func (e *formatError) Unwrap() error { return e.e }
