package peer

import (
	"context"
	"errors"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// A peer that closes with a normal leave's status (Godot's web exports
// send 3001 "destroyed" when the game frees its WebSocketPeer) is read as
// io.EOF; any other status is an error that names it.
func TestWebSocketCloseStatus(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, tc := range []struct {
		code   int
		reason string
		eof    bool
	}{
		{websocket.CloseNormalClosure, "", true},
		{websocket.CloseGoingAway, "", true},
		{CloseDestroyed, "destroyed", true},
		{websocket.ClosePolicyViolation, "bad", false},
		{4000, "custom", false},
	} {
		ws, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+l.Addr().String()+"/", nil)
		if err != nil {
			t.Fatal(err)
		}
		c, err := l.Accept(ctx)
		if err != nil {
			t.Fatal(err)
		}
		ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(tc.code, tc.reason), time.Now().Add(time.Second))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err = c.ReadValue()
		var ce *websocket.CloseError
		switch {
		case tc.eof && err != io.EOF:
			t.Errorf("close %d: %v, want io.EOF", tc.code, err)
		case !tc.eof && (!errors.As(err, &ce) || ce.Code != tc.code || ce.Text != tc.reason):
			t.Errorf("close %d: %v, want the status and reason", tc.code, err)
		}
		c.Close()
		ws.Close()
	}
}

// A browser page from another host is refused with 403 and a text that
// names the option to change, and a listener tells OnRefused.
func TestWebSocketOriginRefused(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	refused := make(chan error, 1)
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{WebSocket: WebSocketOptions{
		OnRefused: func(remote string, err error) { refused <- err },
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	h := http.Header{"Origin": {"http://game.example:8060"}}
	_, resp, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+l.Addr().String()+"/", h)
	if err == nil || resp == nil || resp.StatusCode != http.StatusForbidden {
		t.Fatalf("dial from another origin: %v, %v", err, resp)
	}
	body, _ := io.ReadAll(resp.Body)
	var oe *OriginError
	if got := <-refused; !errors.As(got, &oe) || oe.Origin != "http://game.example:8060" ||
		!strings.Contains(string(body), `list "game.example:8060"`) || !strings.Contains(got.Error(), "WebSocket.Origins") {
		t.Errorf("refusal %v, body %q", got, body)
	}
	// Allowed by a pattern, it is accepted.
	l2, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{WebSocket: WebSocketOptions{Origins: []string{"*.example"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer l2.Close()
	ws, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+l2.Addr().String()+"/", h)
	if err != nil {
		t.Fatalf("allowed origin: %v", err)
	}
	ws.Close()
}
