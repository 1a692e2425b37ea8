//go:build linux

package peer

import (
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"sync"
	"syscall"
	"time"

	"github.com/gdvar/gdvar/frame"
	"github.com/gorilla/websocket"
)

// pollConn is a connection a pollLoop reads, and the transport of its
// Conn from then on.
type pollConn struct {
	lp           *pollLoop
	c            *Conn
	h            PollHandler
	written      PollWriteHandler // h, when it wants to know; nil: not
	slot         int32
	laddr, raddr net.Addr
	counted      *countedConn // the listener's count, given back at the end
	closeTimeout time.Duration
	wtimeout     time.Duration
	maxPending   int

	// The loop's own.
	fd         int // closed (and -1) once finished, under wmu
	parser     wsParser
	in         budgetedBuf // received and not yet parsed
	idle       time.Duration
	frameTO    time.Duration
	lastRead   int64 // Unix ns
	frameStart int64 // when the frame in progress began arriving; 0: none
	ended      bool  // Ended has been called: nothing more is handed over
	peerClosed bool  // the peer's close frame came
	lingerEnd  int64 // the close handshake's end; 0: not closing
	finished   bool

	wmu       sync.Mutex
	out       []byte  // queued output: out[wpos:] is still to write; its capacity stays within MaxPending (and a control frame)
	outp      *[]byte // out's pooled backing array; nil: none
	wpos      int
	dirty     bool  // in the loop's dirty list
	waitOut   bool  // waiting for EPOLLOUT
	stall     int64 // since when output waits for the socket; 0: it does not
	closeSent bool  // a close frame is queued: nothing after it
	werr      error // a failed write: the connection ends
	refusal   string
	closeReq  int // 0 none, 1 close (handshake), 2 abort
	closeCode int
	closeWhy  string
	abortErr  error
	queued    bool // in the loop's request list
}

// readable reads what has arrived and hands over the whole messages.
func (pc *pollConn) readable() {
	for range 4 {
		if pc.finished {
			return
		}
		var buf []byte
		fromIn := len(pc.in.b) > 0
		if fromIn {
			if len(pc.in.b) == cap(pc.in.b) && !pc.growIn(2*cap(pc.in.b)) {
				return
			}
			buf = pc.in.b[len(pc.in.b):cap(pc.in.b)]
		} else {
			buf = pc.lp.rbuf
		}
		n, err := syscall.Read(pc.fd, buf)
		if n > 0 {
			pc.lastRead = pc.lp.now
			var data []byte
			if fromIn {
				pc.in.b = pc.in.b[:len(pc.in.b)+n]
				data = pc.in.b
			} else {
				data = buf[:n]
			}
			if !pc.consume(data, fromIn) || n < len(buf) {
				return
			}
			continue
		}
		switch {
		case err == syscall.EAGAIN:
			return
		case err == syscall.EINTR:
			continue
		case err != nil:
			pc.end(&net.OpError{Op: "read", Net: "tcp", Source: pc.laddr, Addr: pc.raddr, Err: os.NewSyscallError("read", err)})
		case pc.lingerEnd != 0 || pc.peerClosed:
			pc.end(net.ErrClosed)
		default:
			// The peer closed without a close frame.
			pc.end(&frame.Error{Offset: pc.parser.off, Size: -1, Err: io.ErrUnexpectedEOF})
		}
		pc.finish()
		return
	}
}

// consume parses data (in, or the loop's buffer) and keeps what is left
// of a frame not yet whole; false when the connection is ending.
func (pc *pollConn) consume(data []byte, fromIn bool) bool {
	used, need, err := pc.parser.parse(data, pc.onFrame)
	if err != nil {
		pc.fail(err)
		return false
	}
	rest := data[used:]
	if len(rest) == 0 {
		pc.frameStart = 0
		pc.in.release()
		return !pc.finished
	}
	if used > 0 || pc.frameStart == 0 {
		pc.frameStart = pc.lp.now
	}
	want := max(need, len(rest))
	if fromIn {
		copy(pc.in.b, rest)
		pc.in.b = pc.in.b[:len(rest)]
		if cap(pc.in.b) < want {
			if !pc.growIn(want) {
				return false
			}
		}
	} else {
		if !pc.growIn(max(want, 512)) {
			return false
		}
		pc.in.b = append(pc.in.b[:0], rest...)
	}
	return !pc.finished
}

