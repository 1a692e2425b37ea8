package gdfile

import (
	"errors"
	"io"
	"testing"
)

// endless is a reader of zeros that never ends and counts what it gave.
type endless struct{ n int64 }

func (r *endless) Read(p []byte) (int, error) {
	clear(p)
	r.n += int64(len(p))
	return len(p), nil
}

// TestReadAllStopsAtInputLimit: ReadAll takes no more than InputLimit
// bytes (MaxSize × 1.25 + 4 KiB) and one more from an input that never
// ends, and refuses it with ErrTooLarge; an input of exactly InputLimit
// bytes is read whole.
func TestReadAllStopsAtInputLimit(t *testing.T) {
	for _, o := range []Options{{}, {MaxSize: 1 << 20}} {
		limit := o.InputLimit()
		if want := int64(o.maxSize()) + int64(o.maxSize())/4 + 4096; limit != want {
			t.Fatalf("MaxSize %d: InputLimit %d, want %d", o.maxSize(), limit, want)
		}
		r := &endless{}
		if _, err := ReadAll(r, o); !errors.Is(err, ErrTooLarge) {
			t.Errorf("MaxSize %d: endless input: %v", o.maxSize(), err)
		}
		if r.n > limit+1 {
			t.Errorf("MaxSize %d: read %d bytes of an endless input, limit %d", o.maxSize(), r.n, limit)
		}
		b, err := ReadAll(io.LimitReader(&endless{}, limit), o)
		if err != nil || int64(len(b)) != limit {
			t.Errorf("MaxSize %d: an input of %d bytes: %d bytes, %v", o.maxSize(), limit, len(b), err)
		}
	}
}
