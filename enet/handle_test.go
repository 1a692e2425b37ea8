package enet

import (
	"context"
	"encoding/binary"
	"runtime"
	"testing"
	"time"
)

// TestHandle: a host with a handler gets every event there, in order (the
// connect, the packets of a channel as sent, the disconnect), may answer
// from the handler, and Service returns nothing meanwhile.
func TestHandle(t *testing.T) {
	srv, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	events := make(chan Event, 1024)
	srv.Handle(func(ev Event) {
		if ev.Type == EventReceive {
			// Answer at once, from the handler; then give the packet back.
			if err := ev.Peer.Send(ev.Channel, ev.Packet, ev.Flags); err != nil {
				t.Errorf("send from the handler: %v", err)
			}
			b := append([]byte(nil), ev.Packet...)
			srv.ReleasePacket(ev.Packet)
			ev.Packet = b
		}
		events <- ev
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cli, cp, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 2, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	const n = 200
	for i := range n {
		if err := cp.Send(1, binary.LittleEndian.AppendUint32(nil, uint32(i)), Reliable); err != nil {
			t.Fatal(err)
		}
	}
	take := func() Event {
		t.Helper()
		select {
		case ev := <-events:
			return ev
		case <-ctx.Done():
			t.Fatal("no event")
		}
		return Event{}
	}
	if ev := take(); ev.Type != EventConnect || ev.Data != 7 {
		t.Fatalf("first event %v data %d", ev.Type, ev.Data)
	}
	for i := range n {
		ev := take()
		if ev.Type != EventReceive || ev.Channel != 1 || binary.LittleEndian.Uint32(ev.Packet) != uint32(i) {
			t.Fatalf("event %d: %v channel %d packet %x", i, ev.Type, ev.Channel, ev.Packet)
		}
	}
	for i := range n {
		ev, err := cli.Service(ctx)
		for err == nil && ev.Type != EventReceive {
			ev, err = cli.Service(ctx)
		}
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		if got := binary.LittleEndian.Uint32(ev.Packet); got != uint32(i) {
			t.Fatalf("answer %d is %d", i, got)
		}
	}
	sctx, scancel := context.WithTimeout(ctx, 50*time.Millisecond)
	defer scancel()
	if ev, err := srv.Service(sctx); err == nil {
		t.Fatalf("Service returned %v with a handler", ev.Type)
	}
	cp.Disconnect(3)
	if ev := take(); ev.Type != EventDisconnect || ev.Data != 3 {
		t.Fatalf("last event %v data %d", ev.Type, ev.Data)
	}
}

// TestHandleLater: events that came before Handle are given to the
// handler first; a timeout (found by the host's send loop) and a peer
// reset by the application reach the handler too.
func TestHandleLater(t *testing.T) {
	cfg := &Config{TimeoutMinimum: 200 * time.Millisecond, TimeoutMaximum: time.Second, PingInterval: 50 * time.Millisecond}
	srv, err := Listen("udp4", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	cli, cp, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 1, nil)
	if err != nil {
		t.Fatal(err)
	}
	cli2, _, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cli2.Close()
	if err := cp.Send(0, []byte("early"), Reliable); err != nil {
		t.Fatal(err)
	}
	time.Sleep(100 * time.Millisecond) // the packet waits in the host's queue
	events := make(chan Event, 16)
	srv.Handle(func(ev Event) { events <- ev })
	take := func() Event {
		t.Helper()
		select {
		case ev := <-events:
			return ev
		case <-ctx.Done():
			t.Fatal("no event")
		}
		return Event{}
	}
	// The first client's connect comes before its packet. The second
	// client's connect may come before or after that packet: the server
	// counts a peer connected when the acknowledgement of its
	// VERIFY_CONNECT arrives, which can be after Dial returned on the
	// client and after the first client's packet.
	var first, second *Peer
	for range 3 {
		ev := take()
		switch {
		case ev.Type == EventConnect && ev.Data == 1 && first == nil:
			first = ev.Peer
		case ev.Type == EventConnect && ev.Data == 2 && second == nil:
			second = ev.Peer
		case ev.Type == EventReceive && first != nil && ev.Peer == first:
			if string(ev.Packet) != "early" {
				t.Fatalf("packet %q", ev.Packet)
			}
		default:
			t.Fatalf("event %v data %d (first client's connect seen: %t)", ev.Type, ev.Data, first != nil)
		}
	}
	cli.Close() // no DISCONNECT: the send loop times it out
	if ev := take(); ev.Type != EventDisconnect || ev.Data != 0 {
		t.Fatalf("timeout: %v data %d", ev.Type, ev.Data)
	}
	if second == nil {
		t.Fatal("no second peer")
	}
	second.DisconnectNow(0) // this side reports nothing for its own DisconnectNow
	select {
	case ev := <-events:
		t.Fatalf("event %v after DisconnectNow", ev.Type)
	case <-time.After(100 * time.Millisecond):
	}
}

// TestReadLoopFlushes: a host that answers each packet from its handler
// sends the answers (and its acknowledgements) from its read loop, with
// no wake of its send loop per packet.
func TestReadLoopFlushes(t *testing.T) {
	srv, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	srv.Handle(func(ev Event) {
		if ev.Type == EventReceive {
			ev.Peer.Send(ev.Channel, ev.Packet, ev.Flags)
			srv.ReleasePacket(ev.Packet)
		}
	})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cli, cp, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 7, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	const n = 200
	before := srv.sendWakes.Load()
	for i := range n {
		if err := cp.Send(0, binary.LittleEndian.AppendUint32(nil, uint32(i)), Reliable); err != nil {
			t.Fatal(err)
		}
		ev, err := cli.Service(ctx)
		for err == nil && ev.Type != EventReceive {
			ev, err = cli.Service(ctx)
		}
		if err != nil {
			t.Fatalf("answer %d: %v", i, err)
		}
		if got := binary.LittleEndian.Uint32(ev.Packet); got != uint32(i) {
			t.Fatalf("answer %d is %d", i, got)
		}
	}
	if w := srv.sendWakes.Load() - before; w > n/10 {
		t.Errorf("the send loop was woken %d times for %d answers", w, n)
	}
}

// TestBulkNotThrottledByFlushDelay: a reliable bulk transfer much larger
// than the window is not held back by FlushDelay, on either side: the
// sender flushes at once when the window held packets back and an
// acknowledgement arrives, the receiver when it owes acknowledgements for
// a good part of the window. With a FlushDelay of a second, each of the
// transfer's round trips would otherwise take one.
func TestBulkNotThrottledByFlushDelay(t *testing.T) {
	cfg := &Config{FlushDelay: time.Second}
	srv, err := Listen("udp4", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	const n, size = 400, 1000 // 400 KB: six windows of 64 KB
	first := make(chan struct{})
	all := make(chan struct{})
	got := 0
	srv.Handle(func(ev Event) {
		if ev.Type != EventReceive {
			return
		}
		if got == 0 {
			close(first)
		}
		got++
		if got == n {
			close(all)
		}
		srv.ReleasePacket(ev.Packet)
	})
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	cli, cp, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 7, cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer cli.Close()
	data := make([]byte, size)
	for range n {
		if err := cp.Send(0, data, Reliable); err != nil {
			t.Fatal(err)
		}
	}
	// The first flush may wait for the delay (the handshake has just
	// flushed); the rest of the transfer must not.
	select {
	case <-first:
	case <-ctx.Done():
		t.Fatal("nothing received")
	}
	start := time.Now()
	select {
	case <-all:
	case <-ctx.Done():
		t.Fatalf("not all %d packets received", n)
	}
	if d := time.Since(start); d > 2500*time.Millisecond {
		t.Errorf("the transfer took %v after its first packet: FlushDelay held it back", d)
	}
}

// TestUnreliableBulkNotPaced: unreliable packets queued faster than one
// pass sends go out without waiting for FlushDelay between passes, as
// libenet sends all a peer has in one service call: 300 packets of 1 KB
// (five passes of 64 datagrams) with a FlushDelay of one second.
func TestUnreliableBulkNotPaced(t *testing.T) {
	for _, frames := range []bool{false, true} {
		cfg := &Config{FlushDelay: time.Second}
		if frames {
			cfg = &Config{Frame: time.Second}
		}
		srv, err := Listen("udp4", "127.0.0.1:0", nil)
		if err != nil {
			t.Fatal(err)
		}
		const n, size = 300, 1000
		got := make(chan int, n)
		srv.Handle(func(ev Event) {
			if ev.Type == EventReceive {
				got <- len(ev.Packet)
				srv.ReleasePacket(ev.Packet)
			}
		})
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		cli, cp, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 7, cfg)
		if err != nil {
			t.Fatal(err)
		}
		time.Sleep(50 * time.Millisecond) // the handshake's flush is past: the next waits for none
		before := cli.Stats().DatagramsSent
		data := make([]byte, size)
		// All n are queued at once, as Send queues each, under one hold
		// of the host's lock: a pass that started among them (a loaded
		// machine can stop this goroutine between two Sends) would leave
		// the rest, rightly, for the next flush, a second later.
		cli.mu.Lock()
		for range n {
			if err := cli.sendCopied(cp, 0, nil, data, Unsequenced); err != nil {
				cli.mu.Unlock()
				t.Fatal(err)
			}
		}
		cli.mu.Unlock()
		// The first pass may wait for the delay or the frame; the rest
		// must not (the receiver's socket may drop some of the burst:
		// what is sent is what is counted).
		for cli.Stats().DatagramsSent == before {
			if ctx.Err() != nil {
				t.Fatalf("frames %v: nothing sent", frames)
			}
			time.Sleep(time.Millisecond)
		}
		deadline := time.Now().Add(500 * time.Millisecond)
		for cli.Stats().DatagramsSent-before < n && time.Now().Before(deadline) {
			time.Sleep(5 * time.Millisecond)
		}
		if sent := cli.Stats().DatagramsSent - before; sent < n {
			t.Errorf("frames %v: %d of %d datagrams sent within 500 ms of the first: the passes waited for the delay", frames, sent, n)
		}
		cancel()
		cli.Close()
		srv.Close()
	}
}

// TestAcknowledgementsWhenReadDry: a host owed only acknowledgements
// sends them once it has read all that came, whatever its FlushDelay and
// service tick (a second each here), as libenet acknowledges at each
// service: a sender's window waits for them.
func TestAcknowledgementsWhenReadDry(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("batch reads (which tell the socket is read dry) are Linux's")
	}
	_, _, _, cp := pair(t, &Config{FlushDelay: 5 * time.Second, ServiceInterval: 5 * time.Second}, nil, 1)
	most := 0
	for i := range 40 {
		if err := cp.Send(0, []byte{byte(i)}, Reliable); err != nil {
			t.Fatal(err)
		}
		time.Sleep(10 * time.Millisecond)
		cp.host.mu.Lock()
		most = max(most, cp.sentReliable.len())
		cp.host.mu.Unlock()
	}
	// Each packet is acknowledged within a round trip, not after the
	// server's 5 s of FlushDelay (40 packets in 400 ms; half of them
	// waiting would take the machine stalling for 200 ms).
	if most > 20 {
		t.Errorf("up to %d reliable packets waited for their acknowledgement", most)
	}
}

// TestFlushWhenDatagramQueued: a send loop waiting out FlushDelay sends
// at once when a peer gets a datagram's worth of packets queued
// meanwhile, instead of at the end of the delay (5 s here).
func TestFlushWhenDatagramQueued(t *testing.T) {
	cfg := &Config{FlushDelay: 5 * time.Second, ServiceInterval: 5 * time.Second, PingInterval: time.Hour}
	_, cli, _, cp := pair(t, &Config{PingInterval: time.Hour}, cfg, 1) // no ping from the server to flush the client early
	time.Sleep(50 * time.Millisecond)
	sent := func() uint64 { return cli.Stats().DatagramsSent }
	before := sent()
	cp.Send(0, []byte("first"), Unsequenced) // after a quiet spell: at once
	for sent() == before {
		time.Sleep(time.Millisecond)
	}
	before = sent()
	start := time.Now()
	cp.Send(0, []byte("x"), Unsequenced) // the send loop now waits out the delay
	time.Sleep(20 * time.Millisecond)
	for range maxPacketCommands {
		cp.Send(0, []byte("y"), Unsequenced)
	}
	for sent() == before && time.Since(start) < 6*time.Second {
		time.Sleep(time.Millisecond)
	}
	if d := time.Since(start); d > 2*time.Second {
		t.Errorf("a datagram's worth of queued packets waited %v for the send loop's delay of 5 s", d)
	}
}
