package enet

import (
	"errors"
	"net/netip"
	"runtime"
	"testing"
	"time"
	"unsafe"
)

// The charges stand for at least the structures they count.
func TestChargesCoverStructs(t *testing.T) {
	if s := unsafe.Sizeof(outCmd{}); outCmdCost < s+16 {
		t.Errorf("outCmdCost %d for an outCmd of %d bytes and its queue places", outCmdCost, s)
	}
	if s := max(unsafe.Sizeof(inCmd{}), unsafe.Sizeof(Event{})); inCmdOverhead < s+16 {
		t.Errorf("inCmdOverhead %d for an inCmd or Event of %d bytes", inCmdOverhead, s)
	}
	if s := unsafe.Sizeof(piece{}); pieceOverhead < 2*s {
		t.Errorf("pieceOverhead %d for a piece of %d bytes", pieceOverhead, s)
	}
	if s := unsafe.Sizeof(relPage{}); relPageCost < s {
		t.Errorf("relPageCost %d for a page of %d bytes", relPageCost, s)
	}
	for _, n := range []int{0, 1, 15, 17, 100, 1000, 4095, 32 << 10, 32<<10 + 1, 1 << 20} {
		b := make([]byte, n)
		if c := cap(append(b[:0:0], b...)); n > 0 && allocSize(n) < c {
			t.Errorf("allocSize(%d) = %d, the allocator takes %d", n, allocSize(n), c)
		}
	}
}

// memoryOf reads what the host charges for p and for all its peers.
func memoryOf(h *Host, p *Peer) (peer, host int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	return p.memory(), h.memory()
}

// connectRaw connects n raw clients that will never acknowledge anything
// and returns the host's peers for them.
func connectRaw(t *testing.T, h *Host, n int) []*Peer {
	t.Helper()
	for range n {
		newRaw(t, h).handshake()
	}
	var peers []*Peer
	for len(peers) < n {
		ev := next(t, h, 3*time.Second)
		if ev.Type == EventConnect {
			peers = append(peers, ev.Peer)
		}
	}
	return peers
}

// Four peers that complete their handshake and then never acknowledge the
// data sent to them (what held 134 MB each, 538 MB in all, against the
// 64 MiB of the outgoing budget) hold no more than MaxHostMemory
// together, each within MaxPeerMemory, at every moment; beyond the host's
// budget Send fails and the peers stay.
func TestPeersThatNeverAcknowledge(t *testing.T) {
	const peerBudget, hostBudget = 1 << 20, 3 << 20
	h, err := Listen("udp4", "127.0.0.1:0", &Config{MaxPeerMemory: peerBudget, MaxHostMemory: hostBudget})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	peers := connectRaw(t, h, 4)
	full := make([]bool, len(peers))
	packet := make([]byte, 1000)
	most, sent := 0, 0
	for done := 0; done < len(peers); {
		done = 0
		for i, p := range peers {
			if full[i] {
				done++
				continue
			}
			if err := p.Send(0, packet, Reliable); err != nil {
				if !errors.Is(err, ErrQueueFull) {
					t.Fatal(err)
				}
				full[i] = true
				continue
			}
			sent++
			pm, hm := memoryOf(h, p)
			if pm > peerBudget || hm > hostBudget {
				t.Fatalf("after %d packets: peer holds %d (budget %d), host %d (budget %d)", sent, pm, peerBudget, hm, hostBudget)
			}
			most = max(most, hm)
		}
	}
	t.Logf("%d packets of 1000 bytes queued; the host held %d bytes at most", sent, most)
	if most < hostBudget-4*sendCost(len(packet), 1) {
		t.Errorf("the host stopped at %d bytes, well below its budget %d", most, hostBudget)
	}
	for _, p := range peers {
		if !p.Connected() {
			t.Error("a peer was dropped for the host's budget")
		}
	}
}

