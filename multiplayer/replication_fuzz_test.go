package multiplayer

import (
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// idMemLink is a memLink whose client chose id 7 (as over ENet).
type idMemLink struct{ *memLink }

func (idMemLink) ClientID() PeerID { return 7 }

// FuzzSceneModel: whatever a client sends a host with a scene model (its
// own player's input synchronizer, a synchronizer pattern, the host's
// spawner), the host neither panics nor hangs, and the node's values stay
// decodable. The input is cut into packets by a length byte before each;
// the host replicates after each packet.
func FuzzSceneModel(f *testing.F) {
	in := "Main/Players/7/InputSync"
	dir, _ := AppendState(nil, nil, variant.Vector2{X: 1})
	seeds := [][]byte{
		AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 1, in),
		AppendSync(nil, 5, SyncState{ID: 1 | SyncPathID, State: dir}),
		AppendDelta(nil, SyncState{ID: 1 | SyncPathID, Mask: 3, State: dir}),
		AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 2, "Main/Others/7/Input"),
		AppendSync(nil, 6, SyncState{ID: 2 | SyncPathID, State: dir}),
		AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 3, "Main/Spawner"),
		AppendSpawn(nil, &Spawn{Scene: 0, Spawner: 3, NetID: 9, Name: "x", State: dir}),
		AppendDespawn(nil, 1),
		AppendConfirmPath(nil, variant.Godot4, true, 1, ""),
	}
	var all []byte
	for _, s := range seeds {
		all = append(append(all, byte(len(s))), s...)
		f.Add(append([]byte{byte(len(s))}, s...))
	}
	f.Add(all)
	f.Fuzz(fuzzSceneModel)
}

func fuzzSceneModel(t *testing.T, in []byte) {
	{
		var frames []Frame
		for len(in) > 0 {
			n := min(int(in[0]), len(in)-1)
			frames = append(frames, Frame{Data: in[1 : 1+n]})
			in = in[1+n:]
		}
		h, err := NewHost(HostOptions{Logger: quiet, MaxErrors: -1, MaxPathCache: 8, ReplicationTick: -1})
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		sp := arenaSpawner(nil)
		sp.Scenes[0].Synchronizers[0].Properties = append(sp.Scenes[0].Synchronizers[0].Properties,
			SyncProperty{Path: ".:mood", Mode: ReplicateOnChange})
		if err := h.AddSpawner(sp); err != nil {
			t.Fatal(err)
		}
		if _, err := h.AddSynchronizer(Synchronizer{Name: "Main/Others/*/Input", Owned: true, Properties: []SyncProperty{
			{Path: ".:aim", Mode: ReplicateAlways}, {Path: ".:a", Mode: ReplicateOnChange}, {Path: ".:b", Mode: ReplicateOnChange}}}); err != nil {
			t.Fatal(err)
		}
		n, err := h.Spawn("Main/Spawner", 0, "7", SpawnOptions{Owner: 7, State: playerState{HP: 3}})
		if err != nil {
			t.Fatal(err)
		}
		link := &memLink{frames: frames}
		h.ServeLink(idMemLink{link})
		h.Replicate()
		var st map[string]any
		if err := n.State(&st); err != nil {
			t.Errorf("state after the client: %v", err)
		}
	}
}
