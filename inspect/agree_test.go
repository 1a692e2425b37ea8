package inspect

import (
	"bufio"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"os"
	"strconv"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// agree checks that Value reaches the decoder's verdict on b: the same
// *variant.Error (offset, path, type, family, engine code, sentinel,
// detail), or success with the same number of bytes used. It returns
// whether the decoder refused b.
func agree(t testing.TB, name string, b []byte, o Options) bool {
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
		var de, ie *variant.Error
		if !errors.As(derr, &de) || !errors.As(d.Err, &ie) {
			t.Fatalf("%s: not a *variant.Error: inspect %T, decoder %T", name, d.Err, derr)
		}
		if ie.Offset != de.Offset || ie.Path != de.Path || ie.Type != de.Type || ie.Family != de.Family ||
			ie.Code != de.Code || !errors.Is(d.Err, de.Err) || ie.Detail != de.Detail || ie.Error() != de.Error() {
			t.Errorf("%s:\ninspect: %v (code %v)\ndecoder: %v (code %v)", name, d.Err, ie.Code, derr, de.Code)
		}
	default:
		t.Errorf("%s: inspect says %v, the decoder %v", name, d.Err, derr)
	}
	return derr != nil
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

// The decoder's verdicts on the golden inputs with one 32-bit word
// replaced by a value that breaks lengths, counts, type bytes and flags,
// and under a small nesting limit: inspect reaches each of them, refusals
// included.
func TestAgreesWithDecoderOnMutations(t *testing.T) {
	// Zero, the largest and the negative counts and lengths, a header of
	// a typed Dictionary, of a full Object, of an Array typed by script.
	words := []uint32{0, 0x7FFFFFFF, 0x80000000, 0xFFFFFFFF, 0xF001B, 0x18, 0x3001C}
	inputs, refused := 0, 0
	golden(t, func(name string, b []byte, fam variant.Family, objects bool) {
		if len(b) > 512 {
			return
		}
		o := Options{Godot: fam, AllowObjects: objects}
		agree(t, name+" (max depth 2)", b, Options{Godot: fam, AllowObjects: objects, MaxDepth: 2})
		m := make([]byte, len(b))
		for at := 0; at+4 <= len(b) && at < 4*20; at += 4 {
			for _, x := range words {
				copy(m, b)
				binary.LittleEndian.PutUint32(m[at:], x)
				inputs++
				if agree(t, name+" word "+strconv.Itoa(at/4)+" = "+strconv.FormatUint(uint64(x), 16), m, o) {
					refused++
				}
			}
		}
	})
	t.Logf("%d mutated inputs, %d refused", inputs, refused)
	if inputs < 100000 || refused < inputs/4 {
		t.Fatalf("%d mutated inputs, %d refused", inputs, refused)
	}
}
