package resource

import (
	"testing"
)

// addCorpus seeds f with the engine-made files of the given extensions.
func addCorpus(f *testing.F, exts ...string) {
	for _, dir := range []string{"godot4", "godot3"} {
		for _, data := range engineFiles(f, dir, exts...) {
			f.Add(data)
		}
	}
}

// FuzzReadBinary: no input makes the binary reader panic; what it reads
// writes back to a file that reads as the same resources.
func FuzzReadBinary(f *testing.F) {
	addCorpus(f, ".res", ".scn")
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadBinary(data, Options{MaxSize: 1 << 20})
		if err != nil {
			return
		}
		out, err := r.EncodeBinary()
		if err != nil {
			return
		}
		back, err := ReadBinary(out, Options{MaxSize: 1 << 24})
		if err != nil {
			t.Fatalf("written file does not read: %v", err)
		}
		if d := Diff(r, back, DiffOptions{}); d != "" {
			t.Fatalf("written file reads differently: %s", d)
		}
	})
}

// FuzzReadText: no input makes the text reader panic; what it reads writes
// back to a file that reads as the same resources.
func FuzzReadText(f *testing.F) {
	addCorpus(f, ".tres", ".tscn")
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := ReadText(data, Options{MaxSize: 1 << 20})
		if err != nil {
			return
		}
		out, err := r.EncodeText()
		if err != nil {
			return
		}
		back, err := ReadText(out, Options{})
		if err != nil {
			t.Fatalf("written file does not read: %v\n%s", err, out)
		}
		if d := Diff(r, back, DiffOptions{}); d != "" {
			t.Fatalf("written file reads differently: %s\n%s", d, out)
		}
	})
}

// FuzzConvert: what one form reads writes in the other form to a file
// that reads as the same resources (gdvar res convert), but for what the
// forms do not both record: element types, and the digits of reals.
func FuzzConvert(f *testing.F) {
	addCorpus(f, ".res", ".scn", ".tres", ".tscn")
	f.Fuzz(func(t *testing.T, data []byte) {
		r, err := Read(data, Options{MaxSize: 1 << 20})
		if err != nil {
			return
		}
		encode, read := r.EncodeText, ReadText
		if IsText(data) {
			encode, read = r.EncodeBinary, ReadBinary
		}
		out, err := encode()
		if err != nil {
			return
		}
		back, err := read(out, Options{})
		if err != nil {
			t.Fatalf("converted file does not read: %v\n%q", err, out)
		}
		if d := Diff(r, back, DiffOptions{Untyped: true, Tolerance: 1e-5}); d != "" {
			t.Fatalf("converted file reads differently: %s\n%q", d, out)
		}
	})
}