// A peer that would hold more than MaxPeerMemory is disconnected as ENet
// disconnects: a DISCONNECT goes to it, everything it held is given
// back, and the application gets an EventDisconnect.
func TestPeerOverBudgetIsDisconnected(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", &Config{MaxPeerMemory: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := newRaw(t, h)
	r.handshake()
	ev := next(t, h, 3*time.Second)
	if ev.Type != EventConnect {
		t.Fatalf("event %v", ev.Type)
	}
	p := ev.Peer
	// The raw client reads all along, as a client does: a socket left
	// unread fills with the resent window and the kernel drops what comes
	// next, the DISCONNECT among it.
	sawDisconnect := make(chan error, 1)
	go func() {
		buf := make([]byte, 4096)
		r.conn.SetReadDeadline(time.Now().Add(10 * time.Second))
		for {
			m, _, err := r.conn.ReadFromUDP(buf)
			if err != nil {
				sawDisconnect <- err
				return
			}
			var hd header
			if !parseHeader(buf[:m], false, &hd) || m < hd.size+4 {
				continue
			}
			if buf[hd.size]&commandMask == cmdDisconnect {
				sawDisconnect <- nil
				return
			}
		}
	}()
	packet := make([]byte, 3000) // fragmented
	n := 0
	for ; n < 10000; n++ {
		if err = p.Send(0, packet, Reliable); err != nil {
			break
		}
		if pm, _ := memoryOf(h, p); pm > 1<<20 {
			t.Fatalf("peer holds %d bytes", pm)
		}
	}
	if !errors.Is(err, ErrQueueFull) {
		t.Fatalf("after %d packets: %v", n, err)
	}
	if ev := nextOf(t, h, EventDisconnect, 3*time.Second); ev.Peer != p {
		t.Fatal("disconnect of another peer")
	}
	if pm, hm := memoryOf(h, p); pm != 0 || hm != 0 {
		t.Errorf("after the disconnection: peer %d, host %d bytes", pm, hm)
	}
	// The raw client sees its DISCONNECT among the data it was sent.
	if err := <-sawDisconnect; err != nil {
		t.Fatal("no DISCONNECT: ", err)
	}
}

// What Send charges covers what the packets really take on the heap, for
// small packets (where the structures dominate) and fragmented ones, and
// is not far above it.
func TestSendChargesRealCost(t *testing.T) {
	for _, size := range []int{16, 200, 5000, 100_000} {
		h := newReplayHost(t, &Config{MaxPeerMemory: 256 << 20})
		r := connectReplay(t, h, netip.MustParseAddrPort("127.0.0.1:5000"), 1)
		packet := make([]byte, size)
		runtime.GC()
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range (8 << 20) / (size + 200) {
			if err := r.p.Send(0, packet, Reliable); err != nil {
				t.Fatal(err)
			}
		}
		runtime.GC()
		runtime.ReadMemStats(&after)
		charged, _ := memoryOf(h, r.p)
		grew := int(after.HeapAlloc) - int(before.HeapAlloc)
		t.Logf("%d-byte packets: heap +%d, charged %d", size, grew, charged)
		// The slack is for the host's own buffers (datagrams it keeps for
		// reuse: at most 256 of MTU size), which no peer is charged.
		if grew > charged+512<<10 || charged > 2*grew {
			t.Errorf("%d-byte packets: heap +%d bytes, charged %d", size, grew, charged)
		}
		runtime.KeepAlive(packet)
		h.Close()
	}
}

// What a peer sends counts in the same budget: received packets the
// application has not taken, packets waiting behind a gap and fragments
// of unfinished packets together stay within MaxPeerMemory, below
// MaxWaitingData, and data queued for the peer counts too.
func TestReceivedDataWithinPeerMemory(t *testing.T) {
	const budget = 1 << 20
	h := newReplayHost(t, &Config{MaxPeerMemory: budget})
	defer h.Close()
	r := connectReplay(t, h, netip.MustParseAddrPort("127.0.0.1:5000"), 3)
	for range 100 {
		if err := r.p.Send(2, make([]byte, 1000), Reliable); err != nil {
			t.Fatal(err)
		}
	}
	check := func(what string) {
		t.Helper()
		if pm, hm := memoryOf(h, r.p); pm > budget || hm > budget {
			t.Fatalf("%s: peer holds %d bytes, host %d, budget %d", what, pm, hm, budget)
		}
	}
	data := make([]byte, 1000)
	for seq := range uint16(2000) {
		r.send(reliable(0, seq+1, data)) // delivered, never taken
		r.send(reliable(1, seq+2, data)) // behind a gap
		check("packets")
	}
	for i := range uint32(2000) {
		r.send(fragment(2, uint16(i+1), 1, 4000, i, 4000*1000, i*1000, data)...)
		check("fragments")
	}
	if pm, _ := memoryOf(h, r.p); pm < budget/2 {
		t.Errorf("only %d bytes taken before refusing", pm)
	}
}
