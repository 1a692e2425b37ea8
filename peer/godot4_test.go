package peer

import (
	"context"
	"strconv"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/variant"
)

// Godot 4.6 (its official web build, in headless Chromium) connects with
// WebSocketPeer to our WebSocket server and exchanges values of every type,
// a PackedByteArray of several MiB and many values in a row, then closes.
func TestGodot4WebSocket(t *testing.T) {
	godot4web.Skip(t)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{
		MaxSize: 16 << 20,
		// The browser sends the origin of the harness page, another
		// loopback port.
		WebSocket: WebSocketOptions{Origins: []string{"127.0.0.1:*"}},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	clientExchange(ctx, t, l, variant.Godot4, "Godot 4", func(port string) (string, string, int) {
		r := godot4web.Run(t, godot4web.Job{
			Script:  "testdata/ws_client4.gd",
			Args:    []string{port, strconv.Itoa(interopBig), strconv.Itoa(interopMany)},
			Timeout: 3 * time.Minute,
		})
		return r.Stdout, r.Stderr, r.Code
	})
}
