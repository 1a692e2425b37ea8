package multiplayer

import (
	"errors"
	"io"
	"net"
	"os"
	"sync/atomic"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// Meter receives a Host's counts, for metrics (package
// multiplayer/metrics adapts it to Prometheus). Its methods run on the
// host's goroutines, some under the host's lock: they must be quick, safe
// for concurrent use, and must not call back into the Host.
type Meter interface {
	// PacketIn counts a packet received from a client (its command, its
	// size in bytes).
	PacketIn(cmd Command, bytes int)
	// PacketOut counts a packet queued for a client.
	PacketOut(cmd Command, bytes int)
	// Relayed counts a packet relayed from one client to n others.
	Relayed(n int)
	// Refused counts a refused packet; reason is one of Reason's labels.
	Refused(reason string)
	// Dropped counts a peer the host disconnected; reason as Refused.
	Dropped(reason string)
	// Joined and Left count admitted peers arriving and leaving.
	Joined()
	Left()
	// RPC reports the time a Go RPC handler took.
	RPC(d time.Duration)
}

// ErrKicked is why a peer Host.Kick disconnected left.
var ErrKicked = errors.New("multiplayer: kicked")

// Reason names the kind of err in a few words fit for a metric label: a
// fixed, small set ("truncated", "unknown_command", "invalid_packet",
// "invalid_argument", "too_large", "not_allowed", "unknown_node",
// "unknown_method", "unknown_peer", "budget", "auth_timeout", "kicked",
// "closed", "timeout", "disconnected", "other").
func Reason(err error) string {
	switch {
	case err == nil:
		return "none"
	case errors.Is(err, ErrTruncated):
		return "truncated"
	case errors.Is(err, ErrUnknownCommand):
		return "unknown_command"
	case errors.Is(err, ErrInvalidArgument):
		return "invalid_argument"
	case errors.Is(err, ErrInvalidPacket):
		return "invalid_packet"
	case errors.Is(err, ErrTooLarge):
		return "too_large"
	case errors.Is(err, ErrNotAllowed):
		return "not_allowed"
	case errors.Is(err, ErrUnknownNode):
		return "unknown_node"
	case errors.Is(err, ErrUnknownMethod):
		return "unknown_method"
	case errors.Is(err, ErrUnknownPeer):
		return "unknown_peer"
	case errors.Is(err, ErrBudget):
		return "budget"
	case errors.Is(err, ErrAuthTimeout):
		return "auth_timeout"
	case errors.Is(err, ErrKicked):
		return "kicked"
	case errors.Is(err, ErrClosed), errors.Is(err, net.ErrClosed):
		return "closed"
	case errors.Is(err, os.ErrDeadlineExceeded):
		return "timeout"
	case errors.Is(err, io.EOF), errors.Is(err, io.ErrUnexpectedEOF):
		return "disconnected"
	}
	var ne net.Error
	if errors.As(err, &ne) && ne.Timeout() {
		return "timeout"
	}
	return "other"
}

// commandOf is the command of a packet of family f, read from its first
// byte only; CmdUnknown when there is none.
func commandOf(f variant.Family, b []byte) Command {
	if len(b) == 0 {
		return CmdUnknown
	}
	d := dialectOf(f)
	if d.byName {
		if b[0] > 4 {
			return CmdUnknown
		}
		return d.fromWire[b[0]]
	}
	return d.fromWire[b[0]&7]
}

// ByteBudget is a number of bytes shared by queues: the rooms of a
// process, the peers of a room. A HostOptions.QueueBudget charges every
// byte queued for the host's peers to it (and to its parent), so that one
// busy room cannot take the memory of the others. Safe for concurrent use.
type ByteBudget struct {
	max    int64
	used   atomic.Int64
	parent *ByteBudget
}

// NewByteBudget returns a budget of max bytes (max ≤ 0: no limit) charged
// also to parent, when not nil.
func NewByteBudget(max int64, parent *ByteBudget) *ByteBudget {
	return &ByteBudget{max: max, parent: parent}
}

// take charges n bytes; false (and nothing charged) when over budget.
func (b *ByteBudget) take(n int) bool {
	if b == nil {
		return true
	}
	if u := b.used.Add(int64(n)); b.max > 0 && u > b.max {
		b.used.Add(-int64(n))
		return false
	}
	if !b.parent.take(n) {
		b.used.Add(-int64(n))
		return false
	}
	return true
}

// give returns n bytes.
func (b *ByteBudget) give(n int) {
	for ; b != nil; b = b.parent {
		b.used.Add(-int64(n))
	}
}

// Used is the number of bytes charged now.
func (b *ByteBudget) Used() int64 {
	if b == nil {
		return 0
	}
	return b.used.Load()
}

// Max is the budget's limit; 0 means none.
func (b *ByteBudget) Max() int64 {
	if b == nil || b.max < 0 {
		return 0
	}
	return b.max
}

func (h *Host) countRelayed(n int) {
	if h.o.Meter != nil && n > 0 {
		h.o.Meter.Relayed(n)
	}
}

func (h *Host) countRefused(err error) {
	if h.o.Meter != nil {
		h.o.Meter.Refused(Reason(err))
	}
}
