package multiplayer

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"time"

	"github.com/gdvar/gdvar/peer"
)

// pollers are the process's peer.Pollers, one for each WriteDelay (its
// Frame), each started by the first client a host serves through it (a
// goroutine per core, parked while idle).
var pollers struct {
	mu sync.Mutex
	m  map[time.Duration]*peer.Poller
}

// sharedPoller returns the process's Poller of the given frame.
func sharedPoller(frame time.Duration) (*peer.Poller, error) {
	pollers.mu.Lock()
	defer pollers.mu.Unlock()
	if p := pollers.m[frame]; p != nil {
		return p, nil
	}
	p, err := peer.NewPoller(peer.PollerOptions{Frame: frame})
	if err != nil {
		return nil, err
	}
	if pollers.m == nil {
		pollers.m = map[time.Duration]*peer.Poller{}
	}
	pollers.m[frame] = p
	return p, nil
}

// serverWSLink is the Link of a WebSocket client a host accepted: served
// through the process's Poller where the system and the connection allow
// (and o.NoPoller does not say otherwise), by goroutines of its own
// otherwise.
func serverWSLink(c *peer.Conn, o WebSocketOptions) Link {
	if o.NoPoller || !c.Pollable() {
		return newWSLink(c, o)
	}
	p, err := sharedPoller(max(o.WriteDelay, 0))
	if err != nil {
		return newWSLink(c, o)
	}
	return &wsPollLink{wsLink: newWSLink(c, o), poller: p, max: DefaultMaxQueuedBytes}
}

// wsPollLink is a WebSocket client of a Host read by a peer.Poller: its
// messages are handled on the Poller's goroutine as they arrive
// (deliverer), and the frames queued for it are written by the Poller
// without blocking (queuer), one write for what the handling of a round
// of messages queued. Its queued bytes (on the wire: headers and data)
// are charged to MaxQueuedBytes and the shared budget until written.
type wsPollLink struct {
	*wsLink
	poller *peer.Poller
	idle   time.Duration

	// Under omu: the frames' order, and those queued before the link was
	// polled (during the host's join), written once it is.
	omu    sync.Mutex
	polled bool
	failed bool    // the Poller did not take the connection: frames go nowhere
	early  []byte  // the payloads queued before, end to end
	ends   []int32 // where each ends in early
	hdr    [ws3MaxHeader]byte
	parts  [2][]byte
	ps     [1]net.Buffers

	// Under cmu: what is charged for the output not yet written.
	cmu     sync.Mutex
	max     int
	shared  *ByteBudget
	charged int

	handle func(Frame, error) error
	end    func(error)
}

// pollControlSlack is the room a polled client's output has beyond what
// the link queues: the Poller's pongs and close frame, which the link does
// not charge.
const pollControlSlack = 16 << 10

// attach is told, by the Host admitting the client, its queue budget, the
// shared one and its idle timeout.
func (l *wsPollLink) attach(maxQueued int, shared *ByteBudget, idle time.Duration) {
	l.cmu.Lock()
	if maxQueued > 0 {
		l.max = maxQueued
	}
	l.shared = shared
	l.cmu.Unlock()
	l.idle = idle
}

// deliverBatch is a batch of the messages queued before a connection
// was polled, each one payload of one part.
type deliverBatch struct {
	ps  [64]net.Buffers
	one [64][1][]byte
}

var deliverBatches = sync.Pool{New: func() any { return new(deliverBatch) }}

