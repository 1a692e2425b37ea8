package enet

import (
	"net"
	"testing"
	"time"
)

// TestTrimPools: after a burst the free lists hold its peak; a trim gives
// back what stayed free since the last one and keeps what was used.
func TestTrimPools(t *testing.T) {
	srv, cli, _, cp := pair(t, nil, nil, 1)
	for i := range 600 {
		if err := cp.Send(0, []byte{byte(i), 1, 2, 3}, Reliable); err != nil {
			t.Fatal(err)
		}
	}
	got := 0
	for got < 600 {
		if ev := next(t, srv, 5*time.Second); ev.Type == EventReceive {
			got++
			srv.ReleasePacket(ev.Packet)
		}
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		cli.mu.Lock()
		n := cp.sentReliable.len() + cp.outgoingSendReliable.len()
		cli.mu.Unlock()
		if n == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d packets not acknowledged", n)
		}
	}
	cli.mu.Lock()
	defer cli.mu.Unlock()
	cmds, bufs := cli.freeCmds.len(), cli.freeSendBytes
	if cmds < 100 || bufs == 0 {
		t.Fatalf("after the burst: %d free commands, %d bytes of free buffers", cmds, bufs)
	}
	cli.trimPools() // marks the lists as they are (the send loop may have trimmed once already)
	// Some used since: those stay.
	used := make([]*outCmd, 10)
	for i := range used {
		used[i] = cli.newOutCmd()
	}
	for _, oc := range used {
		cli.recycle(oc)
	}
	cli.trimPools()
	if n := cli.freeCmds.len(); n != 10 {
		t.Errorf("a trim after 10 commands were used kept %d of %d", n, cmds)
	}
	if cli.freeSendBytes != 0 || cli.chunks.n != 0 {
		t.Errorf("a trim kept %d bytes of unused buffers, %d arena chunks", cli.freeSendBytes, cli.chunks.n)
	}
	cli.trimPools()
	if n := cli.freeCmds.len(); n != 0 || cli.freeCmds.head != nil {
		t.Errorf("%d free commands left unused kept", n)
	}
	for c, s := range cli.freeSend {
		if s.len() != 0 || s.top != nil || s.spare != nil {
			t.Errorf("class %d keeps %d free buffers, or a chunk for them", sendClasses[c], s.len())
		}
	}
}

// TestOutboxReused: a flush that starts while another is being written
// builds its outbox in the one kept from the flush before, not in a new
// array grown from nothing; a trim lets go of an outbox far larger than
// the flushes of the last second took.
func TestOutboxReused(t *testing.T) {
	// A host with no peer and no service tick, so that its send loop
	// flushes nothing itself; the datagrams go to an address nothing reads.
	h, err := Listen("udp4", "127.0.0.1:0", &Config{ServiceInterval: time.Hour, PingInterval: time.Hour})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	sink, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	defer sink.Close()
	ap := sink.LocalAddr().(*net.UDPAddr).AddrPort()
	build := func(n int) {
		for range n {
			h.addDatagram(datagram{ap: ap, addr: sink.LocalAddr()}, append(h.datagramBuf(), 1, 2, 3, 4))
		}
	}
	const n = 1000
	h.mu.Lock()
	build(n)
	first, chunks := h.takeOutbox()
	build(1) // another flush starts while the first is written
	h.mu.Unlock()
	h.write(first, chunks)

	h.mu.Lock()
	second, chunks := h.takeOutbox()
	h.mu.Unlock()
	h.write(second, chunks)

	h.mu.Lock()
	defer h.mu.Unlock()
	if cap(h.outbox) < n && cap(h.spareOutbox) < n {
		t.Fatalf("after two flushes the host keeps outboxes of %d and %d datagrams, not the %d of the first", cap(h.outbox), cap(h.spareOutbox), n)
	}
	h.outbox = nil // as when the next flush starts while the last one is written
	build(n)
	if &h.outbox[:1][0] != &first[:1][0] {
		t.Error("a new flush did not build in the kept outbox")
	}
	h.outbox = h.outbox[:0]
	h.trimPools() // the second's flushes took n datagrams: kept
	if cap(h.outbox) < n {
		t.Fatalf("a trim let go of an outbox the last second used (%d)", cap(h.outbox))
	}
	h.trimPools() // none since: let go
	if h.outbox != nil || h.spareOutbox != nil {
		t.Errorf("a trim after an idle second kept outboxes of %d and %d datagrams", cap(h.outbox), cap(h.spareOutbox))
	}
}
