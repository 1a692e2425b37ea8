package enet

import (
	"context"
	"slices"
	"sync"
	"testing"
	"time"
)

// TestSendClasses: the send buffers' classes are the allocator's, so a
// reused buffer costs what allocSize charges for any packet it holds.
func TestSendClasses(t *testing.T) {
	for i, c := range sendClasses {
		if got := cap(slices.Grow([]byte(nil), c)); got != c {
			t.Errorf("class %d: the allocator gives %d bytes for %d", i, got, c)
		}
		lo := 1
		if i > 0 {
			lo = sendClasses[i-1] + 1
		}
		if sendAlloc(lo) < c {
			t.Errorf("class %d (%d bytes) holds %d-byte packets, which are charged %d", i, c, lo, sendAlloc(lo))
		}
		if sendClass(lo) != i || sendClass(c) != i {
			t.Errorf("sendClass(%d) = %d, sendClass(%d) = %d, want %d", lo, sendClass(lo), c, sendClass(c), i)
		}
	}
	if sendClass(3457) != -1 {
		t.Error("a packet over 3456 bytes is pooled")
	}
}

// TestSendAllocs: once warm, sending an unreliable packet and flushing
// it, and receiving it and giving it back with ReleasePacket, allocate
// nothing (copies reuse buffers, the queues their room), and what the
// receiver gets is the packet sent, buffer reuse notwithstanding.
func TestSendAllocs(t *testing.T) {
	srv, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var mu sync.Mutex
	good, bad := 0, 0
	go func() {
		for {
			ev, err := srv.Service(ctx)
			if err != nil {
				return
			}
			if ev.Type == EventReceive {
				// Packets are 100 bytes, their second byte 0: a reused
				// buffer holds the packet it was given for.
				mu.Lock()
				if len(ev.Packet) == 100 && ev.Packet[1] == 0 {
					good++
				} else {
					bad++
				}
				mu.Unlock()
				srv.ReleasePacket(ev.Packet)
			}
		}
	}()
	cli, p, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	data := make([]byte, 100)
	i := 0
	send := func() {
		i++
		data[0], data[99] = byte(i), byte(i>>8)
		if err := p.Send(0, data, Unsequenced); err != nil {
			t.Fatal(err)
		}
		cli.Flush()
	}
	for range 100 {
		send()
	}
	// AllocsPerRun counts the whole process: the sender (its copy, its
	// queues) and the receiver (its copy for the Event, given back with
	// ReleasePacket) are to allocate nothing a packet. Before buffers
	// were reused and queues compacted, they allocated three times.
	if a := testing.AllocsPerRun(500, send); a > 0.5 && !raceEnabled {
		t.Errorf("sending and receiving allocate %.2f times a packet", a)
	}
	for {
		mu.Lock()
		g, b := good, bad
		mu.Unlock()
		if b > 0 {
			t.Fatalf("%d packets arrived changed", b)
		}
		if g >= 100 {
			break
		}
		select {
		case <-ctx.Done():
			t.Fatalf("%d packets arrived", g)
		case <-time.After(10 * time.Millisecond):
		}
	}
	cli.mu.Lock()
	free := cli.freeSendBytes
	cli.mu.Unlock()
	if free == 0 || free > maxFreeSendBytes {
		t.Errorf("%d bytes of free send buffers", free)
	}
}
