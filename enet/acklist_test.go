package enet

import (
	"testing"
	"unsafe"
)

// TestAckList: a peer's acknowledgements come out in the order they were
// queued, across chunks; the chunks of sent acknowledgements go back to
// the host's free list and are reused by any peer without allocating;
// chunks left unused for a whole trim interval are given back.
func TestAckList(t *testing.T) {
	if n := unsafe.Sizeof(ackChunk{}); n != 256 {
		t.Errorf("a chunk takes %d bytes, not 256", n)
	}
	h := &Host{}
	a, b := &Peer{}, &Peer{}
	for i := range 100 {
		h.pushAck(a, ack{seq: uint16(i)})
		if i < 30 {
			h.pushAck(b, ack{seq: uint16(1000 + i)})
		}
	}
	if a.acks.n != 100 || b.acks.n != 30 {
		t.Fatalf("lengths %d, %d", a.acks.n, b.acks.n)
	}
	for i := range 100 {
		if got := a.firstAck().seq; got != uint16(i) {
			t.Fatalf("acknowledgement %d is seq %d", i, got)
		}
		h.dropAck(a)
	}
	if a.acks.n != 0 || a.acks.head != nil || a.acks.tail != nil {
		t.Fatalf("emptied list: %+v", a.acks)
	}
	if h.freeAcks.n != 3 { // 100 acknowledgements took three chunks of 40
		t.Errorf("%d free chunks, want 3", h.freeAcks.n)
	}
	h.clearAcks(b)
	if h.freeAcks.n != 4 || b.acks.n != 0 {
		t.Errorf("after clearing: %d free chunks, %d acknowledgements", h.freeAcks.n, b.acks.n)
	}
	if n := testing.AllocsPerRun(50, func() {
		for i := range 160 {
			h.pushAck(b, ack{seq: uint16(i)})
		}
		h.clearAcks(b)
	}); n != 0 {
		t.Errorf("reusing chunks allocates %.1f times", n)
	}
	h.trimAcks() // sets the low-water mark: all four stayed free since
	h.trimAcks()
	if h.freeAcks.n != 0 || h.freeAcks.head != nil {
		t.Errorf("%d chunks kept after a trim interval unused", h.freeAcks.n)
	}
	h.pushAck(a, ack{seq: 7})
	if a.firstAck().seq != 7 || a.acks.n != 1 {
		t.Error("a list after the trim")
	}
}
