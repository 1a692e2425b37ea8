package multiplayer

import (
	"context"
	"errors"
	"net"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/leaktest"
)

// startRooms serves rs on a loopback port and returns the ws:// base URL.
func startRooms(t testing.TB, o RoomsOptions) (*Rooms, string, context.CancelFunc) {
	t.Helper()
	if o.Logger == nil {
		o.Logger = quiet
	}
	rs, err := NewRooms(o)
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		rs.ServeWebSocket(ctx, ln)
		close(done)
	}()
	t.Cleanup(func() { cancel(); <-done })
	return rs, "ws://" + ln.Addr().String(), cancel
}

// joinRoom joins url with a Go client.
func joinRoom(ctx context.Context, url string, o ClientOptions, nodes ...Node) (*Client, error) {
	link, err := DialWebSocket(ctx, url, WebSocketOptions{Godot: o.Godot})
	if err != nil {
		return nil, err
	}
	return Join(ctx, link, o, nodes...)
}

func waitUntilRooms(t testing.TB, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// Clients of two rooms of one process: each room has its own peers and
// relay; neither sees the other.
func TestRoomsAreSeparate(t *testing.T) {
	base := leaktest.Take()
	func() {
		rs, url, _ := startRooms(t, RoomsOptions{})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		var got [2]atomic.Int32
		mk := func(room string, i int) *Client {
			c, err := joinRoom(ctx, url+room, ClientOptions{OnBytes: func(PeerID, []byte) { got[i].Add(1) }})
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		}
		a1, a2 := mk("/a", 0), mk("/a", 0)
		b1 := mk("/b", 1)
		c0 := mk("/", 1) // the bare room
		waitUntilRooms(t, "peers of room a to meet", func() bool { return len(a1.Peers()) == 2 && len(a2.Peers()) == 2 })
		if p := b1.Peers(); len(p) != 1 || p[0] != HostID {
			t.Errorf("room b's client sees %v", p)
		}
		if rs.Room("a") == nil || rs.Room("b") == nil || rs.Room("") == nil {
			t.Fatalf("rooms: %v", rs.List())
		}
		if n := len(rs.List()); n != 3 {
			t.Errorf("%d rooms", n)
		}
		if err := a1.SendBytes(0, []byte("hi a"), Reliable, 0); err != nil {
			t.Fatal(err)
		}
		waitUntilRooms(t, "the relay in room a", func() bool { return got[0].Load() == 1 })
		if err := rs.Room("b").Host().SendBytes(0, []byte("hi b"), Reliable, 0); err != nil {
			t.Fatal(err)
		}
		waitUntilRooms(t, "room b's host", func() bool { return got[1].Load() == 1 })
		time.Sleep(50 * time.Millisecond)
		if got[0].Load() != 1 || got[1].Load() != 1 {
			t.Errorf("rooms leaked packets: a %d b %d", got[0].Load(), got[1].Load())
		}
		if s := rs.Stats(); s.Rooms != 3 || s.Peers != 4 {
			t.Errorf("stats %+v", s)
		}
		for _, c := range []*Client{a1, a2, b1, c0} {
			c.Close()
		}
		ctx2, cancel2 := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel2()
		if err := rs.Shutdown(ctx2); err != nil {
			t.Fatal(err)
		}
		if u := rs.budget.Used(); u != 0 {
			t.Errorf("%d bytes still charged to the process's budget", u)
		}
	}()
	base.Check(t, 5*time.Second)
}

// A refused client is told why: the WebSocket close status and reason.
func TestRoomsRefuse(t *testing.T) {
	rs, url, _ := startRooms(t, RoomsOptions{
		Host: HostOptions{MaxPeers: 1},
		Open: func(ctx context.Context, name string, o HostOptions) (*Host, error) {
			if strings.HasPrefix(name, "nope") {
				return nil, ErrRoomUnknown
			}
			return NewHost(o)
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for _, tc := range []struct{ room, want string }{
		{"/nope", "4404"}, {"/bad%20name", "4404"}, {"/a/b", "4404"},
	} {
		_, err := joinRoom(ctx, url+tc.room, ClientOptions{})
		if err == nil || !strings.Contains(err.Error(), tc.want) || !strings.Contains(err.Error(), "unknown room") {
			t.Errorf("%s: %v", tc.room, err)
		}
	}
	c, err := joinRoom(ctx, url+"/one", ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := joinRoom(ctx, url+"/one", ClientOptions{}); err == nil || !strings.Contains(err.Error(), "4409") || !strings.Contains(err.Error(), "room full") {
		t.Errorf("a full room: %v", err)
	}
	r := rs.Room("one")
	if err := r.Close(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-ctx.Done():
		t.Fatal("the client of a closed room is still connected")
	}
	if err := c.Err(); err != nil {
		t.Errorf("a closed room's client saw %v, want a clean close", err)
	}
	if rs.Room("one") != nil {
		t.Error("a closed room is still listed")
	}
}

// A flood of room names meets the room count and creation rate limits.
func TestRoomsFlood(t *testing.T) {
	rs, url, _ := startRooms(t, RoomsOptions{MaxRooms: 5, RoomRate: 0.001, RoomBurst: 8})
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	var ok, refused int
	for i := range 20 {
		c, err := joinRoom(ctx, url+"/r"+string(rune('a'+i)), ClientOptions{})
		if err != nil {
			if !strings.Contains(err.Error(), "4429") {
				t.Fatalf("join %d: %v", i, err)
			}
			refused++
			continue
		}
		ok++
		defer c.Close()
	}
	if ok != 5 || refused != 15 || rs.Stats().Rooms != 5 {
		t.Errorf("%d joined, %d refused, %d rooms", ok, refused, rs.Stats().Rooms)
	}
	// The rate: 8 rooms may be made at once, then hardly any.
	rs2, url2, _ := startRooms(t, RoomsOptions{RoomRate: 0.001, RoomBurst: 3, EmptyTimeout: time.Millisecond})
	made := 0
	for i := range 10 {
		if c, err := joinRoom(ctx, url2+"/s"+string(rune('a'+i)), ClientOptions{}); err == nil {
			made++
			c.Close()
		}
	}
	if made != 3 {
		t.Errorf("%d rooms made at a rate of 3 then 0.001/s", made)
	}
	waitUntilRooms(t, "the empty rooms to end", func() bool { return rs2.Stats().Rooms == 0 })
}

// Shutdown drains: the Drain callback runs, what was queued before is
// delivered, clients see a clean close (1001), and Ready turns false.
func TestRoomsDrain(t *testing.T) {
	drained := make(chan string, 4)
	var rs *Rooms
	rs, url, cancel := startRooms(t, RoomsOptions{
		Drain: func(ctx context.Context, r *Room) {
			if rs.Ready() {
				t.Error("Ready during drain")
			}
			r.Host().SendBytes(0, []byte("match over"), Reliable, 0)
			drained <- r.Name()
		},
	})
	ctx, cancelCtx := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancelCtx()
	var mu sync.Mutex
	var last []string
	var count atomic.Int32
	c, err := joinRoom(ctx, url+"/m", ClientOptions{OnBytes: func(_ PeerID, b []byte) {
		count.Add(1)
		mu.Lock()
		last = append(last[:0], string(b))
		mu.Unlock()
	}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	const n = 2000
	h := rs.Room("m").Host()
	for range n {
		if err := h.SendBytes(0, make([]byte, 512), Reliable, 0); err != nil {
			t.Fatal(err)
		}
	}
	if !rs.Ready() {
		t.Fatal("not ready")
	}
	cancel() // as SIGTERM would
	select {
	case <-c.Done():
	case <-ctx.Done():
		t.Fatal("client not disconnected")
	}
	if err := c.Err(); err != nil {
		t.Errorf("client saw %v, want a clean close", err)
	}
	if got := count.Load(); got != n+1 {
		t.Errorf("client got %d packets, want %d", got, n+1)
	}
	mu.Lock()
	if len(last) != 1 || last[0] != "match over" {
		t.Errorf("last packet %q", last)
	}
	mu.Unlock()
	if u := rs.budget.Used(); u != 0 {
		t.Errorf("%d bytes still charged to the process's budget", u)
	}
	if name := <-drained; name != "m" {
		t.Errorf("drained %q", name)
	}
	if _, err := joinRoom(ctx, url+"/m", ClientOptions{}); err == nil {
		t.Error("joined a draining server")
	}
}

// A room whose Drain callback never returns is disconnected at the
// deadline all the same.
func TestRoomsDrainDeadline(t *testing.T) {
	stuck := make(chan struct{})
	defer close(stuck)
	rs, url, _ := startRooms(t, RoomsOptions{
		DrainTimeout: 200 * time.Millisecond,
		Drain:        func(ctx context.Context, r *Room) { <-stuck },
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	c, err := joinRoom(ctx, url+"/x", ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := rs.Shutdown(ctx); err != nil {
		t.Fatal(err)
	}
	select {
	case <-c.Done():
	case <-ctx.Done():
		t.Fatal("client not disconnected")
	}
}

// Rooms end when empty after the grace period; nothing they started is
// left behind.
func TestRoomsEmptyTimeoutLeaks(t *testing.T) {
	base := leaktest.Take()
	func() {
		rs, url, _ := startRooms(t, RoomsOptions{EmptyTimeout: 20 * time.Millisecond})
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		for i := range 30 {
			c, err := joinRoom(ctx, url+"/room"+string(rune('a'+i%10)), ClientOptions{})
			if err != nil {
				t.Fatal(err)
			}
			c.Close()
		}
		waitUntilRooms(t, "the rooms to end", func() bool { return rs.Stats().Rooms == 0 && rs.Stats().Peers == 0 })
		if u := rs.budget.Used(); u != 0 {
			t.Errorf("%d bytes still charged", u)
		}
		if err := rs.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}()
	base.Check(t, 5*time.Second)
}

// One room over its queue budget loses its slow peer; another room is not
// affected.
func TestRoomsQueueBudget(t *testing.T) {
	rs, url, _ := startRooms(t, RoomsOptions{RoomQueuedBytes: 64 << 10})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	// A client that never reads: a raw WebSocket link.
	slow, err := DialWebSocket(ctx, url+"/busy", WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	waitUntilRooms(t, "the slow client", func() bool { r := rs.Room("busy"); return r != nil && len(r.Host().Peers()) == 1 })
	other, err := joinRoom(ctx, url+"/calm", ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	h := rs.Room("busy").Host()
	for range 4000 {
		h.SendBytes(0, make([]byte, 1024), Reliable, 0)
		if len(h.Peers()) == 0 {
			break
		}
	}
	waitUntilRooms(t, "the slow client to be dropped", func() bool { return len(h.Peers()) == 0 })
	if err := rs.Room("calm").Host().SendBytes(0, []byte("ok"), Reliable, 0); err != nil {
		t.Fatal(err)
	}
	select {
	case <-other.Done():
		t.Errorf("the other room's client was dropped: %v", other.Err())
	case <-time.After(50 * time.Millisecond):
	}
}

// A client joining a room that is ending because it was empty gets the
// room anew; one joining a room Go closed is refused while it closes.
func TestRoomsReopen(t *testing.T) {
	var opened atomic.Int32
	rs, url, _ := startRooms(t, RoomsOptions{
		EmptyTimeout: time.Millisecond,
		Open: func(ctx context.Context, name string, o HostOptions) (*Host, error) {
			opened.Add(1)
			return NewHost(o)
		},
	})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 20 {
		c, err := joinRoom(ctx, url+"/again", ClientOptions{})
		if err != nil {
			t.Fatalf("rejoining a room that ends when empty: %v", err)
		}
		c.Close()
		time.Sleep(time.Duration(i%4) * time.Millisecond)
	}
	if n := opened.Load(); n < 2 {
		t.Errorf("the room was opened %d times", n)
	}
	waitUntilRooms(t, "the room to end", func() bool { return rs.Stats().Rooms == 0 })
}

// ENet rooms, each on a port of the range: Go clients join, the rooms
// are closed (the clients get ENet's disconnect), the ports are free
// again, and nothing is left behind.
func TestRoomsENetLeaks(t *testing.T) {
	base := leaktest.Take()
	func() {
		c, err := net.ListenPacket("udp", "127.0.0.1:0")
		if err != nil {
			t.Fatal(err)
		}
		port := c.LocalAddr().(*net.UDPAddr).Port
		c.Close()
		rs, err := NewRooms(RoomsOptions{Logger: quiet, ENet: &RoomsENet{Host: "127.0.0.1", FirstPort: port, LastPort: port + 2}})
		if err != nil {
			t.Fatal(err)
		}
		ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
		defer cancel()
		for round := range 2 {
			var clients []*Client
			for i := range 3 {
				room, err := rs.Create(ctx, "e"+string(rune('a'+i)))
				if err != nil {
					t.Skipf("round %d: no ENet room (ports %d-%d taken?): %v", round, port, port+2, err)
				}
				link, err := DialENet(ctx, room.ENetAddr().String(), ENetOptions{})
				if err != nil {
					t.Fatal(err)
				}
				cl, err := Join(ctx, link, ClientOptions{Logger: quiet})
				if err != nil {
					t.Fatal(err)
				}
				clients = append(clients, cl)
			}
			if _, err := rs.Create(ctx, "one-too-many"); !errors.Is(err, ErrTooManyRooms) {
				t.Errorf("a fourth room on three ports: %v", err)
			}
			for _, r := range rs.List() {
				waitUntilRooms(t, "the ENet client to be in", func() bool { return len(r.Host().Peers()) == 1 })
				if err := r.Close(ctx); err != nil {
					t.Fatal(err)
				}
			}
			for _, cl := range clients {
				select {
				case <-cl.Done():
				case <-ctx.Done():
					t.Fatal("an ENet client was not disconnected")
				}
				cl.Close()
			}
		}
		if err := rs.Shutdown(ctx); err != nil {
			t.Fatal(err)
		}
	}()
	base.Check(t, 5*time.Second)
}
