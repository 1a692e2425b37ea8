package variant

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"
)

// addGoldenSeeds adds the hex of every fixture line under
// ../testdata/golden (real engine output) to the corpus.
func addGoldenSeeds(f *testing.F) {
	files, _ := filepath.Glob("../testdata/golden/*.jsonl")
	for _, name := range files {
		file, err := os.Open(name)
		if err != nil {
			continue
		}
		sc := bufio.NewScanner(file)
		sc.Buffer(nil, 1<<24)
		for sc.Scan() {
			var line struct{ Hex string }
			if json.Unmarshal(sc.Bytes(), &line) == nil {
				if b, err := hex.DecodeString(line.Hex); err == nil {
					f.Add(b)
				}
			}
		}
		file.Close()
	}
}

// FuzzDecode checks, for both families: decoding never panics, allocates
// no more than a small multiple of the input, and never reports more bytes
// than it was given; whatever decodes re-encodes, and
// decoding that again gives an identical value; what strict mode accepts
// the engine-compatible mode accepts as the same value.
var bom = []byte{0xEF, 0xBB, 0xBF}

func FuzzDecode(f *testing.F) {
	for _, c := range exactCases {
		f.Add(mustHex(f, c.hex))
	}
	for _, v := range loadEngineVectorsF(f) {
		if b, err := hex.DecodeString(v.Hex); err == nil {
			f.Add(b)
		}
	}
	addGoldenSeeds(f)
	// Dictionaries of the key shapes that once hashed alike without
	// being equal (TestAttackKeysAreLinear), 40 keys of each.
	for _, s := range attackShapes {
		f.Add(attackInput(f, s.key, 40))
	}
	// Enough records that the decoder uses its slabs and blocks.
	for _, o := range []EncOptions{{Family: Godot4}, {Family: Godot3}} {
		if b, err := mode(f, o).Encode(records(40)); err == nil {
			f.Add(b)
		}
	}
	modes := []struct {
		dec *DecMode
		enc *EncMode
	}{
		{dmode(f, DecOptions{Family: Godot4, AllowObjects: true}), mode(f, EncOptions{Family: Godot4, Precision: Double, FullObjects: true})},
		{dmode(f, DecOptions{Family: Godot3, AllowObjects: true}), mode(f, EncOptions{Family: Godot3, FullObjects: true})},
	}
	strict := []*DecMode{
		dmode(f, DecOptions{Family: Godot4, AllowObjects: true, Strict: true}),
		dmode(f, DecOptions{Family: Godot3, AllowObjects: true, Strict: true}),
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		// Memory stays in proportion to the input, whatever its counts
		// claim (measured on some inputs only: the measurement is slow).
		if len(b) >= 16 && b[len(b)-1]%8 == 0 {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			modes[0].dec.Decode(b)
			runtime.ReadMemStats(&after)
			if got := after.TotalAlloc - before.TotalAlloc; got > 32*uint64(len(b))+16384 {
				t.Fatalf("decoding %d bytes allocated %d bytes", len(b), got)
			}
		}
		for i, m := range modes {
			// What strict mode accepts, the engine-compatible mode accepts
			// as the same value, and it is exactly what the engine writes.
			if sv, _, err := strict[i].Decode(b); err == nil {
				v, n, err := m.dec.Decode(b)
				if err != nil || n != len(b) || !Equal(sv, v) {
					t.Fatalf("strict accepted %#v, compatible mode gave %#v, %d, %v", sv, v, n, err)
				}
			}
			v, n, err := m.dec.Decode(b)
			if err != nil {
				continue
			}
			if n < 4 || n > len(b) {
				t.Fatalf("used %d of %d bytes", n, len(b))
			}
			again, err := m.enc.Encode(v)
			if err != nil {
				t.Fatalf("decoded %#v but cannot re-encode it: %v", v, err)
			}
			v2, n2, err := m.dec.Decode(again)
			if err != nil {
				t.Fatalf("re-encoded %x does not decode: %v", again, err)
			}
			if n2 != len(again) {
				t.Fatalf("re-encoded %x decodes from %d bytes", again, n2)
			}
			if !Equal(v, v2) {
				// The engines drop a byte order mark that starts a
				// string, so a string starting with U+FEFF loses it on
				// its way back, in Godot as here. Nothing else may
				// change, and one round reaches a fixed point.
				if !bytes.Contains(again, bom) {
					t.Fatalf("unstable: %#v\nbecame %#v", v, v2)
				}
				third, err := m.enc.Encode(v2)
				if err != nil {
					t.Fatal(err)
				}
				if v3, _, err := m.dec.Decode(third); err != nil || !Equal(v2, v3) {
					t.Fatalf("unstable after dropping byte order marks: %#v\nbecame %#v (%v)", v2, v3, err)
				}
			}
		}
	})
}

func loadEngineVectorsF(f *testing.F) []engineVector {
	data, err := os.ReadFile("testdata/engine-vectors.json")
	if err != nil {
		f.Fatal(err)
	}
	var vs []engineVector
	if err := json.Unmarshal(data, &vs); err != nil {
		f.Fatal(err)
	}
	return vs
}
