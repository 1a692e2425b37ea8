package peer

import (
	"errors"
	"runtime"
	"sync/atomic"
	"time"
)

// A Poller serves many WebSocket connections a server accepted from a few
// goroutines, as a game engine's network loop does, instead of a reader
// goroutine (and its stack and buffer) per connection. It is available on
// Linux (epoll); elsewhere NewPoller returns ErrPollUnsupported.
//
// A connection handed to a Poller (Conn.Poll) is read by it: each message
// is given to the PollHandler on the Poller's goroutine as it arrives,
// and a connection with nothing in flight holds no buffer at all. What is
// written to it is queued and goes out at once, or, while the Poller's
// goroutines handle a round of messages (those that arrived together),
// at the end of that round: a handler that answers or relays to many
// connections makes one write per connection per round, not one per
// message. A connection's output is bounded
// (PollOptions.MaxPending); the server limits of its Options (idle, frame
// and write timeouts, the buffer budget, MaxSize) still apply.
//
// The handlers of all the connections of one of the Poller's goroutines
// run one at a time: one that blocks holds up the others.
type Poller struct {
	loops []*pollLoop
	next  atomic.Uint32 // the loop the next connection goes to, round robin
}

// ErrPollUnsupported is NewPoller's error on systems without a Poller.
var ErrPollUnsupported = errors.New("peer: a Poller needs Linux")

// ErrPolled is the error of a read of a connection a Poller reads, and of
// handing it to a Poller twice.
var ErrPolled = errors.New("peer: the connection is read by a Poller")

// ErrNotPollable: only a WebSocket connection a server accepted can be
// handed to a Poller.
var ErrNotPollable = errors.New("peer: only a WebSocket connection a server accepted can be polled")

// ErrPendingFull is the error of a write to a polled connection that
// would queue more than PollOptions.MaxPending bytes: the peer does not
// read what it is sent. Nothing is queued.
var ErrPendingFull = errors.New("peer: more output waiting for the peer than MaxPending")

// DefaultMaxPending is PollOptions.MaxPending's default: 1 MiB.
const DefaultMaxPending = 1 << 20

// PollerOptions configures a Poller.
type PollerOptions struct {
	// Goroutines is how many goroutines read the connections, each its
	// share of them; 0 means GOMAXPROCS.
	Goroutines int
	// Frame, when positive, paces each goroutine while it has work as a
	// game engine's main loop does: it handles what has arrived at most
	// once a Frame, so what arrives meanwhile waits in the sockets and is
	// handled together, and what that queues for a connection goes out
	// in one write. Each message may wait up to Frame longer; the CPU
	// spent per message falls as the messages per Frame grow. 0 handles
	// each round of messages as soon as it arrives. An idle goroutine is
	// parked either way.
	Frame time.Duration
}

// NewPoller starts a Poller, to whose goroutines connections are given in
// turn. Close stops it.
func NewPoller(o PollerOptions) (*Poller, error) {
	n := o.Goroutines
	if n <= 0 {
		n = runtime.GOMAXPROCS(0)
	}
	p := &Poller{}
	rounds := new(pollRounds)
	for range n {
		lp, err := newPollLoop(rounds, max(o.Frame, 0))
		if err != nil {
			p.Close()
			return nil, err
		}
		p.loops = append(p.loops, lp)
	}
	return p, nil
}

// Close stops the Poller's goroutines and ends the connections it reads,
// with net.ErrClosed, at once (no close handshake). It returns when they
// have stopped, so a handler must not call it.
func (p *Poller) Close() error {
	for _, lp := range p.loops {
		lp.stop()
	}
	return nil
}

// Conns returns the number of connections the Poller reads.
func (p *Poller) Conns() int {
	n := 0
	for _, lp := range p.loops {
		n += lp.count()
	}
	return n
}

// A PollHandler is given what arrives on a connection a Poller reads.
type PollHandler interface {
	// Payload is called with each message, in order, on the Poller's
	// goroutine; p is valid until it returns. An error ends the
	// connection (it is closed with status 1000) and is given to Ended.
	Payload(p []byte) error
	// Ended is called once, after the last Payload has returned, with why
	// the connection ended: io.EOF when the peer closed it cleanly,
	// net.ErrClosed when it was closed here, otherwise the error (a
	// *frame.Error with the offset for what the peer sent, a timeout of
	// the server limits, the network's). The connection then finishes
	// its close handshake on its own.
	Ended(err error)
}

// A PollWriteHandler is a PollHandler that is told how many bytes of the
// connection's queued output have been written to the network (or
// dropped because the connection ended), for accounting of its own.
type PollWriteHandler interface {
	PollHandler
	Written(n int)
}

// PollOptions are a polled connection's settings.
type PollOptions struct {
	// MaxPending bounds the bytes queued for the connection and not yet
	// written; a write beyond it fails with ErrPendingFull. 0 means
	// DefaultMaxPending.
	MaxPending int
	// IdleTimeout, when positive and shorter than the connection's own
	// (Options.IdleTimeout), ends a connection that sends nothing for
	// that long.
	IdleTimeout time.Duration
}

// Poll hands c to p: from now on p reads c and gives h its messages (see
// Poller). c must be a WebSocket connection a server accepted
// (ListenWebSocket, UpgradeWebSocket, an Upgrader), not read before, and
// Poll must return before any other use of c. Afterwards, reads of c
// fail with ErrPolled; writes queue without blocking (ErrPendingFull when
// the peer does not read); SetReadDeadline and SetWriteDeadline have no
// effect (the server limits apply); Close, CloseWith and Refuse return at
// once, the close handshake going on in p.
func (c *Conn) Poll(p *Poller, h PollHandler, o PollOptions) error {
	if len(p.loops) == 0 {
		return ErrPollUnsupported
	}
	lp := p.loops[int(p.next.Add(1))%len(p.loops)]
	return lp.take(c, h, o)
}

// pollTransport is the transport of a connection a Poller reads: its
// writes queue without blocking, and its close goes on in the Poller.
type pollTransport interface {
	transport
	closeWith(code int, reason string)
}

// Pollable reports whether c can be handed to a Poller: a WebSocket
// connection a server accepted over TCP, not polled yet, on a system
// with Pollers.
func (c *Conn) Pollable() bool {
	t, ok := c.tr.(*wsTransport)
	return ok && t.tcp != nil && pollSupported
}
