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
