package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// startArena runs the server on loopback and returns its URL.
func startArena(t *testing.T) (*arena, string) {
	return startArenaFrom(t, "")
}

// startArenaFrom runs the server declared from the Godot project in
// project ("": in Go).
func startArenaFrom(t *testing.T, project string) (*arena, string) {
	t.Helper()
	a, err := newArena(project, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// As main listens: the web build's page comes from another loopback
	// port, which the default origins accept.
	ln, err := listen(ctx, "127.0.0.1:0", defaultOrigins)
	if err != nil {
		t.Fatal(err)
	}
	go a.host.Serve(ctx, ln)
	go a.run(ctx)
	t.Cleanup(func() {
		cancel()
		a.host.Close()
	})
	return a, "ws://" + ln.Addr().String()
}

// players returns the server's players' hp, by peer.
func (a *arena) hps() map[multiplayer.PeerID]int {
	a.mu.Lock()
	defer a.mu.Unlock()
	out := map[multiplayer.PeerID]int{}
	for id, p := range a.players {
		out[id] = p.hp
	}
	return out
}

// sight is one line a client printed about a player.
type sight struct {
	what, name string
	x, y       float64
	hp         int
}

// view is what one client printed.
type view struct {
	id     string
	lines  []sight
	gone   map[string]bool
	output string
}

func parseView(out string) view {
	v := view{gone: map[string]bool{}, output: out}
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		switch {
		case len(f) == 2 && f[0] == "id":
			v.id = f[1]
		case len(f) == 2 && f[0] == "despawned":
			v.gone[f[1]] = true
		case len(f) == 5 && (f[0] == "spawned" || f[0] == "see"):
			var s sight
			if _, err := fmt.Sscanf(line, "%s %s %g %g %d", &s.what, &s.name, &s.x, &s.y, &s.hp); err == nil {
				v.lines = append(v.lines, s)
			}
		}
	}
	return v
}

// first returns the first line of what about name.
func (v view) first(what, name string) (sight, bool) {
	for _, s := range v.lines {
		if s.what == what && s.name == name {
			return s, true
		}
	}
	return sight{}, false
}

// span returns the first and last positions and hp seen of name.
func (v view) span(name string) (first, last sight, ok bool) {
	for _, s := range v.lines {
		if s.name != name {
			continue
		}
		if !ok {
			first, ok = s, true
		}
		last = s
	}
	return
}

