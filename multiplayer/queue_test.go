package multiplayer

import (
	"net"
	"sync"
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
func TestQueuedBytesCoverHeap(t *testing.T) {
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
		wg.Go(func() { h.ServeLink(newStuckLink()) })
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
