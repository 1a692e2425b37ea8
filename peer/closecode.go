package peer

import (
	"time"

	"github.com/gorilla/websocket"
)

// WebSocket close status codes a server sends when it ends a connection
// (RFC 6455, section 7.4.1).
const (
	CloseNormal        = websocket.CloseNormalClosure // 1000: done
	CloseGoingAway     = websocket.CloseGoingAway     // 1001: the server is shutting down
	CloseTryAgainLater = websocket.CloseTryAgainLater // 1013: busy or draining; retry later
)

// CloseWith closes a WebSocket connection as Close does, but with the
// given close status code and reason (at most 123 bytes, longer is cut) in
// the close frame, so that the other side can tell why: a browser's
// CloseEvent, Godot's WebSocketPeer.get_close_code and get_close_reason.
// Codes 4000–4999 are the application's own. For TCP and UDP connections
// it is Close.
func (c *Conn) CloseWith(code int, reason string) error {
	if pt, ok := c.tr.(pollTransport); ok {
		if len(reason) > 123 {
			reason = reason[:123]
		}
		c.closeOnce.Do(func() { pt.closeWith(code, reason) })
		return nil
	}
	t, ok := c.tr.(*wsTransport)
	if !ok {
		return c.Close()
	}
	if len(reason) > 123 {
		reason = reason[:123]
	}
	c.closeOnce.Do(func() {
		if !c.aborted.Load() {
			msg := websocket.FormatCloseMessage(code, reason)
			if t.ws.WriteControl(websocket.CloseMessage, msg, time.Now().Add(time.Second)) == nil && c.cfg.closeTimeout > 0 {
				c.linger(c.cfg.closeTimeout)
			}
		}
		c.closeErr = t.close()
		c.rmu.Lock()
		t.release()
		c.rmu.Unlock()
		if c.onClose != nil {
			c.onClose()
		}
	})
	return c.closeErr
}
