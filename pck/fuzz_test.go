package pck

import (
	"bytes"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
)

// FuzzReader opens any bytes as a pack, with and without the test key,
// and reads everything it lists: no panic, and nothing read beyond the
// file's size.
func FuzzReader(f *testing.F) {
	for _, c := range writerCases() {
		f.Add(build(f, c.o, map[string]string{"a.txt": "hello", "d/b": "world!"}))
	}
	goldens, _ := filepath.Glob(filepath.Join("testdata", "engine", "*.pck"))
	for _, g := range goldens {
		if b, err := os.ReadFile(g); err == nil {
			f.Add(b)
		}
	}
	f.Add(rawV1(2, []rawEntry{{"a", 0, 50}, {"../b", 10, 5}}, make([]byte, 10)))
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, o := range []*Options{nil, {Key: testKey}} {
			r, err := NewReader(bytes.NewReader(data), int64(len(data)), o)
			if err != nil {
				continue
			}
			var total int64
			for _, e := range r.Entries {
				if rd, err := r.OpenEntry(e); err == nil {
					n, _ := io.Copy(io.Discard, rd)
					total += n
				}
				r.Verify(e)
			}
			if total > int64(len(data)) {
				t.Fatalf("read %d bytes of entries from a %d-byte pack", total, len(data))
			}
			fs.WalkDir(r, ".", func(p string, d fs.DirEntry, err error) error {
				if err == nil && !d.IsDir() {
					r.ReadFile(p)
				}
				return nil
			})
		}
	})
}
