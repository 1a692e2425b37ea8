package peer

import (
	"bytes"
	"net"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A server's WritePayloads sends each payload as one binary message, its
// pieces end to end, whatever their sizes (copied below wsCopyMax, written
// where they lie from it) and however many (more pieces than one writev
// takes); a client reads them with an independent library, in order.
func TestWebSocketWritePayloads(t *testing.T) {
	ctx := testCtx(t)
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	accepted := make(chan *Conn, 1)
	go func() {
		c, err := l.Accept(ctx)
		if err != nil {
			t.Error(err)
		}
		accepted <- c
	}()
	ws, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+l.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	c := <-accepted
	if c == nil {
		t.FailNow()
	}
	defer c.Close()

	piece := func(n int, b byte) []byte { return bytes.Repeat([]byte{b}, n) }
	sizes := []int{0, 1, 9, 125, 126, wsCopyMax - 1, wsCopyMax, 4000, 0xffff - 20}
	var ps []net.Buffers
	var want [][]byte
	for i := range 3 * wsMaxIovecs {
		a, b := sizes[i%len(sizes)], sizes[(i/len(sizes))%len(sizes)]
		p := net.Buffers{piece(a, byte(i)), piece(b, byte(i+1))}
		if i%5 == 0 {
			p = net.Buffers{piece(9, byte(i))} // one piece alone
		}
		ps = append(ps, p)
		want = append(want, bytes.Join(p, nil))
	}
	errc := make(chan error, 1)
	go func() { errc <- c.WritePayloads(ps) }()
	ws.SetReadDeadline(time.Now().Add(10 * time.Second))
	for i, w := range want {
		mt, got, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("message %d: %v", i, err)
		}
		if mt != websocket.BinaryMessage || !bytes.Equal(got, w) {
			t.Fatalf("message %d: type %d, %d bytes, want %d", i, mt, len(got), len(w))
		}
	}
	if err := <-errc; err != nil {
		t.Fatal(err)
	}
}
