package variant

import (
	"encoding/hex"
	"strings"
	"testing"
)

// TestEmptyObjectContainerType checks containers typed with an empty class
// name or script path against Godot 4.6: the element type its var_to_str
// shows for the cases of godot4-decode.jsonl, and for the bare headers
// 1c0002000000000000000000 / 1c0003000000000000000000 the type, text and
// var_to_bytes the engine gave (run with internal/godot4web).
func TestEmptyObjectContainerType(t *testing.T) {
	type line struct {
		Name    string `json:"name"`
		Hex     string `json:"hex"`
		Objects bool   `json:"objects"`
		OK      bool   `json:"ok"`
		Text    string `json:"text"`
	}
	typeHead := func(text string) string { h, _, _ := strings.Cut(text, "("); return h }
	n := 0
	for _, l := range readJSONL[line](t, "../testdata/golden/godot4-decode.jsonl") {
		if !strings.Contains(l.Name, "class ''") && !strings.Contains(l.Name, "script ''") {
			continue
		}
		n++
		m, _ := DecOptions{AllowObjects: l.Objects}.DecMode()
		b, _ := hex.DecodeString(l.Hex)
		v, _, err := m.Decode(b)
		if !l.OK {
			if err == nil {
				t.Errorf("%s: decoded; the engine refuses it", l.Name)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", l.Name, err)
			continue
		}
		text, err := AppendText(nil, v, TextOptions{})
		if err != nil || typeHead(string(text)) != typeHead(l.Text) {
			t.Errorf("%s: text %q, %v; the engine's %q", l.Name, text, err, l.Text)
		}
	}
	if n < 6 {
		t.Errorf("only %d cases with an empty class name or script path", n)
	}

	encodedAsID := ContainerType{Kind: ClassName, Builtin: TypeObject, Name: "EncodedObjectAsID"}
	tests := []struct {
		in      string
		objects bool
		elem    ContainerType // what the engine's get_typed_* said
		text    string        // its var_to_str
		again   string        // its var_to_bytes of the decoded value
	}{
		{"1c0002000000000000000000", false, encodedAsID, "Array[EncodedObjectAsID]([])", "1c00020011000000456e636f6465644f626a6563744173494400000000000000"},
		{"1c0003000000000000000000", false, encodedAsID, "Array[EncodedObjectAsID]([])", "1c00020011000000456e636f6465644f626a6563744173494400000000000000"},
		{"1c0002000000000000000000", true, Typed(TypeObject), "Array[Object]([])", "1c0001001800000000000000"},
		{"1c0003000000000000000000", true, ContainerType{}, "", ""}, // refused
	}
	for _, tt := range tests {
		m, _ := DecOptions{AllowObjects: tt.objects}.DecMode()
		b, _ := hex.DecodeString(tt.in)
		v, _, err := m.Decode(b)
		if tt.text == "" {
			if err == nil {
				t.Errorf("%s objects=%v: decoded; the engine refuses it", tt.in, tt.objects)
			}
			continue
		}
		a, ok := v.(*Array)
		if err != nil || !ok || a.Elem != tt.elem {
			t.Errorf("%s objects=%v: %#v, %v; want an Array of %+v", tt.in, tt.objects, v, err, tt.elem)
			continue
		}
		if got := a.String(); got != tt.text {
			t.Errorf("%s objects=%v: text %s, want %s", tt.in, tt.objects, got, tt.text)
		}
		if again, err := Encode(a); err != nil || hex.EncodeToString(again) != tt.again {
			t.Errorf("%s objects=%v: re-encoded %x, %v; want %s", tt.in, tt.objects, again, err, tt.again)
		}
	}
}
