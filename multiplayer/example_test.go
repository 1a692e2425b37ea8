package multiplayer_test

import (
	"context"
	"fmt"
	"log"
	"time"

	"github.com/gdvar/gdvar/enet/godotcompress"
	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// A host with one RPC, and a client that calls it: what a Godot game does
// with rpc_id(1, "move", Vector2(3, 4)) on the node /root/Main/Player.
func Example() {
	moved := make(chan string, 1)
	player := multiplayer.Node{Path: "Main/Player", Methods: []multiplayer.Method{{
		Name:     "move",
		Mode:     multiplayer.AnyPeer,
		Transfer: multiplayer.Reliable,
		Handler: func(ctx context.Context, from multiplayer.PeerID, pos variant.Vector2) error {
			moved <- fmt.Sprintf("moved to %v, %v", pos.X, pos.Y)
			return nil
		},
	}}}
	host, err := multiplayer.NewHost(multiplayer.HostOptions{}, player)
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	l, err := multiplayer.ListenWebSocket(ctx, "127.0.0.1:0", multiplayer.WebSocketOptions{})
	if err != nil {
		log.Fatal(err)
	}
	go host.Serve(ctx, l)

	// The client side, as a Godot game would do it.
	link, err := multiplayer.DialWebSocket(ctx, "ws://"+l.Addr().String(), multiplayer.WebSocketOptions{})
	if err != nil {
		log.Fatal(err)
	}
	client, err := multiplayer.Join(ctx, link, multiplayer.ClientOptions{}, player)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	if err := client.Call(multiplayer.HostID, "Main/Player", "move", variant.Vector2{X: 3, Y: 4}); err != nil {
		log.Fatal(err)
	}
	fmt.Println(<-moved)
	// Output: moved to 3, 4
}

// Parse reads a packet a Godot 4 client sent: here rpc_id(1, "ping") on a
// node whose path the host has confirmed (cache id 1, method id 3).
func ExampleParse() {
	p, err := multiplayer.Parse(variant.Godot4, []byte{0x80, 0x01, 0x03})
	if err != nil {
		log.Fatal(err)
	}
	fmt.Println(p.Command, p.NodeID, p.Method, p.ArgCount)
	// Output: REMOTE_CALL 1 3 0
}

// AppendArgs encodes arguments as Godot 4 compresses them: an int in the
// fewest bytes, a bool in one.
func ExampleAppendArgs() {
	b, raw, n, err := multiplayer.AppendArgs(nil, nil, variant.Int(1000), variant.Bool(true))
	if err != nil {
		log.Fatal(err)
	}
	fmt.Printf("%x raw=%v count=%d\n", b, raw, n)
	// Output: 42e80381 raw=false count=2
}

// ScriptRPCs reads the RPC methods a Godot 4 script declares, with their
// modes, for a Node declaration.
func ExampleScriptRPCs() {
	src := `extends CharacterBody2D

@rpc("any_peer", "unreliable_ordered")
func move(pos: Vector2) -> void:
	position = pos

@rpc("authority", "call_local", "reliable")
func hit(damage: int) -> void:
	pass
`
	methods, err := multiplayer.ScriptRPCs(variant.Godot4, src)
	if err != nil {
		log.Fatal(err)
	}
	for _, m := range methods {
		fmt.Println(m.Name, m.Mode, m.Transfer, m.CallLocal)
	}
	// Output:
	// move any_peer unreliable_ordered false
	// hit authority reliable true
}

// A Godot 3 host over ENet, as NetworkedMultiplayerENet.create_server
// with compression_mode COMPRESS_ZSTD: Godot 3 games join it with
// create_client; here a Go client does.
func ExampleListenENet() {
	chat := multiplayer.Node{Path: "Chat", Methods: []multiplayer.Method{{
		Name: "say", Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable,
	}}}
	said := make(chan string, 1)
	chat.Methods[0].Handler = func(_ context.Context, from multiplayer.PeerID, text string) { said <- text }
	host, err := multiplayer.NewHost(multiplayer.HostOptions{Godot: variant.Godot3}, chat)
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	o := multiplayer.ENetOptions{Godot: variant.Godot3, Compression: godotcompress.Zstd}
	l, err := multiplayer.ListenENet(ctx, "127.0.0.1:0", o)
	if err != nil {
		log.Fatal(err)
	}
	go host.Serve(ctx, l)

	link, err := multiplayer.DialENet(ctx, l.Addr().String(), o)
	if err != nil {
		log.Fatal(err)
	}
	client, err := multiplayer.Join(ctx, link, multiplayer.ClientOptions{Godot: variant.Godot3}, chat)
	if err != nil {
		log.Fatal(err)
	}
	defer client.Close()
	if err := client.Call(multiplayer.HostID, "Chat", "say", "hello over ENet"); err != nil {
		log.Fatal(err)
	}
	fmt.Println(<-said)
	// Output: hello over ENet
}
