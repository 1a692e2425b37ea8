package enet

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
)

// TestGodot3ClientToGoServer: Godot 3's NetworkedMultiplayerENet connects
// as a client to a Go host, in each compression mode package enet
// implements; the Go side acts as Godot's server (ID 1) and exchanges
// packets with it. Godot's FastLZ and Zstandard, which package
// godotcompress adds through a Compressor, are checked against the engine
// in package multiplayer (TestGodot3ENetClient, TestGodot3ENetRelay).
func TestGodot3ClientToGoServer(t *testing.T) {
	enginetest.Godot3(t)
	modes := []struct {
		name  string
		godot int
		c     Compression
		frame time.Duration
	}{{"none", 0, CompressNone, 0}, {"rangecoder", 1, CompressRangeCoder, 0}, {"zlib", 3, CompressZlib, 0},
		{"frames", 0, CompressNone, 7 * time.Millisecond}}
	for _, m := range modes {
		t.Run(m.name, func(t *testing.T) {
			h, err := Listen("udp4", "127.0.0.1:0", &Config{Compression: m.c, Frame: m.frame})
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			port := h.LocalAddr().(*net.UDPAddr).Port
			const big = 300000
			g := enginetest.StartGodot3(t, "testdata/enet_client3.gd", strconv.Itoa(port), strconv.Itoa(m.godot), strconv.Itoa(big))
			ev := next(t, h, 20*time.Second)
			if ev.Type != EventConnect {
				t.Fatalf("first event %v", ev.Type)
			}
			id := ev.Data
			if !ValidGodotClientID(id, nil) {
				t.Fatalf("client ID %d", id)
			}
			if got := g.WaitLine("ID ", 10*time.Second); got != fmt.Sprint("ID ", id) {
				t.Fatalf("Godot printed %q, connect data was %d", got, id)
			}
			p := ev.Peer
			if p.ChannelCount() != Godot3ChannelCount {
				t.Fatalf("channels %d", p.ChannelCount())
			}
			wantBig := make([]byte, big)
			for i := range wantBig {
				wantBig[i] = byte(i % 251)
			}
			want := []struct {
				ch      uint8
				flags   Flags
				payload []byte
			}{
				{Godot3ChannelReliable, Reliable, []byte("hello")},
				{Godot3ChannelReliable, Reliable, wantBig},
				{Godot3ChannelUnreliable, Unsequenced, []byte("fast")},
			}
			// Channels are independent: "fast" may overtake the others.
			reliable, unreliable := want[:2], want[2]
			for range 3 {
				ev := next(t, h, 10*time.Second)
				w := unreliable
				if ev.Channel == Godot3ChannelReliable && len(reliable) > 0 {
					w, reliable = reliable[0], reliable[1:]
				}
				src, dst, payload, err := ParseGodot3Packet(ev.Packet)
				if err != nil || ev.Type != EventReceive {
					t.Fatalf("event %v: %v", ev.Type, err)
				}
				if ev.Channel != w.ch || ev.Flags != w.flags || uint32(src) != id || dst != 1 || !bytes.Equal(payload, w.payload) {
					t.Fatalf("packet on channel %d flags %d from %d to %d, %d bytes; want channel %d flags %d from %d to 1, %d bytes",
						ev.Channel, ev.Flags, src, dst, len(payload), w.ch, w.flags, id, len(w.payload))
				}
			}
			// The server tells the client about another peer, then sends.
			if err := p.Send(Godot3ChannelConfig, Godot3Notice(Godot3AddPeer, 77), Reliable); err != nil {
				t.Fatal(err)
			}
			reply := bytes.Repeat([]byte{3}, 5000)
			p.Send(Godot3ChannelReliable, AppendGodot3Packet(nil, 1, int32(id), reply), Reliable)
			p.Send(Godot3ChannelUnreliable, AppendGodot3Packet(nil, 77, int32(id), []byte{9, 9}), Unsequenced)
			p.Send(Godot3ChannelReliable, AppendGodot3Packet(nil, 1, int32(id), []byte("quit")), Reliable)
			if l := g.WaitLine("GOT 1 1 ", 10*time.Second); l != "GOT 1 1 5000 15000" {
				t.Fatalf("Godot: %q", l)
			}
			g.WaitLine("DONE", 10*time.Second)
			ev = nextOf(t, h, EventDisconnect, 10*time.Second)
			if ev.Data != id {
				t.Fatalf("disconnect data %d, want the client's ID %d", ev.Data, id)
			}
			g.Wait()
		})
	}
}

