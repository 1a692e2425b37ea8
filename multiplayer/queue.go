package multiplayer

import (
	"errors"
	"fmt"
	"sync"
	"time"
	"unsafe"
)

// outQueue is a peer's queue of frames to send, bounded in bytes: a client
// that does not read cannot make the host hold more than the budget for it.
// Each frame is charged what it holds (frameCost), not only its data, from
// the time it is queued until its write has returned, to the queue's
// budget and to the shared one.
//
// An idle peer costs the queue its struct and a parked writer goroutine:
// the frames' slice comes from a pool when a frame is queued and goes back
// once written. The writer (started by the first frame) takes every frame
// queued so far at once, so a link that writes a batch in one go
// (batchLink: WebSocket, one writev) sends what piled up during the
// previous write in one system call. (A writer started for each burst and
// ended when the queue empties saves its stack on an idle peer, 2–4 KB,
// but costs a goroutine start, and a stack growth, per burst: more CPU per
// message at the rates of a game.)
type outQueue struct {
	link Link
	fail func(error) // called (outside mu) when a write fails
	mu   sync.Mutex
	cond sync.Cond // signalled when frames arrive or the queue closes
	// queue holds the frames not yet taken by the writer; nil when empty.
	queue *frames
	run   func() // write, bound once: go q.run() allocates nothing
	// bytes is what the frames queued and being written are charged.
	bytes  int
	budget int
	// shared is charged what the queue holds too (a room's budget, the
	// process's); nil: none. Set before the first push.
	shared  *ByteBudget
	closed  bool
	writing bool          // the writer goroutine is running
	gather  time.Duration // how long a writer waits before its first batch
	// done is closed once the queue is closed and its writer has ended.
	done  chan struct{}
	ended bool // done is closed
}

// gatherLink is a Link whose queued frames wait a while before they are
// written, so that more are written at once (WebSocketOptions.WriteDelay).
type gatherLink interface {
	gatherDelay() time.Duration
}

// batchLink is a Link that writes many frames at once.
type batchLink interface {
	writeFrames([]Frame) error
}

// frameCost is what a queued frame holds: its slot in the queue's slice,
// twice over (append doubles the backing array, and a batch being written
// is held while the next fills), and its data, which the allocator rounds
// up by at most an eighth and 16 bytes. Data shared by the frames of a
// broadcast is charged to each peer in full: the peer that is the last to
// send it holds it alone. A frame of 4 bytes costs 132 bytes; one of
// 60 KB, 7.5 KB more than its data.
func frameCost(dataLen int) int {
	return 2*int(unsafe.Sizeof(Frame{})) + dataLen + dataLen/8 + 16
}

// newOutQueue returns the queue of a peer reached through link; fail is
// called when a write fails (the queue is then closed and emptied).
func newOutQueue(budget int, link Link, fail func(error)) *outQueue {
	q := &outQueue{budget: budget, link: link, fail: fail, done: make(chan struct{})}
	q.cond.L = &q.mu
	q.run = q.write
	if g, ok := link.(gatherLink); ok {
		q.gather = g.gatherDelay()
	}
	return q
}

// push queues a copy of f. It fails with errQueueClosed when the queue is
// closed (its peer is leaving), or with an error matching ErrBudget when
// the peer's budget or the shared one would be exceeded.
func (q *outQueue) push(f Frame) error {
	return q.add(f, true)
}

// pushShared queues f, whose data the caller will not change: the frames
// of one broadcast share it. It fails as push does.
func (q *outQueue) pushShared(f Frame) error {
	return q.add(f, false)
}

// errQueueClosed: the queue's peer is leaving, and takes no more frames.
var errQueueClosed = errors.New("multiplayer: the peer's queue is closed")

// errSharedSpent: the shared queue budget (a room's, the process's) is
// spent.
var errSharedSpent = fmt.Errorf("%w: the shared queue budget is spent", ErrBudget)

func (q *outQueue) add(f Frame, copyData bool) error {
	n := frameCost(len(f.Data))
	q.mu.Lock()
	defer q.mu.Unlock()
	switch {
	case q.closed:
		return errQueueClosed
	case q.bytes+n > q.budget:
		return fmt.Errorf("%w: more than %d bytes waiting to be sent", ErrBudget, q.budget)
	case !q.shared.take(n):
		return errSharedSpent
	}
	if copyData && len(f.Data) > 0 {
		f.Data = append([]byte(nil), f.Data...)
	}
	if q.queue == nil {
		q.queue = framesPool.Get().(*frames)
	}
	q.queue.fs = append(q.queue.fs, f)
	q.bytes += n
	if !q.writing {
		q.writing = true
		go q.run()
	} else {
		q.cond.Broadcast() // wake the writer
	}
	return nil
}

