package enet

import (
	"bytes"
	"context"
	"errors"
	"strings"
	"testing"
	"time"
)

func pair(t *testing.T, srvCfg, cliCfg *Config, channels int) (srv, cli *Host, sp, cp *Peer) {
	t.Helper()
	srv, err := Listen("udp4", "127.0.0.1:0", srvCfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	cli, cp, err = Dial(ctx, "udp4", srv.LocalAddr().String(), channels, 11, cliCfg)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { cli.Close() })
	ev := next(t, srv, 5*time.Second)
	if ev.Type != EventConnect || ev.Data != 11 {
		t.Fatalf("server event %v data %d", ev.Type, ev.Data)
	}
	if ev := next(t, cli, 5*time.Second); ev.Type != EventConnect || ev.Peer != cp {
		t.Fatalf("client event %v", ev.Type)
	}
	return srv, cli, ev.Peer, cp
}

// TestTimeout: a peer that goes silent is reported disconnected after
// the timeout, with data 0.
func TestTimeout(t *testing.T) {
	cfg := &Config{TimeoutMinimum: 200 * time.Millisecond, TimeoutMaximum: time.Second, PingInterval: 50 * time.Millisecond}
	srv, cli, _, _ := pair(t, cfg, nil, 1)
	cli.Close() // no DISCONNECT
	start := time.Now()
	ev := nextOf(t, srv, EventDisconnect, 5*time.Second)
	if ev.Data != 0 {
		t.Fatalf("data %d", ev.Data)
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Fatalf("timed out after %v, TimeoutMaximum 1s", d)
	}
}

// TestDisconnectNow: the other side hears of it at once, this side
// reports nothing, and the peer cannot send any more.
func TestDisconnectNow(t *testing.T) {
	srv, cli, _, cp := pair(t, nil, nil, 1)
	cp.DisconnectNow(99)
	ev := nextOf(t, srv, EventDisconnect, 2*time.Second)
	if ev.Data != 99 {
		t.Fatalf("data %d", ev.Data)
	}
	if err := cp.Send(0, []byte("x"), Reliable); !errors.Is(err, ErrNotConnected) {
		t.Fatalf("send after disconnect: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 200*time.Millisecond)
	defer cancel()
	if ev, err := cli.Service(ctx); err == nil {
		t.Fatalf("event %v after DisconnectNow", ev.Type)
	}
	select {
	case <-cp.Done():
	default:
		t.Fatal("Done not closed")
	}
}

// TestDisconnectLaterDelivers: queued reliable data arrives before the
// disconnect.
func TestDisconnectLaterDelivers(t *testing.T) {
	srv, _, _, cp := pair(t, nil, nil, 2)
	big := fill(500_000, 3)
	cp.Send(1, big, Reliable)
	cp.Send(0, []byte("last"), Reliable)
	cp.DisconnectLater(5)
	got := 0
	for {
		ev := next(t, srv, 10*time.Second)
		if ev.Type == EventDisconnect {
			if ev.Data != 5 || got != 2 {
				t.Fatalf("disconnect data %d after %d packets", ev.Data, got)
			}
			return
		}
		got++
	}
}

// TestUnsequencedAndUnreliable: unsequenced packets arrive once each,
// unreliable ones in order (none older than one already delivered).
func TestUnsequencedAndUnreliable(t *testing.T) {
	srv, _, _, cp := pair(t, nil, nil, 2)
	for i := 0; i < 200; i++ {
		cp.Send(0, fill(20, uint32(i)), Unsequenced)
		cp.Send(1, fill(20, uint32(i)), 0)
		if i%50 == 0 {
			time.Sleep(5 * time.Millisecond)
		}
	}
	cp.Send(1, []byte("end"), Reliable)
	seen := map[uint32]bool{}
	last := -1
	for {
		ev := next(t, srv, 5*time.Second)
		if string(ev.Packet) == "end" {
			break
		}
		n := uint32(ev.Packet[0]) | uint32(ev.Packet[1])<<8
		if ev.Channel == 0 {
			if seen[n] || ev.Flags != Unsequenced {
				t.Fatalf("unsequenced %d twice or flags %d", n, ev.Flags)
			}
			seen[n] = true
		} else {
			if int(n) <= last || ev.Flags != 0 {
				t.Fatalf("unreliable %d after %d", n, last)
			}
			last = int(n)
		}
	}
	t.Logf("unsequenced %d/200, unreliable up to %d", len(seen), last)
}

// TestOutgoingBudget: Send refuses beyond MaxOutgoingData.
func TestOutgoingBudget(t *testing.T) {
	_, _, _, cp := pair(t, nil, &Config{MaxOutgoingData: 100_000, RefuseConnections: true}, 1)
	var err error
	for i := 0; i < 100 && err == nil; i++ {
		err = cp.Send(0, make([]byte, 10_000), Reliable)
	}
	if !errors.Is(err, ErrQueueFull) {
		t.Fatalf("err %v", err)
	}
	if err := cp.Send(0, make([]byte, DefaultMaxPacketSize+1), Reliable); !errors.Is(err, ErrTooLarge) {
		t.Fatalf("err %v", err)
	}
}

// TestBandwidthLimit: bandwidths size the reliable window as ENet does
// ((bandwidth / 64 KiB) * 4096 bytes, at least 4096), and data still
// flows through the smaller window.
func TestBandwidthLimit(t *testing.T) {
	srv, cli, sp, cp := pair(t, &Config{IncomingBandwidth: 200_000}, &Config{OutgoingBandwidth: 200_000, RefuseConnections: true}, 1)
	srv.mu.Lock()
	sw := sp.windowSize
	srv.mu.Unlock()
	cli.mu.Lock()
	cw := cp.windowSize
	cli.mu.Unlock()
	if cw != 12288 || sw != maxWindowSize {
		t.Fatalf("windows: client %d, want 12288; server %d, want %d", cw, sw, maxWindowSize)
	}
	b := fill(300_000, 8)
	start := time.Now()
	cp.Send(0, b, Reliable)
	ev := nextOf(t, srv, EventReceive, 20*time.Second)
	if !bytes.Equal(ev.Packet, b) {
		t.Fatal("content differs")
	}
	t.Logf("300 kB through a 12 KiB window in %v", time.Since(start))
}

// TestConnectRefused: dialing a host that refuses connections fails
// once the CONNECT times out.
func TestConnectRefused(t *testing.T) {
	srv, err := Listen("udp4", "127.0.0.1:0", &Config{RefuseConnections: true})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 300*time.Millisecond)
	defer cancel()
	if _, _, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 0, nil); !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("err %v", err)
	}
}

