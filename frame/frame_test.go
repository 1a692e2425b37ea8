package frame

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"runtime"
	"testing"
	"testing/iotest"
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// Frames as Godot 3.2.3's StreamPeerTCP.put_var wrote them (captured on the
// wire): true, "abc", Vector2(1, 2).
const godotStream = "08000000" + "0100000001000000" +
	"0c000000" + "040000000300000061626300" +
	"0c000000" + "050000000000803f00000040"

var godotPayloads = []string{"0100000001000000", "040000000300000061626300", "050000000000803f00000040"}

func readAll(t *testing.T, r *Reader) []string {
	t.Helper()
	var got []string
	for {
		p, err := r.ReadFrame()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, hex.EncodeToString(p))
	}
}

func TestReadSplitAndGlued(t *testing.T) {
	data := unhex(t, godotStream)
	readers := map[string]io.Reader{
		"glued":    bytes.NewReader(data),
		"one byte": iotest.OneByteReader(bytes.NewReader(data)),
		"half":     iotest.HalfReader(bytes.NewReader(data)),
	}
	for name, src := range readers {
		got := readAll(t, NewReader(src, Options{Kind: Stream}))
		if len(got) != 3 {
			t.Fatalf("%s: %d frames", name, len(got))
		}
		for i := range got {
			if got[i] != godotPayloads[i] {
				t.Errorf("%s frame %d: %s, want %s", name, i, got[i], godotPayloads[i])
			}
		}
	}
}

func TestWriteMatchesGodot(t *testing.T) {
	var buf bytes.Buffer
	w := NewWriter(&buf, Options{})
	for _, p := range godotPayloads {
		if err := w.WriteFrame(unhex(t, p)); err != nil {
			t.Fatal(err)
		}
	}
	if got := hex.EncodeToString(buf.Bytes()); got != godotStream {
		t.Errorf("got %s\nwant %s", got, godotStream)
	}
	// PacketPeerStream frames equal StreamPeer's little-endian frames.
	b, err := Append(nil, unhex(t, godotPayloads[1]), Options{Kind: PacketStream})
	if err != nil || hex.EncodeToString(b) != godotStream[24:56] {
		t.Errorf("PacketStream: %x %v", b, err)
	}
}

func TestBigEndianPrefix(t *testing.T) {
	// A big-endian file or peer swaps only the length prefix.
	b, err := Append(nil, unhex(t, godotPayloads[1]), Options{Kind: Store, BigEndian: true})
	if err != nil || hex.EncodeToString(b) != "0000000c"+godotPayloads[1] {
		t.Fatalf("got %x %v", b, err)
	}
	got := readAll(t, NewReader(bytes.NewReader(b), Options{Kind: Store, BigEndian: true}))
	if len(got) != 1 || got[0] != godotPayloads[1] {
		t.Errorf("read back %v", got)
	}
	// Read little-endian, the same bytes claim 201 MB: refused.
	_, err = NewReader(bytes.NewReader(b), Options{Kind: Store}).ReadFrame()
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("little-endian reading of a big-endian prefix: %v", err)
	}
	if _, err := Append(nil, nil, Options{Kind: Packet, BigEndian: true}); err == nil {
		t.Error("big-endian packets accepted")
	}
}

func TestSeveralStoreVars(t *testing.T) {
	// A save file with three store_var calls.
	var file []byte
	for _, p := range godotPayloads {
		var err error
		if file, err = Append(file, unhex(t, p), Options{Kind: Store}); err != nil {
			t.Fatal(err)
		}
	}
	r := NewReader(bytes.NewReader(file), Options{Kind: Store})
	if got := readAll(t, r); len(got) != 3 || got[2] != godotPayloads[2] {
		t.Errorf("got %v", got)
	}
	if r.Offset() != int64(len(file)) {
		t.Errorf("offset %d, want %d", r.Offset(), len(file))
	}
}