// write sends what is queued, batch after batch, waiting for more when
// the queue is empty, until the queue is closed and drained.
func (q *outQueue) write() {
	for {
		q.mu.Lock()
		for !q.closed && q.queue == nil {
			q.cond.Wait()
		}
		if q.queue != nil && q.gather > 0 && !q.closed {
			// Let more frames gather (WebSocketOptions.WriteDelay).
			q.mu.Unlock()
			time.Sleep(q.gather)
			q.mu.Lock()
		}
		if q.queue == nil { // closed and drained
			q.writing = false
			q.endLocked()
			q.mu.Unlock()
			return
		}
		// The queue's frames go to the writer; the next push takes a
		// slice from the pool.
		batch := q.queue
		q.queue = nil
		q.mu.Unlock()

		err := q.send(batch.fs)
		cost := 0
		for i := range batch.fs {
			cost += frameCost(len(batch.fs[i].Data))
		}
		putFrames(batch) // an idle peer keeps no slice
		q.mu.Lock()
		q.bytes -= cost
		q.shared.give(cost)
		if err != nil {
			q.dropLocked()
			q.closed, q.writing = true, false
			q.endLocked()
			q.mu.Unlock()
			q.fail(err)
			return
		}
		q.mu.Unlock()
	}
}

// dropLocked lets go of the frames not yet taken by the writer, giving
// back what they were charged.
func (q *outQueue) dropLocked() {
	if q.queue == nil {
		return
	}
	cost := 0
	for i := range q.queue.fs {
		cost += frameCost(len(q.queue.fs[i].Data))
	}
	q.bytes -= cost
	q.shared.give(cost)
	putFrames(q.queue)
	q.queue = nil
}

// endLocked closes done once the queue is closed and has no writer.
func (q *outQueue) endLocked() {
	if q.closed && !q.writing && !q.ended {
		q.ended = true
		close(q.done)
	}
}

// frames holds a queue's frames. A queue takes one from framesPool when a
// frame arrives and gives it back when it is empty again.
type frames struct{ fs []Frame }

var framesPool = sync.Pool{New: func() any { return &frames{fs: make([]Frame, 0, 8)} }}

// maxPooledFrames is the largest slice given back to the pool: a burst's
// is let go.
const maxPooledFrames = 64

func putFrames(b *frames) {
	if b == nil || cap(b.fs) > maxPooledFrames {
		return
	}
	clear(b.fs)
	b.fs = b.fs[:0]
	framesPool.Put(b)
}

// maxWriteBatch is the most frames handed to a batchLink at once: a
// longer batch (the notices of a crowd joining) goes in several writes,
// so that the scratch of each stays small enough to be pooled rather
// than made anew for it.
const maxWriteBatch = 32

func (q *outQueue) send(batch []Frame) error {
	if bl, ok := q.link.(batchLink); ok {
		for len(batch) > 0 {
			n := min(len(batch), maxWriteBatch)
			if err := bl.writeFrames(batch[:n]); err != nil {
				return err
			}
			batch = batch[n:]
		}
		return nil
	}
	for _, f := range batch {
		if err := q.link.WriteFrame(f); err != nil {
			return err
		}
	}
	return nil
}

// queued returns the bytes waiting or being written.
func (q *outQueue) queued() int {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.bytes
}

// close refuses further frames; what is queued is still written, and done
// is closed once it is. Once the peer is gone, discard gives the rest back.
func (q *outQueue) close() {
	q.mu.Lock()
	q.closed = true
	q.cond.Broadcast()
	q.endLocked()
	q.mu.Unlock()
}

// discard drops what is still queued and not being written, giving its
// bytes back to the shared budget.
func (q *outQueue) discard() {
	q.mu.Lock()
	q.closed = true
	q.dropLocked()
	q.cond.Broadcast()
	q.endLocked()
	q.mu.Unlock()
}

// wait waits until the queue is closed and its writer has ended.
func (q *outQueue) wait() { <-q.done }
