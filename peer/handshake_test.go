package peer

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// httpAnswer sends req on a new connection to l and reads the HTTP answer;
// the connection must then be closed by the server.
func httpAnswer(t *testing.T, l *Listener, req string) (*http.Response, string) {
	t.Helper()
	nc, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	nc.SetDeadline(time.Now().Add(5 * time.Second))
	if _, err := io.WriteString(nc, req); err != nil {
		t.Fatal(err)
	}
	br := bufio.NewReader(nc)
	resp, err := http.ReadResponse(br, nil)
	if err != nil {
		t.Fatalf("no HTTP answer: %v", err)
	}
	body, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("body: %v", err)
	}
	if n, err := br.Read(make([]byte, 1)); n != 0 || err == nil {
		t.Errorf("after the answer: %d bytes, %v (want the connection closed)", n, err)
	}
	return resp, string(body)
}

// A WebSocket listener answers requests that are not opening handshakes
// with the HTTP error net/http's server would give them, and closes the
// connection; an oversized or malformed request too.
func TestHandshakeRefusals(t *testing.T) {
	var mu sync.Mutex
	var refused []string
	l, err := ListenWebSocket(testCtx(t), "127.0.0.1:0", Options{WebSocket: WebSocketOptions{
		OnRefused: func(addr string, err error) {
			mu.Lock()
			refused = append(refused, err.Error())
			mu.Unlock()
		},
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, c := range []struct {
		name, req string
		status    int
		body      string
	}{
		{"plain GET", "GET / HTTP/1.1\r\nHost: x\r\n\r\n", 400, "Bad Request"},
		{"POST upgrade", "POST / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\r\n", 405, "Method Not Allowed"},
		{"no key", "GET / HTTP/1.1\r\nHost: x\r\nConnection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\r\n", 400, "Bad Request"},
		{"other origin", "GET / HTTP/1.1\r\nHost: x\r\nOrigin: http://elsewhere\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n" +
			"Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n", 403, "Origin \"http://elsewhere\""},
		{"malformed", "GET\r\n\r\n", 400, "Bad Request"},
		{"too large", "GET / HTTP/1.1\r\nHost: x\r\nX-Big: " + strings.Repeat("a", maxHandshakeBytes) + "\r\n\r\n", 431, "Request Header Fields Too Large"},
	} {
		resp, body := httpAnswer(t, l, c.req)
		if resp.StatusCode != c.status || !strings.Contains(body, c.body) {
			t.Errorf("%s: %s %q, want %d and %q", c.name, resp.Status, body, c.status, c.body)
		}
		if resp.ContentLength != int64(len(body)) {
			t.Errorf("%s: Content-Length %d for %d bytes", c.name, resp.ContentLength, len(body))
		}
	}
	waitUntil(t, "no connection open", func() bool { return l.Conns() == 0 })
	mu.Lock()
	defer mu.Unlock()
	if len(refused) != 4 {
		t.Errorf("OnRefused told %d refusals of the 4 requests the upgrade read: %q", len(refused), refused)
	}
}

// Close closes the connections whose handshake is still being read.
func TestHandshakeClose(t *testing.T) {
	l, err := ListenWebSocket(testCtx(t), "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	nc, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer nc.Close()
	io.WriteString(nc, "GET / HTTP/1.1\r\n") // half a request
	waitUntil(t, "the connection accepted", func() bool { return l.Conns() == 1 })
	l.Close()
	if !closedByPeer(nc, 2*time.Second) {
		t.Error("a connection in its handshake outlived Close")
	}
	if _, err := net.Dial("tcp", l.Addr().String()); err == nil {
		t.Error("the listener still accepts after Close")
	}
}

// BenchmarkWebSocketAccept: a client's connection and opening handshake,
// and its close; B/op is what the server and the client allocate.
func BenchmarkWebSocketAccept(b *testing.B) {
	l, err := ListenWebSocket(context.Background(), "127.0.0.1:0", Options{MaxConnsPerIP: -1, MaxConns: -1})
	if err != nil {
		b.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept(context.Background())
			if err != nil {
				return
			}
			c.Close()
		}
	}()
	url := "ws://" + l.Addr().String() + "/"
	b.ReportAllocs()
	for b.Loop() {
		ws, _, err := websocket.DefaultDialer.Dial(url, nil)
		if err != nil {
			b.Fatal(err)
		}
		ws.Close()
	}
}
