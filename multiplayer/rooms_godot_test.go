package multiplayer

import (
	"context"
	"fmt"
	"net"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// relayCounter counts the relayed REMOTE_CALLs a room's host sees.
func relayCounter(n *atomic.Int32) func(*Event) {
	return func(e *Event) {
		if e.Relayed && e.Packet.Command == CmdRemoteCall {
			n.Add(1)
		}
	}
}

var peerLine = regexp.MustCompile(`(?m)^OK peer (\d+)$`)

// peersSeen returns the peers a client script printed.
func peersSeen(out string) []string {
	var ids []string
	for _, m := range peerLine.FindAllStringSubmatch(out, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// Real Godot 4.6 clients (web build) in two rooms of one process: the two
// of room "red" get their own ids and relay to each other, the one of
// room "blue" sees only the host; a client of a refused room is told why
// (close code 4404, "unknown room"); then the process drains and every
// client sees a normal disconnect (close code 1001).
func TestGodot4Rooms(t *testing.T) {
	godot4web.Skip(t)
	t.Parallel()
	var relayed atomic.Int32
	var refused atomic.Bool
	rs, err := NewRooms(RoomsOptions{
		Logger:    quiet,
		WebSocket: WebSocketOptions{Peer: peer.Options{WebSocket: peer.WebSocketOptions{Origins: []string{"127.0.0.1:*"}}}},
		Open: func(ctx context.Context, name string, o HostOptions) (*Host, error) {
			switch name {
			case "red":
				o.Observe = relayCounter(&relayed)
			case "blue":
			default:
				refused.Store(true)
				return nil, ErrRoomUnknown
			}
			return NewHost(o)
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	go rs.ServeWebSocket(ctx, ln)
	url := "ws://" + ln.Addr().String() + "/"
	rooms := []string{"red", "red", "blue", "nope"}
	results := make([]godot4web.Result, len(rooms))
	var wg sync.WaitGroup
	for i, room := range rooms {
		wg.Go(func() {
			results[i] = godot4web.Run(t, godot4web.Job{Script: "testdata/rooms4.gd", Args: []string{url + room}, Timeout: time.Minute})
		})
	}
	// Drain once room red's clients have called each other, blue's
	// client is in, and the fourth client has been refused.
	go func() {
		for ctx.Err() == nil {
			red, blue := rs.Room("red"), rs.Room("blue")
			if red != nil && blue != nil && relayed.Load() >= 2 && len(blue.Host().Peers()) == 1 && refused.Load() {
				time.Sleep(300 * time.Millisecond)
				sctx, scancel := context.WithTimeout(context.Background(), 20*time.Second)
				rs.Shutdown(sctx)
				scancel()
				return
			}
			time.Sleep(20 * time.Millisecond)
		}
	}()
	wg.Wait()
	var redIDs []string
	for i, r := range results {
		t.Logf("client of %q:\n%s", rooms[i], r.Stdout)
		if r.Code != 0 {
			t.Errorf("client of %q failed (%d):\n%s", rooms[i], r.Code, r.Stderr)
		}
		switch rooms[i] {
		case "red":
			if p := peersSeen(r.Stdout); len(p) != 2 || p[0] != "1" && p[1] != "1" {
				t.Errorf("a red client saw peers %v, want the host and the other red client", p)
			}
			if strings.Count(r.Stdout, "OK said") != 1 {
				t.Errorf("a red client did not hear the other once")
			}
			redIDs = append(redIDs, regexp.MustCompile(`OK id (\d+)`).FindStringSubmatch(r.Stdout + "OK id 0")[1])
		case "blue":
			if p := peersSeen(r.Stdout); len(p) != 1 || p[0] != "1" {
				t.Errorf("the blue client saw peers %v, want the host alone", p)
			}
		case "nope":
			if !strings.Contains(r.Stdout, fmt.Sprintf("REFUSED %d unknown room", CloseRoomUnknown)) {
				t.Errorf("the refused client did not say why")
			}
		}
		if rooms[i] != "nope" && !strings.Contains(r.Stdout, "OK disconnected 1001 server shutting down") {
			t.Errorf("client of %q did not see the drain's close", rooms[i])
		}
	}
	if len(redIDs) == 2 && redIDs[0] == redIDs[1] {
		t.Errorf("the red clients share id %s", redIDs[0])
	}
}

// Real Godot 3.2.3 clients over ENet in two rooms of one process, each
// room on a port of the configured range: the two of room "red" relay to
// each other, the one of "blue" sees only the host; then the process
// drains and each gets the engine's disconnect (server_disconnected).
func TestGodot3ENetRooms(t *testing.T) {
	enginetest.Godot3(t)
	// A free range: ports the kernel just handed out, tried in turn.
	var relayed atomic.Int32
	var rs *Rooms
	var err error
	for try := 0; ; try++ {
		base := freeRoomPort(t)
		rs, err = NewRooms(RoomsOptions{
			Host:   HostOptions{Godot: variant.Godot3},
			Logger: quiet,
			ENet:   &RoomsENet{Host: "127.0.0.1", FirstPort: base, LastPort: base + 1},
			Open: func(ctx context.Context, name string, o HostOptions) (*Host, error) {
				if name == "red" {
					o.Observe = relayCounter(&relayed)
				}
				return NewHost(o)
			},
		})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		_, err1 := rs.Create(ctx, "red")
		_, err2 := rs.Create(ctx, "blue")
		cancel()
		if err1 == nil && err2 == nil {
			break
		}
		rs.Shutdown(context.Background())
		if try == 5 {
			t.Fatal(err1, err2)
		}
	}
	defer rs.Shutdown(context.Background())
	red, blue := rs.Room("red"), rs.Room("blue")
	portOfAddr := func(a net.Addr) string { return fmt.Sprint(a.(*net.UDPAddr).Port) }
	if red.ENetAddr() == nil || blue.ENetAddr() == nil || portOfAddr(red.ENetAddr()) == portOfAddr(blue.ENetAddr()) {
		t.Fatalf("ports: red %v blue %v", red.ENetAddr(), blue.ENetAddr())
	}
	a := enginetest.StartGodot3(t, "testdata/rooms3.gd", portOfAddr(red.ENetAddr()))
	b := enginetest.StartGodot3(t, "testdata/rooms3.gd", portOfAddr(red.ENetAddr()))
	c := enginetest.StartGodot3(t, "testdata/rooms3.gd", portOfAddr(blue.ENetAddr()))
	deadline := time.Now().Add(40 * time.Second)
	for relayed.Load() < 2 || len(blue.Host().Peers()) < 1 {
		if time.Now().After(deadline) {
			t.Fatalf("the clients did not meet: %d relayed, blue has %v", relayed.Load(), blue.Host().Peers())
		}
		time.Sleep(20 * time.Millisecond)
	}
	time.Sleep(300 * time.Millisecond)
	sctx, scancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer scancel()
	if err := rs.Shutdown(sctx); err != nil {
		t.Fatal(err)
	}
	outA, outB, outC := a.Wait(), b.Wait(), c.Wait()
	for _, out := range []string{outA, outB} {
		if p := peersSeen(out); len(p) != 2 || strings.Count(out, "OK said") != 1 {
			t.Errorf("a red client saw peers %v and heard %d:\n%s", p, strings.Count(out, "OK said"), out)
		}
	}
	if p := peersSeen(outC); len(p) != 1 || p[0] != "1" {
		t.Errorf("the blue client saw peers %v, want the host alone:\n%s", p, outC)
	}
	for _, out := range []string{outA, outB, outC} {
		if !strings.Contains(out, "OK disconnected") {
			t.Errorf("a client did not see the drain's disconnect:\n%s", out)
		}
	}
}

// freeRoomPort returns a UDP port that was free a moment ago.
func freeRoomPort(t *testing.T) int {
	t.Helper()
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	return c.LocalAddr().(*net.UDPAddr).Port
}

// Real Godot 3.2.3 clients over WebSocket (WebSocketClient as the
// network_peer) in two rooms of one process, named by the URL's path:
// each pair relays to each other only.
func TestGodot3WebSocketRooms(t *testing.T) {
	enginetest.Godot3(t)
	rs, err := NewRooms(RoomsOptions{Host: HostOptions{Godot: variant.Godot3}, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	served := make(chan error, 1)
	go func() { served <- rs.ServeWebSocket(ctx, ln) }()
	port := fmt.Sprint(ln.Addr().(*net.TCPAddr).Port)
	// relay3.gd joins ws://127.0.0.1:ARG; the argument carries the path.
	names := []string{"ann", "bob", "cid", "dan"}
	rooms := []string{"/red", "/red", "/blue", "/blue"}
	ps := make([]*enginetest.Process, len(names))
	for i := range names {
		ps[i] = enginetest.StartGodot3(t, "testdata/relay3.gd", port+rooms[i], names[i])
	}
	outs := make([]string, len(ps))
	for i, p := range ps {
		outs[i] = p.Wait()
	}
	partner := map[string]string{"ann": "bob", "bob": "ann", "cid": "dan", "dan": "cid"}
	for i, out := range outs {
		if !strings.Contains(out, "hi from "+partner[names[i]]) {
			t.Errorf("%s did not hear %s:\n%s", names[i], partner[names[i]], out)
		}
		if n := strings.Count(out, "OK said"); n != 1 {
			t.Errorf("%s heard %d clients:\n%s", names[i], n, out)
		}
	}
	cancel()
	<-served
}
