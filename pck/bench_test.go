package pck

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/godot4web"
)

// benchPack writes a pack of n entries of size bytes each to a file.
func benchPack(b *testing.B, n, size int, o WriterOptions) string {
	b.Helper()
	p := filepath.Join(b.TempDir(), "bench.pck")
	f, err := os.Create(p)
	if err != nil {
		b.Fatal(err)
	}
	w, err := NewWriter(f, o)
	if err != nil {
		b.Fatal(err)
	}
	chunk := bytes.Repeat([]byte("godot pack bench "), 1<<12)
	for i := range n {
		fw, err := w.Create(fmt.Sprintf("res://assets/dir%03d/file%05d.bin", i%100, i))
		if err != nil {
			b.Fatal(err)
		}
		for left := size; left > 0; left -= len(chunk) {
			fw.Write(chunk[:min(left, len(chunk))])
		}
	}
	if err := w.Close(); err != nil {
		b.Fatal(err)
	}
	f.Close()
	return p
}

// Opening (reading the header and directory of) a 10,000-entry pack.
func BenchmarkOpen10000(b *testing.B) {
	for _, c := range []struct {
		name string
		o    WriterOptions
	}{{"format1", WriterOptions{Engine: Version{3, 2, 3}}}, {"format3", WriterOptions{}}, {"format3-encdir", WriterOptions{Key: testKey, EncryptDirectory: true}}} {
		b.Run(c.name, func(b *testing.B) {
			o := c.o
			o.Key = nil
			if c.o.EncryptDirectory {
				o = c.o
			}
			p := benchPack(b, 10000, 100, o)
			b.ReportAllocs()
			for b.Loop() {
				r, err := Open(p, &Options{Key: c.o.Key})
				if err != nil || len(r.Entries) != 10000 {
					b.Fatal(err)
				}
				r.Close()
			}
		})
	}
}

// benchSize is the data extracted by BenchmarkExtract (MiB), from
// $GDVAR_BENCH_PCK_MIB (default 256; the target figure is for 1024).
func benchSize() int {
	if n, err := strconv.Atoi(os.Getenv("GDVAR_BENCH_PCK_MIB")); err == nil && n > 0 {
		return n
	}
	return 256
}

// Extracting large entries (64 MiB each) to disk: the memory it takes
// (B/op) stays one copy buffer and the directory, whatever the size.
func BenchmarkExtract(b *testing.B) {
	mib := benchSize()
	const entry = 64
	p := benchPack(b, max(1, mib/entry), entry<<20, WriterOptions{})
	r, err := Open(p, nil)
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	b.SetBytes(int64(max(1, mib/entry)) * entry << 20)
	b.ReportAllocs()
	for b.Loop() {
		dir := b.TempDir()
		if err := r.Extract(dir, ExtractOptions{}); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		os.RemoveAll(dir)
		b.StartTimer()
	}
}

// Packing a directory of 1000 files of 64 KiB with Writer into a file.
func BenchmarkPackDirectory(b *testing.B) {
	src := b.TempDir()
	data := bytes.Repeat([]byte("x"), 64<<10)
	var names []string
	for i := range 1000 {
		name := fmt.Sprintf("d%02d/f%04d.bin", i%10, i)
		os.MkdirAll(filepath.Join(src, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(src, name), data, 0o644)
		names = append(names, name)
	}
	out := filepath.Join(b.TempDir(), "out.pck")
	b.SetBytes(int64(len(names) * len(data)))
	b.ReportAllocs()
	for b.Loop() {
		f, err := os.Create(out)
		if err != nil {
			b.Fatal(err)
		}
		w, _ := NewWriter(f, WriterOptions{})
		for _, name := range names {
			fw, _ := w.Create(name)
			src, err := os.Open(filepath.Join(src, name))
			if err != nil {
				b.Fatal(err)
			}
			io.Copy(fw, src)
			src.Close()
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
		f.Close()
	}
}

// Godot 3.2.3's PCKPacker packing the same directory as
// BenchmarkPackDirectory, timed inside the engine (packer-ns/op, without
// the engine's start-up); skipped without the engine.
func BenchmarkGodot3PCKPacker(b *testing.B) {
	enginetest.Godot3(b)
	src := b.TempDir()
	data := bytes.Repeat([]byte("x"), 64<<10)
	for i := range 1000 {
		name := fmt.Sprintf("d%02d/f%04d.bin", i%10, i)
		os.MkdirAll(filepath.Join(src, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(src, name), data, 0o644)
	}
	out := filepath.Join(b.TempDir(), "out.pck")
	b.SetBytes(1000 * int64(len(data)))
	var total time.Duration
	n := 0
	for b.Loop() {
		line := enginetest.RunGodot3(b, filepath.Join("testdata", "engine", "pack3.gd"), "bench", src, out)
		var usec, files int
		if _, err := fmt.Sscanf(line, "usec %d files %d", &usec, &files); err != nil || files != 1000 {
			b.Fatalf("engine: %q", line)
		}
		total += time.Duration(usec) * time.Microsecond
		n++
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(n), "packer-ns/op")
	b.ReportMetric(float64(1000*len(data))/(total.Seconds()/float64(n))/1e6, "packer-MB/s")
}

// Godot 4.6's PCKPacker (web build) packing 200 files of 64 KiB from its
// user:// file system, which is in memory, timed inside the engine
// (packer-ns/op); BenchmarkPackMemory is the same work for Writer.
func BenchmarkGodot4PCKPacker(b *testing.B) {
	godot4web.Skip(b)
	const n, size = 200, 64 << 10
	b.SetBytes(n * size)
	var total time.Duration
	runs := 0
	for b.Loop() {
		res := godot4web.Run(b, godot4web.Job{Script: filepath.Join("testdata", "engine", "pack4.gd"),
			Args: []string{"bench", strconv.Itoa(n), strconv.Itoa(size)}})
		var usec, files int
		if _, err := fmt.Sscanf(res.Stdout, "usec %d files %d", &usec, &files); err != nil || files != n {
			b.Fatalf("engine: %q %s", res.Stdout, res.Stderr)
		}
		total += time.Duration(usec) * time.Microsecond
		runs++
	}
	b.ReportMetric(float64(total.Nanoseconds())/float64(runs), "packer-ns/op")
	b.ReportMetric(float64(n*size)/(total.Seconds()/float64(runs))/1e6, "packer-MB/s")
}

// Writer packing 200 files of 64 KiB from memory into a bytes.Buffer (not
// seekable: the data waits in a temporary file until Close).
func BenchmarkPackMemory(b *testing.B) {
	data := bytes.Repeat([]byte("x"), 64<<10)
	b.SetBytes(200 * int64(len(data)))
	b.ReportAllocs()
	var out bytes.Buffer
	for b.Loop() {
		out.Reset()
		w, _ := NewWriter(&out, WriterOptions{TempDir: b.TempDir()})
		for i := range 200 {
			fw, _ := w.Create(fmt.Sprintf("d/f%04d.bin", i))
			fw.Write(data)
		}
		if err := w.Close(); err != nil {
			b.Fatal(err)
		}
	}
}
