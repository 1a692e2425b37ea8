package enet

import (
	"testing"
	"time"
	"unsafe"
)

// A peer's state is made as it is used: a connection that asked for
// Godot 4's 255 channels holds none until a command uses one, then the
// channels up to it; the unsequenced window waits for the first
// unsequenced packet, the done channel for the first Done. The Peer
// itself stays in the allocator's 448-byte class.
func TestPeerStateOnDemand(t *testing.T) {
	if s := unsafe.Sizeof(Peer{}); s > 448 {
		t.Errorf("a Peer is %d bytes, more than the 448 of its size class", s)
	}
	h, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := newRaw(t, h)
	r.channels = Godot4ChannelCount
	r.handshake()
	var p *Peer
	for deadline := time.Now().Add(5 * time.Second); p == nil; time.Sleep(time.Millisecond) {
		if ps := h.Peers(); len(ps) == 1 {
			p = ps[0]
		} else if time.Now().After(deadline) {
			t.Fatal("the raw client did not connect")
		}
	}
	state := func() (channels, made int, window, done bool) {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, c := range p.channels {
			if c != nil {
				made++
			}
		}
		return len(p.channels), made, p.unsequencedWindow != nil, p.closedCh != nil || p.connectedCh != nil
	}
	if n := p.ChannelCount(); n != Godot4ChannelCount {
		t.Fatalf("%d channels", n)
	}
	if channels, made, window, done := state(); channels != 0 || made != 0 || window || done {
		t.Errorf("connected: %d channel places, %d channels, unsequenced window %v, channels to wait on %v", channels, made, window, done)
	}
	r.send(reliable(3, 1, []byte("x"))...)
	r.send(command{command: cmdSendUnsequenced | flagUnsequenced, channelID: 1, seq2: 1, dataLength: 1}, []byte("y"))
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		h.mu.Lock()
		n := len(h.events) - h.eventsHead
		h.mu.Unlock()
		if n >= 3 { // connect, and the two packets
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d events", n)
		}
	}
	if channels, made, window, _ := state(); channels != 4 || made != 2 || !window {
		t.Errorf("after packets on channels 3 and 1: %d channel places, %d channels, unsequenced window %v", channels, made, window)
	}
	select {
	case <-p.Done():
		t.Fatal("Done closed while connected")
	default:
	}
	p.Reset()
	select {
	case <-p.Done():
	default:
		t.Fatal("Done not closed after Reset")
	}
	// Done asked for only once the connection has ended.
	r2 := newRaw(t, h)
	r2.handshake()
	var q *Peer
	for deadline := time.Now().Add(5 * time.Second); q == nil; time.Sleep(time.Millisecond) {
		if ps := h.Peers(); len(ps) == 1 {
			q = ps[0]
		} else if time.Now().After(deadline) {
			t.Fatal("the second raw client did not connect")
		}
	}
	q.Reset()
	select {
	case <-q.Done():
	default:
		t.Fatal("Done, asked for after Reset, is not closed")
	}
}
