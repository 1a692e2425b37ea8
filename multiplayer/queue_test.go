package multiplayer

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// stuckLink is a client that never reads: its writes block until it is
// closed, and it sends nothing.
type stuckLink struct {
	once   sync.Once
	closed chan struct{}
}

func newStuckLink() *stuckLink { return &stuckLink{closed: make(chan struct{})} }

func (l *stuckLink) ReadFrame() (Frame, error) { <-l.closed; return Frame{}, net.ErrClosed }
func (l *stuckLink) WriteFrame(Frame) error    { <-l.closed; return net.ErrClosed }
func (l *stuckLink) RemoteAddr() net.Addr      { return nil }
func (l *stuckLink) Close() error {
	l.once.Do(func() { close(l.closed) })
	return nil
}

// Clients that never read while the host broadcasts small packets: what
// the host holds for them stays within MaxQueuedBytes each, measured on the
// heap, because each queued frame is charged what it costs (a 4-byte
// packet was charged 20 bytes and held about 120).
// With links written in batches (WebSocket's), the queued frames' data is
// in pooled buffers, charged their capacity.
func TestQueuedBytesCoverHeap(t *testing.T) {
	t.Run("link", func(t *testing.T) { testQueuedBytesCoverHeap(t, func() Link { return newStuckLink() }) })
	t.Run("batch", func(t *testing.T) { testQueuedBytesCoverHeap(t, func() Link { return stuckBatchLink{newStuckLink()} }) })
}

// stuckBatchLink is a stuckLink written in batches (batchLink).
type stuckBatchLink struct{ *stuckLink }

func (l stuckBatchLink) writeFrames([]Frame) error { <-l.closed; return net.ErrClosed }

func testQueuedBytesCoverHeap(t *testing.T, newLink func() Link) {
	const (
		clients = 20
		budget  = 512 << 10
	)
	h, err := NewHost(HostOptions{MaxQueuedBytes: budget, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	before := heapInUse()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() { h.ServeLink(newLink()) })
	}
	for len(h.Peers()) < clients {
		time.Sleep(time.Millisecond)
	}
	// Broadcast until the queues are nearly full, by the host's account,
	// and measure what they hold.
	full := func() bool {
		h.mu.Lock()
		defer h.mu.Unlock()
		for _, p := range h.peers {
			p.q.mu.Lock()
			n := p.q.bytes
			p.q.mu.Unlock()
			if p.dropErr != nil || n > budget-budget/8 {
				return true
			}
		}
		return false
	}
	sent := 0
	for ; !full(); sent++ {
		if err := h.SendBytes(Broadcast, []byte{1, 2, 3, 4}, Reliable, 0); err != nil {
			t.Fatal(err)
		}
	}
	grew := heapInUse() - before
	var charged int
	h.mu.Lock()
	for _, p := range h.peers {
		p.q.mu.Lock()
		charged += p.q.bytes
		p.q.mu.Unlock()
		if p.q.bytes > budget {
			t.Errorf("peer %d: %d bytes queued, over the budget of %d", p.id, p.q.bytes, budget)
		}
	}
	h.mu.Unlock()
	t.Logf("%d broadcasts of 4 bytes to %d clients that do not read: %d bytes charged, heap +%d (budget %d each)", sent, clients, charged, grew, budget)
	if limit := int64(clients * budget); grew > limit {
		t.Errorf("the host holds %d bytes for %d clients, over their budgets' %d", grew, clients, limit)
	}
	if grew > int64(charged)+1<<20 {
		t.Errorf("the queues hold %d bytes, more than the %d charged", grew, charged)
	}
	h.Close()
	wg.Wait()
}

// A peer whose connection has closed (its writer has closed its queue) but
// which has not left yet is not dropped "over budget" when a packet for it
// arrives meanwhile, as happens to every peer of a room its clients leave
// at once (each leave queues a DEL_PEER notice for the others): it leaves
// with its own reason, and no budget drop is counted or logged.
func TestClosedQueueIsNotOverBudget(t *testing.T) {
	var warned atomic.Int64
	log := slog.New(countHandler{n: &warned})
	left := make(chan error, 2)
	h, err := NewHost(HostOptions{Logger: log, QueueBudget: NewByteBudget(1<<20, nil),
		OnDisconnect: func(_ PeerID, err error) { left <- err }})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	a, b := newStuckLink(), newStuckLink()
	go h.ServeLink(a)
	go h.ServeLink(b)
	for len(h.Peers()) < 2 {
		time.Sleep(time.Millisecond)
	}
	// a's connection has ended, as its writer sees it: its queue is
	// closed, and its reader has not yet seen the end.
	h.mu.Lock()
	var pa *hostPeer
	for _, p := range h.peers {
		if p.link == Link(a) {
			pa = p
		}
	}
	h.mu.Unlock()
	pa.q.close()
	// b leaves: a is sent a DEL_PEER notice it will never get.
	b.Close()
	if err := <-left; errors.Is(err, ErrBudget) {
		t.Fatalf("b left with %v", err)
	}
	h.mu.Lock()
	dropErr := pa.dropErr
	h.mu.Unlock()
	if dropErr != nil {
		t.Errorf("a leaving peer was dropped: %v", dropErr)
	}
	a.Close()
	if err := <-left; errors.Is(err, ErrBudget) {
		t.Errorf("a left with %v, want its connection's end", err)
	}
	if n := warned.Load(); n != 0 {
		t.Errorf("%d warnings logged", n)
	}
}

// countHandler counts the records at Warn and above.
type countHandler struct{ n *atomic.Int64 }

func (c countHandler) Enabled(_ context.Context, l slog.Level) bool { return l >= slog.LevelWarn }
func (c countHandler) Handle(context.Context, slog.Record) error    { c.n.Add(1); return nil }
func (c countHandler) WithAttrs([]slog.Attr) slog.Handler           { return c }
func (c countHandler) WithGroup(string) slog.Handler                { return c }
