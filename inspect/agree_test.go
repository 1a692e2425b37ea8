package inspect

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// agree checks that Value reaches the decoder's verdict on b: the same
// error, word for word (offset, path, type, reason), or success with the
// same number of bytes used.
func agree(t testing.TB, name string, b []byte, o Options) {
	t.Helper()
	dm, err := variant.DecOptions{Family: o.Godot, AllowObjects: o.AllowObjects, MaxDepth: o.MaxDepth}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	_, n, derr := dm.Decode(b)
	d := Value(b, o)
	switch {
	case derr == nil && d.Err == nil:
		if d.Used != n {
			t.Errorf("%s: inspect used %d bytes, the decoder %d", name, d.Used, n)
		}
	case derr != nil && d.Err != nil:
		if derr.Error() != d.Err.Error() {
			t.Errorf("%s:\ninspect: %v\ndecoder: %v", name, d.Err, derr)
		}
	default:
		t.Errorf("%s: inspect says %v, the decoder %v", name, d.Err, derr)
	}
}

// golden yields the inputs of the engine fixtures: the engines' own
// encodings and the malformed and unusual inputs of the decoder tests.
func golden(t testing.TB, fn func(name string, b []byte, fam variant.Family, objects bool)) {
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		for _, file := range []string{"godot%d.jsonl", "godot%d-decode.jsonl"} {
			path := "../testdata/golden/" + sprintf(file, int(fam))
			f, err := os.Open(path)
			if err != nil {
				t.Fatal(err)
			}
			sc := bufio.NewScanner(f)
			sc.Buffer(nil, 1<<24)
			for sc.Scan() {
				var l struct {
					Name, Expr, Hex string
					Objects         bool
				}
				if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
					t.Fatal(err)
				}
				b, err := hex.DecodeString(l.Hex)
				if err != nil {
					t.Fatal(err)
				}
				fn(path+": "+l.Name+l.Expr, b, fam, l.Objects)
			}
			f.Close()
		}
	}
}

func sprintf(f string, n int) string {
	out := []byte{}
	for i := 0; i < len(f); i++ {
		if f[i] == '%' && i+1 < len(f) && f[i+1] == 'd' {
			out = append(out, byte('0'+n))
			i++
			continue
		}
		out = append(out, f[i])
	}
	return string(out)
}

func TestAgreesWithDecoderOnGolden(t *testing.T) {
	count := 0
	golden(t, func(name string, b []byte, fam variant.Family, objects bool) {
		count++
		agree(t, name, b, Options{Godot: fam, AllowObjects: objects})
		// And without objects, and with every prefix of the input.
		agree(t, name+" (no objects)", b, Options{Godot: fam})
		for i := 0; i < len(b) && i < 256; i++ {
			agree(t, name+" prefix "+string(rune('0'+i%10)), b[:i], Options{Godot: fam, AllowObjects: objects})
		}
	})
	if count < 700 {
		t.Fatalf("only %d golden inputs", count)
	}
}
