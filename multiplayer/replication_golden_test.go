package multiplayer

import (
	"bytes"
	"encoding/hex"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// goldenOf turns captured "hex<TAB>what" lines into packets.
func goldenOf(t testing.TB, lines []string) []golden {
	var out []golden
	for _, l := range lines {
		hx, what, _ := strings.Cut(l, "\t")
		b, err := hex.DecodeString(hx)
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, golden{variant.Godot4, replicationCapture, b, what})
	}
	return out
}

// The replication packets the real Godot 4.6 engine sent
// (testdata/capture/godot4.6-replication.txt, from testdata/replication4.gd)
// decode to what the script did, and gdvar's writers give the same bytes.
func TestReplicationGolden(t *testing.T) {
	var gs []golden
	for _, g := range loadCaptures(t) {
		if g.file == replicationCapture {
			gs = append(gs, g)
		}
	}
	if len(gs) == 0 {
		t.Fatal("no replication capture")
	}
	checkReplicationCapture(t, gs)
}

// checkReplicationCapture checks the packets of testdata/replication4.gd
// against what the script did (see its header).
func checkReplicationCapture(t *testing.T, gs []golden) {
	t.Helper()
	paths := map[string]uint32{}
	var spawns []Spawn
	var despawns []uint32
	var syncs, deltas []Sync
	for _, g := range gs {
		p, err := Parse(variant.Godot4, g.data)
		if err != nil {
			t.Fatalf("%x: %v", g.data, err)
		}
		switch p.Command {
		case CmdSimplifyPath:
			paths[string(p.Path)] = p.NodeID
		case CmdSpawn:
			s, err := ParseSpawn(g.data)
			if err != nil {
				t.Fatalf("SPAWN %x: %v", g.data, err)
			}
			if again := AppendSpawn(nil, &s); !bytes.Equal(again, g.data) {
				t.Errorf("SPAWN:\n engine %x\n gdvar  %x", g.data, again)
			}
			spawns = append(spawns, s)
		case CmdDespawn:
			id, err := ParseDespawn(g.data)
			if err != nil {
				t.Fatalf("DESPAWN %x: %v", g.data, err)
			}
			if again := AppendDespawn(nil, id); !bytes.Equal(again, g.data) {
				t.Errorf("DESPAWN:\n engine %x\n gdvar  %x", g.data, again)
			}
			despawns = append(despawns, id)
		case CmdSync:
			s, err := ParseSync(g.data, nil)
			if err != nil {
				t.Fatalf("SYNC %x: %v", g.data, err)
			}
			var again []byte
			if s.Delta {
				again = AppendDelta(nil, s.States...)
				deltas = append(deltas, s)
			} else {
				again = AppendSync(nil, s.Time, s.States...)
				syncs = append(syncs, s)
				// The packer writes the same packet from the same states.
				var packed [][]byte
				pk := SyncPacker{Send: func(b []byte) { packed = append(packed, append([]byte(nil), b...)) }}
				pk.Reset(false, s.Time)
				for _, st := range s.States {
					if err := pk.Add(st); err != nil {
						t.Fatal(err)
					}
				}
				pk.Flush()
				if len(packed) != 1 || !bytes.Equal(packed[0], g.data) {
					t.Errorf("SyncPacker: %x, engine %x", packed, g.data)
				}
			}
			if !bytes.Equal(again, g.data) {
				t.Errorf("SYNC:\n engine %x\n gdvar  %x", g.data, again)
			}
		default:
			t.Errorf("unexpected %v %x", p.Command, g.data)
		}
	}

	spawner, ok := paths["Main/Spawner"]
	worldSync, ok2 := paths["Main/World/Sync"]
	if !ok || !ok2 {
		t.Fatalf("paths announced: %v", paths)
	}
	if len(spawns) != 2 || len(despawns) != 2 || len(deltas) != 3 || len(syncs) < 20 {
		t.Fatalf("%d SPAWN, %d DESPAWN, %d DELTA, %d SYNC", len(spawns), len(despawns), len(deltas), len(syncs))
	}

	// The player: scene 0, two synchronizers (ServerSync, then InputSync)
	// whose spawn properties are position and hp, then direction.
	pl := spawns[0]
	if pl.Scene != 0 || pl.Spawner != spawner || pl.Name != "P1" || len(pl.SyncIDs) != 2 || pl.Arg != nil {
		t.Fatalf("player SPAWN %+v", pl)
	}
	state, n, err := DecodeState(nil, pl.State, 2, nil)
	if err != nil {
		t.Fatal(err)
	}
	state, m, err := DecodeState(nil, pl.State[n:], 1, state)
	if err != nil || n+m != len(pl.State) {
		t.Fatalf("spawn state: %v, %d of %d bytes", err, n+m, len(pl.State))
	}
	want := []variant.Value{variant.Vector2{X: 10, Y: 20}, variant.Int(100), variant.Vector2{}}
	if !reflect.DeepEqual(state, want) {
		t.Errorf("spawn state %v, want %v", state, want)
	}
	enc, err := AppendState(nil, nil, want...)
	if err != nil || !bytes.Equal(enc, pl.State) {
		t.Errorf("AppendState %x, engine %x (%v)", enc, pl.State, err)
	}
	serverSync, inputSync := pl.SyncIDs[0], pl.SyncIDs[1]
	// One counter numbers nodes and synchronizers: the player, its two
	// synchronizers, then the bullet.
	if pl.NetID != 1 || serverSync != 2 || inputSync != 3 {
		t.Errorf("net ids %d, sync ids %v", pl.NetID, pl.SyncIDs)
	}

	// The bullet: a custom spawn with its argument, nothing to sync.
	bl := spawns[1]
	if bl.Scene != SpawnCustom || bl.Spawner != spawner || bl.Name != "Bullet" || len(bl.SyncIDs) != 0 || len(bl.State) != 0 || bl.NetID != 4 {
		t.Fatalf("bullet SPAWN %+v", bl)
	}
	arg, n, err := DecodeArg(nil, bl.Arg)
	if err != nil || n != len(bl.Arg) {
		t.Fatalf("custom argument: %v (%d of %d bytes)", err, n, len(bl.Arg))
	}
	if d, ok := arg.(*variant.Dictionary); !ok || d.Len() != 1 || !reflect.DeepEqual(first(d.Get(variant.String("speed"))), variant.Int(3)) {
		t.Errorf("custom argument %#v", arg)
	}

	// SYNC: times grow by one per packet; each synchronizer's "always"
	// properties, one value each.
	var lastTime uint16
	sawWorld, sawDirection := false, false
	for i, s := range syncs {
		if i > 0 && s.Time != lastTime+1 {
			t.Errorf("SYNC time %d after %d", s.Time, lastTime)
		}
		lastTime = s.Time
		for _, st := range s.States {
			vals, n, err := DecodeState(nil, st.State, 1, nil)
			if err != nil || n != len(st.State) {
				t.Fatalf("SYNC state of %x: %v", st.ID, err)
			}
			v, ok := vals[0].(variant.Vector2)
			if !ok {
				t.Fatalf("SYNC state of %x: %#v", st.ID, vals[0])
			}
			switch st.ID {
			case serverSync:
				if v.Y != 20 || v.X < 10 || v.X > 24 {
					t.Errorf("P1 at %v", v)
				}
			case inputSync:
				if v == (variant.Vector2{X: 0.5, Y: -1}) {
					sawDirection = true
				} else if v != (variant.Vector2{}) {
					t.Errorf("direction %v", v)
				}
			case SyncPathID | worldSync:
				sawWorld = true
				if v.X != 0 || int(v.Y)%2 != 0 {
					t.Errorf("World at %v", v)
				}
			default:
				t.Errorf("SYNC names synchronizer %#x", st.ID)
			}
		}
	}
	if !sawWorld || !sawDirection {
		t.Errorf("world synced %v, direction changed %v", sawWorld, sawDirection)
	}

	// DELTA: ServerSync's on-change properties hp and label, first both,
	// then each as it changes.
	wantDeltas := []struct {
		mask uint64
		vals []variant.Value
	}{
		{3, []variant.Value{variant.Int(100), variant.String("start")}},
		{1, []variant.Value{variant.Int(99)}},
		{2, []variant.Value{variant.String("moved")}},
	}
	for i, d := range deltas {
		if len(d.States) != 1 || d.States[0].ID != serverSync || d.States[0].Mask != wantDeltas[i].mask {
			t.Fatalf("DELTA %d: %+v", i, d)
		}
		cnt, err := CheckDeltaMask(d.States[0].Mask, 2)
		if err != nil {
			t.Fatal(err)
		}
		vals, n, err := DecodeState(nil, d.States[0].State, cnt, nil)
		if err != nil || n != len(d.States[0].State) || !reflect.DeepEqual(vals, wantDeltas[i].vals) {
			t.Errorf("DELTA %d: %v (%v)", i, vals, err)
		}
		if enc, _ := AppendState(nil, nil, wantDeltas[i].vals...); !bytes.Equal(enc, d.States[0].State) {
			t.Errorf("DELTA %d: gdvar %x, engine %x", i, enc, d.States[0].State)
		}
	}

	if despawns[0] != pl.NetID || despawns[1] != bl.NetID {
		t.Errorf("DESPAWN %v", despawns)
	}
}