// TestEventQueueCompacts: a reader that stays a little behind does not
// make the event queue grow.
func TestEventQueueCompacts(t *testing.T) {
	h, err := NewHost(newMemConn(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	for i := 0; i < 100_000; i++ {
		h.mu.Lock()
		h.pushEvent(Event{Type: EventReceive})
		h.pushEvent(Event{Type: EventReceive})
		h.mu.Unlock()
		h.Service(ctx)
		h.Service(ctx)
		if i%10 == 0 {
			h.mu.Lock()
			h.pushEvent(Event{Type: EventReceive}) // one more than taken
			h.mu.Unlock()
		}
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if live := len(h.events) - h.eventsHead; cap(h.events) > 4*live+4096 {
		t.Fatalf("queue capacity %d for %d live events", cap(h.events), live)
	}
}

// TestBroadcast reaches every connected peer.
func TestBroadcast(t *testing.T) {
	srv, c1, _, _ := pair(t, nil, nil, 1)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c2, _, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 12, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	nextOf(t, srv, EventConnect, 5*time.Second)
	if err := srv.Broadcast(0, []byte("all"), Reliable); err != nil {
		t.Fatal(err)
	}
	for _, c := range []*Host{c1, c2} {
		if ev := nextOf(t, c, EventReceive, 5*time.Second); string(ev.Packet) != "all" {
			t.Fatalf("got %q", ev.Packet)
		}
	}
}

// A failed Dial says what the host saw: no answer, or datagrams it could
// not read (here the server compresses and the client does not), and
// still matches the context's error.
func TestConnectErrorSaysWhy(t *testing.T) {
	for _, tc := range []struct {
		name   string
		server *Config
		want   string
	}{
		{"refusing host", &Config{RefuseConnections: true}, "no answer"},
		{"compression differs", &Config{Compression: CompressZlib}, "could not read"},
	} {
		srv, err := Listen("udp4", "127.0.0.1:0", tc.server)
		if err != nil {
			t.Fatal(err)
		}
		go func() {
			for {
				if _, err := srv.Service(context.Background()); err != nil {
					return
				}
			}
		}()
		ctx, cancel := context.WithTimeout(context.Background(), 500*time.Millisecond)
		_, _, err = Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 0, nil)
		cancel()
		srv.Close()
		var ce *ConnectError
		if !errors.As(err, &ce) || !strings.Contains(err.Error(), tc.want) || !errors.Is(err, context.DeadlineExceeded) {
			t.Errorf("%s: %v", tc.name, err)
		}
	}
}
