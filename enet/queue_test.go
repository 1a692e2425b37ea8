package enet

import (
	"context"
	"encoding/binary"
	"net/netip"
	"testing"
	"time"
)

// replayPeer connects a peer to a replay host by calling its datagram
// handler directly, and sends it datagrams.
type replayPeer struct {
	t  testing.TB
	h  *Host
	ap netip.AddrPort
	p  *Peer
}

func connectReplay(t testing.TB, h *Host, ap netip.AddrPort, channels uint32) *replayPeer {
	t.Helper()
	r := &replayPeer{t: t, h: h, ap: ap}
	c := command{command: cmdConnect | flagAcknowledge, channelID: 0xFF, seq: 1, outgoingPeerID: 0,
		incomingSessionID: 0xFF, outgoingSessionID: 0xFF, mtu: 1392, windowSize: maxWindowSize, channelCount: channels,
		throttleInterval: packetThrottleInterval, throttleAccel: 2, throttleDecel: 2, connectID: 77, data: 5}
	h.mu.Lock()
	h.handleDatagram(datagramOf(maxPeerID, 0, uint16(h.serviceTime), c), ap, nil)
	var p *Peer
	for _, q := range h.peers {
		if q != nil && q.ap == ap {
			p = q
		}
	}
	if p == nil {
		h.mu.Unlock()
		t.Fatal("CONNECT refused")
	}
	h.sendOutgoing(true)
	h.outbox = h.outbox[:0]
	h.mu.Unlock()
	r.p = p
	r.send(command{command: cmdAcknowledge, channelID: 0xFF, seq: 1, receivedSeq: 1})
	h.mu.Lock()
	defer h.mu.Unlock()
	if p.state != stateConnected {
		t.Fatalf("peer in state %d", p.state)
	}
	return r
}

func datagramOf(peerID uint16, session uint8, sent uint16, cmds ...any) []byte {
	b := binary.BigEndian.AppendUint16(nil, peerID|uint16(session)<<headerSessionShift|headerFlagSentTime)
	b = binary.BigEndian.AppendUint16(b, sent)
	for _, c := range cmds {
		switch c := c.(type) {
		case command:
			if c.number() == cmdAcknowledge && c.receivedSentTime == 0 {
				c.receivedSentTime = sent
			}
			b = appendCommand(b, &c)
		case []byte:
			b = append(b, c...)
		case []any:
			b = append(b, datagramOf(0, 0, 0, c...)[4:]...)
		}
	}
	return b
}

// send hands one datagram of cmds to the host, as its read loop would.
func (r *replayPeer) send(cmds ...any) {
	h := r.h
	h.mu.Lock()
	h.handleDatagram(datagramOf(r.p.id, r.p.incomingSessionID, uint16(h.serviceTime), cmds...), r.ap, nil)
	h.mu.Unlock()
}

// takeEvents empties the host's event queue as Service does and returns
// the packets received.
func takeEvents(h *Host) []Event {
	h.mu.Lock()
	evs := append([]Event(nil), h.events[h.eventsHead:]...)
	h.mu.Unlock()
	out := evs[:0]
	for range evs {
		ev, _ := h.Service(context.Background())
		if ev.Type == EventReceive {
			out = append(out, ev)
		}
	}
	return out
}

