package pck

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"testing/fstest"

	"github.com/gdvar/gdvar/gdfile"
)

var testKey = func() *gdfile.Key {
	k, _ := gdfile.ParseKey(strings.Repeat("0123456789abcdef", 4))
	return &k
}()

var testFiles = map[string]string{
	"project.godot":        "config_version=5\n",
	"icon.png":             "\x89PNG....",
	"scenes/main.tscn":     "[gd_scene format=3]\n",
	"scenes/sub/deep.txt":  strings.Repeat("deep ", 1000),
	"empty.txt":            "",
	"unicode/ünï cødé.txt": "ü",
}

func sortedNames(m map[string]string) []string {
	var names []string
	for n := range m {
		names = append(names, n)
	}
	// deterministic order
	for i := range names {
		for j := i + 1; j < len(names); j++ {
			if names[j] < names[i] {
				names[i], names[j] = names[j], names[i]
			}
		}
	}
	return names
}

func build(t testing.TB, o WriterOptions, files map[string]string) []byte {
	t.Helper()
	var buf bytes.Buffer
	w, err := NewWriter(&buf, o)
	if err != nil {
		t.Fatal(err)
	}
	for _, name := range sortedNames(files) {
		fw, err := w.Create(name)
		if err != nil {
			t.Fatal(err)
		}
		io.WriteString(fw, files[name])
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type variantCase struct {
	name string
	o    WriterOptions
}

func writerCases() []variantCase {
	return []variantCase{
		{"3.2", WriterOptions{Engine: Version{3, 2, 3}}},
		{"4.2", WriterOptions{Engine: Version{4, 2, 0}}},
		{"4.2-enc", WriterOptions{Engine: Version{4, 2, 0}, Key: testKey}},
		{"4.2-encdir", WriterOptions{Engine: Version{4, 2, 0}, Key: testKey, EncryptDirectory: true}},
		{"4.4", WriterOptions{Engine: Version{4, 4, 1}}},
		{"4.4-encdir", WriterOptions{Engine: Version{4, 4, 1}, Key: testKey, EncryptDirectory: true}},
		{"4.6", WriterOptions{Engine: Version{4, 6, 0}}},
		{"4.6-enc", WriterOptions{Engine: Version{4, 6, 0}, Key: testKey}},
		{"4.6-encdir", WriterOptions{Engine: Version{4, 6, 0}, Key: testKey, EncryptDirectory: true}},
		{"4.6-align32", WriterOptions{Engine: Version{4, 6, 0}, Alignment: 32}},
	}
}

func TestRoundTrip(t *testing.T) {
	for _, c := range writerCases() {
		t.Run(c.name, func(t *testing.T) {
			data := build(t, c.o, testFiles)
			r, err := NewReader(bytes.NewReader(data), int64(len(data)), &Options{Key: c.o.Key})
			if err != nil {
				t.Fatal(err)
			}
			want, _ := FormatFor(c.o.Engine)
			if r.Format != want || r.Engine != c.o.Engine {
				t.Fatalf("format %d engine %v, want %d %v", r.Format, r.Engine, want, c.o.Engine)
			}
			if len(r.Entries) != len(testFiles) {
				t.Fatalf("%d entries, want %d", len(r.Entries), len(testFiles))
			}
			for _, e := range r.Entries {
				if (e.Flags&FileEncrypted != 0) != (c.o.Key != nil) {
					t.Errorf("%s: flags %v", e.Path, e.Flags)
				}
				if strings.HasPrefix(e.Path, "res://") != resPrefix(c.o.Engine) {
					t.Errorf("%s: res:// prefix for %v", e.Path, c.o.Engine)
				}
				if c.o.Alignment > 0 && (e.Offset-r.FileBase)%int64(c.o.Alignment) != 0 && want > Format1 {
					t.Errorf("%s at %d, not aligned", e.Path, e.Offset)
				}
				if err := r.Verify(e); err != nil {
					t.Error(err)
				}
			}
			for name, content := range testFiles {
				got, err := fs.ReadFile(r, name)
				if err != nil || string(got) != content {
					t.Errorf("%s: %q, %v", name, got, err)
				}
				if e := r.Lookup("res://" + name); e == nil || e.Name != name {
					t.Errorf("Lookup(res://%s) = %v", name, e)
				}
			}
			if err := fstest.TestFS(r, sortedNames(testFiles)...); err != nil {
				t.Fatal(err)
			}
			if c.o.Key != nil {
				wrong := *testKey
				wrong[5] ^= 1
				r2, err := NewReader(bytes.NewReader(data), int64(len(data)), &Options{Key: &wrong})
				if c.o.EncryptDirectory {
					if !errors.Is(err, ErrWrongKey) || !errors.Is(err, gdfile.ErrWrongKey) {
						t.Fatalf("wrong key on the directory: %v", err)
					}
					_, err = NewReader(bytes.NewReader(data), int64(len(data)), nil)
					if !errors.Is(err, ErrNeedKey) {
						t.Fatalf("no key: %v", err)
					}
					return
				}
				if err != nil {
					t.Fatal(err)
				}
				if _, err := r2.ReadFile("project.godot"); !errors.Is(err, ErrWrongKey) {
					t.Fatalf("wrong key on a file: %v", err)
				}
			}
		})
	}
}

func TestFSViews(t *testing.T) {
	data := build(t, WriterOptions{}, testFiles)
	r, err := NewReader(bytes.NewReader(data), int64(len(data)), nil)
	if err != nil {
		t.Fatal(err)
	}
	sub, err := fs.Sub(r, "scenes")
	if err != nil {
		t.Fatal(err)
	}
	if b, err := fs.ReadFile(sub, "main.tscn"); err != nil || string(b) != testFiles["scenes/main.tscn"] {
		t.Fatalf("Sub: %q %v", b, err)
	}
	var walked []string
	fs.WalkDir(r, ".", func(p string, d fs.DirEntry, err error) error {
		walked = append(walked, p)
		return err
	})
	if got := strings.Join(walked, " "); got != ". empty.txt icon.png project.godot scenes scenes/main.tscn scenes/sub scenes/sub/deep.txt unicode unicode/ünï cødé.txt" {
		t.Fatalf("WalkDir: %s", got)
	}
	srv := httptest.NewServer(http.FileServer(http.FS(r)))
	defer srv.Close()
	resp, err := http.Get(srv.URL + "/scenes/main.tscn")
	if err != nil {
		t.Fatal(err)
	}
	b, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if string(b) != testFiles["scenes/main.tscn"] {
		t.Fatalf("http.FS: %q", b)
	}
}

func TestEmbedded(t *testing.T) {
	for _, c := range writerCases() {
		t.Run(c.name, func(t *testing.T) {
			p := build(t, c.o, testFiles)
			f, _ := FormatFor(c.o.Engine)
			if f == Format1 || !relFileBase(c.o.Engine) {
				t.Skip("format 1 offsets and 4.0–4.2 file bases are absolute: an embedded pack is written in place")
			}
			exe := append(bytes.Repeat([]byte{0xCC}, 1001), p...)
			exe = append(exe, make([]byte, 3)...)
			exe = fmt.Appendf(exe, "%s", le64(uint64(len(p)+3)))
			exe = append(exe, "GDPC"...)
			r, err := NewReader(bytes.NewReader(exe), int64(len(exe)), &Options{Key: c.o.Key})
			if err != nil {
				t.Fatal(err)
			}
			if r.Start != 1001 {
				t.Fatalf("start %d", r.Start)
			}
			for name, content := range testFiles {
				if got, err := r.ReadFile(name); err != nil || string(got) != content {
					t.Errorf("%s: %q, %v", name, got, err)
				}
			}
		})
	}
}

func le64(v uint64) []byte {
	b := make([]byte, 8)
	for i := range b {
		b[i] = byte(v >> (8 * i))
	}
	return b
}

// A Writer on a file writes format 3 directly, also after other bytes.
func TestWriterToFile(t *testing.T) {
	for _, c := range writerCases() {
		t.Run(c.name, func(t *testing.T) {
			p := t.TempDir() + "/x.pck"
			f, err := os.Create(p)
			if err != nil {
				t.Fatal(err)
			}
			f.WriteString("some executable bytes")
			w, err := NewWriter(f, c.o)
			if err != nil {
				t.Fatal(err)
			}
			for _, name := range sortedNames(testFiles) {
				fw, _ := w.Create(name)
				io.Copy(fw, strings.NewReader(testFiles[name]))
			}
			if err := w.Close(); err != nil {
				t.Fatal(err)
			}
			want := build(t, c.o, testFiles)
			end, _ := f.Seek(0, io.SeekCurrent)
			f.Close()
			got, _ := os.ReadFile(p)
			if int(end) != len(got) || len(got) != len("some executable bytes")+len(want) {
				t.Fatalf("%d bytes, position %d, want %d", len(got), end, len("some executable bytes")+len(want))
			}
			r, err := NewReader(bytes.NewReader(got), int64(len(got)), &Options{Key: c.o.Key, Offset: int64(len("some executable bytes"))})
			if err != nil {
				t.Fatal(err)
			}
			if r.Flags != mustRead(t, want, c.o.Key).Flags {
				t.Errorf("flags %v", r.Flags)
			}
			for name, content := range testFiles {
				if b, err := r.ReadFile(name); err != nil || string(b) != content {
					t.Errorf("%s: %q %v", name, b, err)
				}
			}
		})
	}
}

func mustRead(t *testing.T, data []byte, key *gdfile.Key) *Reader {
	r, err := NewReader(bytes.NewReader(data), int64(len(data)), &Options{Key: key})
	if err != nil {
		t.Fatal(err)
	}
	return r
}

// A pack appended to an executable with its trailer is found from the end.
func TestWriterTrailer(t *testing.T) {
	for _, c := range writerCases() {
		t.Run(c.name, func(t *testing.T) {
			for _, seekable := range []bool{true, false} {
				exe := []byte("\x7fELF, or what stands for it: 33 b")
				var data []byte
				o := c.o
				o.Trailer = true
				if seekable {
					p := t.TempDir() + "/game"
					f, _ := os.Create(p)
					f.Write(exe)
					w, _ := NewWriter(f, o)
					for _, name := range sortedNames(testFiles) {
						fw, _ := w.Create(name)
						io.WriteString(fw, testFiles[name])
					}
					if err := w.Close(); err != nil {
						t.Fatal(err)
					}
					f.Close()
					data, _ = os.ReadFile(p)
				} else {
					if f, _ := FormatFor(o.Engine); f == Format1 || !relFileBase(o.Engine) {
						continue // absolute offsets need to know where the pack starts
					}
					data = append(exe, build(t, o, testFiles)...)
				}
				if (len(data)-len(exe))%8 != 0 || string(data[len(data)-4:]) != "GDPC" {
					t.Fatalf("seekable %v: %d bytes, ends %q", seekable, len(data), data[len(data)-4:])
				}
				r, err := NewReader(bytes.NewReader(data), int64(len(data)), &Options{Key: c.o.Key})
				if err != nil {
					t.Fatal(err)
				}
				if r.Start != int64(len(exe)) {
					t.Fatalf("start %d", r.Start)
				}
				for name, content := range testFiles {
					if b, err := r.ReadFile(name); err != nil || string(b) != content {
						t.Errorf("seekable %v: %s: %q %v", seekable, name, b, err)
					}
				}
			}
		})
	}
}
