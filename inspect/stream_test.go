package inspect

import (
	"bytes"
	"encoding/binary"
	"errors"
	"runtime"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/internal/filefixture"
	"github.com/gdvar/gdvar/variant"
)

// WriteFile and WriteValue write what File and Value's WriteTo write,
// byte for byte, and report the same verdict.
func TestWriteMatchesDump(t *testing.T) {
	check := func(name string, b []byte, o Options) {
		t.Helper()
		var want, got bytes.Buffer
		d := File(b, o)
		d.WriteTo(&want)
		d2, err := WriteFile(&got, b, o)
		if err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) || errString(d.Err) != errString(d2.Err) || d.Family != d2.Family {
			t.Errorf("%s: WriteFile differs (%v):\n%s\nwant:\n%s", name, err, got.String(), want.String())
		}
		want.Reset()
		got.Reset()
		v := Value(b, o)
		v.WriteTo(&want)
		v2, err := WriteValue(&got, b, o)
		if err != nil || !bytes.Equal(got.Bytes(), want.Bytes()) || v.Used != v2.Used || errString(v.Err) != errString(v2.Err) {
			t.Errorf("%s: WriteValue differs (%v)", name, err)
		}
	}
	for _, fam := range []variant.Family{variant.Godot3, variant.Godot4} {
		for _, fx := range filefixture.Load(t, fam) {
			data := fx.Data(t)
			o := Options{}
			switch fx.How {
			case "password":
				k := gdfile.PasswordKey(filefixture.Password)
				o.Key = &k
			case "key":
				k := gdfile.Key(filefixture.Key())
				o.Key = &k
			}
			check(fx.File, data, o)
			check(fx.File+" cut short", data[:len(data)*2/3], o)
		}
	}
	check("a value that does not decode", []byte{8, 0, 0, 0, 99, 0, 0, 0, 0, 0, 0, 0}, Options{})
	check("a prefix past the end", []byte{8, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0, 9, 0, 0, 0, 1}, Options{})
}

func errString(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// WriteFile's memory does not grow with the number of rows: the heap in
// use while it writes 524288 rows (262144 values) peaks where it does for
// 2048 rows, give or take the collector's slack; File's holds every row.
func TestWriteFileMemory(t *testing.T) {
	nils := func(n int) []byte {
		b := make([]byte, 8*n)
		for i := range n {
			binary.LittleEndian.PutUint32(b[8*i:], 4)
		}
		return b
	}
	peak := func(b []byte, stream bool) uint64 {
		runtime.GC()
		w := &heapWatcher{}
		w.sample()
		base := w.peak
		w.peak = 0
		if stream {
			if d, err := WriteFile(w, b, Options{}); err != nil || d.Err != nil {
				t.Fatal(err, d.Err)
			}
		} else {
			d := File(b, Options{})
			w.sample()
			runtime.KeepAlive(d)
		}
		return w.peak - min(base, w.peak)
	}
	large := nils(1 << 18)
	small, big, whole := peak(nils(1024), true), peak(large, true), peak(large, false)
	t.Logf("peak heap growth: 1024 values %d bytes, 262144 values %d bytes; with File %d bytes", small, big, whole)
	if big > small+8<<20 || big > whole/4 {
		t.Errorf("262144 values: the heap grows by %d bytes, by %d for 1024 values (File: %d)", big, small, whole)
	}
}

// heapWatcher discards what is written and samples the heap in use at
// each write (every 64 KiB of output).
type heapWatcher struct{ peak uint64 }

func (w *heapWatcher) sample() {
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	w.peak = max(w.peak, m.HeapAlloc)
}

func (w *heapWatcher) Write(p []byte) (int, error) {
	w.sample()
	return len(p), nil
}

// A failing writer ends the dump at once with its error.
func TestWriteFileWriteError(t *testing.T) {
	b := make([]byte, 8<<16)
	for i := 0; i < len(b); i += 8 {
		b[i] = 4
	}
	w := &failingWriter{left: 100 << 10}
	d, err := WriteFile(w, b, Options{})
	if !errors.Is(err, errFull) || d.Err != nil || w.calls > 3 {
		t.Errorf("%v, %v, %d writes", err, d.Err, w.calls)
	}
}

var errFull = errors.New("disk full")

type failingWriter struct{ left, calls int }

func (w *failingWriter) Write(p []byte) (int, error) {
	w.calls++
	if len(p) > w.left {
		n := w.left
		w.left = 0
		return n, errFull
	}
	w.left -= len(p)
	return len(p), nil
}

// A store_var value nested as deep as the decoder allows dumps as
// gdfile.Read reads it; one level more fails the same way in both.
func TestFileDepthAsRead(t *testing.T) {
	nested := func(levels int) []byte {
		payload := make([]byte, 0, 8*levels+4)
		for range levels {
			payload = binary.LittleEndian.AppendUint32(payload, uint32(variant.TypeArray))
			payload = binary.LittleEndian.AppendUint32(payload, 1)
		}
		payload = binary.LittleEndian.AppendUint32(payload, uint32(variant.TypeNil))
		return append(binary.LittleEndian.AppendUint32(nil, uint32(len(payload))), payload...)
	}
	for _, levels := range []int{variant.DefaultMaxDepth, variant.DefaultMaxDepth + 1} {
		b := nested(levels)
		_, rerr := gdfile.Read(b, gdfile.Options{})
		d := File(b, Options{Godot: variant.Godot4})
		if errString(d.Err) != errString(rerr) {
			t.Errorf("%d levels: inspect %.120s, gdfile.Read %.120s", levels, errString(d.Err), errString(rerr))
		}
		if levels == variant.DefaultMaxDepth && d.Err != nil {
			t.Errorf("%d levels: %.120s", levels, errString(d.Err))
		}
	}
}

// Options the decoder refuses are the dump's error, as Decode's.
func TestOptionsRefused(t *testing.T) {
	_, err := variant.DecOptions{MaxDepth: -1}.DecMode()
	for _, d := range []*Dump{Value([]byte{0, 0, 0, 0}, Options{MaxDepth: -1}), File([]byte{4, 0, 0, 0, 0, 0, 0, 0}, Options{MaxDepth: -1})} {
		if err == nil || errString(d.Err) != err.Error() {
			t.Errorf("%v, DecMode: %v", d.Err, err)
		}
	}
}
