package multiplayer

import (
	"sync"
	"unsafe"
)

// outQueue is a peer's queue of frames to send, bounded in bytes: a client
// that does not read cannot make the host hold more than the budget for it.
// Each frame is charged what it holds (frameCost), not only its data.
type outQueue struct {
	mu     sync.Mutex
	cond   sync.Cond
	frames []Frame
	bytes  int
	budget int
	// shared is charged what the queue holds too (a room's budget, the
	// process's); nil: none. Set before the first push.
	shared *ByteBudget
	closed bool
}

// frameCost is what a queued frame holds: its slot in the queue's slice,
// twice over (append doubles the backing array, and popped slots stay
// until the next growth), and its copy of the data, which the allocator
// rounds up by at most an eighth and 16 bytes. A frame of 4 bytes costs
// 132 bytes; one of 60 KB, 7.5 KB more than its data.
func frameCost(dataLen int) int {
	return 2*int(unsafe.Sizeof(Frame{})) + dataLen + dataLen/8 + 16
}

func newOutQueue(budget int) *outQueue {
	q := &outQueue{budget: budget}
	q.cond.L = &q.mu
	return q
}

// push queues a copy of f; false when the budget would be exceeded or the
// queue is closed.
func (q *outQueue) push(f Frame) bool {
	n := frameCost(len(f.Data))
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.closed || q.bytes+n > q.budget || !q.shared.take(n) {
		return false
	}
	f.Data = append([]byte(nil), f.Data...)
	q.frames = append(q.frames, f)
	q.bytes += n
	q.cond.Signal()
	return true
}

// pop waits for the next frame; false once closed and drained.
func (q *outQueue) pop() (Frame, bool) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for len(q.frames) == 0 && !q.closed {
		q.cond.Wait()
	}
	held := q.bytes
	if len(q.frames) == 0 {
		return Frame{}, false
	}
	f := q.frames[0]
	q.frames[0] = Frame{}
	q.frames = q.frames[1:]
	q.bytes -= frameCost(len(f.Data))
	if len(q.frames) == 0 {
		q.frames = nil
	}
	q.shared.give(held - q.bytes)
	return f, true
}

// queued returns the bytes waiting.
func (q *outQueue) queued() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.bytes
}

// close ends the queue: what is queued is still popped. Once the peer is
// gone, discard gives the rest back.
func (q *outQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.mu.Unlock()
}

// isClosed reports whether the queue is closed.
func (q *outQueue) isClosed() bool {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.closed
}

// discard drops what is still queued, giving its bytes back to the shared
// budget.
func (q *outQueue) discard() {
	q.mu.Lock()
	q.closed = true
	q.shared.give(q.bytes)
	q.frames, q.bytes = nil, 0
	q.cond.Broadcast()
	q.mu.Unlock()
}
