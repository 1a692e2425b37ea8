package main

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// startLobby runs the server on loopback and returns its URL.
func startLobby(t *testing.T, fam variant.Family) (*lobby, string) {
	t.Helper()
	l, err := newLobby(fam, t.Logf)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ln, err := multiplayer.ListenWebSocket(ctx, "127.0.0.1:0", multiplayer.WebSocketOptions{Godot: fam,
		// The web build's page comes from another loopback port.
		Peer: peer.Options{WebSocket: peer.WebSocketOptions{Origins: []string{"127.0.0.1:*"}}}})
	if err != nil {
		t.Fatal(err)
	}
	go l.host.Serve(ctx, ln)
	t.Cleanup(func() {
		cancel()
		l.host.Close()
	})
	return l, "ws://" + ln.Addr().String()
}

// goPlayer joins the lobby from Go and answers the first other player who
// speaks; it returns what it saw.
func goPlayer(t *testing.T, l *lobby, url string, fam variant.Family, name string) (*multiplayer.Client, *seen) {
	t.Helper()
	s := &seen{}
	var c *multiplayer.Client
	ready := make(chan struct{}) // closed once c is set
	node := l.node()
	for i, m := range node.Methods {
		m.Handler = nil
		switch m.Name {
		case "joined":
			m.Handler = func(_ context.Context, _ multiplayer.PeerID, id int, n string) { s.add(fmt.Sprintf("joined %s", n)) }
		case "said":
			m.Handler = func(_ context.Context, _ multiplayer.PeerID, id int, text string) {
				<-ready
				s.add("said " + text)
				if multiplayer.PeerID(id) != c.ID() {
					c.Call(1, "Lobby", "say", "hello from Go")
				}
			}
		case "moved":
			m.Handler = func(_ context.Context, _ multiplayer.PeerID, id int, pos variant.Vector2) {
				s.add(fmt.Sprintf("moved %v %v", pos.X, pos.Y))
			}
		case "left":
			m.Handler = func(_ context.Context, _ multiplayer.PeerID, id int) { s.add("left") }
		}
		node.Methods[i] = m
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	link, err := multiplayer.DialWebSocket(ctx, url, multiplayer.WebSocketOptions{Godot: fam})
	if err != nil {
		t.Fatal(err)
	}
	c, err = multiplayer.Join(ctx, link, multiplayer.ClientOptions{Godot: fam}, node)
	if err != nil {
		t.Fatal(err)
	}
	close(ready)
	t.Cleanup(func() { c.Close() })
	if err := c.Call(1, "Lobby", "join", name); err != nil {
		t.Fatal(err)
	}
	return c, s
}

type seen struct {
	mu    sync.Mutex
	lines []string
}

func (s *seen) add(line string) {
	s.mu.Lock()
	s.lines = append(s.lines, line)
	s.mu.Unlock()
}

func (s *seen) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return strings.Join(s.lines, "\n")
}

func checkDemo(t *testing.T, out string, s *seen, name, hello string) {
	t.Helper()
	for _, want := range []string{"in as ", "here: go", "said ", "hello from Go", "bye"} {
		if !strings.Contains(out, want) {
			t.Errorf("the Godot player did not print %q; it printed:\n%s", want, out)
		}
	}
	deadline := time.Now().Add(5 * time.Second)
	for _, want := range []string{"joined " + name, "said " + hello, "moved 3 4", "left"} {
		for !strings.Contains(s.String(), want) && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if !strings.Contains(s.String(), want) {
			t.Errorf("the Go player did not see %q; it saw:\n%s", want, s)
		}
	}
}

// A Godot 3.2.3 player (demo3.gd with lobby3.gd) and a Go player meet in the
// lobby: join, chat, move, leave.
func TestGodot3Player(t *testing.T) {
	enginetest.Godot3(t)
	l, url := startLobby(t, variant.Godot3)
	_, s := goPlayer(t, l, url, variant.Godot3, "go")
	out := enginetest.RunGodot3(t, "demo3.gd", url, "ada3", "20")
	t.Logf("demo3.gd:\n%s", out)
	checkDemo(t, out, s, "ada3", "hello from Godot 3.2.3-stable (custom_build)")
}

// The same with a Godot 4.6 player (demo4.gd with lobby4.gd, web build).
func TestGodot4Player(t *testing.T) {
	godot4web.Skip(t)
	l, url := startLobby(t, variant.Godot4)
	_, s := goPlayer(t, l, url, variant.Godot4, "go")
	r := godot4web.Run(t, godot4web.Job{Script: "demo4.gd", With: []string{"lobby4.gd"}, Args: []string{url, "grace4", "30"}, Timeout: time.Minute})
	t.Logf("demo4.gd:\n%s\n%s", r.Stdout, r.Stderr)
	if r.Code != 0 {
		t.Errorf("demo4.gd exited with %d:\n%s", r.Code, r.Stderr)
	}
	checkDemo(t, r.Stdout, s, "grace4", "hello from Godot 4.6-stable (official)")
}

// Two Go players, without an engine.
func TestGoPlayers(t *testing.T) {
	l, url := startLobby(t, variant.Godot4)
	a, sa := goPlayer(t, l, url, variant.Godot4, "ann")
	_, sb := goPlayer(t, l, url, variant.Godot4, "bob")
	for len(l.names()) < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	a.Call(1, "Lobby", "move", variant.Vector2{X: 5, Y: 6})
	a.Call(1, "Lobby", "say", "hi")
	deadline := time.Now().Add(5 * time.Second)
	for !(strings.Contains(sb.String(), "moved 5 6") && strings.Contains(sa.String(), "said hello from Go")) && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if !strings.Contains(sb.String(), "moved 5 6") || !strings.Contains(sa.String(), "said hello from Go") {
		t.Errorf("ann saw:\n%s\nbob saw:\n%s", sa, sb)
	}
}
