package resource

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
)

// engineFiles returns the engine-made files of testdata/<dir> with the
// given extensions.
func engineFiles(t testing.TB, dir string, exts ...string) map[string][]byte {
	t.Helper()
	out := map[string][]byte{}
	ents, err := os.ReadDir(filepath.Join("testdata", dir))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range ents {
		for _, x := range exts {
			if strings.HasSuffix(e.Name(), x) {
				b, err := os.ReadFile(filepath.Join("testdata", dir, e.Name()))
				if err != nil {
					t.Fatal(err)
				}
				out[e.Name()] = b
			}
		}
	}
	if len(out) == 0 {
		t.Fatalf("no %v files in testdata/%s", exts, dir)
	}
	return out
}

// decompressed returns the data inside an RSCC file, with the RSRC magic
// in front, or the file itself.
func decompressed(t testing.TB, b []byte) []byte {
	if !bytes.HasPrefix(b, magicRSCC) {
		return b
	}
	plain, _, err := gdfile.Unwrap(append([]byte("GCPF"), b[4:]...), gdfile.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return append([]byte("RSRC"), plain...)
}

// TestBinaryRoundTrip: every binary file the engines wrote reads and
// writes back byte for byte (compressed ones: the same data inside).
func TestBinaryRoundTrip(t *testing.T) {
	for _, dir := range []string{"godot4", "godot3"} {
		if _, err := os.Stat(filepath.Join("testdata", dir)); err != nil {
			continue
		}
		for name, data := range engineFiles(t, dir, ".res", ".scn") {
			f, err := ReadBinary(data, Options{})
			if err != nil {
				t.Errorf("%s/%s: %v", dir, name, err)
				continue
			}
			out, err := f.EncodeBinary()
			if err != nil {
				t.Errorf("%s/%s: encode: %v", dir, name, err)
				continue
			}
			want, got := decompressed(t, data), decompressed(t, out)
			if f.Binary.Compressed {
				want, got = want[4:], got[4:]
			}
			if !bytes.Equal(got, want) {
				t.Errorf("%s/%s: written back differs (%d bytes, want %d) at %d", dir, name, len(got), len(want), firstDiff(got, want))
			}
		}
	}
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}
