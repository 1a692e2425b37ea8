package peer

import (
	"bytes"
	"errors"
	"fmt"
	"testing"

	"github.com/gdvar/gdvar/frame"
)

// parseAll feeds data to a parser in pieces of the sizes given (cycled),
// keeping what a piece leaves of a frame for the next, as a polled
// connection does, and returns what it handed over, one line each.
func parseAll(data []byte, pieces []int, maxSize int) ([]string, error) {
	p := &wsParser{maxSize: maxSize}
	var got []string
	h := func(op byte, payload []byte, off int64) error {
		got = append(got, fmt.Sprintf("%d@%d:%x", op, off, payload))
		return nil
	}
	var pending []byte
	for i := 0; len(data) > 0; i++ {
		n := len(data)
		if len(pieces) > 0 {
			n = min(max(pieces[i%len(pieces)], 1), len(data))
		}
		pending = append(pending, data[:n]...)
		data = data[n:]
		used, need, err := p.parse(pending, h)
		if err != nil {
			return got, err
		}
		if need > maxSize+wsMaxFrameHeader {
			return got, fmt.Errorf("asks for %d bytes, more than a frame of MaxSize", need)
		}
		pending = append(pending[:0], pending[used:]...)
	}
	return got, nil
}

// The same bytes give the same messages and the same error (at the same
// offset) however they are cut.
func FuzzWSParser(f *testing.F) {
	key := []byte{0x11, 0x22, 0x33, 0x44}
	f.Add(rawFrame(0x82, []byte("hello"), key), []byte{1})
	f.Add(append(rawFrame(0x02, []byte("frag"), key), append(rawFrame(0x89, []byte("p"), key), rawFrame(0x80, []byte("ment"), key)...)...), []byte{3, 7})
	f.Add(rawFrame(0x82, make([]byte, 300), key), []byte{2, 200})
	f.Add(rawFrame(0x81, []byte{0xff, 0xfe}, key), []byte{})
	f.Add(rawFrame(0x88, []byte{0x03, 0xe8}, key), []byte{5})
	f.Add([]byte{0x82, 0xff, 0x7f, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff}, []byte{4})
	f.Add(rawFrame(0x82, []byte("x"), nil), []byte{1})
	f.Fuzz(func(t *testing.T, data []byte, cuts []byte) {
		pieces := make([]int, len(cuts))
		for i, c := range cuts {
			pieces[i] = int(c)
		}
		whole, werr := parseAll(bytes.Clone(data), nil, 1024)
		cut, cerr := parseAll(bytes.Clone(data), pieces, 1024)
		if fmt.Sprint(whole) != fmt.Sprint(cut) || fmt.Sprint(werr) != fmt.Sprint(cerr) {
			t.Fatalf("whole: %v, %v\ncut %v: %v, %v", whole, werr, pieces, cut, cerr)
		}
		if werr != nil {
			var fe *frame.Error
			if !errors.As(werr, &fe) || fe.Offset < 0 || fe.Offset > int64(len(data)) {
				t.Fatalf("error %v is not a *frame.Error within the input", werr)
			}
		}
	})
}

// What each kind of frame gives, and the offsets of messages and errors.
func TestWSParser(t *testing.T) {
	key := []byte{1, 2, 3, 4}
	var in []byte
	in = append(in, rawFrame(0x82, []byte("one"), key)...)                // 0: 9 bytes
	in = append(in, rawFrame(0x01, []byte("tw"), key)...)                 // 9: 8 bytes
	in = append(in, rawFrame(0x8a, nil, key)...)                          // 17: a pong, 6 bytes
	in = append(in, rawFrame(0x80, []byte("o"), key)...)                  // 23: 7 bytes
	in = append(in, rawFrame(0x82, bytes.Repeat([]byte{7}, 200), key)...) // 30
	got, err := parseAll(in, []int{1}, 1024)
	want := []string{"2@0:6f6e65", "10@17:", "1@9:74776f", "2@30:" + fmt.Sprintf("%x", bytes.Repeat([]byte{7}, 200))}
	if err != nil || fmt.Sprint(got) != fmt.Sprint(want) {
		t.Fatalf("got %v, %v\nwant %v", got, err, want)
	}
	_, err = parseAll(rawFrame(0x82, make([]byte, 1025), key), nil, 1024)
	if !errors.Is(err, frame.ErrTooLarge) {
		t.Errorf("a message over MaxSize: %v", err)
	}
}
