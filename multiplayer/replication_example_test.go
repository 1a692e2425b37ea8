package multiplayer_test

import (
	"fmt"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// A SPAWN as a MultiplayerSpawner's authority sends it: scene 0 of the
// spawner the receiver knows by path cache id 2, one synchronizer whose
// spawn properties are position and hp.
func ExampleAppendSpawn() {
	state, err := multiplayer.AppendState(nil, nil, variant.Vector2{X: 10, Y: 20}, variant.Int(100))
	if err != nil {
		panic(err)
	}
	pkt := multiplayer.AppendSpawn(nil, &multiplayer.Spawn{Scene: 0, Spawner: 2, NetID: 1, SyncIDs: []uint32{2}, Name: "P1", State: state})
	fmt.Printf("%x\n", pkt)

	s, err := multiplayer.ParseSpawn(pkt)
	if err != nil {
		panic(err)
	}
	vals, _, err := multiplayer.DecodeState(nil, s.State, 2, nil)
	fmt.Println(s.Name, s.NetID, s.SyncIDs, vals, err)
	// Output:
	// 0400020000000100000001000000030000000200000050310005000000000020410000a0410264
	// P1 1 [2] [Vector2(10, 20) 100] <nil>
}

// Reading a SYNC packet a Godot 4.6 game sent: one state per
// synchronizer, each holding its "always" properties in order.
func ExampleParseSync() {
	pkt := []byte{0x06, 0x05, 0x00, // SYNC, time 5
		0x02, 0, 0, 0, 0x0c, 0, 0, 0, // synchronizer 2, 12 bytes
		0x05, 0, 0, 0, 0, 0, 0x30, 0x41, 0, 0, 0xa0, 0x41} // Vector2(11, 20)
	s, err := multiplayer.ParseSync(pkt, nil)
	if err != nil {
		panic(err)
	}
	for _, st := range s.States {
		vals, _, err := multiplayer.DecodeState(nil, st.State, 1, nil)
		fmt.Println(s.Time, st.ID, vals, err)
	}
	// Output:
	// 5 2 [Vector2(11, 20)] <nil>
}

// Packing the states of many synchronizers into SYNC packets of at most
// the engine's MTU.
func ExampleSyncPacker() {
	n := 0
	p := multiplayer.SyncPacker{Send: func(pkt []byte) { n++ }}
	p.Reset(false, 1)
	state, _ := multiplayer.AppendState(nil, nil, variant.Vector2{X: 1, Y: 2})
	for id := uint32(1); id <= 200; id++ {
		p.Add(multiplayer.SyncState{ID: id, State: state})
	}
	p.Flush()
	fmt.Println(n, "packets")
	// Output:
	// 3 packets
}

// Which properties each replication packet carries for a synchronizer:
// bit i of a DELTA's mask is DeltaProperties()[i].
func ExampleSynchronizer_DeltaProperties() {
	s := multiplayer.Synchronizer{Name: "ServerSync", Properties: []multiplayer.SyncProperty{
		{Path: ".:position", Spawn: true, Mode: multiplayer.ReplicateAlways},
		{Path: ".:hp", Spawn: true, Mode: multiplayer.ReplicateOnChange},
		{Path: ".:label", Mode: multiplayer.ReplicateOnChange},
	}}
	names := func(ps []multiplayer.SyncProperty) (out []string) {
		for _, p := range ps {
			out = append(out, p.Key())
		}
		return out
	}
	fmt.Println("SPAWN:", names(s.SpawnProperties()))
	fmt.Println("SYNC: ", names(s.SyncProperties()))
	fmt.Println("DELTA:", names(s.DeltaProperties()))
	// Output:
	// SPAWN: [position hp]
	// SYNC:  [position]
	// DELTA: [hp label]
}
