package multiplayer_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net"
	"strings"

	"github.com/gdvar/gdvar/multiplayer"
)

// Many rooms in one process: a client names its room in the URL; names
// the Open callback does not know are refused, and the client is told
// why; Shutdown drains.
func ExampleRooms() {
	rs, err := multiplayer.NewRooms(multiplayer.RoomsOptions{
		Open: func(ctx context.Context, name string, o multiplayer.HostOptions) (*multiplayer.Host, error) {
			if !strings.HasPrefix(name, "match-") {
				return nil, multiplayer.ErrRoomUnknown
			}
			return multiplayer.NewHost(o)
		},
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		panic(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		panic(err)
	}
	ctx, stop := context.WithCancel(context.Background())
	served := make(chan error)
	go func() { served <- rs.ServeWebSocket(ctx, ln) }()

	join := func(room string) (*multiplayer.Client, error) {
		link, err := multiplayer.DialWebSocket(ctx, "ws://"+ln.Addr().String()+"/"+room, multiplayer.WebSocketOptions{})
		if err != nil {
			return nil, err
		}
		return multiplayer.Join(ctx, link, multiplayer.ClientOptions{})
	}
	a, _ := join("match-1")
	b, _ := join("match-2")
	fmt.Println("rooms:", rs.Stats().Rooms, "players:", rs.Stats().Peers)
	fmt.Println("match-1 has", len(rs.Room("match-1").Host().Peers()), "player")
	_, err = join("lobby")
	fmt.Println("lobby refused:", err)

	stop() // as SIGTERM would: drain, disconnect, return
	<-served
	<-a.Done()
	<-b.Done()
	fmt.Println("after the drain:", rs.Stats().Rooms, "rooms")
	// Output:
	// rooms: 2 players: 2
	// match-1 has 1 player
	// lobby refused: multiplayer: handshake failed: peer: websocket closed by the peer: websocket: close 4404: unknown room
	// after the drain: 0 rooms
}