func first(v variant.Value, _ bool) variant.Value { return v }

// The host decodes the replication packets a peer sends for Observe:
// the engine's captured packets, sent by a Go client, come out with the
// spawner's and synchronizers' paths and the values.
func TestObserveReplication(t *testing.T) {
	var gs []golden
	for _, g := range loadCaptures(t) {
		if g.file == replicationCapture {
			gs = append(gs, g)
		}
	}
	events := make(chan *Event, len(gs)+8)
	_, url := startHost(t, HostOptions{Observe: func(e *Event) {
		if e.Replication != nil {
			events <- e
		}
	}}, Node{Path: "Main/World/Sync"})
	c := join(t, url, ClientOptions{})
	want := 0
	for _, g := range gs {
		if err := c.write(HostID, g.data, 0, Reliable); err != nil {
			t.Fatal(err)
		}
		if g.data[0]&7 >= 4 && g.data[0]&7 <= 6 {
			want++
		}
	}
	var spawns, syncs, deltas, despawns int
	for i := 0; i < want; i++ {
		var e *Event
		select {
		case e = <-events:
		case <-time.After(5 * time.Second):
			t.Fatalf("%d of %d replication events", i, want)
		}
		r := e.Replication
		switch {
		case r.Spawn != nil:
			spawns++
			if e.Node != "Main/Spawner" || len(r.Values) != 1 {
				t.Errorf("SPAWN on %q: %+v", e.Node, r)
			}
			if r.Spawn.Name == "P1" && !reflect.DeepEqual(r.Values[0], []variant.Value{variant.Vector2{X: 10, Y: 20}, variant.Int(100), variant.Vector2{}}) {
				t.Errorf("P1's spawn state %v", r.Values[0])
			}
			if r.Spawn.Name == "Bullet" && r.Arg == nil {
				t.Errorf("custom spawn without its argument")
			}
		case r.Despawn:
			despawns++
		case r.Sync != nil && r.Sync.Delta:
			deltas++
		case r.Sync != nil:
			syncs++
			for j, st := range r.Sync.States {
				if (st.ID&SyncPathID != 0) != (r.Paths[j] == "Main/World/Sync") || len(r.Values[j]) != 1 {
					t.Errorf("state %#x: path %q, values %v", st.ID, r.Paths[j], r.Values[j])
				}
			}
		}
	}
	if spawns != 2 || despawns != 2 || deltas != 3 || syncs < 20 {
		t.Errorf("%d SPAWN, %d DESPAWN, %d DELTA, %d SYNC", spawns, despawns, deltas, syncs)
	}
}

