package multiplayer

import (
	"errors"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// A peer that tries to replicate what it does not own is refused as the
// engine refuses it, without disturbing the owner or the host: forged net
// ids, SYNC and DELTA for a synchronizer it is not the authority of, SPAWN
// and DESPAWN on the host's spawner, states larger than their packet or
// than the limits, DELTA masks naming no property or more than there are,
// and sync times from the past. Each refusal counts against the peer, which
// is dropped after MaxErrors; the owner's input keeps arriving.
func TestHostileReplication(t *testing.T) {
	var inputs atomic.Int64
	var lastDir atomic.Value
	elog := &eventLog{}
	h, url := startHost(t, HostOptions{Logger: quiet, ReplicationTick: -1, MaxErrors: 12, Observe: elog.observe})
	if err := h.AddSpawner(arenaSpawner(func(n *SceneNode, from PeerID) {
		var d variant.Vector2
		n.Get("direction", &d)
		lastDir.Store(d)
		inputs.Add(1)
	})); err != nil {
		t.Fatal(err)
	}
	la, a := rawClient(t, url, variant.Godot4)
	ra := newFrameReader(la)
	waitPeers(t, h, 1)
	lm, m := rawClient(t, url, variant.Godot4) // the mallory
	rm := newFrameReader(lm)
	waitPeers(t, h, 2)
	na, err := h.Spawn("Main/Spawner", 0, fmt.Sprint(a), SpawnOptions{Owner: a, State: playerState{HP: 50}})
	if err != nil {
		t.Fatal(err)
	}
	ra.next(t, isCmd(4))
	rm.next(t, isCmd(4))
	// a owns its input and sends it.
	inA := fmt.Sprintf("Main/Players/%d/InputSync", a)
	la.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 1, inA)})
	ra.next(t, isCmd(2))
	right, _ := AppendState(nil, nil, variant.Vector2{X: 1})
	la.WriteFrame(Frame{Data: AppendSync(nil, 100, SyncState{ID: 1 | SyncPathID, State: right})})
	waitFor(t, func() bool { return inputs.Load() == 1 })

	left, _ := AppendState(nil, nil, variant.Vector2{X: -1})
	send := func(b []byte) { lm.WriteFrame(Frame{Data: b}) }
	// Forged ids: the host's own sync id of a's node, an unknown net id,
	// a path id never announced. Skipped, as the engine skips them.
	send(AppendSync(nil, 1, SyncState{ID: na.NetID() + 1, State: left}, SyncState{ID: 77, State: left}, SyncState{ID: 5 | SyncPathID, State: left}))
	// a's input, announced by m: m is not its authority.
	send(AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 1, inA))
	rm.next(t, isCmd(2))
	send(AppendSync(nil, 60000, SyncState{ID: 1 | SyncPathID, State: left}))
	send(AppendDelta(nil, SyncState{ID: 1 | SyncPathID, Mask: 1, State: left}))
	// A SPAWN and a DESPAWN on the host's spawner.
	send(AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 2, "Main/Spawner"))
	send(AppendSpawn(nil, &Spawn{Scene: 0, Spawner: 2, NetID: 1, Name: "evil"}))
	send(AppendDespawn(nil, na.NetID()))
	// A state that runs past its packet, and one beyond the limits.
	over := AppendSync(nil, 2, SyncState{ID: 1 | SyncPathID, State: left})
	over[7] = 0xFF
	send(over)
	deep := []byte{}
	for range 2000 {
		deep = append(deep, 28, 0, 0, 0, 1, 0, 0, 0) // Array of one Array of …
	}
	send(AppendSync(nil, 3, SyncState{ID: 1 | SyncPathID, State: deep}))
	waitFor(t, func() bool { return elog.has(ErrNotAllowed) && elog.has(ErrTruncated) })
	if inputs.Load() != 1 || na.VisibleTo(m) == false || len(h.Spawned()) != 1 {
		t.Fatalf("a hostile peer changed the world: inputs %d, spawned %d", inputs.Load(), len(h.Spawned()))
	}
	var dir variant.Vector2
	na.Get("direction", &dir)
	if dir != (variant.Vector2{X: 1}) {
		t.Errorf("direction %v", dir)
	}
	// The owner's DELTA masks: one naming no property is refused; bits
	// beyond the properties are ignored, as the engine ignores them (the
	// input has no on-change property: both refused here).
	la.WriteFrame(Frame{Data: AppendDelta(nil, SyncState{ID: 1 | SyncPathID, Mask: 1 << 5, State: right})})
	// Sync-time games by the owner only affect its own synchronizer: an
	// older time is dropped.
	la.WriteFrame(Frame{Data: AppendSync(nil, 99, SyncState{ID: 1 | SyncPathID, State: left})})
	up, _ := AppendState(nil, nil, variant.Vector2{Y: -1})
	la.WriteFrame(Frame{Data: AppendSync(nil, 101, SyncState{ID: 1 | SyncPathID, State: up})})
	waitFor(t, func() bool { return inputs.Load() == 2 })
	if d := lastDir.Load().(variant.Vector2); d != (variant.Vector2{Y: -1}) {
		t.Errorf("after an old and a new state: %v", d)
	}
	// m keeps at it and is dropped; a stays and still gets its SYNC.
	for range 20 {
		send(AppendSpawn(nil, &Spawn{Scene: 0, Spawner: 2, NetID: 1, Name: "evil"}))
	}
	if !closedWithin(lm, 5*time.Second) {
		t.Error("the host kept a peer that sent 20 refused SPAWNs")
	}
	h.Replicate()
	if b := ra.next(t, isCmd(6)); len(b) < 11 {
		t.Errorf("SYNC to a: %x", b)
	}
	if closedWithin(la, 200*time.Millisecond) {
		t.Error("the owner was dropped")
	}
}

