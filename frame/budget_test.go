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
