package peer

import (
	"context"
	"net"
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
	rec := &recorder{}
	served := make(chan struct{})
	go func() {
		defer close(served)
		c, err := l.Accept(ctx)
		if err != nil {
			rec.end = err
			return
		}
		serveInterop(c, rec, len(sampleValues(variant.Godot4)))
	}()
	port := strconv.Itoa(l.Addr().(*net.TCPAddr).Port)
	r := godot4web.Run(t, godot4web.Job{
		Script:  "testdata/ws_client4.gd",
		Args:    []string{port, strconv.Itoa(interopBig), strconv.Itoa(interopMany)},
		Timeout: 3 * time.Minute,
	})
	checkScript(t, "Godot 4", r.Stdout, r.Stderr, r.Code)
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatal("the server still runs after the client quit")
	}
	checkReceived(t, rec, variant.Godot4, interopBig, interopMany)
	if !cleanEnd(rec.end) {
		t.Errorf("the connection ended with %v, want a clean close (io.EOF)", rec.end)
	}
}
