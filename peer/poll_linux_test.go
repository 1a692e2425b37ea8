package peer

import (
	"bytes"
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
		return pc.out.b == nil && pc.out.held == 0
	})
}