// growIn makes in hold at least n bytes (up to a frame of MaxSize),
// charging the budget; past it the connection fails.
func (pc *pollConn) growIn(n int) bool {
	if cap(pc.in.b) >= n {
		return true
	}
	if !pc.in.growTo(min(max(n, 2*cap(pc.in.b)), pc.parser.maxSize+wsMaxFrameHeader)) {
		pc.fail(&frame.Error{Offset: pc.parser.off, Size: -1, Err: frame.ErrBudget})
		return false
	}
	return true
}

// onFrame is the parser's handler: a message goes to the PollHandler, a
// ping is answered, a close frame answered and the connection ended.
func (pc *pollConn) onFrame(op byte, p []byte, off int64) error {
	switch op {
	case wsOpText, wsOpBinary:
		if pc.ended {
			return nil // the close handshake: what still arrives is dropped
		}
		if err := pc.h.Payload(p); err != nil {
			pc.end(err)
			pc.startClose(CloseNormal, "")
		}
		return nil
	case wsOpPing:
		pc.control(websocket.PongMessage, p)
		return nil
	case wsOpPong:
		return nil
	}
	// A close frame.
	pc.peerClosed = true
	code := websocket.CloseNoStatusReceived
	reason := ""
	if len(p) >= 2 {
		code = int(p[0])<<8 | int(p[1])
		reason = string(p[2:])
	}
	if len(p) == 1 {
		return pc.parser.protocol(off, "a close frame's status is cut")
	}
	var err error
	switch code {
	case websocket.CloseNormalClosure, websocket.CloseGoingAway, websocket.CloseNoStatusReceived, CloseDestroyed:
		err = io.EOF
	default:
		err = fmt.Errorf("peer: websocket closed by the peer: %w", &websocket.CloseError{Code: code, Text: reason})
	}
	pc.end(err)
	// Answer with the same status (RFC 6455, section 5.5.1), then end.
	pc.wmu.Lock()
	if !pc.closeSent {
		pc.appendControlLocked(websocket.CloseMessage, echoStatus(p))
		pc.closeSent = true
	}
	pc.flushLocked()
	pc.wmu.Unlock()
	pc.finish()
	return errClosing
}

// errClosing stops the parser once the connection is closing.
var errClosing = errors.New("peer: closing")

// echoStatus is the payload of the close frame that answers p.
func echoStatus(p []byte) []byte {
	if len(p) >= 2 {
		return p[:2]
	}
	return nil
}

// fail ends the connection for what the peer sent, telling it why with
// the close status (1002 protocol error, 1007 text not UTF-8, 1009 too
// big, 1008 with a reason otherwise), then closes it.
func (pc *pollConn) fail(err error) {
	if errors.Is(err, errClosing) {
		return
	}
	code, reason := websocket.ClosePolicyViolation, "server busy"
	switch {
	case errors.Is(err, ErrProtocol):
		code, reason = websocket.CloseProtocolError, "protocol error"
	case errors.Is(err, ErrInvalidUTF8):
		code, reason = websocket.CloseInvalidFramePayloadData, "invalid UTF-8 in text message"
	case errors.Is(err, frame.ErrTooLarge):
		code, reason = websocket.CloseMessageTooBig, "message too big"
	}
	pc.abortLoop(err, code, reason)
}

// abortLoop ends the connection with err and closes it after one attempt
// to send a close frame with code and reason.
func (pc *pollConn) abortLoop(err error, code int, reason string) {
	pc.end(err)
	pc.wmu.Lock()
	if !pc.closeSent && pc.werr == nil && pc.stall == 0 {
		pc.appendControlLocked(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason))
		pc.closeSent = true
		pc.flushLocked()
	}
	pc.wmu.Unlock()
	pc.finish()
}

// end hands the PollHandler why the connection ended, once.
func (pc *pollConn) end(err error) {
	if pc.ended {
		return
	}
	pc.ended = true
	pc.h.Ended(err)
}

