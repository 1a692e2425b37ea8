package variant

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"strings"
	"testing"
)

// engineColors reads testdata/golden/godot4-string-color.tsv: Godot 4.6's
// named colors and its conversions of Strings to Color (see
// testdata/golden/string-color.sh).
func engineColors(t *testing.T) (names, strs map[string]Color) {
	f, err := os.Open("../testdata/golden/godot4-string-color.tsv")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	names, strs = map[string]Color{}, map[string]Color{}
	color := func(h string) Color {
		b, err := hex.DecodeString(h)
		if err != nil || len(b) != 20 || b[0] != byte(TypeColor) {
			t.Fatalf("not an encoded Color: %q", h)
		}
		v, _, err := dmode(t, DecOptions{}).Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		return v.(Color)
	}
	sc := bufio.NewScanner(f)
	inStrings := false
	for sc.Scan() {
		fields := strings.Split(sc.Text(), "\t")
		switch {
		case fields[0] == "--":
			inStrings = true
		case !inStrings && len(fields) == 2:
			names[fields[0]] = color(fields[1])
		case inStrings && len(fields) == 3:
			var s string
			if err := json.Unmarshal([]byte(fields[0]), &s); err != nil {
				t.Fatal(err)
			}
			if fields[1] != fields[2] {
				t.Fatalf("%s: the typed Array and Color() disagree", fields[0])
			}
			strs[s] = color(fields[1])
		default:
			t.Fatalf("bad line %q", sc.Text())
		}
	}
	if len(names) != 146 || len(strs) < 150 {
		t.Fatalf("%d names, %d strings", len(names), len(strs))
	}
	return names, strs
}

// TestNamedColors checks the table of named colors against the engine:
// the same names, the same float32 values.
func TestNamedColors(t *testing.T) {
	names, _ := engineColors(t)
	if len(namedColors) != len(names) {
		t.Errorf("%d named colors, the engine has %d", len(namedColors), len(names))
	}
	for name, want := range names {
		got, ok := ColorFromString(name)
		if !ok || got != want {
			t.Errorf("%s: %v %v, engine %v", name, got, ok, want)
		}
	}
}

// TestColorFromString checks HTML codes, name spellings and invalid
// strings against what the engine makes of them.
func TestColorFromString(t *testing.T) {
	_, strs := engineColors(t)
	for s, want := range strs {
		got, ok := ColorFromString(s)
		if got != want {
			t.Errorf("%q: %v, engine %v", s, got, want)
		}
		if black := (Color{0, 0, 0, 1}); !ok && got != black {
			t.Errorf("%q: not a color, but %v", s, got)
		}
	}
	// And through the decoder: an Array typed Color holding Strings.
	e := mode(t, EncOptions{Family: Godot4})
	d := dmode(t, DecOptions{Family: Godot4})
	for s, want := range strs {
		if strings.IndexByte(s, 0) >= 0 {
			continue
		}
		b, err := e.Encode(&Array{Values: []Value{String(s)}})
		if err != nil {
			t.Fatal(err)
		}
		// Retype the Array: kind 1 (builtin) in bits 16-17, then type 20.
		b = append([]byte{28, 0, 1, 0, 20, 0, 0, 0}, b[4:]...)
		v, _, err := d.Decode(b)
		if err != nil {
			t.Fatal(err)
		}
		if a := v.(*Array); len(a.Values) != 1 || a.Values[0] != want {
			t.Errorf("%q in Array[Color]: %v, engine %v", s, a.Values, want)
		}
	}
}
