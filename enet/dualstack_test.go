package enet

import (
	"context"
	"net"
	"strconv"
	"testing"
	"time"
)

// TestDualStack: a host on a dual-stack socket serves IPv4 and IPv6 peers.
func TestDualStack(t *testing.T) {
	if l, err := net.ListenPacket("udp6", "[::1]:0"); err != nil {
		t.Skip("no IPv6 loopback")
	} else {
		l.Close()
	}
	srv, err := Listen("udp", ":0", nil)
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
		c.Close()
	}
}