// A Go client's Observe sees the replication packets a host sends it
// decoded, with the spawner's path from the host's SIMPLIFY_PATH.
func TestClientObserveReplication(t *testing.T) {
	h, url := startHost(t, HostOptions{})
	events := make(chan *Event, 4)
	c := join(t, url, ClientOptions{Observe: func(e *Event) {
		if e.Replication != nil {
			events <- e
		}
	}})
	waitPeers := time.Now().Add(5 * time.Second)
	for len(h.Peers()) < 1 && time.Now().Before(waitPeers) {
		time.Sleep(5 * time.Millisecond)
	}
	st, _ := AppendState(nil, nil, variant.Int(7))
	h.mu.Lock()
	p := h.peers[c.ID()]
	h.sendLocked(p, AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 5, "Main/Spawner"), 0, Reliable)
	h.sendLocked(p, AppendSpawn(nil, &Spawn{Spawner: 5, NetID: 1, SyncIDs: []uint32{2}, Name: "P", State: st}), 0, Reliable)
	h.sendLocked(p, AppendSync(nil, 1, SyncState{ID: 2, State: st}), 0, Unreliable)
	h.mu.Unlock()
	for i := 0; i < 2; i++ {
		select {
		case e := <-events:
			r := e.Replication
			if r.Spawn != nil && (e.Node != "Main/Spawner" || r.Spawn.Name != "P" || !reflect.DeepEqual(r.Values, [][]variant.Value{{variant.Int(7)}})) {
				t.Errorf("SPAWN %q %+v", e.Node, r)
			}
			if r.Sync != nil && (len(r.Sync.States) != 1 || !reflect.DeepEqual(r.Values, [][]variant.Value{{variant.Int(7)}})) {
				t.Errorf("SYNC %+v", r)
			}
			if e.Err != nil {
				t.Errorf("refused: %v", e.Err)
			}
		case <-time.After(5 * time.Second):
			t.Fatal("no replication event")
		}
	}
}
