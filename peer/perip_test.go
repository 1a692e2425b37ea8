package peer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"testing"
	"time"

	"github.com/gorilla/websocket"
)

// dialFrom opens a WebSocket connection to addr from the loopback address
// ip (127.0.0.x); resp is the server's answer when the handshake fails.
func dialFrom(ctx context.Context, ip, addr string) (*websocket.Conn, *http.Response, error) {
	d := websocket.Dialer{
		NetDialContext: (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.ParseIP(ip)}}).DialContext,
	}
	return d.DialContext(ctx, "ws://"+addr, nil)
}

// The attack that locked others out: 1,030 connections from one address
// that never send their handshake. The address's allowance is checked
// before the listener's, so it holds 64 places and clients from other
// addresses are all admitted; a 65th connection from the flooding address
// is refused.
func TestMaxConnsPerIPBeforeShared(t *testing.T) {
	ctx := testCtx(t)
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	serveReads(t, l, make(chan error, 2000))
	addr := l.Addr().String()
	var halfOpen []net.Conn
	t.Cleanup(func() {
		for _, nc := range halfOpen {
			nc.Close()
		}
	})
	for range 1030 {
		nc, err := (&net.Dialer{LocalAddr: &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)}}).DialContext(ctx, "tcp", addr)
		if err != nil {
			continue
		}
		halfOpen = append(halfOpen, nc)
	}
	waitUntil(t, "the flood accepted or refused", func() bool { return int64(l.Conns())+l.Refused() >= 1030 })
	if n := l.Conns(); n != DefaultMaxConnsPerIP {
		t.Errorf("%d connections from one address held, want %d", n, DefaultMaxConnsPerIP)
	}
	for i := range 12 {
		ip := fmt.Sprintf("127.0.0.%d", 2+i)
		ws, resp, err := dialFrom(ctx, ip, addr)
		if err != nil {
			status := ""
			if resp != nil {
				status = resp.Status
			}
			t.Errorf("a client from %s was refused during the flood: %v %s", ip, err, status)
			continue
		}
		ws.Close()
	}
	if ws, _, err := dialFrom(ctx, "127.0.0.1", addr); err == nil {
		ws.Close()
		t.Fatal("a 65th connection from the flooding address was admitted")
	}
}

// A client refused because the listener is full, or its address has all
// its places, is answered 503 with the reason, rather than reset; a place
// that frees up is taken again.
func TestMaxConnsTold(t *testing.T) {
	ctx := testCtx(t)
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{MaxConns: 4, MaxConnsPerIP: 2})
	if err != nil {
		t.Fatal(err)
	}
	serveReads(t, l, make(chan error, 100))
	addr := l.Addr().String()
	var held []*websocket.Conn
	for i := range 4 {
		ws, _, err := dialFrom(ctx, fmt.Sprintf("127.0.0.%d", 20+i/2), addr)
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
		held = append(held, ws)
	}
	for ip, why := range map[string]string{"127.0.0.20": "too many connections from your address", "127.0.0.30": "too many connections"} {
		_, resp, err := dialFrom(ctx, ip, addr)
		if err == nil {
			t.Fatalf("a client from %s was admitted to a full listener", ip)
		}
		if resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
			t.Errorf("a client from %s refused for capacity was not told: %v", ip, err)
			continue
		}
		body, _ := io.ReadAll(resp.Body)
		if string(body) != why {
			t.Errorf("a client from %s was told %q, want %q", ip, body, why)
		}
	}
	held[0].Close()
	waitUntil(t, "a place freed", func() bool { return l.Conns() == 3 })
	ws, _, err := dialFrom(ctx, "127.0.0.30", addr)
	if err != nil {
		t.Fatalf("a client after a place freed up: %v", err)
	}
	ws.Close()
}

// Per-address allowance on an Upgrader: a fourth connection from one
// address is answered 503 while another address is admitted.
func TestUpgraderMaxConnsPerIP(t *testing.T) {
	u, err := NewUpgrader(Options{MaxConnsPerIP: 3})
	if err != nil {
		t.Fatal(err)
	}
	refused := make(chan error, 10)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		c, err := u.Upgrade(w, r)
		if err != nil {
			refused <- err
			return
		}
		go echo(c)
	})}
	go srv.Serve(ln)
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for range 3 {
		ws, _, err := dialFrom(ctx, "127.0.0.40", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer ws.Close()
	}
	if _, resp, err := dialFrom(ctx, "127.0.0.40", ln.Addr().String()); err == nil || resp == nil || resp.StatusCode != http.StatusServiceUnavailable {
		t.Fatalf("a fourth connection from one address: %v %v", err, resp)
	}
	if err := <-refused; !errors.Is(err, errTooManyFrom) {
		t.Errorf("refused with %v", err)
	}
	ws, _, err := dialFrom(ctx, "127.0.0.41", ln.Addr().String())
	if err != nil {
		t.Fatalf("another address was refused: %v", err)
	}
	ws.Close()
}
