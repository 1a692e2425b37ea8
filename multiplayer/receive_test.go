package multiplayer

import (
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// A host with no Observe allocates nothing for a call it runs (a handler
// whose parameters hold no pointers) or relays, in steady state: the
// Event of each packet lives on the receiving goroutine's stack.
func TestReceiveAllocs(t *testing.T) {
	if raceEnabled {
		t.Skip("the race detector allocates")
	}
	for _, c := range receiveCases {
		t.Run(c.name, func(t *testing.T) {
			h, ps := receiveHost(t, c.fam, 4, true, HostOptions{})
			f := c.frame(t, ps)
			allocs := testing.AllocsPerRun(200, func() {
				if err := h.onFrame(ps[0], f, nil); err != nil {
					t.Fatal(err)
				}
			})
			if allocs != 0 {
				t.Errorf("%v allocations per message", allocs)
			}
		})
	}
}

// Observe is given an Event of its own for each packet, which it may keep:
// the host does not reuse it for later packets.
func TestObserveKeepsEvents(t *testing.T) {
	for _, c := range receiveCases {
		t.Run(c.name, func(t *testing.T) {
			var kept []*Event
			h, ps := receiveHost(t, c.fam, 3, true, HostOptions{Observe: func(e *Event) { kept = append(kept, e) }})
			kept = nil
			f := c.frame(t, ps)
			const n = 3
			for range n {
				if err := h.onFrame(ps[0], f, nil); err != nil {
					t.Fatal(err)
				}
			}
			// A bad packet after them.
			bad := f
			bad.Data = []byte{0xff}
			if c.fam == variant.Godot3 {
				bad.To = HostID
			}
			if err := h.onFrame(ps[0], bad, nil); err != nil {
				t.Fatal(err)
			}
			if len(kept) != n+1 {
				t.Fatalf("Observe saw %d events, want %d", len(kept), n+1)
			}
			for i, e := range kept[:n] {
				for _, o := range kept[:i] {
					if o == e {
						t.Fatalf("event %d is an earlier one again", i)
					}
				}
				if e.From != ps[0].id || e.Err != nil || e.Packet.Command != CmdRemoteCall || len(e.Args) != 1 || e.Args[0] != variant.Int(7) {
					t.Errorf("event %d: %+v", i, e)
				}
				// Relayed to one client, the call names a node the sender
				// announced to that client only (here: none).
				if c.to != "one" && (e.Node != "Bench" || e.Method != "ping") || c.to == "one" && (!e.Relayed || e.To != ps[1].id) {
					t.Errorf("event %d: %+v", i, e)
				}
			}
			if e := kept[n]; e.Err == nil || e.From != ps[0].id {
				t.Errorf("the bad packet's event: %+v", e)
			}
		})
	}
}
