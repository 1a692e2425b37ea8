package enet

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestRemoveSentReliableAnyOrder: acknowledgements that come in order,
// reversed, shuffled, twice, or never for some, each remove the right
// command and only it, whatever the search began from.
func TestRemoveSentReliableAnyOrder(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	const n = 40
	orders := map[string]func() []uint16{
		"in order": func() []uint16 {
			s := make([]uint16, n)
			for i := range s {
				s[i] = uint16(i + 1)
			}
			return s
		},
	}
	orders["reversed"] = func() []uint16 { s := orders["in order"](); slices.Reverse(s); return s }
	orders["shuffled, twice each"] = func() []uint16 {
		s := append(orders["in order"](), orders["in order"]()...)
		rand.Shuffle(len(s), func(i, j int) { s[i], s[j] = s[j], s[i] })
		return s
	}
	orders["first lost"] = func() []uint16 { return orders["in order"]()[5:] } // 1–5 never acknowledged
	for name, order := range orders {
		h.mu.Lock()
		p, _ := sentPeer(h, n)
		left := map[uint16]bool{}
		for i := range n {
			left[uint16(i+1)] = true
		}
		for _, seq := range order() {
			got := h.removeSentReliable(p, seq, 1)
			switch {
			case left[seq] && got != cmdSendReliable:
				t.Fatalf("%s: acknowledging %d found %v", name, seq, got)
			case !left[seq] && got != cmdNone:
				t.Fatalf("%s: acknowledging %d again found %v", name, seq, got)
			}
			delete(left, seq)
			var still []uint16
			for o := p.sentReliable.head; o != nil; o = o.next {
				still = append(still, o.reliableSeq)
			}
			for o := p.outgoing.head; o != nil; o = o.next {
				still = append(still, o.reliableSeq)
			}
			if len(still) != len(left) || p.sentReliable.len()+p.outgoing.len() != len(left) {
				t.Fatalf("%s: after %d, the lists hold %v (counts %d+%d), want %d commands", name, seq, still, p.sentReliable.len(), p.outgoing.len(), len(left))
			}
			for _, s := range still {
				if !left[s] {
					t.Fatalf("%s: after %d, the lists hold %d, acknowledged already", name, seq, s)
				}
			}
		}
		h.mu.Unlock()
	}
}

// TestRemoveSentReliableAfterResend: when a resend takes the command the
// search would begin after out of the list, with another after it, the
// next acknowledgement is looked for in the sent list, not along the
// resent commands' links.
func TestRemoveSentReliableAfterResend(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	p, bySeq := sentPeer(h, 10)
	if got := h.removeSentReliable(p, 5, 1); got != cmdSendReliable || !p.ackAfterOK || p.ackAfter != bySeq[4] {
		t.Fatalf("acknowledging 5: %v, the search to begin after %v", got, p.ackAfter)
	}
	bySeq[4].roundTripTimeout, bySeq[6].roundTripTimeout = 1, 1 // 4 and 6 are resent
	h.serviceTime = 10
	if h.checkTimeouts(p) {
		t.Fatal("the peer timed out")
	}
	if p.outgoing.len() != 2 || p.sentReliable.len() != 7 {
		t.Fatalf("after the resend: %d outgoing, %d sent", p.outgoing.len(), p.sentReliable.len())
	}
	// The acknowledgement of the first sending of 6 comes late: it is
	// taken from the outgoing queue, and the sent list keeps its 7.
	if got := h.removeSentReliable(p, 6, 1); got != cmdSendReliable || p.outgoing.len() != 1 || p.sentReliable.len() != 7 {
		t.Fatalf("acknowledging 6: %v; %d outgoing, %d sent", got, p.outgoing.len(), p.sentReliable.len())
	}
	n := 0
	for o := p.sentReliable.head; o != nil; o = o.next {
		n++
	}
	if n != 7 || p.outgoing.head != bySeq[4] || bySeq[4].next != nil {
		t.Fatalf("the sent list links %d commands; outgoing begins with %v", n, p.outgoing.head)
	}
}

// sentPeer makes a peer of h (under h.mu) whose sent list holds reliable
// commands 1 to n on channel 1, each sent once, and returns them by
// sequence number.
func sentPeer(h *Host, n int) (*Peer, map[uint16]*outCmd) {
	p := h.newPeer(0)
	p.channelCount = 2
	bySeq := map[uint16]*outCmd{}
	for i := range n {
		oc := h.newOutCmd()
		oc.command, oc.channelID = cmdSendReliable|flagAcknowledge, 1
		oc.reliableSeq = uint16(i + 1)
		oc.sendAttempts = 1
		oc.roundTripTimeout = 1000
		p.sentReliable.push(oc)
		bySeq[oc.reliableSeq] = oc
	}
	return p, bySeq
}
