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

func join(t *testing.T, c *peer.Conn, err error, name string) *gopher {
	t.Helper()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	c.SetDeadline(time.Now().Add(time.Minute))
	g := &gopher{t, c}
	g.send("type", "join", "name", name)
	return g
}

func (g *gopher) send(kv ...any) {
	g.t.Helper()
	if err := g.c.WriteValue(dict(kv...)); err != nil {
		g.t.Fatal(err)
	}
}

// next returns the next message, which must be of type typ.
func (g *gopher) next(typ string) *variant.Dictionary {
	g.t.Helper()
	v, err := g.c.ReadValue()
	if err != nil {
		g.t.Fatalf("waiting for %q: %v", typ, err)
	}
	d, ok := v.(*variant.Dictionary)
	if !ok || str(d, "type") != typ {
		g.t.Fatalf("got %v, want a %q message", v, typ)
	}
	return d
}

func TestLobbyAcrossFamilies(t *testing.T) {
	tcp, ws := startLobby(t)
	ctx := context.Background()
	// A Godot 3 client over TCP and a Godot 4 client over WebSocket.
	c3, err := peer.DialTCP(ctx, tcp, peer.Options{Godot: variant.Godot3})
	ada := join(t, c3, err, "Ada")
	welcome := ada.next("welcome")
	adaID := get(welcome, "id")
	c4, err := peer.DialWebSocket(ctx, "ws://"+ws+"/", peer.Options{})
	grace := join(t, c4, err, "Grace")
	welcome = grace.next("welcome")
	graceID := get(welcome, "id")
	players := get(welcome, "players").(*variant.Dictionary)
	if players.Len() != 2 {
		t.Errorf("Grace sees %d players", players.Len())
	}
	if j := ada.next("joined"); get(j, "id") != graceID || str(j, "name") != "Grace" {
		t.Errorf("Ada got %v", j)
	}
	grace.send("type", "move", "pos", variant.Vector2{X: 3, Y: 4})
	if m := ada.next("moved"); get(m, "pos") != (variant.Vector2{X: 3, Y: 4}) {
		t.Errorf("Ada got %v", m)
	}
	grace.next("moved")
	ada.send("type", "say", "text", "hi ✓")
	for _, g := range []*gopher{ada, grace} {
		if m := g.next("said"); str(m, "text") != "hi ✓" || get(m, "id") != adaID || str(m, "name") != "Ada" {
			t.Errorf("got %v", m)
		}
	}
	ada.send("type", "dance")
	if m := ada.next("error"); !strings.Contains(str(m, "message"), "dance") {
		t.Errorf("got %v", m)
	}
	ada.c.Close()
	if m := grace.next("left"); get(m, "id") != adaID {
		t.Errorf("got %v", m)
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
	me := get(g.next("welcome"), "id")
	seen := make(chan []string, 1)
	go func() {
		var log []string
		defer func() { seen <- log }()
		for {
			v, err := c.ReadValue()
			if err != nil {
				return
			}
			m := v.(*variant.Dictionary)
			switch str(m, "type") {
			case "joined":
				log = append(log, "joined "+str(m, "name"))
			case "said":
				if get(m, "id") != me {
					log = append(log, "said "+str(m, "text"))
					c.WriteValue(dict("type", "say", "text", "welcome, "+str(m, "name")))
				}
			case "moved":
				pos := get(m, "pos").(variant.Vector2)
				log = append(log, "moved "+strconv.FormatFloat(pos.X, 'g', -1, 64)+" "+strconv.FormatFloat(pos.Y, 'g', -1, 64))
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
