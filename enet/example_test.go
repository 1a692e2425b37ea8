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

// A server that relays what one peer sends to the others, as a game's
// server relays a message to every other player: one SendMany queues the
// packet for all of them, with one copy that they share.
func ExampleHost_SendMany() {
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	server, err := enet.Listen("udp", "127.0.0.1:0", nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer server.Close()
	go func() {
		var errs []error
		for {
			ev, err := server.Service(ctx)
			if err != nil {
				return
			}
			if ev.Type != enet.EventReceive {
				continue
			}
			var others []*enet.Peer
			for _, p := range server.Peers() {
				if p != ev.Peer && p.Connected() {
					others = append(others, p)
				}
			}
			errs = append(errs[:0], make([]error, len(others))...)
			if failed := server.SendMany(others, ev.Channel, []byte("relayed: "), ev.Packet, enet.Reliable, errs); failed > 0 {
				fmt.Println(failed, "failed")
			}
			server.ReleasePacket(ev.Packet)
		}
	}()

	var peers []*enet.Peer
	var clients []*enet.Host
	for i := range 3 {
		c, p, err := enet.Dial(ctx, "udp", server.LocalAddr().String(), 1, uint32(i), nil)
		if err != nil {
			fmt.Println(err)
			return
		}
		defer c.Close()
		clients, peers = append(clients, c), append(peers, p)
	}
	connected := func() (n int) {
		for _, p := range server.Peers() {
			if p.Connected() {
				n++
			}
		}
		return n
	}
	for connected() < 3 {
		time.Sleep(time.Millisecond)
	}
	peers[0].Send(0, []byte("hello"), enet.Reliable)
	for _, c := range clients[1:] {
		for {
			ev, err := c.Service(ctx)
			if err != nil {
				fmt.Println(err)
				return
			}
			if ev.Type == enet.EventReceive {
				fmt.Printf("%s\n", ev.Packet)
				break
			}
		}
	}
	// Output:
	// relayed: hello
	// relayed: hello
}
