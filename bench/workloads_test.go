// Package bench measures gdvar on the workloads that bench/godot3.gd times
// inside Godot 3, so that the two can be compared; bench/run.sh runs both
// and prints the table. Limits: the engine side is Godot 3 only (the
// workloads use only types Godot 3 has), and without godot3-server the
// script times gdvar alone; the figures are of the machine they ran on.
package bench

import (
	"fmt"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// floats is workload A: a PackedFloat32Array of 1,000,000 elements.
func floats() variant.Value {
	v := make(variant.PackedFloat32Array, 1_000_000)
	for i := range v {
		v[i] = float32(i) * 0.5
	}
	return v
}

// player is the record of workloads B and D:
// {"id": i, "name": "player<i>", "pos": Vector2(i, -i), "hp": 99.5}.
func player(i int) *variant.Dictionary {
	d := variant.NewDictionary(4)
	d.Set(variant.String("id"), variant.Int(i))
	d.Set(variant.String("name"), variant.String("player"+strconv.Itoa(i)))
	d.Set(variant.String("pos"), variant.Vector2{X: float64(i), Y: float64(-i)})
	d.Set(variant.String("hp"), variant.Float(99.5))
	return d
}

// players is workload B: an Array of 100,000 player records.
func players() *variant.Array {
	a := &variant.Array{Values: make([]variant.Value, 100_000)}
	for i := range a.Values {
		a.Values[i] = player(i)
	}
	return a
}

// gameState is workload C: a game state of 800 entities with transforms,
// strings, packed arrays and nested containers, about 1 MB encoded. It
// uses only types Godot 3 has, so that Godot 3.2 can time it too.
func gameState() variant.Value {
	kinds := []string{"player", "enemy", "npc"}
	entities := &variant.Array{}
	for i := range 800 {
		fi := float64(i)
		path := make(variant.PackedVector3Array, 60)
		for k := range path {
			path[k] = variant.Vector3{X: float64(k), Y: fi, Z: float64(-k)}
		}
		inventory := variant.NewArray()
		for k := range 8 {
			inventory.Values = append(inventory.Values, variant.Int(i+k))
		}
		stats := variant.NewDictionary(3)
		stats.Set(variant.String("str"), variant.Int(i%20))
		stats.Set(variant.String("dex"), variant.Int(i*3%20))
		stats.Set(variant.String("int"), variant.Int(i*7%20))
		e := variant.NewDictionary(12)
		set := func(k string, v variant.Value) { e.Set(variant.String(k), v) }
		set("id", variant.Int(i))
		set("name", variant.String(fmt.Sprintf("entity_%d", i)))
		set("kind", variant.String(kinds[i%3]))
		set("transform", variant.Transform3D{
			Basis:  variant.Basis{X: variant.Vector3{X: 1}, Y: variant.Vector3{Y: 1}, Z: variant.Vector3{Z: 1}},
			Origin: variant.Vector3{X: fi, Y: 0.5 * fi, Z: float64(-i)}, // -i as an int: never -0.0
		})
		set("velocity", variant.Vector3{X: 0.25 * fi, Z: -0.5})
		set("hp", variant.Float(100-fi*0.25))
		set("alive", variant.Bool(i%7 != 0))
		set("tags", variant.PackedStringArray{"a", "b", fmt.Sprintf("tag%d", i%5)})
		set("inventory", inventory)
		set("path", path)
		set("color", variant.Color{R: 0.5, G: 0.25, B: 1, A: 1})
		set("stats", stats)
		entities.Values = append(entities.Values, e)
	}
	events := make(variant.PackedStringArray, 200)
	for k := range events {
		events[k] = fmt.Sprintf("event number %d", k)
	}
	state := variant.NewDictionary(4)
	state.Set(variant.String("tick"), variant.Int(123456))
	state.Set(variant.String("map"), variant.String("forest_02"))
	state.Set(variant.String("entities"), entities)
	state.Set(variant.String("events"), events)
	return state
}
