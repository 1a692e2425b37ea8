package multiplayer_test

import (
	"fmt"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// A host that owns a Godot 4 game's world: players spawned through the
// game's MultiplayerSpawner, their position and hp sent by the server's
// synchronizer, their direction read from the player's own.
func ExampleHost_Spawn() {
	host, err := multiplayer.NewHost(multiplayer.HostOptions{})
	if err != nil {
		panic(err)
	}
	defer host.Close()
	err = host.AddSpawner(multiplayer.Spawner{Path: "Main/Spawner", SpawnPath: "../Players", Scenes: []multiplayer.Scene{{
		Path: "res://player.tscn",
		Synchronizers: []multiplayer.Synchronizer{
			{Name: "ServerSync", Properties: []multiplayer.SyncProperty{
				{Path: ".:position", Spawn: true, Mode: multiplayer.ReplicateAlways},
				{Path: ".:hp", Spawn: true, Mode: multiplayer.ReplicateOnChange},
			}},
			{Name: "InputSync", Owned: true, Properties: []multiplayer.SyncProperty{
				{Path: ".:direction", Mode: multiplayer.ReplicateAlways},
			}},
		},
	}}})
	if err != nil {
		panic(err)
	}
	type player struct {
		Position variant.Vector2 `gdvar:"position"`
		HP       int             `gdvar:"hp"`
	}
	// In OnConnect, for the peer that joined:
	id := multiplayer.PeerID(42)
	n, err := host.Spawn("Main/Spawner", 0, id.String(), multiplayer.SpawnOptions{
		Owner: id, State: player{Position: variant.Vector2{X: 100, Y: 100}, HP: 100}})
	if err != nil {
		panic(err)
	}
	// Each game tick:
	var dir variant.Vector2
	n.Get("direction", &dir) // as the owner last sent it (Nil until then: zero)
	n.Set("position", variant.Vector2{X: 100 + dir.X*5, Y: 100 + dir.Y*5})
	n.Set("hp", 99)
	var p player
	n.State(&p)
	fmt.Println(n.Path(), n.Synchronizers(), p.Position, p.HP)
	// Output: Main/Players/42 [Main/Players/42/ServerSync Main/Players/42/InputSync] Vector2(100, 100) 99
}