// startClose sends a close frame and waits up to the close timeout for
// the peer's answer (the loop's side of Close).
func (pc *pollConn) startClose(code int, reason string) {
	if pc.finished || pc.lingerEnd != 0 {
		return
	}
	pc.wmu.Lock()
	sent := false
	if !pc.closeSent && pc.werr == nil {
		pc.appendControlLocked(websocket.CloseMessage, websocket.FormatCloseMessage(code, reason))
		pc.closeSent, sent = true, true
		pc.flushLocked()
	}
	pc.wmu.Unlock()
	if !sent || pc.closeTimeout <= 0 || pc.peerClosed {
		pc.finish()
		return
	}
	pc.lingerEnd = pc.lp.now + int64(pc.closeTimeout)
}

// checkTimeouts ends a connection whose time is up.
func (pc *pollConn) checkTimeouts() {
	now := pc.lp.now
	pc.wmu.Lock()
	stall := pc.stall
	pc.wmu.Unlock()
	switch {
	case pc.lingerEnd != 0 && now >= pc.lingerEnd:
		pc.finish()
	case stall != 0 && pc.wtimeout > 0 && now-stall >= int64(pc.wtimeout):
		pc.end(fmt.Errorf("%w (%v)", ErrWriteTimeout, pc.wtimeout))
		pc.finish()
	case pc.lingerEnd != 0:
	case pc.frameStart != 0 && pc.frameTO > 0 && now-pc.frameStart >= int64(pc.frameTO):
		pc.abortLoop(&frame.Error{Offset: pc.parser.off, Size: -1, Err: ErrFrameTimeout}, websocket.ClosePolicyViolation, "message not complete in time")
	case pc.idle > 0 && now-pc.lastRead >= int64(pc.idle):
		pc.abortLoop(fmt.Errorf("%w: nothing received for %v", ErrIdleTimeout, pc.idle), websocket.ClosePolicyViolation, "idle timeout")
	}
}

// finish closes the socket and lets go of everything the connection held.
func (pc *pollConn) finish() {
	if pc.finished {
		return
	}
	pc.end(net.ErrClosed)
	pc.finished = true
	lp := pc.lp
	syscall.EpollCtl(lp.epfd, syscall.EPOLL_CTL_DEL, pc.fd, nil)
	pc.wmu.Lock()
	syscall.Close(pc.fd)
	pc.fd = -1
	left := len(pc.out) - pc.wpos
	pc.putOut()
	if pc.werr == nil {
		pc.werr = net.ErrClosed
	}
	pc.wmu.Unlock()
	if left > 0 && pc.written != nil {
		pc.written.Written(left)
	}
	pc.in.release()
	pc.parser.msg.release()
	lp.mu.Lock()
	lp.conns[pc.slot] = nil
	lp.free = append(lp.free, pc.slot)
	lp.n--
	lp.mu.Unlock()
	pc.giveBack()
}

// giveBack gives the connection's place back to the listener's or the
// Upgrader's limits.
func (pc *pollConn) giveBack() {
	if pc.counted != nil {
		pc.counted.once.Do(func() { pc.counted.lim.give(pc.counted.ip) })
	}
	if f := pc.c.onClose; f != nil {
		f()
	}
}

// request carries out, on the loop, the close another goroutine asked
// for.
func (pc *pollConn) request() {
	pc.wmu.Lock()
	req, code, why, err := pc.closeReq, pc.closeCode, pc.closeWhy, pc.abortErr
	pc.queued = false
	pc.wmu.Unlock()
	if pc.finished {
		return
	}
	switch req {
	case 1:
		pc.end(net.ErrClosed)
		pc.startClose(code, why)
	case 2:
		pc.end(err)
		pc.finish()
	}
}

// ask queues a close for the loop; wmu is held.
func (pc *pollConn) askLocked(req, code int, why string, err error) {
	if pc.closeReq != 0 {
		return
	}
	pc.closeReq, pc.closeCode, pc.closeWhy, pc.abortErr = req, code, why, err
	if pc.queued {
		return
	}
	pc.queued = true
	lp := pc.lp
	lp.mu.Lock()
	lp.reqs = append(lp.reqs, pc)
	if !lp.inRound {
		lp.wakeLocked()
	}
	lp.mu.Unlock()
}

