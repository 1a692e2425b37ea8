package multiplayer

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// refusalLogBuffer is a bytes.Buffer safe for a logger's concurrent writes.
type refusalLogBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *refusalLogBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *refusalLogBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A browser client refused for its Origin is logged with the reason and
// the option that allows it; a flood of them is rate-limited.
func TestWebSocketOriginRefusalLogged(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var out refusalLogBuffer
	log := slog.New(slog.NewTextHandler(&out, nil))
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Logger: log})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	h := http.Header{"Origin": {"http://127.0.0.1:8060"}}
	for range 50 {
		ws, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+l.Addr().String()+"/", h)
		if err == nil {
			ws.Close()
			t.Fatal("a foreign Origin was accepted")
		}
	}
	text := out.String()
	lines := strings.Count(text, "\n")
	if lines < 1 || lines > 12 || !strings.Contains(text, "level=WARN") ||
		!strings.Contains(text, "multiplayer: refused a WebSocket client") ||
		!strings.Contains(text, `127.0.0.1:8060`) || !strings.Contains(text, "WebSocket.Origins") {
		t.Errorf("%d lines logged:\n%s", lines, text)
	}
}

// A client that leaves while the host is sending to it leaves normally:
// OnDisconnect gets nil and nothing is logged as a drop, however the
// host's writes and the closing handshake interleave.
func TestLeaveWhileSendingIsNormal(t *testing.T) {
	var out refusalLogBuffer
	left := make(chan error, 64)
	node := Node{Path: "Main", Methods: []Method{{Name: "tick", Mode: Authority}}}
	h, url := startHost(t, HostOptions{
		Logger:       slog.New(slog.NewTextHandler(&out, nil)),
		OnDisconnect: func(_ PeerID, err error) { left <- err },
	}, node)
	stop := make(chan struct{})
	defer close(stop)
	go func() {
		for {
			select {
			case <-stop:
				return
			default:
				h.Call(0, "Main", "tick")
				time.Sleep(time.Millisecond)
			}
		}
	}()
	for i := range 60 {
		c := join(t, url, ClientOptions{}, node)
		time.Sleep(time.Duration(i%4) * time.Millisecond)
		c.Close()
		select {
		case err := <-left:
			if err != nil {
				t.Errorf("leave %d: %v", i, err)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("leave %d not reported", i)
		}
	}
	if strings.Contains(out.String(), "dropping peer") {
		t.Errorf("a normal leave was logged as a drop:\n%s", out.String())
	}
}
