package frame

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"testing"
)

func streamFrame(payload []byte) []byte {
	return binary.LittleEndian.AppendUint32(nil, uint32(len(payload)))
}

// A length prefix alone reserves nothing: memory is reserved as the bytes
// arrive, and comes back when the next frame starts or on Release.
func TestBudgetFollowsReceivedBytes(t *testing.T) {
	b := NewBudget(1 << 20)
	// A claim of 1 MiB followed by 10 bytes, then the end of input.
	in := append(streamFrame(make([]byte, 1<<20)), make([]byte, 10)...)
	r := NewReader(bytes.NewReader(in), Options{MaxSize: 2 << 20, Budget: b})
	if _, err := r.ReadFrame(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Fatalf("truncated frame: %v", err)
	}
	if used := b.Used(); used != 64<<10 {
		t.Errorf("a 1 MiB claim with 10 bytes holds %d bytes of the budget, want one 64 KiB step", used)
	}
	r.Release()
	if used := b.Used(); used != 0 {
		t.Errorf("after Release: %d bytes held", used)
	}

	// Whole frames: the last buffer is held until the next frame starts,
	// and only a small one is kept after that.
	payload := bytes.Repeat([]byte{7}, 300<<10)
	in = append(streamFrame(payload), payload...)
	in = append(in, streamFrame([]byte{1, 2, 3})...)
	in = append(in, 1, 2, 3)
	r = NewReader(bytes.NewReader(in), Options{Budget: b})
	p, err := r.ReadFrame()
	if err != nil || !bytes.Equal(p, payload) {
		t.Fatalf("big frame: %d bytes, %v", len(p), err)
	}
	if used := b.Used(); used != int64(len(payload)) {
		t.Errorf("while the payload is in use: %d bytes held, want %d", used, len(payload))
	}
	if p, err := r.ReadFrame(); err != nil || len(p) != 3 {
		t.Fatalf("small frame: %x %v", p, err)
	}
	if used := b.Used(); used > keepBudgeted {
		t.Errorf("after a small frame: %d bytes held", used)
	}
	if _, err := r.ReadFrame(); err != io.EOF {
		t.Fatalf("end: %v", err)
	}
	r.Release()
	if used := b.Used(); used != 0 {
		t.Errorf("after Release: %d bytes held", used)
	}
}

// Readers sharing a budget cannot together hold more than it: the one
// that would go over fails with ErrBudget, and the memory it held comes
// back with Release.
func TestBudgetShared(t *testing.T) {
	b := NewBudget(1 << 20)
	payload := make([]byte, 600<<10)
	in := append(streamFrame(payload), payload...)
	r1 := NewReader(bytes.NewReader(in), Options{Budget: b})
	r2 := NewReader(bytes.NewReader(in), Options{Budget: b})
	if _, err := r1.ReadFrame(); err != nil {
		t.Fatal(err)
	}
	_, err := r2.ReadFrame()
	var fe *Error
	if !errors.As(err, &fe) || !errors.Is(err, ErrBudget) || fe.Offset != 0 || fe.Size != int64(len(payload)) {
		t.Fatalf("second reader: %v", err)
	}
	if used := b.Used(); used > b.Limit() {
		t.Errorf("%d bytes held, budget %d", used, b.Limit())
	}
	if _, again := r2.ReadFrame(); again != err {
		t.Errorf("budget error does not stick: %v", again)
	}
	r1.Release()
	r2.Release()
	if used := b.Used(); used != 0 {
		t.Errorf("after Release: %d bytes held", used)
	}
	r3 := NewReader(bytes.NewReader(in), Options{Budget: b})
	if _, err := r3.ReadFrame(); err != nil {
		t.Errorf("after the others released: %v", err)
	}
}

func TestBudgetReserve(t *testing.T) {
	b := NewBudget(10)
	if !b.Reserve(6) || b.Reserve(5) || !b.Reserve(4) || b.Used() != 10 {
		t.Fatalf("reserve: used %d", b.Used())
	}
	b.Release(10)
	if b.Used() != 0 {
		t.Fatalf("release: used %d", b.Used())
	}
}

// FuzzReaderBudget: on any input, in any framing, two Readers sharing a
// budget never hold more than it, and give everything back on Release.
func FuzzReaderBudget(f *testing.F) {
	f.Add([]byte{8, 0, 0, 0, 2, 0, 0, 0, 1, 0, 0, 0}, uint8(0), uint16(100))
	f.Add(append([]byte{0, 0, 1, 0}, make([]byte, 300)...), uint8(1), uint16(1000))
	f.Add([]byte{0xff, 0xff, 0xff, 0x7f, 1, 2, 3}, uint8(2), uint16(10))
	f.Fuzz(func(t *testing.T, in []byte, kind uint8, limit uint16) {
		b := NewBudget(int64(limit) + 1)
		o := Options{Kind: Kind(kind%3) + Store, MaxSize: 1 << 16, Budget: b}
		readers := []*Reader{
			NewReader(bytes.NewReader(in), o),
			NewReader(&chunks{in, 7}, o),
		}
		for range 100 {
			progress := false
			for _, r := range readers {
				if _, err := r.ReadFrame(); err == nil {
					progress = true
				}
				if b.Used() > b.Limit() {
					t.Fatalf("%d bytes held, budget %d", b.Used(), b.Limit())
				}
			}
			if !progress {
				break
			}
		}
		for _, r := range readers {
			r.Release()
		}
		if b.Used() != 0 {
			t.Fatalf("after Release: %d bytes held", b.Used())
		}
	})
}

// chunks delivers its bytes n at a time.
type chunks struct {
	b []byte
	n int
}

func (c *chunks) Read(p []byte) (int, error) {
	if len(c.b) == 0 {
		return 0, io.EOF
	}
	k := copy(p[:min(len(p), c.n)], c.b)
	c.b = c.b[k:]
	return k, nil
}
