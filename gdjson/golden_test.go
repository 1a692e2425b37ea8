package gdjson

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// goldenLine is a line of testdata/json4.jsonl, made by the real Godot 4.6
// (testdata/json4.gd).
type goldenLine struct {
	Name    string `json:"name"`
	Objects bool   `json:"objects"`
	Hex     string `json:"hex"`
	Plain   string `json:"plain"`
	Typed   string `json:"typed"`
	// The same with indent "  ", with keys unsorted, and the typed form
	// indented with a tab and unsorted.
	PlainIndent         string `json:"plain_indent"`
	PlainUnsorted       string `json:"plain_unsorted"`
	TypedIndentUnsorted string `json:"typed_indent_unsorted"`
	Back                string `json:"back"`
	ToNative            string `json:"to_native"`
	Parse               string `json:"parse"`
	Error               int    `json:"error"`
}

func loadGolden(t testing.TB) []goldenLine {
	f, err := os.Open("testdata/json4.jsonl")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []goldenLine
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var l goldenLine
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatal(err)
		}
		lines = append(lines, l)
	}
	return lines
}

func decodeHex(t *testing.T, h string, objects bool) variant.Value {
	t.Helper()
	b, err := hex.DecodeString(h)
	if err != nil {
		t.Fatal(err)
	}
	dm, _ := variant.DecOptions{AllowObjects: objects}.DecMode()
	v, _, err := dm.Decode(b)
	if err != nil {
		t.Fatalf("%s: %v", h, err)
	}
	return v
}

// Format writes what the engine writes, in both forms.
func TestGoldenFormat(t *testing.T) {
	n := 0
	for _, l := range loadGolden(t) {
		if l.Name == "" {
			continue
		}
		n++
		v := decodeHex(t, l.Hex, l.Objects)
		if !l.Objects { // the engine prints objects with their instance IDs
			for _, c := range []struct {
				o    Options
				want string
			}{{Options{}, l.Plain}, {Options{Indent: "  "}, l.PlainIndent}, {Options{KeepOrder: true}, l.PlainUnsorted}} {
				got, err := Format(v, c.o)
				if err != nil || got != c.want {
					t.Errorf("%s: plain %+v\ngot  %s (%v)\nwant %s", l.Name, c.o, got, err, c.want)
				}
			}
		}
		got, err := Format(v, Options{Form: Typed, FullObjects: l.Objects})
		if err != nil {
			t.Errorf("%s: typed: %v", l.Name, err)
			continue
		}
		if l.Back == l.Hex && got != l.Typed {
			// The engine's text is exact here, so ours is the same text.
			t.Errorf("%s: typed\ngot  %s\nwant %s", l.Name, got, l.Typed)
		}
		if l.Back == l.Hex {
			o := Options{Form: Typed, FullObjects: l.Objects, Indent: "\t", KeepOrder: true}
			if got, err := Format(v, o); err != nil || got != l.TypedIndentUnsorted {
				t.Errorf("%s: typed, indented, unsorted\ngot  %s (%v)\nwant %s", l.Name, got, err, l.TypedIndentUnsorted)
			}
		}
		// Ours always reads back as the very value.
		back, err := Parse(got, ParseOptions{Form: Typed, AllowObjects: l.Objects})
		if err != nil || !variant.Equal(back, v) {
			t.Errorf("%s: typed round trip of %s: %v", l.Name, got, err)
		}
	}
	if n < 80 {
		t.Fatalf("only %d golden values", n)
	}
}

// Parse reads the engine's typed text as JSON.to_native does, except where
// the engine's float reader is not correctly rounded (there Parse gives
// the value the text names).
func TestGoldenParseEngineTyped(t *testing.T) {
	for _, l := range loadGolden(t) {
		if l.Name == "" {
			continue
		}
		got, err := Parse(l.Typed, ParseOptions{Form: Typed, AllowObjects: l.Objects})
		if l.Name == "string escapes" {
			// The engine writes \v and its own reader refuses it.
			if err == nil {
				t.Errorf("%s: accepted \\v", l.Name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", l.Name, err)
			continue
		}
		engine := decodeHex(t, l.Back, l.Objects)
		// The engine misreads long decimals, tiny numbers written with many
		// leading zeros and integers above 2^53; Parse reads them exactly.
		misread := map[string]bool{"float 1e300": true, "PackedInt64Array": true, "PackedFloat64Array": true, "Vector2 tiny": true}
		if !variant.Equal(got, engine) && !misread[l.Name] {
			t.Errorf("%s: Parse(%s) differs from the engine's to_native", l.Name, l.Typed)
		}
	}
}

func TestGoldenHandWritten(t *testing.T) {
	// Where Parse reads differently from the engine, on purpose.
	differs := map[string]string{
		`"f:5e-324"`:                                            "the engine's reader flushes subnormals to zero",
		`{"type":"Vector2","args":["nan",1]}`:                   "a string is not a number",
		`{"type":"Vector2","args":[null,-0.0]}`:                 "null stands for NaN (JSON has none)",
		`{"type":"PackedInt64Array","args":[9007199254740993]}`: "integers are read exactly",
		`{"type":"PackedByteArray","args":[256,-1]}`:            "bytes wrap around",
	}
	for _, l := range loadGolden(t) {
		switch {
		case l.ToNative != "":
			got, err := Parse(l.ToNative, ParseOptions{Form: Typed})
			want := decodeHex(t, l.Hex, false)
			if why, ok := differs[l.ToNative]; ok {
				if err == nil && variant.Equal(got, want) {
					t.Errorf("%s: reads as the engine does, though %s", l.ToNative, why)
				}
				continue
			}
			if err != nil || !variant.Equal(got, want) {
				t.Errorf("%s: %v %v, want %v", l.ToNative, got, err, want)
			}
		case l.Parse != "":
			got, err := Parse(l.Parse, ParseOptions{})
			if l.Error != 0 {
				if err == nil {
					t.Errorf("%s: accepted", l.Parse)
				}
				continue
			}
			if want := decodeHex(t, l.Hex, false); err != nil || !variant.Equal(got, want) {
				t.Errorf("%s: %v %v, want %v", l.Parse, got, err, want)
			}
		}
	}
}