// Three Godot 4.6 clients (the web build) play in the arena: A walks right,
// B walks down, C joins late and stands. Each sees every player spawn, the
// others move by their owners' input and lose hp; when A leaves, B and C
// see it despawn; C, joining late, gets A and B where they are by then.
func TestGodot4Clients(t *testing.T) {
	godot4web.Skip(t)
	a, url := startArena(t)
	run := func(args ...string) godot4web.Result {
		return godot4web.Run(t, godot4web.Job{Script: "client.gd", With: []string{"main.tscn", "player.tscn", "player.gd"},
			Args: append([]string{url}, args...), Timeout: 2 * time.Minute})
	}
	var ra, rb godot4web.Result
	var wg sync.WaitGroup
	wg.Add(2)
	go func() { defer wg.Done(); ra = run("1", "0", "players:3") }()
	go func() { defer wg.Done(); rb = run("0", "1", "despawn") }()
	// C joins once A and B have been in for two seconds (hp 98).
	deadline := time.Now().Add(90 * time.Second)
	for time.Now().Before(deadline) {
		hp := a.hps()
		ready := len(hp) == 2
		for _, v := range hp {
			ready = ready && v <= 98
		}
		if ready {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	if len(a.hps()) != 2 {
		wg.Wait()
		t.Fatalf("A and B did not both join; A:\n%s\n%s\nB:\n%s\n%s", ra.Stdout, ra.Stderr, rb.Stdout, rb.Stderr)
	}
	rc := run("0", "0", "despawn")
	wg.Wait()
	va, vb, vc := parseView(ra.Stdout), parseView(rb.Stdout), parseView(rc.Stdout)
	for _, c := range []struct {
		name string
		r    godot4web.Result
		v    view
	}{{"A", ra, va}, {"B", rb, vb}, {"C", rc, vc}} {
		if c.r.Code != 0 || c.v.id == "" {
			t.Errorf("client %s exited with %d, id %q:\n%s\n%s", c.name, c.r.Code, c.v.id, c.r.Stdout, c.r.Stderr)
		}
	}
	if t.Failed() {
		return
	}
	A, B, C := va.id, vb.id, vc.id
	// Everyone sees every player spawn.
	for who, v := range map[string]view{"A": va, "B": vb, "C": vc} {
		for _, p := range []string{A, B, C} {
			if _, ok := v.first("spawned", p); !ok {
				t.Errorf("client %s did not see player %s spawn:\n%s", who, p, v.output)
			}
		}
	}
	// Players move by their owners' input: A right, B down, C not at all;
	// and their hp falls.
	moved := func(who string, v view, p string, dx, dy bool) {
		f, l, ok := v.span(p)
		if !ok {
			t.Errorf("client %s never saw player %s", who, p)
			return
		}
		if got := l.x-f.x > 20; got != dx {
			t.Errorf("client %s saw player %s go from x %g to %g", who, p, f.x, l.x)
		}
		if got := l.y-f.y > 20; got != dy {
			t.Errorf("client %s saw player %s go from y %g to %g", who, p, f.y, l.y)
		}
		if l.hp >= f.hp && f.hp > 0 {
			t.Errorf("client %s saw player %s keep hp %d (from %d)", who, p, l.hp, f.hp)
		}
	}
	moved("A", va, B, false, true)
	moved("B", vb, A, true, false)
	moved("B", vb, B, false, true)
	moved("C", vc, B, false, true)
	if f, l, ok := vc.span(C); ok && (l.x != f.x || l.y != f.y) {
		t.Errorf("C stood still but was seen moving from %v to %v", f, l)
	}
	// A leaves: B and C see it despawn.
	for who, v := range map[string]view{"B": vb, "C": vc} {
		if !v.gone[A] {
			t.Errorf("client %s did not see A (%s) despawn:\n%s", who, A, v.output)
		}
	}
	// The late joiner got A and B as they were then, not as they started.
	for _, p := range []string{A, B} {
		start, _ := parseView(map[string]string{A: ra.Stdout, B: rb.Stdout}[p]).first("spawned", p)
		got, _ := vc.first("spawned", p)
		if got.hp >= 100 || (got.x == start.x && got.y == start.y) {
			t.Errorf("late joiner C got player %s spawned at (%g, %g) hp %d; it started at (%g, %g) hp %d",
				p, got.x, got.y, got.hp, start.x, start.y, start.hp)
		}
	}
	// The server despawned A for good.
	if _, ok := a.hps()[peerID(A)]; ok {
		t.Errorf("the server still has player %s", A)
	}
}

func peerID(s string) multiplayer.PeerID {
	var id int
	fmt.Sscan(s, &id)
	return multiplayer.PeerID(id)
}

// Without an engine: a hand-driven client announces its InputSync and
// sends a direction; the server moves its player by it. The same with the
// server declared from the client's Godot project.
func TestInputMovesPlayer(t *testing.T) {
	for _, project := range []string{"", "."} {
		t.Run("project="+project, func(t *testing.T) { testInputMovesPlayer(t, project) })
	}
}

func testInputMovesPlayer(t *testing.T, project string) {
	a, url := startArenaFrom(t, project)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	link, err := multiplayer.DialWebSocket(ctx, url, multiplayer.WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	f, err := link.ReadFrame()
	if err != nil {
		t.Fatal(err)
	}
	id := multiplayer.PeerID(binary.LittleEndian.Uint32(f.Data))
	go func() {
		for {
			if _, err := link.ReadFrame(); err != nil {
				return
			}
		}
	}()
	for a.hps()[id] == 0 {
		time.Sleep(5 * time.Millisecond)
	}
	a.mu.Lock()
	from := a.players[id].pos
	a.mu.Unlock()
	path := fmt.Sprintf("Main/Players/%d/InputSync", id)
	link.WriteFrame(multiplayer.Frame{Data: multiplayer.AppendSimplifyPath(nil, variant.Godot4, multiplayer.MethodsChecksum(nil), 1, path)})
	dir, _ := variant.Encode(variant.Vector2{X: 0, Y: -1})
	for i := range 20 {
		pkt := []byte{6, byte(i + 1), 0}
		pkt = binary.LittleEndian.AppendUint32(pkt, 1|1<<31)
		pkt = binary.LittleEndian.AppendUint32(pkt, uint32(len(dir)))
		link.WriteFrame(multiplayer.Frame{Data: append(pkt, dir...)})
		time.Sleep(20 * time.Millisecond)
	}
	deadline := time.Now().Add(5 * time.Second)
	for time.Now().Before(deadline) {
		a.mu.Lock()
		to := a.players[id].pos
		a.mu.Unlock()
		if to.X == from.X && to.Y < from.Y-10 {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Errorf("the player did not move up from %v", from)
}

// By default the server accepts native clients (no Origin) and web exports
// served from this machine, and refuses pages from elsewhere.
func TestDefaultOrigins(t *testing.T) {
	_, url := startArena(t)
	for origin, ok := range map[string]bool{"": true, "http://127.0.0.1:8060": true, "http://localhost:8060": true, "https://evil.example": false} {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		o := multiplayer.WebSocketOptions{}
		if origin != "" {
			o.Peer.WebSocket.Header = http.Header{"Origin": {origin}}
		}
		link, err := multiplayer.DialWebSocket(ctx, url, o)
		cancel()
		if (err == nil) != ok {
			t.Errorf("Origin %q: %v", origin, err)
		}
		if err == nil {
			link.Close()
		}
	}
}
