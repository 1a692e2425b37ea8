package main

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/multiplayer"
)

// gdvar host serves rooms by path, metrics and health on --metrics, JSON
// log records with --log-format json, and drains on cancel: /readyz turns
// 503, clients are disconnected cleanly, the exit status is 0.
func TestHostCommandRooms(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- hostMain(ctx, []string{"--ws", "127.0.0.1:0", "--metrics", "127.0.0.1:0", "--log-format", "json", "--rpc", "Chat:say"}, &stdout, &stderr)
	}()
	wsRE := regexp.MustCompile(`ws://(127\.0\.0\.1:\d+) `)
	adminRE := regexp.MustCompile(`http://(127\.0\.0\.1:\d+)/metrics`)
	waitUntil(t, "the host to listen", func() bool { return wsRE.MatchString(stderr.String()) && adminRE.MatchString(stderr.String()) })
	url := "ws://" + wsRE.FindStringSubmatch(stderr.String())[1]
	admin := "http://" + adminRE.FindStringSubmatch(stderr.String())[1]
	node := multiplayer.Node{Path: "Chat", Methods: []multiplayer.Method{{Name: "say", Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable}}}
	join := func(room string) *multiplayer.Client {
		jctx, jcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer jcancel()
		link, err := multiplayer.DialWebSocket(jctx, url+room, multiplayer.WebSocketOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := multiplayer.Join(jctx, link, multiplayer.ClientOptions{}, node)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b, c := join("/red"), join("/red"), join("/blue")
	waitUntil(t, "a to see b", func() bool { return len(a.Peers()) == 2 })
	if len(c.Peers()) != 1 {
		t.Errorf("blue's client sees %v", c.Peers())
	}
	if err := a.Call(1, "Chat", "say", "in red"); err != nil {
		t.Fatal(err)
	}
	if err := c.Call(1, "Chat", "say", "in blue"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the calls to be printed", func() bool {
		return strings.Contains(stdout.String(), `[red] `) && strings.Contains(stdout.String(), `[blue] `)
	})
	get := func(path string) (int, string) {
		resp, err := http.Get(admin + path)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		body, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(body)
	}
	if code, body := get("/metrics"); code != 200 || !strings.Contains(body, "gdvar_multiplayer_rooms 2") || !strings.Contains(body, "gdvar_multiplayer_peers 3") {
		t.Errorf("/metrics %d:\n%s", code, body)
	}
	if code, _ := get("/readyz"); code != 200 {
		t.Errorf("/readyz %d", code)
	}
	cancel()
	for _, cl := range []*multiplayer.Client{a, b, c} {
		select {
		case <-cl.Done():
			if err := cl.Err(); err != nil {
				t.Errorf("client saw %v, want a clean close", err)
			}
		case <-time.After(10 * time.Second):
			t.Fatal("client not disconnected")
		}
	}
	if code := <-done; code != 0 {
		t.Errorf("exit %d", code)
	}
	out := stdout.String()
	for _, want := range []string{`[red] `, `-> 1 REMOTE_CALL Chat.say("in red")`, `[blue] `, `REMOTE_CALL Chat.say("in blue")`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// The log records are JSON, with the room as an attribute.
	rooms := map[string]bool{}
	for _, line := range strings.Split(stderr.String(), "\n") {
		if !strings.HasPrefix(line, "{") {
			continue
		}
		var rec map[string]any
		if err := json.Unmarshal([]byte(line), &rec); err != nil {
			t.Errorf("not JSON: %q", line)
			continue
		}
		if r, ok := rec["room"].(string); ok && strings.Contains(rec["msg"].(string), "joined") {
			rooms[r] = true
		}
	}
	if !rooms["red"] || !rooms["blue"] {
		t.Errorf("no JSON join records of both rooms:\n%s", stderr.String())
	}
}