func waitFor(t *testing.T, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatal("timed out")
		}
		time.Sleep(2 * time.Millisecond)
	}
}

// A hostile SYNC costs the host a bounded amount of work: a packet of many
// tiny states naming unknown ids is skipped without allocating per state.
func TestHostileSyncIsCheap(t *testing.T) {
	h, err := NewHost(HostOptions{Logger: quiet, ReplicationTick: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.AddSpawner(arenaSpawner(nil)); err != nil {
		t.Fatal(err)
	}
	p := &hostPeer{id: 5, remote: newRemote(h.pathBudget()), rp: newReplPeer(), admitted: true}
	var states []SyncState
	for i := range 1000 {
		states = append(states, SyncState{ID: uint32(i) | SyncPathID, State: []byte{1}})
	}
	pkt := AppendSync(nil, 1, states...)
	h.mu.Lock()
	h.receiveSyncLocked(p, 5, pkt) // warm the buffers
	h.mu.Unlock()
	allocs := testing.AllocsPerRun(20, func() {
		h.mu.Lock()
		if err := h.receiveSyncLocked(p, 5, pkt); err != nil {
			t.Fatal(err)
		}
		h.mu.Unlock()
	})
	if allocs > 0 {
		t.Errorf("%v allocations for a SYNC of unknown ids", allocs)
	}
	if err := h.receiveSyncLocked(p, 5, pkt[:10]); !errors.Is(err, ErrTruncated) {
		t.Errorf("short SYNC: %v", err)
	}
}

// The replication tick allocates nothing per node: once its buffers have
// grown, what it allocates is the queue's copy of each packet it sends,
// moving nodes or not.
func TestReplicationTickAllocs(t *testing.T) {
	h, nodes := benchModel(t, 500, 4, false)
	now := int64(1)
	var pos variant.Value = variant.Vector2{X: 1, Y: 2}
	packets := 0
	tick := func() {
		for _, n := range nodes {
			n.Set("position", pos)
		}
		h.mu.Lock()
		now += 16667
		h.replicateLocked(now)
		h.mu.Unlock()
		_, packets = drain(h)
	}
	tick()
	// AllocsPerRun counts the whole process's allocations: 100 runs make
	// a stray one elsewhere (another test's host timing out a client)
	// count for a hundredth.
	allocs := testing.AllocsPerRun(100, tick)
	if packets == 0 || allocs > float64(packets)+2 {
		t.Errorf("%v allocations for a tick of %d packets (%d nodes, 4 peers)", allocs, packets, len(nodes))
	}
}