func TestTruncated(t *testing.T) {
	data := unhex(t, godotStream)
	for _, cut := range []int{2, 10, 13, 30} {
		r := NewReader(bytes.NewReader(data[:cut]), Options{})
		var err error
		for err == nil {
			_, err = r.ReadFrame()
		}
		var fe *Error
		if !errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &fe) {
			t.Errorf("cut at %d: %v", cut, err)
		}
	}
	// A clean end between frames is io.EOF itself.
	r := NewReader(bytes.NewReader(data[:12]), Options{})
	r.ReadFrame()
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Errorf("end between frames: %v", err)
	}
}

func TestHostileLengths(t *testing.T) {
	cases := []struct {
		prefix string
		opts   Options
		err    error
	}{
		{"ffffff7f", Options{Kind: Stream}, ErrTooLarge},                                // 2 GiB - 1
		{"00000080", Options{Kind: Stream}, ErrNegativeLength},                          // negative
		{"00000080", Options{Kind: Store}, ErrTooLarge},                                 // u32 2 GiB
		{"fdff0000", Options{Kind: PacketStream}, ErrTooLarge},                          // 65533 > 65532
		{"01000001", Options{Kind: Stream, MaxSize: 1 << 20}, ErrTooLarge},              // 16 MiB
		{"ffffff7f", Options{Kind: Stream, MaxSize: MaxSizeLimit}, io.ErrUnexpectedEOF}, // allowed, but absent
	}
	for _, c := range cases {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := NewReader(bytes.NewReader(unhex(t, c.prefix+"00000000")), c.opts).ReadFrame()
		runtime.ReadMemStats(&after)
		if !errors.Is(err, c.err) {
			t.Errorf("%s %v: err %v, want %v", c.prefix, c.opts, err, c.err)
		}
		if got := after.TotalAlloc - before.TotalAlloc; got > 256<<10 {
			t.Errorf("%s %v: allocated %d bytes", c.prefix, c.opts, got)
		}
	}
	// Writers refuse oversized payloads too.
	if err := NewWriter(io.Discard, Options{MaxSize: 4}).WriteFrame(make([]byte, 5)); !errors.Is(err, ErrTooLarge) {
		t.Errorf("writer: %v", err)
	}
}

// packets is an io.Reader that returns one packet per Read, like a
// connected UDP socket.
type packets [][]byte

func (p *packets) Read(b []byte) (int, error) {
	if len(*p) == 0 {
		return 0, io.EOF
	}
	n := copy(b, (*p)[0])
	*p = (*p)[1:]
	return n, nil
}

func TestPackets(t *testing.T) {
	src := &packets{unhex(t, godotPayloads[0]), unhex(t, godotPayloads[2])}
	got := readAll(t, NewReader(src, Options{Kind: Packet}))
	if len(got) != 2 || got[1] != godotPayloads[2] {
		t.Errorf("got %v", got)
	}
	big := &packets{make([]byte, 100)}
	if _, err := NewReader(big, Options{Kind: Packet, MaxSize: 99}).ReadFrame(); !errors.Is(err, ErrTooLarge) {
		t.Errorf("oversized packet: %v", err)
	}
	var buf bytes.Buffer
	if err := NewWriter(&buf, Options{Kind: Packet}).WriteFrame([]byte{1, 2, 3, 4}); err != nil || buf.Len() != 4 {
		t.Errorf("packet write: %v %x", err, buf.Bytes())
	}
}

func TestOptions(t *testing.T) {
	for _, o := range []Options{{Kind: 9}, {MaxSize: -1}, {Kind: PacketStream, BigEndian: true}} {
		if _, err := NewReader(bytes.NewReader(nil), o).ReadFrame(); err == nil || err == io.EOF {
			t.Errorf("%+v accepted: %v", o, err)
		}
	}
	if Stream.String() != "StreamPeer" || Kind(9).String() != "Kind(9)" {
		t.Error("Kind names")
	}
}

