package main

import (
	"context"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/multiplayer"
)

func waitUntil(t *testing.T, what string, f func() bool) {
	t.Helper()
	for end := time.Now().Add(5 * time.Second); !f(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(end) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// gdvar host relays between two clients and prints what they send, with
// method names from --rpc.
func TestHostCommand(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- hostMain(ctx, []string{"--ws", "127.0.0.1:0", "--rpc", "Chat:say,shout"}, &stdout, &stderr)
	}()
	addrRE := regexp.MustCompile(`ws://(\S+)`)
	waitUntil(t, "the host to listen", func() bool { return addrRE.MatchString(stderr.String()) })
	url := "ws://" + addrRE.FindStringSubmatch(stderr.String())[1]

	got := make(chan string, 4)
	node := multiplayer.Node{Path: "Chat", Methods: []multiplayer.Method{
		{Name: "say", Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable, Handler: func(_ context.Context, from multiplayer.PeerID, s string) { got <- s }},
		{Name: "shout", Mode: multiplayer.AnyPeer},
	}}
	join := func() *multiplayer.Client {
		jctx, jcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer jcancel()
		link, err := multiplayer.DialWebSocket(jctx, url, multiplayer.WebSocketOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := multiplayer.Join(jctx, link, multiplayer.ClientOptions{}, node)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b := join(), join()
	waitUntil(t, "a to see b", func() bool { return len(a.Peers()) == 2 })
	if err := a.Call(b.ID(), "Chat", "say", "hello b"); err != nil {
		t.Fatal(err)
	}
	select {
	case s := <-got:
		if s != "hello b" {
			t.Errorf("b got %q", s)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("b got nothing")
	}
	if err := a.Call(1, "Chat", "say", "hello host"); err != nil {
		t.Fatal(err)
	}
	waitUntil(t, "the host to print the call", func() bool { return strings.Contains(stdout.String(), `Chat.say("hello host")`) })
	a.Close()
	b.Close()
	cancel()
	if code := <-done; code != 0 {
		t.Errorf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	for _, want := range []string{"(relay) SIMPLIFY_PATH Chat as #1", `(relay) REMOTE_CALL Chat.say("hello b")`, `-> 1 REMOTE_CALL Chat.say("hello host")`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
}

// Two Godot 3.2.3 games play through gdvar host, which prints their
// relayed calls with the method names Godot 3 sends.
func TestHostCommandGodot3(t *testing.T) {
	enginetest.Godot3(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- hostMain(ctx, []string{"--ws", "127.0.0.1:0", "--godot", "3"}, &stdout, &stderr)
	}()
	addrRE := regexp.MustCompile(`ws://127\.0\.0\.1:(\d+)`)
	waitUntil(t, "the host to listen", func() bool { return addrRE.MatchString(stderr.String()) })
	port := addrRE.FindStringSubmatch(stderr.String())[1]
	// The relay client of package multiplayer's tests.
	script := filepath.Join("..", "..", "multiplayer", "testdata", "relay3.gd")
	a := enginetest.StartGodot3(t, script, port, "ann")
	b := enginetest.StartGodot3(t, script, port, "bob")
	outA, outB := a.Wait(), b.Wait()
	if !strings.Contains(outA, "hi from bob") || !strings.Contains(outB, "hi from ann") {
		t.Errorf("ann:\n%s\nbob:\n%s", outA, outB)
	}
	cancel()
	<-done
	out := stdout.String()
	t.Logf("gdvar host printed:\n%s", out)
	for _, want := range []string{`(relay) SIMPLIFY_PATH Relay as #1`, `(relay) REMOTE_CALL Relay.chat("hi from ann")`, `(relay) REMOTE_CALL Relay.chat("hi from bob")`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// Two Godot 3.2.3 games join gdvar host --enet with Zstandard
// compression and play through it, the host running in 7 ms frames
// (--write-delay); a WebSocket listener shares the host.
func TestHostCommandENetGodot3(t *testing.T) {
	enginetest.Godot3(t)
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- hostMain(ctx, []string{"--ws", "127.0.0.1:0", "--enet", "127.0.0.1:0", "--compress", "zstd", "--godot", "3", "--write-delay", "7ms"}, &stdout, &stderr)
	}()
	addrRE := regexp.MustCompile(`enet://127\.0\.0\.1:(\d+) \(compression zstd\)`)
	waitUntil(t, "the host to listen", func() bool { return addrRE.MatchString(stderr.String()) })
	if !strings.Contains(stderr.String(), "ws://127.0.0.1:") {
		t.Errorf("no WebSocket listener: %s", stderr.String())
	}
	port := addrRE.FindStringSubmatch(stderr.String())[1]
	script := filepath.Join("..", "..", "multiplayer", "testdata", "relay3.gd")
	a := enginetest.StartGodot3(t, script, port, "ann", "enet", "4")
	b := enginetest.StartGodot3(t, script, port, "bob", "enet", "4")
	outA, outB := a.Wait(), b.Wait()
	if !strings.Contains(outA, "hi from bob") || !strings.Contains(outB, "hi from ann") {
		t.Errorf("ann:\n%s\nbob:\n%s", outA, outB)
	}
	cancel()
	<-done
	out := stdout.String()
	for _, want := range []string{`(relay) REMOTE_CALL Relay.chat("hi from ann")`, `(relay) REMOTE_CALL Relay.chat("hi from bob")`} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(stderr.String(), "joined") {
		t.Errorf("no join reported: %s", stderr.String())
	}
}

// --project names a folder that holds project.godot: anything else is
// said at once.
func TestHostProjectMistakes(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "main.gd")
	if err := os.WriteFile(file, []byte("extends Node\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, c := range []struct{ project, want string }{
		{file, "gdvar host: multiplayer: project " + file + " is not a directory (the project's folder holds project.godot)\n"},
		{filepath.Join(dir, "nothere"), "gdvar host: multiplayer: project: stat " + filepath.Join(dir, "nothere") + ": no such file or directory\n"},
	} {
		var stdout, stderr syncBuffer
		if status := hostMain(context.Background(), []string{"--ws", "127.0.0.1:0", "--project", c.project}, &stdout, &stderr); status != 1 || stderr.String() != c.want {
			t.Errorf("--project %s: status %d, stderr %q, want %q", c.project, status, stderr.String(), c.want)
		}
	}
	// A folder without project.godot or RPCs: the host runs, and warns.
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() { done <- hostMain(ctx, []string{"--ws", "127.0.0.1:0", "--project", dir}, &stdout, &stderr) }()
	waitUntil(t, "the host to listen", func() bool { return strings.Contains(stderr.String(), "ws://") })
	cancel()
	<-done
	for _, want := range []string{
		"gdvar host: warning: " + dir + " has no project.godot: --project names the Godot project's folder\n",
		"gdvar host: warning: no RPC methods in " + dir + "'s scenes and autoloads: calls print as #N\n",
	} {
		if !strings.Contains(stderr.String(), want) {
			t.Errorf("stderr %q lacks %q", stderr.String(), want)
		}
	}
}

// A Godot 4 project whose scenes do not read as replication declarations
// (here a spawner names a scene the project lacks) still gives its RPCs;
// gdvar host runs, and says why replication prints without names.
func TestHostProjectWithoutReplicationNames(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"project.godot": "config_version=5\n",
		"main.tscn": "[gd_scene format=3]\n\n[node name=\"Main\" type=\"Node\"]\n\n" +
			"[node name=\"Spawner\" type=\"MultiplayerSpawner\" parent=\".\"]\n" +
			"_spawnable_scenes = PackedStringArray(\"res://gone.tscn\")\n",
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() { done <- hostMain(ctx, []string{"--ws", "127.0.0.1:0", "--project", dir}, &stdout, &stderr) }()
	waitUntil(t, "the host to listen", func() bool { return strings.Contains(stderr.String(), "ws://") })
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	if want := "gdvar host: warning: replication prints without property names: res://main.tscn: spawner Spawner: spawnable scene res://gone.tscn not found in the project\n"; !strings.Contains(stderr.String(), want) {
		t.Errorf("stderr %q lacks %q", stderr.String(), want)
	}
}

// --write-delay paces the WebSocket host as an engine's frame: it still
// relays; a negative delay is refused.
func TestHostCommandWriteDelay(t *testing.T) {
	var stdout, stderr syncBuffer
	if status := hostMain(context.Background(), []string{"--ws", "127.0.0.1:0", "--write-delay", "-1ms"}, &stdout, &stderr); status != 2 || !strings.Contains(stderr.String(), "--write-delay not negative") {
		t.Errorf("--write-delay -1ms: status %d, stderr %q", status, stderr.String())
	}
	url, _, _ := startHostCommand(t, "--write-delay", "20ms")
	got := make(chan []byte, 4)
	join := func() *multiplayer.Client {
		jctx, jcancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer jcancel()
		link, err := multiplayer.DialWebSocket(jctx, url, multiplayer.WebSocketOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := multiplayer.Join(jctx, link, multiplayer.ClientOptions{OnBytes: func(_ multiplayer.PeerID, b []byte) { got <- append([]byte(nil), b...) }})
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a, b := join(), join()
	defer a.Close()
	defer b.Close()
	waitUntil(t, "a to see b", func() bool { return len(a.Peers()) == 2 })
	for i := range 3 {
		if err := a.SendBytes(b.ID(), []byte{byte(i)}, multiplayer.Reliable, 0); err != nil {
			t.Fatal(err)
		}
	}
	for i := range 3 {
		select {
		case m := <-got:
			if len(m) != 1 || m[0] != byte(i) {
				t.Fatalf("message %d: %x", i, m)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("message %d not relayed", i)
		}
	}
}