// Reliable commands sent in reverse order, 28,000 on each of 8 channels
// (as far ahead as ENet's reliable window lets a peer go), are queued and
// delivered in a few steps each: libenet, and this package before, walked
// the queue for every insertion (392 million steps for one channel).
func TestReverseReliableIsLinear(t *testing.T) {
	const channels, n = 8, 28000
	// The replay peer acknowledges nothing: on a loaded machine the
	// test may run past the default 5 s timeout, which would disconnect it.
	h := newReplayHost(t, &Config{MaxWaitingData: 64 << 20, TimeoutMinimum: 10 * time.Minute, TimeoutMaximum: 10 * time.Minute})
	defer h.Close()
	r := connectReplay(t, h, netip.MustParseAddrPort("127.0.0.1:5000"), channels)
	h.mu.Lock()
	h.queueSteps = 0
	h.mu.Unlock()
	for ch := range uint8(channels) {
		for seq := n; seq >= 1; seq-- {
			r.send(reliable(ch, uint16(seq), []byte{byte(seq)}))
		}
	}
	h.mu.Lock()
	steps := h.queueSteps
	h.mu.Unlock()
	evs := takeEvents(h)
	if len(evs) != channels*n {
		t.Fatalf("%d packets delivered, want %d", len(evs), channels*n)
	}
	for i, ev := range evs {
		if want := byte(i%n + 1); ev.Channel != uint8(i/n) || ev.Packet[0] != want {
			t.Fatalf("packet %d: channel %d, %d; want %d, %d", i, ev.Channel, ev.Packet[0], i/n, want)
		}
	}
	t.Logf("%d steps for %d commands", steps, channels*n)
	if steps > 4*channels*n {
		t.Errorf("%d steps for %d commands; want at most 4 each", steps, channels*n)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.waiting != 0 || r.p.waiting != 0 {
		t.Errorf("budgets not given back: host %d, peer %d", h.waiting, r.p.waiting)
	}
}

// A reliable command sent with a sequence number a fragmented packet's
// fragments use is dropped, its memory given back, when the packet is
// delivered; the channel goes on.
func TestReliableInsideFragmentRange(t *testing.T) {
	h := newReplayHost(t, nil)
	defer h.Close()
	r := connectReplay(t, h, netip.MustParseAddrPort("127.0.0.1:5000"), 1)
	r.send(reliable(0, 3, []byte("stale"))) // inside the fragments' numbers 2..4
	r.send(fragment(0, 2, 2, 3, 0, 3, 0, []byte("a"))...)
	r.send(fragment(0, 3, 2, 3, 1, 3, 1, []byte("b"))...)
	r.send(fragment(0, 4, 2, 3, 2, 3, 2, []byte("c"))...)
	r.send(reliable(0, 5, []byte("next")))
	r.send(reliable(0, 1, []byte("first")))
	var got []string
	for _, ev := range takeEvents(h) {
		got = append(got, string(ev.Packet))
	}
	if len(got) != 3 || got[0] != "first" || got[1] != "abc" || got[2] != "next" {
		t.Fatalf("delivered %q", got)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.waiting != 0 || r.p.channel(0).incomingReliable.n != 0 {
		t.Errorf("left: host waiting %d, %d commands", h.waiting, r.p.channel(0).incomingReliable.n)
	}
}

// BenchmarkReverseReliable queues 4,096 reliable commands on one channel
// in reverse order and delivers them.
func BenchmarkReverseReliable(b *testing.B) {
	const n = 4096
	h := newReplayHost(b, nil)
	defer h.Close()
	r := connectReplay(b, h, netip.MustParseAddrPort("127.0.0.1:5000"), 1)
	base := uint16(0)
	payload := []byte{1}
	b.ReportAllocs()
	for b.Loop() {
		for seq := n; seq >= 1; seq-- {
			r.send(reliable(0, base+uint16(seq), payload))
		}
		base += n
		h.mu.Lock()
		h.events = h.events[:0]
		h.eventsHead = 0
		h.waiting, r.p.waiting = 0, 0
		h.clearAcks(r.p)
		h.mu.Unlock()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*n), "ns/command")
}

func unreliable(ch uint8, seq, useq uint16, data []byte) []any {
	return []any{command{command: cmdSendUnreliable, channelID: ch, seq: seq, seq2: useq, dataLength: uint16(len(data))}, data}
}

// Unreliable commands that wait for the reliable one they follow, sent in
// either order, cost a bounded number of steps each: a channel keeps at
// most maxWaitingUnreliable of them (more are dropped, as lost unreliable
// packets are), and a command that leaves the waiting list unchanged does
// not walk it. Before, each one walked the whole list, up to the 32 MiB
// of MaxWaitingData: quadratic in either order.
func TestWaitingUnreliableIsBounded(t *testing.T) {
	const n = 30000
	for _, reverse := range []bool{false, true} {
		h := newReplayHost(t, nil)
		r := connectReplay(t, h, netip.MustParseAddrPort("127.0.0.1:5000"), 1)
		h.mu.Lock()
		h.queueSteps = 0
		h.mu.Unlock()
		for i := range n {
			useq := uint16(i + 1)
			if reverse {
				useq = uint16(n - i)
			}
			r.send(unreliable(0, 1, useq, []byte{byte(useq)})) // after reliable 1, not yet here
			r.send([]any{command{command: cmdSendUnsequenced | flagUnsequenced, channelID: 0, seq2: uint16(i + 1), dataLength: 1}, []byte{0}})
		}
		h.mu.Lock()
		steps := h.queueSteps
		h.mu.Unlock()
		r.send(reliable(0, 1, []byte("r")))
		evs := takeEvents(h)
		t.Logf("reverse %v: %d steps for %d commands; %d packets delivered", reverse, steps, 2*n, len(evs))
		if steps > 8*2*n {
			t.Errorf("reverse %v: %d steps for %d commands", reverse, steps, 2*n)
		}
		last := -1
		sequenced := 0
		for _, ev := range evs {
			if ev.Flags != 0 {
				continue
			}
			sequenced++
			if int(ev.Packet[0]) == last {
				t.Fatalf("packet %d delivered twice", last)
			}
			last = int(ev.Packet[0])
		}
		if sequenced == 0 {
			t.Errorf("reverse %v: no unreliable packet delivered after the reliable one", reverse)
		}
		h.Close()
	}
}

// The worst a peer can make of the waiting list: fill it in reverse order
// behind a reliable command, let the reliable one in, and again. Each
// command then costs at most about half the cap in steps.
func TestWaitingUnreliableWorstCycle(t *testing.T) {
	h := newReplayHost(t, nil)
	defer h.Close()
	r := connectReplay(t, h, netip.MustParseAddrPort("127.0.0.1:5000"), 1)
	h.mu.Lock()
	h.queueSteps = 0
	h.mu.Unlock()
	const cycles = 50
	commands := 0
	for k := range uint16(cycles) {
		for useq := uint16(maxWaitingUnreliable); useq >= 1; useq-- {
			r.send(unreliable(0, k+1, useq, []byte{1}))
			commands++
		}
		r.send(reliable(0, k+1, []byte("r")))
		commands++
		takeEvents(h)
	}
	h.mu.Lock()
	steps := h.queueSteps
	h.mu.Unlock()
	t.Logf("%d steps for %d commands: %.0f each", steps, commands, float64(steps)/float64(commands))
	if steps > uint64(maxWaitingUnreliable*commands) {
		t.Errorf("%d steps for %d commands", steps, commands)
	}
}
