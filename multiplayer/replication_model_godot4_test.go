package multiplayer

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// A real Godot 4.6 client gets the state of a synchronizer of its main
// scene that the Go host owns (AddSynchronizer): the host announces its
// path, waits for the confirmation, then sends SYNC (position, always) and
// DELTA (rotation, on change) by path cache id.
func TestGodot4HostSynchronizer(t *testing.T) {
	godot4web.Skip(t)
	h, err := NewHost(HostOptions{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	world, err := h.AddSynchronizer(Synchronizer{Name: "Main/World/Sync", Properties: []SyncProperty{
		{Path: ".:position", Mode: ReplicateAlways},
		{Path: ".:rotation", Mode: ReplicateOnChange},
	}})
	if err != nil {
		t.Fatal(err)
	}
	world.SetState(map[string]any{"position": variant.Vector2{}, "rotation": 0.0})
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Peer: peer.Options{WebSocket: peer.WebSocketOptions{Origins: []string{"127.0.0.1:*"}}}})
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(ctx, l)
	go func() {
		// The world moves one pixel every 50 ms; it turns once.
		for x := 1; ctx.Err() == nil; x++ {
			time.Sleep(50 * time.Millisecond)
			world.Set("position", variant.Vector2{X: float64(x), Y: 2})
			if x == 5 {
				world.Set("rotation", 1.5)
			}
		}
	}()
	r := godot4web.Run(t, godot4web.Job{Script: "testdata/model4.gd", Args: []string{portOf(t, l)}, Timeout: time.Minute})
	t.Logf("engine output:\n%s", r.Stdout)
	if r.Code != 0 || !strings.Contains(r.Stdout, "DONE") || !strings.Contains(r.Stdout, "rot 1.5") || !strings.Contains(r.Stdout, " 2.0\n") {
		t.Fatalf("the client did not get the world (code %d):\n%s\n%s", r.Code, r.Stdout, r.Stderr)
	}
}

// A real Godot 4.6 client gets a custom spawn (its spawn_function makes
// the node from the argument), sees it move and despawn, and never sees a
// node hidden from it.
func TestGodot4CustomSpawnAndVisibility(t *testing.T) {
	godot4web.Skip(t)
	h, err := NewHost(HostOptions{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.AddSpawner(Spawner{Path: "Main/Spawner", SpawnPath: "../Mobs", Custom: &Scene{
		Synchronizers: []Synchronizer{{Name: "Sync", Properties: []SyncProperty{{Path: ".:position", Spawn: true, Mode: ReplicateAlways}}}},
	}}); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Peer: peer.Options{WebSocket: peer.WebSocketOptions{Origins: []string{"127.0.0.1:*"}}}})
	if err != nil {
		t.Fatal(err)
	}
	go h.Serve(ctx, l)
	if _, err := h.Spawn("Main/Spawner", SpawnCustom, "ghost", SpawnOptions{Hidden: true, Arg: map[string]any{"kind": "ghost"},
		State: map[string]any{"position": variant.Vector2{X: 9, Y: 9}}}); err != nil {
		t.Fatal(err)
	}
	go func() {
		for len(h.Peers()) == 0 && ctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
		}
		time.Sleep(300 * time.Millisecond)
		n, err := h.Spawn("Main/Spawner", SpawnCustom, "slime1", SpawnOptions{Arg: map[string]any{"kind": "slime"},
			State: map[string]any{"position": variant.Vector2{X: 3, Y: 4}}})
		if err != nil {
			t.Error(err)
			return
		}
		for x := 4; x <= 8; x++ {
			time.Sleep(100 * time.Millisecond)
			n.Set("position", variant.Vector2{X: float64(x), Y: 4})
		}
		time.Sleep(300 * time.Millisecond)
		n.Despawn()
	}()
	r := godot4web.Run(t, godot4web.Job{Script: "testdata/custom4.gd", Args: []string{portOf(t, l)}, Timeout: time.Minute})
	t.Logf("engine output:\n%s", r.Stdout)
	for _, want := range []string{"spawned slime1 slime 3.0 4.0\n", "mob slime1 8.0 4.0\n", "despawned slime1\n", "DONE"} {
		if !strings.Contains(r.Stdout, want) {
			t.Errorf("the client did not print %q (code %d):\n%s\n%s", want, r.Code, r.Stdout, r.Stderr)
		}
	}
	if strings.Contains(r.Stdout, "ghost") {
		t.Errorf("the client saw a node hidden from it:\n%s", r.Stdout)
	}
}
