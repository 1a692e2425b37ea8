package peer_test

import (
	"context"
	"fmt"
	"log"

	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// echoHandler answers each message of a polled connection with the same
// bytes, on the Poller's goroutine.
type echoHandler struct{ c *peer.Conn }

func (h echoHandler) Payload(p []byte) error { return h.c.WritePayload(p) }
func (h echoHandler) Ended(err error)        {}

// A WebSocket server whose connections are read by a Poller: no goroutine
// per client. Here a Go client plays the game's part (put_var, get_var).
func ExamplePoller() {
	ctx := context.Background()
	p, err := peer.NewPoller(peer.PollerOptions{})
	if err != nil {
		log.Fatal(err) // peer.ErrPollUnsupported away from Linux
	}
	defer p.Close()
	l, err := peer.ListenWebSocket(ctx, "127.0.0.1:0", peer.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			c, err := l.Accept(ctx)
			if err != nil {
				return
			}
			if err := c.Poll(p, echoHandler{c}, peer.PollOptions{}); err != nil {
				c.Close()
			}
		}
	}()

	c, err := peer.DialWebSocket(ctx, "ws://"+l.Addr().String(), peer.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	c.WriteValue(variant.String("hello"))
	v, err := c.ReadValue()
	fmt.Println(v, err)
	// Output: "hello" <nil>
}