// TestGoClientToGodot3Server: a Go client joins a Godot 3 server as a
// Godot client would: its ID in the connect data, 3 channels, the 8-byte
// header on every packet.
func TestGoClientToGodot3Server(t *testing.T) {
	enginetest.Godot3(t)
	l, err := net.ListenPacket("udp4", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.LocalAddr().(*net.UDPAddr).Port
	l.Close()
	g := enginetest.StartGodot3(t, "testdata/enet_server3.gd", strconv.Itoa(port))
	g.WaitLine("LISTENING", 20*time.Second)
	id := NewGodotPeerID()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	h, p, err := Dial(ctx, "udp4", "127.0.0.1:"+strconv.Itoa(port), Godot3ChannelCount, id, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if l := g.WaitLine("CONNECTED", 10*time.Second); l != fmt.Sprint("CONNECTED ", id) {
		t.Fatalf("Godot: %q, want our ID %d", l, id)
	}
	p.Send(Godot3ChannelReliable, AppendGodot3Packet(nil, int32(id), 1, []byte("ping")), Reliable)
	big := bytes.Repeat([]byte("x"), 100000)
	p.Send(Godot3ChannelReliable, AppendGodot3Packet(nil, int32(id), 1, big), Reliable)
	for {
		ev := next(t, h, 10*time.Second)
		if ev.Type != EventReceive {
			continue
		}
		src, dst, payload, err := ParseGodot3Packet(ev.Packet)
		if err != nil {
			t.Fatal(err)
		}
		if string(payload) != "pong" || src != 1 || uint32(dst) != id || ev.Channel != Godot3ChannelReliable {
			t.Fatalf("got %q from %d to %d on %d", payload, src, dst, ev.Channel)
		}
		break
	}
	if l := g.WaitLine("GOT", 10*time.Second); l != fmt.Sprintf("GOT %d 1 4 ping", id) {
		t.Fatalf("Godot: %q", l)
	}
	g.WaitLine(fmt.Sprintf("GOT %d 1 100000 xxxxxxxx", id), 10*time.Second)
	p.Disconnect(0)
	nextOf(t, h, EventDisconnect, 10*time.Second)
	if l := g.WaitLine("DISCONNECTED", 10*time.Second); l != fmt.Sprint("DISCONNECTED ", id) {
		t.Fatalf("Godot: %q", l)
	}
	g.Wait()
}

// A Godot 3.2.3 client that finds the Go host full is told at once: its
// connection_failed comes within a second of create_client, where
// without the host's DISCONNECT it would come after ENet's timeout (at
// least 5 s).
func TestGodot3ClientRefused(t *testing.T) {
	enginetest.Godot3(t)
	h, err := Listen("udp4", "127.0.0.1:0", &Config{PeerLimit: 1})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	c, _, err := Dial(ctx, "udp4", h.LocalAddr().String(), 1, 0, nil)
	cancel()
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	port := h.LocalAddr().(*net.UDPAddr).Port
	g := enginetest.StartGodot3(t, "testdata/enet_client3.gd", strconv.Itoa(port), "0", "10")
	line := g.WaitLine("REFUSED ", 20*time.Second)
	ms, err := strconv.Atoi(strings.TrimPrefix(line, "REFUSED "))
	if err != nil || ms >= 4000 {
		t.Fatalf("Godot: %q; want REFUSED within 4 s of create_client", line)
	}
	t.Logf("refused after %d ms (engine clock)", ms)
	g.Wait()
}