// A large frame arriving in small pieces is read whole.
func TestLargeFrame(t *testing.T) {
	payload := bytes.Repeat([]byte{7}, 3<<20)
	framed, _ := Append(nil, payload, Options{})
	p, err := NewReader(iotest.HalfReader(bytes.NewReader(framed)), Options{}).ReadFrame()
	if err != nil || !bytes.Equal(p, payload) {
		t.Fatalf("got %d bytes, %v", len(p), err)
	}
}

// flaky returns its data in the pieces given, with a timeout error
// between the pieces, as a net.Conn whose read deadline expires does.
type flaky struct {
	pieces [][]byte
	fail   bool
}

var errTimeout = errors.New("i/o timeout")

func (f *flaky) Read(b []byte) (int, error) {
	if f.fail {
		f.fail = false
		return 0, errTimeout
	}
	if len(f.pieces) == 0 {
		return 0, io.EOF
	}
	n := copy(b, f.pieces[0])
	f.pieces[0] = f.pieces[0][n:]
	if len(f.pieces[0]) == 0 {
		f.pieces = f.pieces[1:]
		f.fail = true
	}
	return n, nil
}

// A read that fails in the middle of a frame (an expired deadline) is
// resumed by the next ReadFrame.
func TestResumeAfterTimeout(t *testing.T) {
	data := unhex(t, godotStream)
	for _, cuts := range [][]int{{2}, {4}, {6, 20}, {1, 2, 3, 13, 30}} {
		var pieces [][]byte
		prev := 0
		for _, c := range cuts {
			pieces = append(pieces, data[prev:c])
			prev = c
		}
		pieces = append(pieces, data[prev:])
		r := NewReader(&flaky{pieces: pieces}, Options{})
		var got []string
		var starts []int64
		for {
			p, err := r.ReadFrame()
			if err == errTimeout {
				continue
			}
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatalf("cuts %v: %v", cuts, err)
			}
			got = append(got, hex.EncodeToString(p))
			starts = append(starts, r.FrameOffset())
		}
		if len(got) != 3 || got[0] != godotPayloads[0] || got[2] != godotPayloads[2] {
			t.Errorf("cuts %v: got %v", cuts, got)
		}
		if len(starts) == 3 && (starts[0] != 0 || starts[1] != 12 || starts[2] != 28) {
			t.Errorf("cuts %v: frame offsets %v", cuts, starts)
		}
	}
}

// After a framing error the stream is out of step: the error sticks.
func TestFramingErrorSticks(t *testing.T) {
	r := NewReader(bytes.NewReader(unhex(t, "ffffff7f"+godotStream)), Options{})
	_, err1 := r.ReadFrame()
	_, err2 := r.ReadFrame()
	if !errors.Is(err1, ErrTooLarge) || err2 != err1 {
		t.Errorf("got %v, then %v", err1, err2)
	}
}

// shortWriter accepts n bytes, then fails.
type shortWriter struct{ n int }

func (w *shortWriter) Write(b []byte) (int, error) {
	if len(b) <= w.n {
		w.n -= len(b)
		return len(b), nil
	}
	n := w.n
	w.n = 0
	return n, errTimeout
}

func TestWriteErrors(t *testing.T) {
	// Nothing written: the frame can be retried.
	w := NewWriter(&shortWriter{}, Options{})
	if err := w.WriteFrame([]byte{1, 2, 3, 4}); err != errTimeout {
		t.Fatal(err)
	}
	w.w = &shortWriter{n: 100}
	if err := w.WriteFrame([]byte{1, 2, 3, 4}); err != nil || w.Offset() != 8 {
		t.Fatalf("retry: %v, offset %d", err, w.Offset())
	}
	// Part of a frame written: every later write fails.
	w = NewWriter(&shortWriter{n: 6}, Options{})
	if err := w.WriteFrame([]byte{1, 2, 3, 4}); err != errTimeout {
		t.Fatal(err)
	}
	w.w = &shortWriter{n: 100}
	if err := w.WriteFrame([]byte{1, 2, 3, 4}); err != errTimeout {
		t.Errorf("after a partial write: %v", err)
	}
}
