package pck

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io/fs"
	"runtime"
	"testing"
)

type rawEntry struct {
	path      string
	off, size uint64
}

// rawV1 lays out a format 1 pack as given, however wrong.
func rawV1(count uint32, entries []rawEntry, tail []byte) []byte {
	le := binary.LittleEndian
	b := le.AppendUint32(nil, magic)
	b = le.AppendUint32(b, 1)
	b = append(b, make([]byte, 12+64)...)
	b = le.AppendUint32(b, count)
	for _, e := range entries {
		b = le.AppendUint32(b, uint32(len(e.path)))
		b = append(b, e.path...)
		b = le.AppendUint64(b, e.off)
		b = le.AppendUint64(b, e.size)
		b = append(b, make([]byte, 16)...)
	}
	return append(b, tail...)
}

func byteReader(b []byte) *bytes.Reader { return bytes.NewReader(b) }

func open(data []byte) (*Reader, error) {
	return NewReader(bytes.NewReader(data), int64(len(data)), nil)
}

func TestHostileCounts(t *testing.T) {
	for name, data := range map[string][]byte{
		"count":       rawV1(0xFFFFFFFF, nil, nil),
		"count+1":     rawV1(2, []rawEntry{{"a", 0, 0}}, nil),
		"path length": append(rawV1(1, nil, nil), 0xFF, 0xFF, 0xFF, 0x7F),
		"offset":      rawV1(1, []rawEntry{{"a", 1 << 62, 1}}, nil),
		"size":        rawV1(1, []rawEntry{{"a", 0, 1 << 40}}, nil),
		"wrap":        rawV1(1, []rawEntry{{"a", ^uint64(0), 2}}, nil),
		"header":      []byte("GDPC\x01\x00"),
	} {
		if _, err := open(data); !errors.Is(err, ErrTruncated) {
			t.Errorf("%s: %v", name, err)
		}
	}
	if _, err := open([]byte("not a pack at all, not at all")); !errors.Is(err, ErrNotPack) {
		t.Errorf("not a pack: %v", err)
	}
	v9 := rawV1(0, nil, nil)
	v9[4] = 9
	if _, err := open(v9); !errors.Is(err, ErrFormat) {
		t.Errorf("format 9: %v", err)
	}
}

func TestHostileOverlap(t *testing.T) {
	data := rawV1(2, []rawEntry{{"a", 0, 50}, {"b", 10, 5}}, make([]byte, 10))
	if _, err := open(data); !errors.Is(err, ErrOverlap) {
		t.Fatalf("overlap: %v", err)
	}
	// Empty entries may share an offset.
	data = rawV1(2, []rawEntry{{"a", 10, 0}, {"b", 10, 0}}, nil)
	if _, err := open(data); err != nil {
		t.Fatal(err)
	}
}

func TestHostilePaths(t *testing.T) {
	evil := []string{"../evil", "res://../../evil", "a/../../evil", "/etc/passwd", "res:///abs", `C:\win`, "c:/win", `a\..\b`, "", "res://", ".", "res://bad\xff.txt"}
	var entries []rawEntry
	for _, p := range evil {
		entries = append(entries, rawEntry{p, 0, 0})
	}
	entries = append(entries, rawEntry{"res://ok/fine.txt\x00../../evil", 0, 0})
	r, err := open(rawV1(uint32(len(entries)), entries, nil))
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range r.Entries[:len(evil)] {
		if e.Name != "" {
			t.Errorf("%q has the name %q", e.Path, e.Name)
		}
	}
	if last := r.Entries[len(evil)]; last.Name != "ok/fine.txt" {
		t.Errorf("a path ends at its NUL, as in the engine: %q", last.Name)
	}
	var names []string
	fs.WalkDir(r, ".", func(p string, d fs.DirEntry, err error) error {
		names = append(names, p)
		return err
	})
	if len(names) != 3 { // ., ok, ok/fine.txt
		t.Fatalf("walked %q", names)
	}
}

func TestHostileEncryptedSize(t *testing.T) {
	// An encrypted directory whose sealed length is huge.
	data := build(t, WriterOptions{Key: testKey, EncryptDirectory: true}, testFiles)
	r, err := NewReader(bytes.NewReader(data), int64(len(data)), &Options{Key: testKey})
	if err != nil {
		t.Fatal(err)
	}
	at := r.DirOffset + 4 + 16
	binary.LittleEndian.PutUint64(data[at:], 1<<60)
	if _, err := NewReader(bytes.NewReader(data), int64(len(data)), &Options{Key: testKey}); !errors.Is(err, ErrTruncated) {
		t.Fatalf("huge sealed directory: %v", err)
	}
}

// What a pack claims costs nothing: a small pack announcing 2³² entries,
// or an entry path of 2 GiB, allocates a few kilobytes in all.
func TestHostileAllocations(t *testing.T) {
	for name, data := range map[string][]byte{
		"count":       rawV1(0xFFFFFFFF, []rawEntry{{"a", 0, 0}}, nil),
		"path length": append(rawV1(1, nil, nil), 0xFF, 0xFF, 0xFF, 0x7F),
	} {
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 10 {
			open(data)
		}
		runtime.ReadMemStats(&after)
		if per := (after.TotalAlloc - before.TotalAlloc) / 10; per > 16<<10 {
			t.Errorf("%s: %d bytes allocated per open of a %d-byte pack", name, per, len(data))
		}
	}
}

// Format 0 has format 1's layout.
func TestFormat0(t *testing.T) {
	data := rawV1(1, []rawEntry{{"res://a.txt", 0, 5}}, nil)
	data[4] = 0
	at := len(data)
	data = append(data, "hello"...)
	binary.LittleEndian.PutUint64(data[at-16-8-8:], uint64(at))
	r, err := open(data)
	if err != nil {
		t.Fatal(err)
	}
	if b, err := r.ReadFile("a.txt"); r.Format != Format0 || err != nil || string(b) != "hello" {
		t.Fatalf("%q %v", b, err)
	}
}
