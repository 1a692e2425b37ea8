package multiplayer

import (
	"errors"
	"net"
	"sync"
	"testing"
	"time"
)

// batchRecorder is a batchLink and gatherLink that records the batches
// written to it.
type batchRecorder struct {
	mu      sync.Mutex
	batches [][]Frame
	delay   time.Duration
	fail    error
}

func (l *batchRecorder) writeFrames(fs []Frame) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	cp := make([]Frame, len(fs))
	for i, f := range fs {
		f.Data = append([]byte(nil), f.Data...)
		cp[i] = f
	}
	l.batches = append(l.batches, cp)
	return l.fail
}
func (l *batchRecorder) gatherDelay() time.Duration { return l.delay }
func (l *batchRecorder) ReadFrame() (Frame, error)  { return Frame{}, net.ErrClosed }
func (l *batchRecorder) WriteFrame(f Frame) error   { return l.writeFrames([]Frame{f}) }
func (l *batchRecorder) RemoteAddr() net.Addr       { return nil }
func (l *batchRecorder) Close() error               { return nil }

// Frames queued while the writer waits (WriteDelay) go out in one batch,
// in order, sharing the data pushed as shared; the queue's charge returns
// to 0 once they are written, and an idle queue has no writer.
func TestQueueBatches(t *testing.T) {
	l := &batchRecorder{delay: 50 * time.Millisecond}
	q := newOutQueue(1<<20, l, func(err error) { t.Errorf("write failed: %v", err) })
	shared := []byte("broadcast")
	for i := range 10 {
		if q.pushShared(Frame{Kind: FrameData, Data: shared, Peer: PeerID(i)}) != nil {
			t.Fatal("push refused")
		}
	}
	q.close()
	q.wait()
	if len(l.batches) != 1 || len(l.batches[0]) != 10 {
		t.Fatalf("batches: %d, want 1 of 10", len(l.batches))
	}
	for i, f := range l.batches[0] {
		if f.Peer != PeerID(i) || string(f.Data) != "broadcast" {
			t.Errorf("frame %d: %+v", i, f)
		}
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.bytes != 0 || q.writing || q.queue != nil {
		t.Errorf("after the write: %d bytes charged, writing %v, queue %v", q.bytes, q.writing, q.queue)
	}
}

// A failed write closes the queue, gives back what it charged, and tells
// the host once; later pushes are refused.
func TestQueueWriteFails(t *testing.T) {
	boom := errors.New("boom")
	l := &batchRecorder{delay: 20 * time.Millisecond, fail: boom}
	var got []error
	var mu sync.Mutex
	q := newOutQueue(1<<20, l, func(err error) { mu.Lock(); got = append(got, err); mu.Unlock() })
	for range 3 {
		q.push(Frame{Kind: FrameData, Data: []byte{1, 2, 3}})
	}
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(time.Millisecond) {
		mu.Lock()
		n := len(got)
		mu.Unlock()
		if n > 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the failure was not reported")
		}
	}
	if err := q.push(Frame{Kind: FrameData, Data: []byte{4}}); err != errQueueClosed {
		t.Errorf("a push after a failed write: %v, want errQueueClosed", err)
	}
	q.wait()
	mu.Lock()
	defer mu.Unlock()
	if len(got) != 1 || !errors.Is(got[0], boom) {
		t.Errorf("failures reported: %v", got)
	}
	if q.bytes != 0 {
		t.Errorf("%d bytes still charged", q.bytes)
	}
}

// A long batch (a crowd's notices) is written maxWriteBatch frames at a
// time, in order.
func TestQueueLongBatch(t *testing.T) {
	l := &batchRecorder{delay: 50 * time.Millisecond}
	q := newOutQueue(1<<20, l, func(err error) { t.Errorf("write failed: %v", err) })
	const n = 3*maxWriteBatch + 4
	for i := range n {
		if q.push(Frame{Kind: FramePeerAdded, Peer: PeerID(i)}) != nil {
			t.Fatal("push refused")
		}
	}
	q.close()
	q.wait()
	next := 0
	for _, b := range l.batches {
		if len(b) > maxWriteBatch {
			t.Errorf("a write of %d frames, want at most %d", len(b), maxWriteBatch)
		}
		for _, f := range b {
			if f.Peer != PeerID(next) {
				t.Fatalf("frame %d: peer %d", next, f.Peer)
			}
			next++
		}
	}
	if next != n || len(l.batches) != 4 {
		t.Errorf("%d frames in %d writes, want %d in 4", next, len(l.batches), n)
	}
}

