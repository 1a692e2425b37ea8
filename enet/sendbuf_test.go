package enet

import (
	"bytes"
	"context"
	"encoding/binary"
	"errors"
	"net"
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
	for n := -1; n <= 4096; n++ {
		want := slices.IndexFunc(sendClasses[:], func(c int) bool { return c >= n })
		if got := sendClass(n); got != want {
			t.Errorf("sendClass(%d) = %d, want %d", n, got, want)
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

// TestSendPrefixed: SendPrefixed delivers prefix and data as one packet,
// as Send delivers their concatenation: small (a pooled buffer), empty
// parts, and fragmented, reliable and not; a prefix on the caller's stack
// costs no allocation of its own.
func TestSendPrefixed(t *testing.T) {
	srv, _, _, cp := pair(t, nil, nil, 2)
	big := bytes.Repeat([]byte("0123456789"), 500) // fragmented
	cases := []struct {
		prefix, data []byte
		flags        Flags
	}{
		{[]byte{1, 2, 3, 4, 5, 6, 7, 8}, []byte("payload"), Reliable},
		{[]byte{9, 9}, nil, Reliable},
		{nil, []byte("no prefix"), Reliable},
		{[]byte{7}, big, Reliable},
		{[]byte{3, 1, 4}, []byte("unsequenced"), Unsequenced},
	}
	for _, c := range cases {
		if err := cp.SendPrefixed(1, c.prefix, c.data, c.flags); err != nil {
			t.Fatal(err)
		}
		want := append(append([]byte{}, c.prefix...), c.data...)
		ev := next(t, srv, 5*time.Second)
		if ev.Type != EventReceive || ev.Channel != 1 || !bytes.Equal(ev.Packet, want) {
			t.Fatalf("sent %d+%d bytes, got event %v channel %d with %d bytes", len(c.prefix), len(c.data), ev.Type, ev.Channel, len(ev.Packet))
		}
	}
	if err := cp.SendPrefixed(2, []byte{1}, nil, Reliable); !errors.Is(err, ErrChannel) {
		t.Errorf("channel 2 of 2: %v", err)
	}
	// Sent, flushed and received (and given back) as TestSendAllocs does:
	// a prefix built on the caller's stack adds no allocation.
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go func() {
		for {
			ev, err := srv.Service(ctx)
			if err != nil {
				return
			}
			srv.ReleasePacket(ev.Packet)
		}
	}()
	data := []byte("some payload")
	send := func() {
		var head [8]byte
		if err := cp.SendPrefixed(1, AppendGodot3Packet(head[:0], 2, 1, nil), data, Unsequenced); err != nil {
			t.Fatal(err)
		}
		cp.Host().Flush()
	}
	for range 100 {
		send()
	}
	if a := testing.AllocsPerRun(500, send); a > 0.5 && !raceEnabled {
		t.Errorf("SendPrefixed allocates %.2f times a packet", a)
	}
}

// TestSendMany: SendMany queues one packet for several peers with one
// shared copy. Every peer receives every packet intact and in order while
// later packets reuse the buffers of earlier ones, the last peer through
// a relay that loses, duplicates and delays datagrams, so that its
// resends read buffers the other peers are done with (a buffer reused
// before its last holder was done with it would change what arrives); a warm
// SendMany allocates nothing; a packet that the peers fragment arrives
// whole; peers that fail are reported and hold the others back in
// nothing.
func TestSendMany(t *testing.T) {
	srv, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	const n = 3
	clis := make([]*Host, n)
	mine := make([]*Peer, n)  // the clients' side
	peers := make([]*Peer, n) // the server's
	lossy := newRelay(t, srv.LocalAddr().(*net.UDPAddr), 0.2, 0.05, 5*time.Millisecond)
	for i := range n {
		addr := srv.LocalAddr().String()
		if i == n-1 {
			addr = lossy.addr().String()
		}
		cli, cp, err := Dial(ctx, "udp4", addr, 2, uint32(i), nil)
		if err != nil {
			t.Fatal(err)
		}
		defer cli.Close()
		clis[i], mine[i] = cli, cp
		ev := nextOf(t, srv, EventConnect, 5*time.Second)
		peers[ev.Data] = ev.Peer
	}
	errs := make([]error, n+1)
	packet := func(i int) []byte {
		b := bytes.Repeat([]byte{byte(i)}, 40)
		binary.LittleEndian.PutUint32(b, uint32(i))
		return b
	}
	const count = 400
	for i := range count {
		b := packet(i)
		if f := srv.SendMany(peers, 1, b[:4], b[4:], Reliable, errs); f != 0 {
			t.Fatalf("packet %d: %d failed: %v", i, f, errs)
		}
		if i%20 == 19 {
			// Acknowledged meanwhile, the first peers' commands give
			// their buffers back to the next packets.
			srv.Flush()
			time.Sleep(2 * time.Millisecond)
		}
	}
	for c, cli := range clis {
		for i := range count {
			ev := nextOf(t, cli, EventReceive, 5*time.Second)
			if ev.Channel != 1 || !bytes.Equal(ev.Packet, packet(i)) {
				t.Fatalf("client %d, packet %d: channel %d, % x", c, i, ev.Channel, ev.Packet)
			}
			cli.ReleasePacket(ev.Packet)
		}
	}

	// Warm, unreliable: no allocation a packet, the clients' copies given
	// back as they arrive.
	for _, cli := range clis {
		go func() {
			for {
				ev, err := cli.Service(ctx)
				if err != nil {
					return
				}
				cli.ReleasePacket(ev.Packet)
			}
		}()
	}
	data := make([]byte, 100)
	send := func() {
		if f := srv.SendMany(peers, 0, nil, data, Unsequenced, errs); f != 0 {
			t.Fatalf("%d failed: %v", f, errs)
		}
		srv.Flush()
	}
	for range 100 {
		send()
	}
	if a := testing.AllocsPerRun(300, send); a > 0.5 && !raceEnabled {
		t.Errorf("SendMany to %d peers allocates %.2f times a packet", n, a)
	}
	peers[0].DisconnectNow(0)
	peers[1].DisconnectNow(0)
	// Failures: peers gone, and a peer of another host.
	if f := srv.SendMany(append(peers[:2:2], mine[0]), 0, nil, []byte("x"), Reliable, errs); f != 3 ||
		!errors.Is(errs[0], ErrNotConnected) || !errors.Is(errs[1], ErrNotConnected) || !errors.Is(errs[2], ErrOtherHost) {
		t.Errorf("%d failed: %v", f, errs)
	}
	if srv.SendMany(nil, 0, nil, nil, 0, nil) != 0 {
		t.Error("no peers, a failure")
	}
	// errs shorter than peers, or nil, and a nil peer: counted, reported
	// as far as errs goes, no panic.
	short := []error{nil}
	if f := srv.SendMany([]*Peer{nil, peers[2], peers[0]}, 0, nil, []byte("y"), Reliable, short); f != 2 || !errors.Is(short[0], ErrNotConnected) {
		t.Errorf("%d failed, errs %v", f, short)
	}
	if f := srv.SendMany([]*Peer{peers[2], nil}, 0, nil, []byte("z"), Reliable, nil); f != 1 {
		t.Errorf("%d failed without errs", f)
	}
}

// TestSendManyFragments: a packet that the peers' MTU fragments reaches
// each of them whole, and those that cannot take it fail alone.
func TestSendManyFragments(t *testing.T) {
	srv, cli, sp, _ := pair(t, nil, nil, 1)
	cli2, sp2 := pairWith(t, srv, 1)
	big := bytes.Repeat([]byte("0123456789"), 300)
	errs := make([]error, 3)
	if f := srv.SendMany([]*Peer{sp, sp2}, 0, []byte{7, 7}, big, Reliable, errs); f != 0 {
		t.Fatalf("%d failed: %v", f, errs)
	}
	want := append([]byte{7, 7}, big...)
	for _, c := range []*Host{cli, cli2} {
		if ev := nextOf(t, c, EventReceive, 5*time.Second); !bytes.Equal(ev.Packet, want) {
			t.Fatalf("%d bytes arrived of %d", len(ev.Packet), len(want))
		}
	}
	if f := srv.SendMany([]*Peer{sp, sp2}, 1, nil, big, Reliable, errs); f != 2 || !errors.Is(errs[0], ErrChannel) || !errors.Is(errs[1], ErrChannel) {
		t.Errorf("channel 1 of 1: %d failed: %v", f, errs)
	}
}

// pairWith connects one more client to srv, as pair does, and returns it
// and its peer on srv's side.
func pairWith(t *testing.T, srv *Host, channels int) (*Host, *Peer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cli, _, err := Dial(ctx, "udp4", srv.LocalAddr().String(), channels, 12, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	return cli, nextOf(t, srv, EventConnect, 5*time.Second).Peer
}
