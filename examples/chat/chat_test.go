package main

import (
	"context"
	"io"
	"log"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// startLobby runs the server on free loopback ports and returns the TCP
// and WebSocket addresses.
func startLobby(t *testing.T) (tcp, ws string) {
	t.Helper()
	lb := newLobby(log.New(io.Discard, "", 0))
	if err := lb.listen(context.Background(), "127.0.0.1:0", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(lb.close)
	return lb.listeners[0].Addr().String(), lb.listeners[1].Addr().String()
}

// gopher is a chat client written in Go.
type gopher struct {
	t *testing.T
	c *peer.Conn
}

// serverMsg is any message the server sends.
type serverMsg struct {
	Type    string               `gdvar:"type"`
	ID      int64                `gdvar:"id"`
	Name    string               `gdvar:"name"`
	Text    string               `gdvar:"text"`
	Pos     variant.Vector2      `gdvar:"pos"`
	Players map[int64]playerInfo `gdvar:"players"`
	Message string               `gdvar:"message"`
}

func join(t *testing.T, c *peer.Conn, err error, name string) *gopher {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(time.Minute))
	g := &gopher{t, c}
	g.send(clientMsg{Type: "join", Name: name})
	return g
}

func (g *gopher) send(msg clientMsg) {
	g.t.Helper()
	if err := g.c.Encode(msg); err != nil {
		g.t.Fatal(err)
	}
}

// next returns the next message, which must be of type typ.
func (g *gopher) next(typ string) serverMsg {
	g.t.Helper()
	var m serverMsg
	if err := g.c.Decode(&m); err != nil {
		g.t.Fatalf("waiting for %q: %v", typ, err)
	}
	if m.Type != typ {
		g.t.Fatalf("got %+v, want a %q message", m, typ)
	}
	return m
}

func TestLobbyAcrossFamilies(t *testing.T) {
	tcp, ws := startLobby(t)
	ctx := context.Background()
	// A Godot 3 client over TCP and a Godot 4 client over WebSocket.
	c3, err := peer.DialTCP(ctx, tcp, peer.Options{Godot: variant.Godot3})
	ada := join(t, c3, err, "Ada")
	adaID := ada.next("welcome").ID
	c4, err := peer.DialWebSocket(ctx, "ws://"+ws+"/", peer.Options{})
	grace := join(t, c4, err, "Grace")
	welcome := grace.next("welcome")
	graceID := welcome.ID
	if len(welcome.Players) != 2 || welcome.Players[adaID].Name != "Ada" || welcome.Players[graceID].Name != "Grace" {
		t.Errorf("Grace sees %+v", welcome.Players)
	}
	if j := ada.next("joined"); j.ID != graceID || j.Name != "Grace" {
		t.Errorf("Ada got %+v", j)
	}
	grace.send(clientMsg{Type: "move", Pos: &variant.Vector2{X: 3, Y: 4}})
	if m := ada.next("moved"); m.Pos != (variant.Vector2{X: 3, Y: 4}) || m.ID != graceID {
		t.Errorf("Ada got %+v", m)
	}
	grace.next("moved")
	ada.send(clientMsg{Type: "say", Text: "hi ✓"})
	for _, g := range []*gopher{ada, grace} {
		if m := g.next("said"); m.Text != "hi ✓" || m.ID != adaID || m.Name != "Ada" {
			t.Errorf("got %+v", m)
		}
	}
	ada.send(clientMsg{Type: "dance"})
	if m := ada.next("error"); !strings.Contains(m.Message, "dance") {
		t.Errorf("got %+v", m)
	}
	// A move without a position, and one whose position is no Vector2.
	ada.send(clientMsg{Type: "move"})
	if m := ada.next("error"); m.Message != "move: pos must be a Vector2" {
		t.Errorf("got %+v", m)
	}
	ada.c.Encode(map[string]any{"type": "move", "pos": "here"})
	if m := ada.next("error"); !strings.Contains(m.Message, "cannot unmarshal String into variant.Vector2") {
		t.Errorf("got %+v", m)
	}
	ada.c.Close()
	if m := grace.next("left"); m.ID != adaID {
		t.Errorf("got %+v", m)
	}
	// The first message must be a join.
	c, err := peer.DialTCP(ctx, tcp, peer.Options{})
	bad := join(t, c, err, "")
	bad.next("error")
	if _, err := bad.c.ReadValue(); err != io.EOF {
		t.Errorf("after a bad join: %v", err)
	}
}

// replyToOthers runs a Go player that answers everyone else's messages,
// and returns what it saw.
func replyToOthers(t *testing.T, c *peer.Conn, err error) chan []string {
	g := join(t, c, err, "gopher")
	me := g.next("welcome").ID
	seen := make(chan []string, 1)
	go func() {
		var log []string
		defer func() { seen <- log }()
		for {
			var m serverMsg
			if err := c.Decode(&m); err != nil {
				return
			}
			switch m.Type {
			case "joined":
				log = append(log, "joined "+m.Name)
			case "said":
				if m.ID != me {
					log = append(log, "said "+m.Text)
					c.Encode(clientMsg{Type: "say", Text: "welcome, " + m.Name})
				}
			case "moved":
				log = append(log, "moved "+strconv.FormatFloat(m.Pos.X, 'g', -1, 64)+" "+strconv.FormatFloat(m.Pos.Y, 'g', -1, 64))
			case "left":
				log = append(log, "left")
				return
			}
		}
	}()
	return seen
}

func checkDemo(t *testing.T, out string, seen []string, name, hello string) {
	t.Helper()
	for _, want := range []string{"joined as ", "gopher: welcome, " + name, "disconnected"} {
		if !strings.Contains(out, want) {
			t.Errorf("the demo did not print %q:\n%s", want, out)
		}
	}
	got := strings.Join(seen, "\n")
	for _, want := range []string{"joined " + name, "said " + hello, "moved 3 4", "left"} {
		if !strings.Contains(got, want) {
			t.Errorf("the Go player did not see %q; it saw:\n%s", want, got)
		}
	}
}

// The Godot 3 client (client3.gd, through demo3.gd) chats with a Go player
// over TCP.
func TestGodot3Client(t *testing.T) {
	enginetest.Godot3(t)
	tcp, ws := startLobby(t)
	c, err := peer.DialWebSocket(context.Background(), "ws://"+ws+"/", peer.Options{})
	seen := replyToOthers(t, c, err)
	host, port, _ := net.SplitHostPort(tcp)
	out := enginetest.RunGodot3(t, "demo3.gd", host, port, "ada3", "20")
	t.Logf("demo3.gd:\n%s", out)
	checkDemo(t, out, <-seen, "ada3", "hello from Godot 3.2.3-stable (custom_build)")
}

// The Godot 4 client (client4.gd, through demo4.gd) chats with a Go player
// over WebSocket, from the engine's web build.
func TestGodot4Client(t *testing.T) {
	godot4web.Skip(t)
	tcp, ws := startLobby(t)
	c, err := peer.DialTCP(context.Background(), tcp, peer.Options{})
	seen := replyToOthers(t, c, err)
	r := godot4web.Run(t, godot4web.Job{
		Script:  "demo4.gd",
		With:    []string{"client4.gd"},
		Args:    []string{"ws://" + ws + "/", "grace4", "60"},
		Timeout: 2 * time.Minute,
	})
	t.Logf("demo4.gd:\n%s", r.Stdout)
	if r.Code != 0 {
		t.Errorf("demo4.gd exited with %d:\n%s", r.Code, r.Stderr)
	}
	checkDemo(t, r.Stdout, <-seen, "grace4", "hello from Godot 4.6-stable (official)")
}
