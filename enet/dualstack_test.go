package enet

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"
)

// TestDualStack: a host on a dual-stack socket serves IPv4 and IPv6
// peers, the one that runs frames too (it writes IPv4 addresses mapped).
func TestDualStack(t *testing.T) {
	if l, err := net.ListenPacket("udp6", "[::1]:0"); err != nil {
		t.Skip("no IPv6 loopback")
	} else {
		l.Close()
	}
	t.Run("loops", func(t *testing.T) { testDualStack(t, nil) })
	t.Run("frames", func(t *testing.T) { testDualStack(t, &Config{Frame: 5 * time.Millisecond}) })
}

func testDualStack(t *testing.T, cfg *Config) {
	srv, err := Listen("udp", ":0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	port := srv.LocalAddr().(*net.UDPAddr).Port
	for _, a := range []string{"127.0.0.1", "[::1]"} {
		ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		c, p, err := Dial(ctx, "udp", a+":"+strconv.Itoa(port), 1, 3, nil)
		cancel()
		if err != nil {
			t.Fatal(a, err)
		}
		ev := nextOf(t, srv, EventConnect, time.Second)
		if ev.Data != 3 || p.Addr() == nil {
			t.Fatal(a, ev.Data)
		}
		// Both ways: the host answers on the peer's own address.
		if err := ev.Peer.Send(0, []byte(a), Reliable); err != nil {
			t.Fatal(err)
		}
		if ev := nextOf(t, c, EventReceive, 2*time.Second); string(ev.Packet) != a {
			t.Fatalf("%s: got %q", a, ev.Packet)
		}
		c.Close()
	}
}
