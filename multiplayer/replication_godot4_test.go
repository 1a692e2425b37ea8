package multiplayer

import (
	"context"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
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
		With:    []string{"testdata/replication4_scene.gd", "testdata/replication4_player.gd"},
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

// The other direction: the Go host, authority of a real Godot 4.6 client's
// MultiplayerSpawner and synchronizers (testdata/replication4_recv.gd),
// sends it packets built with gdvar's writers: SIMPLIFY_PATH of the
// spawner, SPAWN of scene 0 with two sync ids and a spawn state, a custom
// SPAWN with its argument, SYNC, DELTA and DESPAWN. The engine spawns,
// applies and despawns accordingly.
func TestGodot4ReceivesReplication(t *testing.T) {
	godot4web.Skip(t)
	var h *Host
	sendAll := func(id PeerID) {
		st, err := AppendState(nil, nil, variant.Vector2{X: 10, Y: 20}, variant.Int(100), variant.Vector2{})
		if err != nil {
			t.Error(err)
			return
		}
		d := variant.NewDictionary(1)
		d.Set(variant.String("speed"), variant.Int(3))
		arg, err := AppendState(nil, nil, d)
		if err != nil {
			t.Error(err)
			return
		}
		pos, _ := AppendState(nil, nil, variant.Vector2{X: 11, Y: 20})
		dir, _ := AppendState(nil, nil, variant.Vector2{X: 0.5, Y: -1})
		delta, _ := AppendState(nil, nil, variant.Int(99), variant.String("moved"))
		h.mu.Lock()
		defer h.mu.Unlock()
		p := h.peers[id]
		nd := h.nodes["Main/Spawner"]
		p.remote.setSent(nd, false)
		h.sendLocked(p, AppendSimplifyPath(nil, variant.Godot4, nd.checksum, nd.cacheID, nd.path), 0, Reliable)
		h.sendLocked(p, AppendSpawn(nil, &Spawn{Spawner: nd.cacheID, NetID: 1, SyncIDs: []uint32{2, 3}, Name: "P1", State: st}), 0, Reliable)
		h.sendLocked(p, AppendSpawn(nil, &Spawn{Scene: SpawnCustom, Spawner: nd.cacheID, NetID: 4, Name: "Bullet", Arg: arg}), 0, Reliable)
		h.sendLocked(p, AppendSync(nil, 1, SyncState{ID: 2, State: pos}, SyncState{ID: 3, State: dir}), 0, Unreliable)
		h.sendLocked(p, AppendDelta(nil, SyncState{ID: 2, Mask: 3, State: delta}), 0, Reliable)
		h.sendLocked(p, AppendDespawn(nil, 4), 0, Reliable)
	}
	var refused []error
	var mu sync.Mutex
	var err error
	h, err = NewHost(HostOptions{
		OnBytes: func(from PeerID, _ []byte) { sendAll(from) },
		Observe: func(e *Event) {
			if e.Err != nil {
				mu.Lock()
				refused = append(refused, e.Err)
				mu.Unlock()
			}
		},
	}, Node{Path: "Main/Spawner"})
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
		Script:  "testdata/replication4_recv.gd",
		With:    []string{"testdata/replication4_scene.gd", "testdata/replication4_player.gd"},
		Args:    []string{portOf(t, l)},
		Timeout: time.Minute,
	})
	t.Logf("engine output:\n%s", r.Stdout)
	for _, want := range []string{
		"OK spawned P1 position=(10.0, 20.0) hp=100 direction=(0.0, 0.0)",
		"OK spawned Bullet speed=3",
		"OK despawned Bullet",
		`OK P1 position=(11.0, 20.0) direction=(0.5, -1.0) hp=99 label=moved`,
		"DONE",
	} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the engine did not print %q", want)
		}
	}
	mu.Lock()
	defer mu.Unlock()
	if len(refused) != 0 {
		t.Errorf("refused: %v", refused)
	}
}
