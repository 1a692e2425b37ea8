// Package filefixture loads the engine-written files of testdata/files for
// tests: each file with how the engine wrote it and var_to_bytes of the
// values it stored.
package filefixture

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"runtime"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// Password is the password of the password-encrypted fixtures.
const Password = "gdvar-secret"

// Key is the key of the key-encrypted fixtures: the bytes 0 to 31.
func Key() [32]byte {
	var k [32]byte
	for i := range k {
		k[i] = byte(i)
	}
	return k
}

// Fixture is one line of testdata/files/godotN/manifest.jsonl.
type Fixture struct {
	// File is the file name, in Dir.
	File string `json:"file"`
	// How is "plain", "password", "key" or "compressed".
	How string `json:"how"`
	// Compression is the FileAccess compression mode of compressed files.
	Compression *int `json:"compression"`
	// BigEndian says the file was written with big_endian (endian_swap).
	BigEndian bool `json:"big_endian"`
	// Objects says the values were stored with full objects.
	Objects bool `json:"objects"`
	// Values holds var_to_bytes (var2bytes) of every value, in hex.
	Values []string `json:"values"`

	// Dir is the folder of the file; Family the engine family.
	Dir    string         `json:"-"`
	Family variant.Family `json:"-"`
}

// Root returns the repository's testdata/files folder.
func Root() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "..", "..", "testdata", "files")
}

// Load returns the fixtures written by the engine of family fam.
func Load(t testing.TB, fam variant.Family) []Fixture {
	t.Helper()
	dir := filepath.Join(Root(), "godot3")
	if fam == variant.Godot4 {
		dir = filepath.Join(Root(), "godot4")
	}
	f, err := os.Open(filepath.Join(dir, "manifest.jsonl"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var out []Fixture
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<24)
	for sc.Scan() {
		fx := Fixture{Dir: dir, Family: fam}
		if err := json.Unmarshal(sc.Bytes(), &fx); err != nil {
			t.Fatal(err)
		}
		out = append(out, fx)
	}
	if err := sc.Err(); err != nil || len(out) == 0 {
		t.Fatalf("no fixtures in %s: %v", dir, err)
	}
	return out
}

// Data returns the file's bytes.
func (fx Fixture) Data(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(fx.Dir, fx.File))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// KeyBytes returns the AES key the file was encrypted with, or nil.
func (fx Fixture) KeyBytes() *[32]byte {
	var k [32]byte
	switch fx.How {
	case "password":
		// open_encrypted_with_pass: the hex MD5 of the password, as text.
		k = passwordKey(Password)
	case "key":
		k = Key()
	default:
		return nil
	}
	return &k
}

// EngineValues decodes the engine's var_to_bytes of every value.
func (fx Fixture) EngineValues(t testing.TB) []variant.Value {
	t.Helper()
	dm, err := variant.DecOptions{Family: fx.Family, AllowObjects: fx.Objects}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	var vs []variant.Value
	for _, h := range fx.Values {
		b, err := hex.DecodeString(h)
		if err != nil {
			t.Fatal(err)
		}
		v, _, err := dm.Decode(b)
		if err != nil {
			t.Fatalf("%s: engine value: %v", fx.File, err)
		}
		vs = append(vs, v)
	}
	return vs
}