// A refused push says which budget refused it: the peer's own, charged
// at copyCost, or the shared one.
func TestQueuePushSaysWhichBudget(t *testing.T) {
	l := &batchRecorder{}
	l.mu.Lock() // the writers block in their first write, holding what they took
	data := make([]byte, 100)
	cost := (&outQueue{pooled: true}).copyCost(len(data))
	q := newOutQueue(2*cost, l, func(error) {})
	var qs []*outQueue
	defer func() {
		l.mu.Unlock()
		for _, q := range qs {
			q.close()
			q.wait()
		}
	}()
	qs = append(qs, q)
	q.shared = NewByteBudget(int64(3*cost), nil)
	for i := range 2 {
		if err := q.push(Frame{Kind: FrameData, Data: data}); err != nil {
			t.Fatalf("push %d: %v", i, err)
		}
	}
	if err := q.push(Frame{Kind: FrameData, Data: data}); !errors.Is(err, ErrBudget) || err == errSharedSpent {
		t.Errorf("over the peer's budget: %v", err)
	}
	q2 := newOutQueue(1<<20, l, func(error) {})
	qs = append(qs, q2)
	q2.shared = q.shared // one frame's room left in it
	if err := q2.push(Frame{Kind: FrameData, Data: data}); err != nil {
		t.Fatalf("push: %v", err)
	}
	if err := q2.push(Frame{Kind: FrameData, Data: data}); err != errSharedSpent {
		t.Errorf("over the shared budget: %v, want errSharedSpent", err)
	}
}

// The classes of pooled send buffers hold what they are asked for, with
// at most 15 bytes or an eighth of them unused, and each has a pool, which
// a buffer's capacity names.
func TestSendBufClass(t *testing.T) {
	last := -1
	for n := 1; n <= maxPooledSend; n++ {
		i, size := sendBufClass(n)
		if size < n || size-n > max(15, size/8) || i < last || i > last+1 || i >= len(sendBufPools) {
			t.Fatalf("%d bytes: class %d of %d bytes (the last was %d)", n, i, size, last)
		}
		if j, s := sendBufClass(size); j != i || s != size {
			t.Fatalf("a buffer of %d bytes: class %d, %d bytes; want %d", size, j, s, i)
		}
		last = i
	}
	if last != len(sendBufPools)-1 {
		t.Errorf("%d classes, %d pools", last+1, len(sendBufPools))
	}
}

// A pooled buffer pushed to several queues is held by each until its frame
// is written (or its write fails, or it is dropped), and given back by the
// last: a refused push takes no reference.
func TestSendBufShared(t *testing.T) {
	l := &batchRecorder{}
	stuck := newStuckLink()
	defer stuck.Close()
	written := []*outQueue{newOutQueue(1<<20, l, func(error) {}), newOutQueue(1<<20, l, func(error) {})}
	dropped := newOutQueue(1<<20, stuck, func(error) {})
	closed := newOutQueue(1<<20, l, func(error) {})
	closed.close()
	b := newSendBuf([]byte("shared"))
	for _, q := range append(written, dropped) {
		if err := q.pushBuf(Frame{Kind: FrameData, Data: b.b}, b); err != nil {
			t.Fatal(err)
		}
	}
	if err := closed.pushBuf(Frame{Kind: FrameData, Data: b.b}, b); err != errQueueClosed {
		t.Fatalf("push to a closed queue: %v", err)
	}
	b.release() // the pusher's reference
	for _, q := range written {
		q.close()
		q.wait()
	}
	if n := b.refs.Load(); n != 1 {
		t.Fatalf("%d references after two of three queues wrote the frame, want 1", n)
	}
	// The third queue's writer holds the frame in a write that fails.
	stuck.Close()
	dropped.discard()
	dropped.wait()
	if n := b.refs.Load(); n != 0 {
		t.Fatalf("%d references after the last queue's write failed, want 0", n)
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.batches) != 2 || string(l.batches[0][0].Data) != "shared" || string(l.batches[1][0].Data) != "shared" {
		t.Errorf("written: %v", l.batches)
	}

	// Frames dropped before their writer took them give theirs back too.
	q := newOutQueue(1<<20, &batchRecorder{delay: 100 * time.Millisecond}, func(error) {})
	b = newSendBuf([]byte("gathered"))
	if err := q.pushBuf(Frame{Kind: FrameData, Data: b.b}, b); err != nil {
		t.Fatal(err)
	}
	if err := q.push(Frame{Kind: FrameData, Data: []byte("copied")}); err != nil {
		t.Fatal(err)
	}
	b.release()
	q.discard()
	if n := b.refs.Load(); n != 0 {
		t.Errorf("%d references after the frame was dropped, want 0", n)
	}
	q.wait()
}
