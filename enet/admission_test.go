package enet

import (
	"context"
	"errors"
	"fmt"
	"net"
	"strconv"
	"testing"
	"time"
)

// clientHost starts a host that only dials out, on a socket bound to ip
// (127.0.0.x: other addresses on loopback).
func clientHost(t *testing.T, ip string, peers int) *Host {
	t.Helper()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.ParseIP(ip)})
	if err != nil {
		t.Skipf("cannot bind %s: %v", ip, err)
	}
	h, err := NewHost(conn, &Config{PeerLimit: peers, RefuseConnections: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { h.Close() })
	return h
}

// outcomes connects n times from c to addr at once and counts how the
// attempts end, waiting until each has ended one way or the other.
func outcomes(t *testing.T, c *Host, addr net.Addr, n int) (connected, refused int) {
	t.Helper()
	for i := range n {
		if _, err := c.ConnectAsync(addr, 1, uint32(i+2)); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*time.Second)
	defer cancel()
	for connected+refused < n {
		ev, err := c.Service(ctx)
		if err != nil {
			t.Fatalf("after %d connected and %d refused of %d: %v (a refused client was not told)", connected, refused, n, err)
		}
		switch ev.Type {
		case EventConnect:
			connected++
		case EventDisconnect:
			refused++
		}
	}
	return connected, refused
}

// A client that finds every peer slot taken is told at once with a
// DISCONNECT, as a refused client is, instead of waiting for its timeout.
func TestFullHostTellsClient(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", &Config{PeerLimit: 2})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	for range 2 {
		c, _, err := Dial(ctx, "udp4", h.LocalAddr().String(), 1, 0, nil)
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
	}
	_, _, err = Dial(ctx, "udp4", h.LocalAddr().String(), 1, 0, nil)
	if !errors.Is(err, ErrConnectFailed) {
		t.Fatalf("third client on a host of two: %v, want ErrConnectFailed", err)
	}
	if s := h.Stats(); s.ConnectsRefused == 0 {
		t.Errorf("no refusal counted: %+v", s)
	}
}

// 200 handshakes at once from one address take at most MaxPeersPerIP
// places, the others are refused and told so; clients from other
// addresses then connect, and stay connected.
func TestOneAddressCannotLockOthersOut(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", &Config{PeerLimit: 32, MaxPeersPerIP: 8})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	flood := clientHost(t, "127.0.0.1", 200)
	connected, refused := outcomes(t, flood, h.LocalAddr(), 200)
	t.Logf("one address: %d connected, %d refused", connected, refused)
	if connected > 8 {
		t.Errorf("%d peers from one address, limit 8", connected)
	}
	var others []*Peer
	for i := 2; i < 12; i++ {
		c := clientHost(t, fmt.Sprintf("127.0.0.%d", i), 1)
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		p, err := c.Connect(ctx, h.LocalAddr(), 1, uint32(i))
		cancel()
		if err != nil {
			t.Fatalf("client from 127.0.0.%d: %v", i, err)
		}
		others = append(others, p)
	}
	time.Sleep(200 * time.Millisecond)
	for i, p := range others {
		if !p.Connected() {
			t.Errorf("client from 127.0.0.%d dropped", i+2)
		}
	}
}

// A flood of CONNECTs from one address that never completes its
// handshakes holds at most MaxPendingPerIP of the pending places: a client
// from another address still connects during the flood.
func TestPendingPerIP(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", &Config{PeerLimit: 64, MaxPendingConnections: 16})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := newRaw(t, h)
	for i := range 500 {
		r.send(r.connectCmd(uint32(i + 1)))
	}
	settle(t, h, 500)
	if pending, _, _ := h.snapshot(); pending != 2 {
		t.Fatalf("%d handshakes pending from one address; want MaxPendingConnections/8 = 2", pending)
	}
	c := clientHost(t, "127.0.0.2", 1)
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	if _, err := c.Connect(ctx, h.LocalAddr(), 1, 0); err != nil {
		t.Fatal("a client from another address during the flood: ", err)
	}
}

// libenet's client understands the refusal: a C client connecting to a
// full Go host reports its disconnection at once, also with checksums.
func TestFullHostTellsCClient(t *testing.T) {
	for _, m := range []interopMode{interopModes[0], interopModes[2]} {
		cfg := m.cfg
		cfg.PeerLimit = 1
		h, err := Listen("udp4", "127.0.0.1:0", &cfg)
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		ccfg := m.cfg
		ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
		c, _, err := Dial(ctx, "udp4", h.LocalAddr().String(), 1, 0, &ccfg)
		cancel()
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		port := strconv.Itoa(h.LocalAddr().(*net.UDPAddr).Port)
		p := startC(t, append([]string{"client", "127.0.0.1", port, "-channels", "1"}, m.cflags...)...)
		if line := p.WaitLine("disconnect", 3*time.Second); line != "disconnect 0" {
			t.Fatalf("%s: C client printed %q", m.name, line)
		}
	}
}
