package multiplayer

import (
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"
)

// The arena example's client project declares what the example's server
// declares in Go (but InputSync's authority, which player.gd sets).
func TestReadProjectArena(t *testing.T) {
	p, err := ReadProject(filepath.Join("..", "examples", "arena"))
	if err != nil {
		t.Fatal(err)
	}
	want := arenaSpawner(nil)
	if len(p.Spawners) != 1 {
		t.Fatalf("spawners %+v", p.Spawners)
	}
	got := p.Spawners[0]
	s := p.Synchronizer("InputSync")
	if s == nil {
		t.Fatal("no InputSync")
	}
	s.Owned = true
	if got.Path != want.Path || got.SpawnPath != want.SpawnPath || len(got.Scenes) != 1 || got.Scenes[0].Path != want.Scenes[0].Path {
		t.Fatalf("spawner %+v", got)
	}
	for i, ws := range want.Scenes[0].Synchronizers {
		gs := got.Scenes[0].Synchronizers[i]
		if gs.Name != ws.Name || gs.Root != ".." || gs.Owned != ws.Owned || !reflect.DeepEqual(gs.Properties, ws.Properties) {
			t.Errorf("synchronizer %d: got %+v, want %+v", i, gs, ws)
		}
	}
	if len(p.Synchronizers) != 0 {
		t.Errorf("synchronizers outside spawnable scenes: %+v", p.Synchronizers)
	}
}

// Synchronizers outside spawnable scenes, intervals, visibility, the older
// sync/watch booleans, RPC nodes in spawnable scenes, and scenes named by
// uid.
func TestReadProjectForms(t *testing.T) {
	dir := t.TempDir()
	files := map[string]string{
		"world.tscn": `[gd_scene load_steps=3 format=3 uid="uid://world"]

[sub_resource type="SceneReplicationConfig" id="cfg"]
properties/0/path = NodePath(".:time")
properties/0/spawn = true
properties/0/sync = true
properties/0/watch = false
properties/1/path = NodePath("Sun:rotation")
properties/1/spawn = false
properties/1/sync = false
properties/1/watch = true
properties/2/path = NodePath(".:seed")
properties/2/sync = false

[node name="World" type="Node"]

[node name="Sync" type="MultiplayerSynchronizer" parent="."]
replication_interval = 0.25
delta_interval = 0.5
public_visibility = false
replication_config = SubResource("cfg")

[node name="Mobs" type="Node" parent="."]

[node name="MobSpawner" type="MultiplayerSpawner" parent="Mobs"]
_spawnable_scenes = PackedStringArray("uid://mob", "res://boss.tscn")
spawn_path = NodePath("..")
`,
		"mob.tscn": `[gd_scene format=3 uid="uid://mob"]

[ext_resource type="Script" path="res://mob.gd" id="1"]

[node name="Mob" type="Node2D"]
script = ExtResource("1")
`,
		"boss.tscn": `[gd_scene format=3]

[sub_resource type="SceneReplicationConfig" id="c"]
properties/0/path = NodePath(".:hp")
properties/0/replication_mode = 2

[node name="Boss" type="Node2D"]

[node name="Body" type="Node2D" parent="."]

[node name="Sync" type="MultiplayerSynchronizer" parent="Body"]
root_path = NodePath("../..")
replication_config = SubResource("c")
`,
		"mob.gd": "extends Node2D\n\n@rpc(\"any_peer\", \"reliable\")\nfunc hit(n):\n\tpass\n",
	}
	for name, src := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(src), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	p, err := ReadProject(dir)
	if err != nil {
		t.Fatal(err)
	}
	if len(p.Synchronizers) != 1 {
		t.Fatalf("synchronizers %+v", p.Synchronizers)
	}
	ws := p.Synchronizers[0]
	wantProps := []SyncProperty{
		{Path: ".:time", Spawn: true, Mode: ReplicateAlways},
		{Path: "Sun:rotation", Mode: ReplicateOnChange},
		{Path: ".:seed", Spawn: true, Mode: ReplicateNever},
	}
	if ws.Name != "World/Sync" || ws.Root != ".." || ws.ReplicationInterval != 250*time.Millisecond || ws.DeltaInterval != 500*time.Millisecond ||
		!ws.Hidden || !reflect.DeepEqual(ws.Properties, wantProps) {
		t.Errorf("world sync %+v", ws)
	}
	if len(p.Spawners) != 1 || p.Spawners[0].Path != "World/Mobs/MobSpawner" || p.Spawners[0].SpawnPath != ".." || len(p.Spawners[0].Scenes) != 2 {
		t.Fatalf("spawners %+v", p.Spawners)
	}
	mob, boss := p.Spawners[0].Scenes[0], p.Spawners[0].Scenes[1]
	if mob.Path != "res://mob.tscn" || len(mob.Nodes) != 1 || mob.Nodes[0].Path != "." || mob.Nodes[0].Methods[0].Name != "hit" {
		t.Errorf("mob %+v", mob)
	}
	if len(boss.Synchronizers) != 1 || boss.Synchronizers[0].Name != "Body/Sync" || boss.Synchronizers[0].Root != "../.." ||
		!reflect.DeepEqual(boss.Synchronizers[0].Properties, []SyncProperty{{Path: ".:hp", Spawn: true, Mode: ReplicateOnChange}}) {
		t.Errorf("boss %+v", boss)
	}
	h, err := NewHost(HostOptions{Logger: quiet, ReplicationTick: -1}, p.Nodes...)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := p.AddTo(h); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Spawn("World/Mobs/MobSpawner", 1, "boss", SpawnOptions{State: map[string]any{"hp": 3}}); err != nil {
		t.Fatal(err)
	}
}