// Output waits in buffers from two pools: a small one for the few short
// messages of a round (a game's usual traffic, or the notice each client
// gets when another joins), a larger one when they do not fit; beyond
// that, a buffer of its own. A round that writes to every connection
// takes a buffer for each until it ends, so the first size is what a
// round costs per connection.
const (
	pollOutSmall = 512
	pollOutKeep  = 4 << 10 // the largest pooled buffer
)

var pollOutPools = [2]sync.Pool{
	{New: func() any { b := make([]byte, 0, pollOutSmall); return &b }},
	{New: func() any { b := make([]byte, 0, pollOutKeep); return &b }},
}

// putOut gives the output buffer back, to its pool if it is a pooled
// one; wmu is held.
func (pc *pollConn) putOut() {
	pc.releaseOut()
	pc.out, pc.wpos = nil, 0
}

// releaseOut gives a pooled output buffer back to its pool; wmu is held.
func (pc *pollConn) releaseOut() {
	if pc.outp != nil {
		pollOutPools[pollOutClass(cap(*pc.outp))].Put(pc.outp)
		pc.outp = nil
	}
}

// pollOutClass is the pool of a buffer of capacity c.
func pollOutClass(c int) int {
	if c <= pollOutSmall {
		return 0
	}
	return 1
}

// outRoomLocked makes room in the output buffer for n more bytes: a
// pooled buffer when they fit in one, else a buffer of the size needed
// (twice the last, up to MaxPending), what was written of it dropped
// first, so that its capacity stays within MaxPending (and a control
// frame); wmu is held.
func (pc *pollConn) outRoomLocked(n int) {
	need := len(pc.out) - pc.wpos + n
	if need <= pollOutKeep && (pc.out == nil || pc.outp != nil && need > cap(pc.out)) {
		// Into a pooled buffer, or a small one grown into a larger.
		bp := pollOutPools[pollOutClass(need)].Get().(*[]byte)
		nb := append((*bp)[:0], pc.out[pc.wpos:]...)
		pc.releaseOut()
		pc.outp, pc.out, pc.wpos = bp, nb, 0
		return
	}
	if pc.wpos > 0 && (pc.wpos == len(pc.out) || need > cap(pc.out)) {
		pc.out = pc.out[:copy(pc.out, pc.out[pc.wpos:])]
		pc.wpos = 0
	}
	if need <= cap(pc.out) {
		return
	}
	nb := make([]byte, len(pc.out), max(need, min(2*cap(pc.out), pc.maxPending)))
	copy(nb, pc.out)
	pc.out = nb
	pc.releaseOut() // grown out of a pooled buffer
}

// roomLocked reserves room for n more bytes of output; wmu is held.
func (pc *pollConn) roomLocked(n int) error {
	switch {
	case pc.werr != nil:
		return pc.werr
	case pc.closeSent:
		return errWSClosing
	case len(pc.out)-pc.wpos+n > pc.maxPending:
		return fmt.Errorf("%w (%d bytes)", ErrPendingFull, pc.maxPending)
	}
	pc.outRoomLocked(n)
	return nil
}

// scheduleLocked has what was queued written: at the end of the loop's
// round when a handler wrote it, now otherwise; wmu is held.
func (pc *pollConn) scheduleLocked() {
	if pc.dirty || pc.waitOut {
		return
	}
	rs := pc.lp.rounds
	rs.mu.Lock()
	if rs.n > 0 {
		pc.dirty = true
		rs.dirty = append(rs.dirty, pc)
		rs.mu.Unlock()
		return
	}
	rs.mu.Unlock()
	pc.flushLocked()
}

