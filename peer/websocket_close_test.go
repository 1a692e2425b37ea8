package peer

import (
	"context"
	"errors"
	"io"
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
