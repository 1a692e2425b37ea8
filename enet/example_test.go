package enet_test

import (
	"context"
	"fmt"
	"time"

	"github.com/gdvar/gdvar/enet"
)

// A server that echoes what its peers send, and a client that talks to it.
func Example() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	server, err := enet.Listen("udp", "127.0.0.1:0", &enet.Config{PeerLimit: 8})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer server.Close()
	go func() {
		for {
			ev, err := server.Service(ctx)
			if err != nil {
				return
			}
			if ev.Type == enet.EventReceive {
				ev.Peer.Send(ev.Channel, ev.Packet, enet.Reliable)
				// Send copied the packet: its buffer can take later ones.
				server.ReleasePacket(ev.Packet)
			}
		}
	}()

	// Connect with 2 channels and connect data 42 (Godot clients send their
	// peer ID there).
	client, peer, err := enet.Dial(ctx, "udp", server.LocalAddr().String(), 2, 42, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer client.Close()
	peer.Send(1, []byte("hello"), enet.Reliable)
	for {
		ev, err := client.Service(ctx)
		if err != nil {
			fmt.Println(err)
			return
		}
		switch ev.Type {
		case enet.EventConnect:
			fmt.Println("connected")
		case enet.EventReceive:
			fmt.Printf("%s on channel %d\n", ev.Packet, ev.Channel)
			return
		}
	}
	// Output:
	// connected
	// hello on channel 1
}

// Godot 3's NetworkedMultiplayerENet puts an 8-byte header on every packet.
func ExampleAppendGodot3Packet() {
	b := enet.AppendGodot3Packet(nil, 1, 1234567, []byte("hi"))
	src, dst, payload, _ := enet.ParseGodot3Packet(b)
	fmt.Printf("% x\n%d -> %d: %s\n", b, src, dst, payload)
	// Output:
	// 01 00 00 00 87 d6 12 00 68 69
	// 1 -> 1234567: hi
}
