package main

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
)

// zeros is a standard input that never ends; it counts what it gave.
type zeros struct{ n int64 }

func (r *zeros) Read(p []byte) (int, error) {
	clear(p)
	r.n += int64(len(p))
	return len(p), nil
}

// TestInputLimit: the commands read no more than gdfile's InputLimit. A
// regular file larger than that is refused from its size, and standard
// input is cut one byte past it.
func TestInputLimit(t *testing.T) {
	o := gdfile.Options{MaxSize: 1 << 20}
	limit := o.InputLimit()
	path := filepath.Join(t.TempDir(), "big.sav")
	if err := os.WriteFile(path, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(path, limit+1); err != nil {
		t.Skip(err)
	}
	if _, err := readFileBounded(path, nil, o); err == nil || !strings.Contains(err.Error(), "--max-size raises it") {
		t.Errorf("a file of %d bytes: %v", limit+1, err)
	}
	if err := os.Truncate(path, limit); err != nil {
		t.Fatal(err)
	}
	if b, err := readFileBounded(path, nil, o); err != nil || int64(len(b)) != limit {
		t.Errorf("a file of %d bytes: %d read, %v", limit, len(b), err)
	}
	in := &zeros{}
	if _, err := readFileBounded("-", in, o); !errors.Is(err, gdfile.ErrTooLarge) {
		t.Errorf("endless standard input: %v", err)
	}
	if in.n > limit+1 {
		t.Errorf("read %d bytes of standard input, limit %d", in.n, limit)
	}
	// The commands' own default is gdfile's.
	if inputLimit.InputLimit() != (gdfile.Options{}).InputLimit() {
		t.Errorf("the commands read up to %d bytes, gdfile's default is %d", inputLimit.InputLimit(), (gdfile.Options{}).InputLimit())
	}
}