// flushLocked writes what is queued, as much as the socket takes; wmu is
// held.
func (pc *pollConn) flushLocked() {
	if pc.fd < 0 {
		return
	}
	start := pc.wpos
	for pc.wpos < len(pc.out) {
		n, err := syscall.Write(pc.fd, pc.out[pc.wpos:])
		if n > 0 {
			pc.wpos += n
		}
		if err == syscall.EINTR {
			continue
		}
		if err == syscall.EAGAIN {
			if pc.stall == 0 || pc.wpos > start {
				pc.stall = time.Now().UnixNano()
			}
			if !pc.waitOut {
				pc.waitOut = true
				ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP | syscall.EPOLLOUT, Fd: pc.slot}
				syscall.EpollCtl(pc.lp.epfd, syscall.EPOLL_CTL_MOD, pc.fd, &ev)
			}
			break
		}
		if err != nil {
			pc.werr = &net.OpError{Op: "write", Net: "tcp", Source: pc.laddr, Addr: pc.raddr, Err: os.NewSyscallError("write", err)}
			pc.askLocked(2, 0, "", pc.werr)
			break
		}
	}
	if n := pc.wpos - start; n > 0 && pc.written != nil {
		pc.written.Written(n)
	}
	if pc.wpos == len(pc.out) {
		pc.putOut()
		pc.stall = 0
		if pc.waitOut {
			pc.waitOut = false
			ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: pc.slot}
			syscall.EpollCtl(pc.lp.epfd, syscall.EPOLL_CTL_MOD, pc.fd, &ev)
		}
	}
}

// appendControlLocked queues a control frame, past the pending limit if
// need be (it is short); wmu is held.
func (pc *pollConn) appendControlLocked(mt int, data []byte) {
	pc.outRoomLocked(2 + len(data))
	pc.out = append(pc.out, 0x80|byte(mt), byte(len(data)))
	pc.out = append(pc.out, data...)
}

// control queues a control frame (a pong), written at the round's end.
func (pc *pollConn) control(mt int, data []byte) {
	pc.wmu.Lock()
	if pc.werr == nil && !pc.closeSent && len(pc.out)-pc.wpos+len(data) <= pc.maxPending {
		pc.appendControlLocked(mt, data)
		pc.scheduleLocked()
	}
	pc.wmu.Unlock()
}

// The transport of a polled Conn.

func (pc *pollConn) readPayload() ([]byte, int64, error) { return nil, 0, ErrPolled }

func (pc *pollConn) writePayload(p []byte) error {
	one := [1]net.Buffers{{p}}
	return pc.writeBatch(one[:])
}

// writeBatch queues each element of ps as one binary message and has them
// written (see Poller).
func (pc *pollConn) writeBatch(ps []net.Buffers) error {
	total := 0
	for _, p := range ps {
		n := buffersLen(p)
		if n > pc.parser.maxSize {
			return &frame.Error{Offset: -1, Size: int64(n), Err: frame.ErrTooLarge}
		}
		total += wsMaxHeader + n
	}
	pc.wmu.Lock()
	defer pc.wmu.Unlock()
	if err := pc.roomLocked(total); err != nil {
		return err
	}
	for _, p := range ps {
		pc.out = appendWSHeader(pc.out, buffersLen(p))
		for _, piece := range p {
			pc.out = append(pc.out, piece...)
		}
	}
	pc.scheduleLocked()
	return nil
}

func (pc *pollConn) refuse(reason string) {
	if len(reason) > 123 {
		reason = reason[:123]
	}
	if reason == "" {
		reason = "refused"
	}
	pc.wmu.Lock()
	pc.refusal = reason
	pc.wmu.Unlock()
}

// closeWith asks the loop to close the connection with a close frame of
// code and reason.
func (pc *pollConn) closeWith(code int, reason string) {
	pc.wmu.Lock()
	if pc.refusal != "" {
		code, reason = websocket.ClosePolicyViolation, pc.refusal
	}
	pc.askLocked(1, code, reason, nil)
	pc.wmu.Unlock()
}

func (pc *pollConn) shutdown() error { pc.closeWith(CloseNormal, ""); return nil }
func (pc *pollConn) close() error    { pc.closeWith(CloseNormal, ""); return nil }
func (pc *pollConn) abort(err error) {
	pc.wmu.Lock()
	pc.askLocked(2, 0, "", err)
	pc.wmu.Unlock()
}
func (pc *pollConn) release()                         {}
func (pc *pollConn) localAddr() net.Addr              { return pc.laddr }
func (pc *pollConn) remoteAddr() net.Addr             { return pc.raddr }
func (pc *pollConn) setReadDeadline(time.Time) error  { return nil }
func (pc *pollConn) setWriteDeadline(time.Time) error { return nil }
