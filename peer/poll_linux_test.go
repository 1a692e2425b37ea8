package peer

import (
	"bytes"
	"errors"
	"testing"
)

// A Poller's connection holds an input buffer, charged to the budget,
// only while a message is arriving, and an output buffer only while
// output waits: an idle one holds neither.
func TestPollIdleHoldsNoBuffer(t *testing.T) {
	url, accept, l := polledServer(t, Options{BufferBudget: 1 << 20, MaxSize: 64 << 10})
	ws := dialGorilla(t, url)
	r := accept()
	budget := l.lim.budget
	msg := rawFrame(0x82, bytes.Repeat([]byte("x"), 5000), []byte{1, 2, 3, 4})
	ws.NetConn().Write(msg[:2000])
	waitUntil(t, "the partial message to be charged", func() bool { return budget.Used() >= 5000 })
	ws.NetConn().Write(msg[2000:])
	if _, got, err := ws.ReadMessage(); err != nil || len(got) != 5000 {
		t.Fatalf("echo: %d bytes, %v", len(got), err)
	}
	waitUntil(t, "the input buffer to be let go", func() bool { return budget.Used() == 0 })
	pc := r.c.tr.(*pollConn)
	waitUntil(t, "the output buffer to be let go", func() bool {
		pc.wmu.Lock()
		defer pc.wmu.Unlock()
		return pc.out == nil
	})
}

// The output buffer of a connection that reads nothing holds at most
// MaxPending bytes of capacity (and a control frame), whatever the sizes
// written and however much of it the socket took: what was written is
// dropped before it grows, and a pooled buffer it outgrows goes back.
func TestPollOutputWithinMaxPending(t *testing.T) {
	const maxPending = 1 << 20
	url, accept, _ := polledServerWith(t, Options{}, PollerOptions{Goroutines: 1}, PollOptions{MaxPending: maxPending})
	dialGorilla(t, url)
	r := accept()
	r.quiet = true
	pc := r.c.tr.(*pollConn)
	var werr error
	for i := 0; i < 100000 && werr == nil; i++ {
		werr = r.c.WritePayload(make([]byte, 1+i*7919%(48<<10))) // sizes from 1 byte to 48 KB
		pc.wmu.Lock()
		c, pooled := cap(pc.out), pc.outp != nil && cap(pc.out) > pollOutKeep
		pc.wmu.Unlock()
		if c > maxPending+wsMaxHeader+127 || pooled {
			t.Fatalf("after %d writes the output buffer has a capacity of %d (MaxPending %d), pooled buffer kept %v", i+1, c, maxPending, pooled)
		}
	}
	if !errors.Is(werr, ErrPendingFull) {
		t.Fatalf("writes to a client that reads nothing: %v, want ErrPendingFull", werr)
	}
}
