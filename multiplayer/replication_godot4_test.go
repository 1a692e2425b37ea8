package multiplayer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/peer"
)

// replicationCapture is the golden file of the packets a Godot 4.6 client
// sends as the authority of a MultiplayerSpawner and of
// MultiplayerSynchronizers (testdata/replication4.gd).
const replicationCapture = "godot4.6-replication.txt"

// A real Godot 4.6 client, authority of a spawner and of synchronizers,
// joins the Go host and sends it SIMPLIFY_PATH, SPAWN (a scene and a
// custom spawn), SYNC (spawned synchronizers by sync id, a scene
// synchronizer by path cache id once the host confirmed it), DELTA and
// DESPAWN. With GDVAR_CAPTURE set it rewrites the golden file that
// TestReplicationGolden checks:
//
//	GDVAR_CAPTURE=1 go test -run TestGodot4Replication ./multiplayer
func TestGodot4Replication(t *testing.T) {
	godot4web.Skip(t)
	var cap capture
	h, err := NewHost(HostOptions{Observe: cap.observe}, Node{Path: "Main/World/Sync"})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Peer: peer.Options{WebSocket: peer.WebSocketOptions{Origins: []string{"127.0.0.1:*"}}}})
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(ctx, l)
	r := godot4web.Run(t, godot4web.Job{
		Script:  "testdata/replication4.gd",
		With:    []string{"testdata/replication4_player.gd"},
		Args:    []string{portOf(t, l)},
		Timeout: time.Minute,
	})
	t.Logf("engine output:\n%s", r.Stdout)
	if r.Code != 0 || !strings.Contains(r.Stdout, "DONE") {
		t.Fatalf("the client failed (code %d):\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
	h.Close()
	cap.mu.Lock()
	got := goldenOf(t, cap.golden)
	cap.mu.Unlock()
	checkReplicationCapture(t, got)
	cap.write(t, replicationCapture, "# Packets a Godot 4.6 client (testdata/replication4.gd, web build), authority of a\n"+
		"# MultiplayerSpawner and of MultiplayerSynchronizers, sent to the host, captured by:\n"+
		"# GDVAR_CAPTURE=1 go test -run TestGodot4Replication ./multiplayer\n"+
		"# hex<TAB>what the host made of it\n")
}
