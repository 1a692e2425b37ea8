package peer

import (
	"encoding/binary"
	"errors"
	"fmt"
	"unicode/utf8"

	"github.com/gdvar/gdvar/frame"
)

// ErrProtocol is what a WebSocket connection read by a Poller ends with
// when the client breaks RFC 6455's framing (an unmasked frame, reserved
// bits or opcodes, a fragmented or long control frame, a continuation
// with no message to continue); the connection is closed with status
// 1002. The error wraps it in a *frame.Error that says where.
var ErrProtocol = errors.New("peer: websocket protocol error")

// WebSocket opcodes (RFC 6455, section 5.2).
const (
	wsOpContinuation = 0x0
	wsOpText         = 0x1
	wsOpBinary       = 0x2
	wsOpClose        = 0x8
	wsOpPing         = 0x9
	wsOpPong         = 0xa
)

// wsParser reads the frames a client sends a server (RFC 6455, section
// 5: masked, no extension) as they arrive, in pieces of any size: parse
// is given what has arrived and not yet been used, uses every whole frame
// in it, and says how many bytes the frame it stopped in needs. A
// message in one frame is handed over where it lies (unmasked in place);
// only a fragmented message is copied, into msg, whose growth the budget
// is charged.
type wsParser struct {
	maxSize int
	off     int64 // the input's offset of the next byte parse is given

	msgOp  byte        // the opcode of the fragmented message being assembled; 0: none
	msgOff int64       // the offset of its first frame
	msg    budgetedBuf // its fragments so far
}

// wsMaxFrameHeader is the longest header of a client's frame: two bytes,
// a 64-bit length and the 4-byte mask.
const wsMaxFrameHeader = 14

// wsHandler is given each message (text or binary: op), and each control
// frame, of a wsParser, with the offset of its first frame. The payload
// is valid until it returns.
type wsHandler func(op byte, payload []byte, off int64) error

// parse uses the whole frames at the start of data, giving each message
// and control frame to h, and returns how many bytes it used and, when
// it stopped in a frame, how long that frame is in all (header and
// payload; wsMaxFrameHeader while its header is not all there). An error,
// of the parser or of h, ends the connection: nothing more is parsed.
func (p *wsParser) parse(data []byte, h wsHandler) (used, need int, err error) {
	defer func() { p.off += int64(used) }()
	for {
		rest := data[used:]
		if len(rest) < 2 {
			return used, wsMaxFrameHeader, nil
		}
		off := p.off + int64(used)
		b0, b1 := rest[0], rest[1]
		fin, op := b0&0x80 != 0, b0&0x0f
		if b0&0x70 != 0 {
			return used, 0, p.protocol(off, "reserved bits set (no extension was agreed)")
		}
		if b1&0x80 == 0 {
			return used, 0, p.protocol(off, "a client's frame is not masked")
		}
		hdr, n := 2, uint64(b1&0x7f)
		switch n {
		case 126:
			if len(rest) < 4 {
				return used, wsMaxFrameHeader, nil
			}
			n, hdr = uint64(binary.BigEndian.Uint16(rest[2:])), 4
		case 127:
			if len(rest) < 10 {
				return used, wsMaxFrameHeader, nil
			}
			n, hdr = binary.BigEndian.Uint64(rest[2:]), 10
		}
		control := op&0x8 != 0
		switch {
		case op > wsOpBinary && op < wsOpClose, op > wsOpPong:
			return used, 0, p.protocol(off, fmt.Sprintf("reserved opcode %d", op))
		case control && (!fin || n > 125):
			return used, 0, p.protocol(off, "a control frame is fragmented or longer than 125 bytes")
		case op == wsOpContinuation && p.msgOp == 0:
			return used, 0, p.protocol(off, "a continuation frame with no message to continue")
		case !control && op != wsOpContinuation && p.msgOp != 0:
			return used, 0, p.protocol(off, "a new message before the fragmented one ended")
		}
		msgOff := off
		if op == wsOpContinuation {
			msgOff = p.msgOff
		}
		if !control && n+uint64(len(p.msg.b)) > uint64(p.maxSize) {
			return used, 0, &frame.Error{Offset: msgOff, Size: -1, Err: frame.ErrTooLarge}
		}
		hdr += 4 // the mask
		total := hdr + int(n)
		if len(rest) < hdr {
			return used, wsMaxFrameHeader, nil
		}
		if len(rest) < total {
			return used, total, nil
		}
		payload := rest[hdr:total]
		unmask(payload, rest[hdr-4:hdr])
		used += total
		switch {
		case control:
			err = h(op, payload, off)
		case fin && op != wsOpContinuation:
			err = p.deliver(h, op, payload, off)
		default:
			if op != wsOpContinuation {
				p.msgOp, p.msgOff = op, off
			}
			if err = p.appendFragment(payload, msgOff); err == nil && fin {
				err = p.deliver(h, p.msgOp, p.msg.b, p.msgOff)
				p.msgOp = 0
				p.msg.release()
			}
		}
		if err != nil {
			return used, 0, err
		}
	}
}

// deliver hands a whole message to h, a text one once it is known to be
// UTF-8.
func (p *wsParser) deliver(h wsHandler, op byte, payload []byte, off int64) error {
	if op == wsOpText && !utf8.Valid(payload) {
		return &frame.Error{Offset: off, Size: int64(len(payload)), Err: ErrInvalidUTF8}
	}
	return h(op, payload, off)
}

// appendFragment adds a fragment to the message being assembled,
// charging the budget what msg grows by.
func (p *wsParser) appendFragment(b []byte, off int64) error {
	if need := len(p.msg.b) + len(b); need > cap(p.msg.b) {
		if !p.msg.growTo(min(max(2*cap(p.msg.b), need, 512), p.maxSize)) {
			return &frame.Error{Offset: off, Size: -1, Err: frame.ErrBudget}
		}
	}
	p.msg.b = append(p.msg.b, b...)
	return nil
}

// protocol is the error of a frame that breaks RFC 6455.
func (p *wsParser) protocol(off int64, why string) error {
	return &frame.Error{Offset: off, Size: -1, Err: fmt.Errorf("%w: %s", ErrProtocol, why)}
}

// unmask XORs b with the 4-byte key, in place.
func unmask(b, key []byte) {
	k := binary.LittleEndian.Uint32(key)
	k8 := uint64(k) | uint64(k)<<32
	i := 0
	for ; i+8 <= len(b); i += 8 {
		binary.LittleEndian.PutUint64(b[i:], binary.LittleEndian.Uint64(b[i:])^k8)
	}
	for ; i < len(b); i++ {
		b[i] ^= key[i&3]
	}
}
