package gdfile

import (
	"bytes"
	"encoding/binary"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/andybalholm/brotli"
	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/variant"
)

// writeAll writes values in every container the engine of family fam
// reads, into dir, and says how each file is to be opened.
func writeAll(t *testing.T, dir string, fam variant.Family, values, objects []variant.Value) []filefixture.Written {
	t.Helper()
	pass := PasswordKey(filefixture.Password)
	key := Key(filefixture.Key())
	type job struct {
		w   filefixture.Written
		c   Container
		key *Key
		be  bool
	}
	jobs := []job{
		{w: filefixture.Written{Name: "plain.sav", How: "plain"}, c: Container{Format: Plain}},
		{w: filefixture.Written{Name: "big-endian.sav", How: "bigendian"}, c: Container{Format: Plain}, be: true},
		{w: filefixture.Written{Name: "password.sav", How: "password"}, c: Container{Format: Encrypted}, key: &pass},
		{w: filefixture.Written{Name: "key.sav", How: "key"}, c: Container{Format: Encrypted}, key: &key},
		{w: filefixture.Written{Name: "objects.sav", How: "plain"}, c: Container{Format: Plain}},
	}
	for _, m := range []Compression{FastLZ, Deflate, Zstd, Gzip} {
		jobs = append(jobs, job{w: filefixture.Written{Name: "compressed-" + m.String() + ".sav", How: "compressed", Mode: int(m)},
			c: Container{Format: Compressed, Compression: m}})
	}
	var out []filefixture.Written
	for _, j := range jobs {
		vs := values
		if j.w.Name == "objects.sav" {
			vs = objects
		}
		f := &File{Container: j.c, Godot: fam, BigEndian: j.be, Values: vs}
		data, err := f.Encode(Options{Key: j.key, Enc: variant.EncOptions{FullObjects: true}})
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, j.w.Name), data, 0o644); err != nil {
			t.Fatal(err)
		}
		j.w.Values = vs
		out = append(out, j.w)
	}
	return out
}

// brotliFile writes a compressed file in Godot 4's read-only Brotli mode,
// which Wrap refuses to write.
func brotliFile(t *testing.T, data []byte) []byte {
	t.Helper()
	nblocks := len(data)/DefaultBlockSize + 1
	hdr := make([]byte, 16+4*nblocks)
	copy(hdr, "GCPF")
	binary.LittleEndian.PutUint32(hdr[4:], uint32(Brotli))
	binary.LittleEndian.PutUint32(hdr[8:], DefaultBlockSize)
	binary.LittleEndian.PutUint32(hdr[12:], uint32(len(data)))
	var body bytes.Buffer
	for i := range nblocks {
		var b bytes.Buffer
		w := brotli.NewWriter(&b)
		w.Write(data[i*DefaultBlockSize : min((i+1)*DefaultBlockSize, len(data))])
		w.Close()
		binary.LittleEndian.PutUint32(hdr[16+4*i:], uint32(b.Len()))
		body.Write(b.Bytes())
	}
	return append(append(hdr, body.Bytes()...), "GCPF"...)
}

func fixtureValues(t *testing.T, fam variant.Family, name string) []variant.Value {
	for _, fx := range filefixture.Load(t, fam) {
		if fx.File == name {
			return fx.EngineValues(t)
		}
	}
	t.Fatalf("no fixture %s", name)
	return nil
}

func TestBrotli(t *testing.T) {
	plain, err := (&File{Values: fixtureValues(t, variant.Godot4, "plain-many.sav")}).Encode(Options{})
	if err != nil {
		t.Fatal(err)
	}
	f, err := Read(brotliFile(t, plain), Options{})
	if err != nil || f.Container.Compression != Brotli || len(f.Values) != 9 {
		t.Fatalf("%v %v", f, err)
	}
}

// Godot 3.2.3 reads every file this package writes for it as the values
// written.
func TestGodot3ReadsOurFiles(t *testing.T) {
	enginetest.Godot3(t)
	dir := t.TempDir()
	written := writeAll(t, dir, variant.Godot3, fixtureValues(t, variant.Godot3, "plain-many.sav"),
		fixtureValues(t, variant.Godot3, "objects.sav"))
	args := []string{dir}
	for _, w := range written {
		args = append(args, w.Spec())
	}
	out := enginetest.RunGodot3(t, filefixture.Script(variant.Godot3), args...)
	report := filefixture.CheckRead(t, variant.Godot3, written, out)
	filefixture.Record(t, "check-gdfile-godot3.txt", "# Files written by package gdfile (go test -run TestGodot3ReadsOurFiles ./gdfile),\n"+
		"# read back by Godot 3.2.3 with testdata/files/read3.gd.", report)
}

// Godot 4.6 reads every file this package writes for it as the values
// written, and reads Brotli-compressed files as this package does.
func TestGodot4ReadsOurFiles(t *testing.T) {
	godot4web.Skip(t)
	dir := t.TempDir()
	written := writeAll(t, dir, variant.Godot4, fixtureValues(t, variant.Godot4, "plain-many.sav"),
		fixtureValues(t, variant.Godot4, "objects.sav"))
	values := fixtureValues(t, variant.Godot4, "plain-many.sav")
	plain, err := (&File{Values: values}).Encode(Options{})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "compressed-brotli.sav"), brotliFile(t, plain), 0o644); err != nil {
		t.Fatal(err)
	}
	written = append(written, filefixture.Written{Name: "compressed-brotli.sav", How: "compressed", Mode: int(Brotli), Values: values})
	job := godot4web.Job{Script: filefixture.Script(variant.Godot4), Timeout: 3 * time.Minute}
	for _, w := range written {
		job.With = append(job.With, filepath.Join(dir, w.Name))
		job.Args = append(job.Args, w.Spec())
	}
	r := godot4web.Run(t, job)
	if r.Code != 0 {
		t.Fatalf("Godot 4 exited with %d\n%s", r.Code, r.Stderr)
	}
	report := filefixture.CheckRead(t, variant.Godot4, written, r.Stdout)
	if strings.Contains(r.Stderr, "ERROR") {
		t.Logf("engine messages:\n%s", r.Stderr)
	}
	filefixture.Record(t, "check-gdfile-godot4.txt", "# Files written by package gdfile (go test -run TestGodot4ReadsOurFiles ./gdfile),\n"+
		"# read back by Godot 4.6 (internal/godot4web) with testdata/files/read4.gd.", report)
}
