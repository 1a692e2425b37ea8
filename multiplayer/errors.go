package multiplayer

import (
	"errors"
	"fmt"
	"io"
)

// Sentinel errors. Errors about a packet are *PacketError values whose Err
// is one of these, so errors.Is works on them.
var (
	// ErrTruncated: the packet ends before a field does. It also matches
	// io.ErrUnexpectedEOF.
	ErrTruncated = &sentinel{"packet truncated", io.ErrUnexpectedEOF}
	// ErrUnknownCommand: the command or system command number is not one
	// the engine family defines.
	ErrUnknownCommand = &sentinel{"unknown command", nil}
	// ErrInvalidPacket: the packet breaks the format in another way.
	ErrInvalidPacket = &sentinel{"invalid packet", nil}
	// ErrInvalidArgument: an RPC argument does not decode.
	ErrInvalidArgument = &sentinel{"invalid RPC argument", nil}
	// ErrTooLarge: a packet or a count exceeds a limit.
	ErrTooLarge = &sentinel{"too large", nil}
)

// Errors about peers and calls, returned by Host and Client.
var (
	// ErrUnknownPeer: no connected peer has that id.
	ErrUnknownPeer = errors.New("multiplayer: unknown peer")
	// ErrUnknownNode: the node path or cache id names no declared node.
	ErrUnknownNode = errors.New("multiplayer: unknown node")
	// ErrUnknownMethod: the node declares no RPC of that name or id.
	ErrUnknownMethod = errors.New("multiplayer: unknown RPC method")
	// ErrNotAllowed: the RPC's mode does not let that peer call it, or
	// the peer is not authenticated yet.
	ErrNotAllowed = errors.New("multiplayer: not allowed")
	// ErrClosed: the host or client is closed.
	ErrClosed = errors.New("multiplayer: closed")
	// ErrAuthTimeout: a peer did not finish authenticating in time.
	ErrAuthTimeout = errors.New("multiplayer: authentication timed out")
	// ErrHandshake: the other side did not follow the connection handshake.
	ErrHandshake = errors.New("multiplayer: handshake failed")
	// ErrBudget: a peer exceeded one of its limits (queued bytes, path
	// cache entries, packet rate).
	ErrBudget = errors.New("multiplayer: peer over budget")
)

type sentinel struct {
	msg  string
	also error
}

func (s *sentinel) Error() string { return s.msg }

// Is lets ErrTruncated match io.ErrUnexpectedEOF.
func (s *sentinel) Is(target error) bool { return s.also != nil && target == s.also }

// PacketError describes a packet that does not parse: where and why.
type PacketError struct {
	// Offset is the byte offset in the packet where the bad field starts.
	Offset int
	// Command is the packet's command, when byte 0 was read.
	Command Command
	// Err is the sentinel (ErrTruncated, ErrUnknownCommand, …), or for
	// ErrInvalidArgument the *variant.Error wrapped beneath it.
	Err error
	// Detail says more.
	Detail string
}

// Error says what is wrong with the packet and where.
func (e *PacketError) Error() string {
	s := fmt.Sprintf("multiplayer: %s packet: %v at offset %d", e.Command, e.Err, e.Offset)
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns the sentinel and, for arguments, the variant error.
func (e *PacketError) Unwrap() error { return e.Err }

func perr(off int, c Command, err error, detail string) *PacketError {
	return &PacketError{Offset: off, Command: c, Err: err, Detail: detail}
}

// argError wraps a variant decoding error so that both ErrInvalidArgument
// and the variant sentinel match.
type argError struct{ err error }

func (a argError) Error() string { return "invalid RPC argument: " + a.err.Error() }
func (a argError) Unwrap() []error {
	return []error{ErrInvalidArgument, a.err}
}