// deliver hands the connection to the Poller; its messages go to handle
// from now on, and what was queued before goes out.
func (l *wsPollLink) deliver(handle func(Frame, error) error, end func(error)) {
	l.handle, l.end = handle, end
	// The link bounds what it queues (max, in bytes on the wire); the
	// Poller's bound, a little above it for the control frames it adds,
	// keeps the output buffer's capacity within it too.
	l.cmu.Lock()
	maxPending := 1 << 62
	if l.max > 0 {
		maxPending = l.max + pollControlSlack
	}
	l.cmu.Unlock()
	err := l.c.Poll(l.poller, l, peer.PollOptions{MaxPending: maxPending, IdleTimeout: l.idle})
	l.omu.Lock()
	l.polled, l.failed = true, err != nil
	if err == nil {
		// In batches of 64 (Godot 3's join tells a client of every other
		// peer): no slice of them all, and a pooled one for a batch.
		b := deliverBatches.Get().(*deliverBatch)
		start, n := int32(0), 0
		for i, end := range l.ends {
			b.one[n][0] = l.early[start:end]
			b.ps[n] = b.one[n][:]
			start = end
			if n++; n == len(b.ps) || i == len(l.ends)-1 {
				werr := l.c.WritePayloads(b.ps[:n])
				clear(b.ps[:n])
				clear(b.one[:n])
				n = 0
				if werr != nil {
					l.Written(l.queuedBytes()) // nothing more is queued
					break
				}
			}
		}
		deliverBatches.Put(b)
	}
	l.early, l.ends = nil, nil
	l.omu.Unlock()
	if err != nil {
		l.cmu.Lock()
		n := l.charged
		l.charged = 0
		l.cmu.Unlock()
		l.shared.give(n)
		end(err)
	}
}

// Payload is a message, on the Poller's goroutine.
func (l *wsPollLink) Payload(b []byte) error {
	f, err := l.frameOf(b)
	return l.handle(f, err)
}

// Ended is told why the connection ended; what is still charged is given
// back as the Poller drops or writes it (Written).
func (l *wsPollLink) Ended(err error) { l.end(err) }

// Written gives back the charge of output written or dropped. The
// Poller's own control frames are counted too, and give back a little
// early: never more than was charged.
func (l *wsPollLink) Written(n int) {
	l.cmu.Lock()
	n = min(n, l.charged)
	l.charged -= n
	l.cmu.Unlock()
	l.shared.give(n)
}

// queueFrame queues f for the client, with the Host's lock held.
func (l *wsPollLink) queueFrame(f Frame) error {
	hdr, ok := l.appendHeader(l.hdr[:0], f)
	if !ok {
		return nil
	}
	n := wireSize(hdr, f)
	l.cmu.Lock()
	switch {
	case l.charged+n > l.max:
		l.cmu.Unlock()
		return fmt.Errorf("%w: more than %d bytes waiting to be sent", ErrBudget, l.max)
	case !l.shared.take(n):
		l.cmu.Unlock()
		return errSharedSpent
	}
	l.charged += n
	l.cmu.Unlock()
	l.omu.Lock()
	defer l.omu.Unlock()
	if l.failed {
		l.Written(n) // the link is ending: nothing is queued
		return nil
	}
	if !l.polled {
		l.early = append(l.early, hdr...)
		if f.Kind == FrameData {
			l.early = append(l.early, f.Data...)
		}
		l.ends = append(l.ends, int32(len(l.early)))
		return nil
	}
	return l.writeLocked(f)
}

// writeLocked hands f to the connection, which queues it; omu is held.
// A connection that is closing takes nothing, and that is not an error:
// the client is leaving.
func (l *wsPollLink) writeLocked(f Frame) error {
	hdr, _ := l.appendHeader(l.hdr[:0], f)
	parts := l.parts[:0]
	if len(hdr) > 0 {
		parts = append(parts, hdr)
	}
	if f.Kind == FrameData {
		parts = append(parts, f.Data)
	}
	l.ps[0] = parts
	err := l.c.WritePayloads(l.ps[:])
	l.ps[0] = nil
	clear(l.parts[:])
	if err == nil {
		return nil
	}
	l.Written(wireSize(hdr, f)) // nothing was queued
	if errors.Is(err, net.ErrClosed) {
		return nil
	}
	return err
}

// wireSize is what f's message, after hdr, takes on the wire.
func wireSize(hdr []byte, f Frame) int {
	n := len(hdr)
	if f.Kind == FrameData {
		n += len(f.Data)
	}
	return peer.WebSocketMessageSize(n)
}

// queuedBytes is what is queued for the client and not yet written.
func (l *wsPollLink) queuedBytes() int {
	l.cmu.Lock()
	defer l.cmu.Unlock()
	return l.charged
}
