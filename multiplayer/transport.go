package multiplayer

import (
	"context"
	"net"
	"strconv"
	"time"
)

// TransferMode is how a packet travels, as MultiplayerPeer.TransferMode
// (Godot 4 numbering).
type TransferMode uint8

// The transfer modes.
const (
	Unreliable        TransferMode = 0
	UnreliableOrdered TransferMode = 1
	Reliable          TransferMode = 2
)

// String returns the mode as @rpc writes it: "reliable", "unreliable" or "unreliable_ordered".
func (m TransferMode) String() string {
	switch m {
	case Unreliable:
		return "unreliable"
	case UnreliableOrdered:
		return "unreliable_ordered"
	case Reliable:
		return "reliable"
	}
	return "mode(" + strconv.Itoa(int(m)) + ")"
}

// FrameKind says what a Frame carries.
type FrameKind uint8

// The frame kinds. Besides data, some transports tell peers about each
// other themselves (Godot 3's WebSocketMultiplayerPeer sends its own system
// messages; Godot 4's WebSocketMultiplayerPeer sends the assigned id as the
// first message); a transport that has no such message for a kind writes
// nothing for it.
const (
	FrameData        FrameKind = iota // a MultiplayerAPI packet in Data
	FrameAssignID                     // host → client: your id is Peer
	FramePeerAdded                    // host → client: peer Peer joined (Godot 3)
	FramePeerRemoved                  // host → client: peer Peer left (Godot 3)
)

// Frame is one message of a transport.
type Frame struct {
	Kind FrameKind
	// Peer is the id a system frame is about.
	Peer PeerID
	// From and To are the source and target a transport with addressing
	// carries (Godot 3's WebSocket header); 0 when it has none.
	From, To PeerID
	// Data is the packet; when read, valid until the next read.
	Data    []byte
	Channel int
	Mode    TransferMode
}

// Link is one connection between a host and one client, as a transport
// carries it: WebSocket and ENet here; WebRTC can provide its own. A Link
// supports one reader and one writer at a time.
type Link interface {
	// ReadFrame waits for the next frame.
	ReadFrame() (Frame, error)
	// WriteFrame sends a frame.
	WriteFrame(Frame) error
	// Close ends the connection.
	Close() error
	// RemoteAddr is the other side's address.
	RemoteAddr() net.Addr
}

// queuer is a Link whose transport queues frames itself, without
// blocking and within a memory budget per client (ENet): the Host hands it
// each frame as it is made, with no queue or writer goroutine of its own.
// queueFrame is called with the Host's lock held, one frame at a time; an
// error drops the client (ErrBudget when its budget is used up).
type queuer interface {
	queueFrame(Frame) error
}

// deliverer is a Link that hands each frame it receives to the Host as it
// arrives, on the transport's own goroutine (ENet's), so that a message is
// read, handled and relayed with no goroutine of the Host's per client
// and no hand-off between goroutines. deliver is called once, instead of
// reading the Link: handle is given the link's frames (or the
// *PacketError of one it could not read) one at a time and in order, and
// an error it returns ends the link; end is called once, after the last
// handle has returned, with why the link ended.
type deliverer interface {
	deliver(handle func(Frame, error) error, end func(error))
}

// attacher is a Link that queues frames itself (a queuer) with the Host's
// budgets: attach is told, when the Host admits the client and before
// any frame is queued, its MaxQueuedBytes, the shared QueueBudget (nil:
// none) and its IdleTimeout (0: none).
type attacher interface {
	attach(maxQueued int, shared *ByteBudget, idle time.Duration)
}

// ClientIDLink is a Link whose client chose its own id, as Godot's ENet
// clients do (the id travels with the connection). A Host admits such a
// client with that id, and refuses it when the id is below 2 or taken.
type ClientIDLink interface {
	Link
	ClientID() PeerID
}

// Listener accepts the Links of clients joining a host.
type Listener interface {
	// Accept waits for the next client; it returns ctx.Err() when ctx is
	// done first, and an error once the listener is closed.
	Accept(ctx context.Context) (Link, error)
	// Close stops listening; accepted Links stay open.
	Close() error
	// Addr is the address listened on.
	Addr() net.Addr
}
