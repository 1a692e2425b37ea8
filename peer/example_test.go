package peer_test

import (
	"context"
	"fmt"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"
	"time"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// A TCP server for Godot clients that answer with StreamPeerTCP.put_var
// and get_var. Here a Go client plays the game's part.
func ExampleListenTCP() {
	ctx := context.Background()
	l, err := peer.ListenTCP(ctx, "127.0.0.1:0", peer.Options{})
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
			go func() {
				defer c.Close()
				for {
					v, err := c.ReadValue() // the game's put_var
					if err != nil {
						return
					}
					reply := variant.NewDictionary(1)
					reply.Set(variant.String("got"), v)
					c.WriteValue(reply) // the game's get_var
				}
			}()
		}
	}()

	// The game's side, in GDScript:
	//	var tcp = StreamPeerTCP.new()
	//	tcp.connect_to_host("127.0.0.1", port)
	//	tcp.put_var(Vector2(1, 2))
	//	print(tcp.get_var())
	c, err := peer.DialTCP(ctx, l.Addr().String(), peer.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.WriteValue(variant.Vector2{X: 1, Y: 2})
	v, err := c.ReadValue()
	if err != nil {
		log.Fatal(err)
	}
	text, _ := gdtext.Format(v, gdtext.Options{})
	fmt.Println(text)
	// Output:
	// { "got": Vector2(1, 2) }
}

// Messages as Go structs: Encode sends a struct as the Dictionary a
// Godot game reads with get_var, for the connection's engine family
// (Godot 3 here), and Decode fills a struct from the Dictionary the game
// sends with put_var. The server limits are set explicitly here; zero
// values mean the documented defaults.
func Example_structs() {
	type Move struct {
		Player string          `gdvar:"player"`
		To     variant.Vector2 `gdvar:"to"`
	}
	type State struct {
		Turn    int                        `gdvar:"turn"`
		Players map[string]variant.Vector2 `gdvar:"players"`
	}
	ctx := context.Background()
	opts := peer.Options{
		Godot:        variant.Godot3,
		MaxConns:     100,
		IdleTimeout:  time.Minute,
		FrameTimeout: 10 * time.Second,
		BufferBudget: 16 << 20,
	}
	l, err := peer.ListenTCP(ctx, "127.0.0.1:0", opts)
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept(ctx)
		if err != nil {
			return
		}
		defer c.Close()
		state := State{Players: map[string]variant.Vector2{}}
		for {
			var m Move
			if err := c.Decode(&m); err != nil { // the game's put_var({"player": …, "to": …})
				return
			}
			state.Turn++
			state.Players[m.Player] = m.To
			c.Encode(state) // the game's get_var()
		}
	}()

	// The game's side, in GDScript (Godot 3):
	//	tcp.put_var({"player": "ada", "to": Vector2(3, 4)})
	//	var state = tcp.get_var()  # {"players": {"ada": Vector2(3, 4)}, "turn": 1}
	c, err := peer.DialTCP(ctx, l.Addr().String(), peer.Options{Godot: variant.Godot3})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.Encode(Move{Player: "ada", To: variant.Vector2{X: 3, Y: 4}})
	var state State
	if err := c.Decode(&state); err != nil {
		log.Fatal(err)
	}
	fmt.Printf("turn %d: %v\n", state.Turn, state.Players)
	// Output:
	// turn 1: map[ada:Vector2(3, 4)]
}

// A UDP server: each datagram is one value, answered to its sender.
func ExampleListenUDP() {
	ctx := context.Background()
	// Godot 3's PacketPeerUDP; Godot 4 is the default.
	opts := peer.Options{Godot: variant.Godot3}
	srv, err := peer.ListenUDP(ctx, "127.0.0.1:0", opts)
	if err != nil {
		log.Fatal(err)
	}
	defer srv.Close()
	go func() {
		for {
			v, from, err := srv.ReadValueFrom()
			if err != nil {
				if from != nil {
					continue // a bad datagram
				}
				return
			}
			srv.WriteValueTo(v, from)
		}
	}()

	c, err := peer.DialUDP(ctx, srv.LocalAddr().String(), opts)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.WriteValue(variant.PackedInt32Array{1, 2, 3}) // a PoolIntArray
	v, err := c.ReadValue()
	fmt.Printf("%#v %v\n", v, err)
	// Output:
	// PackedInt32Array(1, 2, 3) <nil>
}

// A WebSocket server for Godot's WebSocketPeer, which sends each put_var
// as one binary message.
func ExampleListenWebSocket() {
	ctx := context.Background()
	l, err := peer.ListenWebSocket(ctx, "127.0.0.1:0", peer.Options{
		// Accept web exports served from these hosts too.
		WebSocket: peer.WebSocketOptions{Origins: []string{"localhost:*", "*.itch.zone"}},
	})
	if err != nil {
		log.Fatal(err)
	}
	defer l.Close()
	go func() {
		c, err := l.Accept(ctx)
		if err != nil {
			return
		}
		defer c.Close()
		v, _ := c.ReadValue()
		c.WriteValue(v)
	}()

	// In GDScript (Godot 4):
	//	var ws = WebSocketPeer.new()
	//	ws.connect_to_url("ws://127.0.0.1:%d/" % port)
	//	# in _process: ws.poll(); then ws.put_var(…) / ws.get_var()
	c, err := peer.DialWebSocket(ctx, "ws://"+l.Addr().String()+"/", peer.Options{})
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(5 * time.Second))
	c.WriteValue(variant.StringName("ready"))
	v, err := c.ReadValue()
	fmt.Println(variant.TypeOf(v), v, err)
	// Output:
	// StringName &"ready" <nil>
}

// An Upgrader in a net/http server: the connections it upgrades share
// its limits (here at most 2 at once, and 16 MiB of values being
// received); a request beyond them gets 503.
func ExampleNewUpgrader() {
	up, err := peer.NewUpgrader(peer.Options{MaxConns: 2, BufferBudget: 16 << 20})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	mux.HandleFunc("/game", func(w http.ResponseWriter, r *http.Request) {
		c, err := up.Upgrade(w, r)
		if err != nil {
			return // answered already
		}
		go func() {
			defer c.Close()
			for {
				v, err := c.ReadValue()
				if err != nil {
					return
				}
				c.WriteValue(v)
			}
		}()
	})
	srv := httptest.NewServer(mux) // an http.Server in real code
	defer srv.Close()

	url := "ws" + strings.TrimPrefix(srv.URL, "http") + "/game"
	ctx := context.Background()
	for i := range 3 {
		c, err := peer.DialWebSocket(ctx, url, peer.Options{})
		if err != nil {
			fmt.Println(i, strings.Contains(err.Error(), "503"))
			continue
		}
		defer c.Close()
		fmt.Println(i, "connected")
	}
	// Output:
	// 0 connected
	// 1 connected
	// 2 true
}
