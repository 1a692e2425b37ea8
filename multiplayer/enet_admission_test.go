package multiplayer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"testing"
	"time"

	"github.com/gdvar/gdvar/enet"
)

// enetClients starts a dial-only ENet host on ip (127.0.0.x: another
// address on loopback) and connects it n times to addr with the Godot
// client ids first, first+1, …; it waits until every attempt has
// connected or been refused, and returns the peers that connected and
// how many were refused.
func enetClients(t *testing.T, ip string, addr net.Addr, n int, first uint32) (up []*enet.Peer, refused int) {
	t.Helper()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.ParseIP(ip)})
	if err != nil {
		t.Skipf("cannot bind %s: %v", ip, err)
	}
	h, err := enet.NewHost(conn, &enet.Config{PeerLimit: n, RefuseConnections: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	// In waves of 8, the handshakes a host lets one address have in
	// progress at once (MaxPendingConnections/8); more would wait for
	// their CONNECT to be resent.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	started := 0
	for len(up)+refused < n {
		for ; started < n && started < len(up)+refused+8; started++ {
			if _, err := h.ConnectAsync(addr, enet.Godot4ChannelCount, first+uint32(started)); err != nil {
				t.Fatal(err)
			}
		}
		ev, err := h.Service(ctx)
		if err != nil {
			t.Fatalf("%s: %d connected, %d refused of %d: %v (a refused client was not told)", ip, len(up), refused, n, err)
		}
		switch ev.Type {
		case enet.EventConnect:
			up = append(up, ev.Peer)
		case enet.EventDisconnect:
			refused++
		}
	}
	return up, refused
}

// 150 completed handshakes from one address, which nobody accepts yet,
// take at most DefaultMaxPeersPerIP places (the others are refused with a
// DISCONNECT); clients from other addresses that connect afterwards are
// queued for Accept and stay connected, instead of being dropped in
// silence when 64 links wait.
func TestENetFloodFromOneAddress(t *testing.T) {
	l, err := ListenENet(context.Background(), "127.0.0.1:0", ENetOptions{ENet: enet.Config{PeerLimit: 200}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	flood, refused := enetClients(t, "127.0.0.1", l.Addr(), 150, 2)
	t.Logf("one address: %d connected, %d refused", len(flood), refused)
	if len(flood) > DefaultMaxPeersPerIP {
		t.Errorf("%d links from one address, limit %d", len(flood), DefaultMaxPeersPerIP)
	}
	want := map[PeerID]bool{}
	var others []*enet.Peer
	for i := 2; i < 10; i++ {
		id := uint32(1000 + i)
		up, _ := enetClients(t, fmt.Sprintf("127.0.0.%d", i), l.Addr(), 1, id)
		if len(up) != 1 {
			t.Fatalf("client from 127.0.0.%d refused", i)
		}
		others = append(others, up[0])
		want[PeerID(id)] = true
	}
	for len(want) > 0 {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		link, err := l.Accept(ctx)
		cancel()
		if errors.Is(err, context.DeadlineExceeded) {
			t.Fatalf("clients from other addresses never accepted: %v", want)
		}
		if err != nil {
			t.Fatal(err)
		}
		delete(want, link.(ClientIDLink).ClientID())
	}
	for i, p := range others {
		if !p.Connected() {
			t.Errorf("client from 127.0.0.%d dropped", i+2)
		}
	}
}

// Four clients that stop reading (their ENet hosts vanish without a
// word, so nothing they are sent is acknowledged) while the host sends
// them 64 KiB frames: ENet holds at most MaxPeerMemory for each (by
// default MaxQueuedBytes and two packets, about 6 MiB, where ENet's own
// outgoing budget let 64 MiB pile up for each), and each link fails with
// the budget error instead of growing.
func TestENetPeersThatStopReading(t *testing.T) {
	ln, err := ListenENet(context.Background(), "127.0.0.1:0", ENetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	eh := ln.(*enetListener).h
	var links []Link
	for range 4 {
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		c, err := DialENet(ctx, ln.Addr().String(), ENetOptions{})
		if err != nil {
			cancel()
			t.Fatal(err)
		}
		link, err := ln.Accept(ctx)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		links = append(links, link)
		c.(*enetLink).host.Close() // gone, without a DISCONNECT
	}
	perPeer := DefaultMaxQueuedBytes + 2*DefaultENetMaxPacketSize
	frame := Frame{Kind: FrameData, Mode: Reliable, Data: make([]byte, 64<<10)}
	failed := 0
	most := 0
	for round := 0; round < 2000 && failed < len(links); round++ {
		failed = 0
		for _, l := range links {
			if err := l.WriteFrame(frame); err != nil {
				failed++
			}
		}
		most = max(most, eh.Stats().Memory)
		if m := eh.Stats().Memory; m > len(links)*perPeer {
			t.Fatalf("round %d: ENet holds %d bytes for %d peers; budget %d each", round, m, len(links), perPeer)
		}
	}
	t.Logf("ENet held %d bytes at most", most)
	if failed < len(links) {
		t.Fatalf("only %d of %d links failed after 2000 frames each", failed, len(links))
	}
	if m := eh.Stats().Memory; m != 0 {
		t.Errorf("the failed links still hold %d bytes", m)
	}
}
