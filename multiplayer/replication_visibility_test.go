package multiplayer

import (
	"bytes"
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// waitPeers waits until the host has admitted n peers.
func waitPeers(t *testing.T, h *Host, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for len(h.Peers()) < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d peers, want %d", len(h.Peers()), n)
		}
		time.Sleep(time.Millisecond)
	}
}

// quiet reports whether r gets nothing keep accepts within d.
func (r *frameReader) quiet(d time.Duration, keep func([]byte) bool) bool {
	deadline := time.After(d)
	for {
		select {
		case b, ok := <-r.ch:
			if !ok {
				return true
			}
			if keep == nil || keep(b) {
				return false
			}
		case <-deadline:
			return true
		}
	}
}

// Per-peer visibility: a hidden node goes only to the peers it is made
// visible to; SetVisible and filters spawn and despawn it for one peer.
func TestVisibility(t *testing.T) {
	h, url := startHost(t, HostOptions{Logger: quiet, ReplicationTick: -1})
	if err := h.AddSpawner(arenaSpawner(nil)); err != nil {
		t.Fatal(err)
	}
	la, a := rawClient(t, url, variant.Godot4)
	ra := newFrameReader(la)
	waitPeers(t, h, 1)
	lb, b := rawClient(t, url, variant.Godot4)
	rb := newFrameReader(lb)
	waitPeers(t, h, 2)
	n, err := h.Spawn("Main/Spawner", 0, "secret", SpawnOptions{Hidden: true, VisibleTo: []PeerID{a}, State: playerState{HP: 5}})
	if err != nil {
		t.Fatal(err)
	}
	ra.next(t, isCmd(4))
	if !rb.quiet(200*time.Millisecond, isCmd(4)) {
		t.Fatal("a peer that may not see the node got its SPAWN")
	}
	n.SetVisible(b, true)
	rb.next(t, isCmd(4))
	if !n.VisibleTo(b) {
		t.Error("VisibleTo(b) after SetVisible")
	}
	// A filter refusing a: a is despawned at the next tick, b keeps it.
	n.SetFilter(func(p PeerID) bool { return p != a })
	h.Replicate()
	if got := ra.next(t, isCmd(5)); !bytes.Equal(got, AppendDespawn(nil, n.NetID())) {
		t.Fatalf("DESPAWN %x", got)
	}
	if !rb.quiet(200*time.Millisecond, isCmd(5)) {
		t.Error("b lost the node")
	}
	// SYNC goes only where the node is.
	h.Replicate()
	rb.next(t, func(p []byte) bool { return p[0] == 6 })
	if !ra.quiet(200*time.Millisecond, func(p []byte) bool { return p[0]&7 == 6 }) {
		t.Error("a got the state of a node it does not have")
	}
}

// RPCs on spawned nodes and on nodes declared by pattern after the host
// started, both ways; the host calls a spawned node only on peers that
// have it.
func TestRPCOnSpawnedAndPatternNodes(t *testing.T) {
	got := make(chan string, 16)
	h, url := startHost(t, HostOptions{Logger: quiet, ReplicationTick: -1})
	sp := arenaSpawner(nil)
	sp.Scenes[0].Nodes = []Node{{Path: ".", Methods: []Method{
		{Name: "hit", Mode: AnyPeer, Transfer: Reliable, Handler: func(_ context.Context, from PeerID, dmg int) {
			got <- fmt.Sprintf("hit %d", dmg)
		}},
		{Name: "jump", Mode: Authority, Transfer: Reliable, Handler: func(_ context.Context, from PeerID) {
			got <- fmt.Sprintf("jump from %d", from)
		}},
	}}}
	sp.Scenes[0].Nodes[0].Authority = OwnerAuthority
	if err := h.AddSpawner(sp); err != nil {
		t.Fatal(err)
	}
	if err := h.AddNode(Node{Path: "Main/Rooms/*", Methods: []Method{{Name: "enter", Mode: AnyPeer, Transfer: Reliable,
		Handler: func(_ context.Context, from PeerID, who string) { got <- "enter " + who }}}}); err != nil {
		t.Fatal(err)
	}
	if err := h.AddNode(Node{Path: "Main/Chars/*", Authority: OwnerAuthority, Methods: []Method{{Name: "wave", Mode: Authority, Transfer: Reliable,
		Handler: func(_ context.Context, from PeerID) { got <- fmt.Sprintf("wave from %d", from) }}}}); err != nil {
		t.Fatal(err)
	}
	la, a := rawClient(t, url, variant.Godot4)
	ra := newFrameReader(la)
	waitPeers(t, h, 1)
	// An authority RPC on a pattern node owned by the peer its name says.
	la.WriteFrame(Frame{Data: AppendCall(nil, variant.Godot4, Call{Path: "Main/Chars/999", Method: 0, Raw: true})})
	la.WriteFrame(Frame{Data: AppendCall(nil, variant.Godot4, Call{Path: fmt.Sprintf("Main/Chars/%d", a), Method: 0, Raw: true})})
	select {
	case g := <-got:
		if want := fmt.Sprintf("wave from %d", a); g != want {
			t.Errorf("got %q, want %q", g, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no wave")
	}
	if _, err := h.Spawn("Main/Spawner", 0, fmt.Sprint(a), SpawnOptions{Owner: a}); err != nil {
		t.Fatal(err)
	}
	ra.next(t, isCmd(4))
	path := fmt.Sprintf("Main/Players/%d", a)
	args, _, _, _ := AppendArgs(nil, nil, variant.Int(7))
	la.WriteFrame(Frame{Data: AppendCall(nil, variant.Godot4, Call{Path: path, Method: 0, ArgCount: 1, Args: args})})
	la.WriteFrame(Frame{Data: AppendCall(nil, variant.Godot4, Call{Path: path, Method: 1, Raw: true})})
	sargs, _, _, _ := AppendArgs(nil, nil, variant.String("ann"))
	la.WriteFrame(Frame{Data: AppendCall(nil, variant.Godot4, Call{Path: "Main/Rooms/blue", Method: 0, ArgCount: 1, Args: sargs})})
	for _, want := range []string{"hit 7", fmt.Sprintf("jump from %d", a), "enter ann"} {
		select {
		case g := <-got:
			if g != want {
				t.Errorf("got %q, want %q", g, want)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("no %q", want)
		}
	}
	// The host calls the spawned node and a pattern node on the client.
	if err := h.Call(a, path, "hit", 3); err != nil {
		t.Fatal(err)
	}
	if b := ra.next(t, isCmd(1)); !bytes.Contains(b, []byte(path)) {
		t.Fatalf("SIMPLIFY_PATH %q", b)
	}
	ra.next(t, func(b []byte) bool { return b[0]&7 == 0 })
	if err := h.Call(a, "Main/Rooms/red", "enter", "bob"); err != nil {
		t.Fatal(err)
	}
	// A hidden node is not called on a peer that does not have it.
	n2, err := h.Spawn("Main/Spawner", 0, "ghost", SpawnOptions{Hidden: true})
	if err != nil {
		t.Fatal(err)
	}
	if err := h.Call(a, n2.Path(), "hit", 1); err == nil {
		t.Error("Call on a node the peer does not have")
	}
	if err := h.Call(Broadcast, n2.Path(), "hit", 1); err != nil {
		t.Errorf("broadcast Call on a hidden node: %v", err)
	}
}

// Synchronizers the host did not spawn: one the host sends, named by its
// path once the peer confirmed it; one a peer owns, found by pattern.
func TestPathSynchronizers(t *testing.T) {
	h, url := startHost(t, HostOptions{Logger: quiet, ReplicationTick: -1})
	world, err := h.AddSynchronizer(Synchronizer{Name: "Main/World/Sync", Properties: []SyncProperty{
		{Path: ".:time", Mode: ReplicateAlways}, {Path: ".:weather", Mode: ReplicateOnChange}}})
	if err != nil {
		t.Fatal(err)
	}
	if err := world.SetState(map[string]any{"time": 1.5, "weather": "rain"}); err != nil {
		t.Fatal(err)
	}
	got := make(chan string, 4)
	if _, err := h.AddSynchronizer(Synchronizer{Name: "Main/Others/*/Input", Owned: true, Properties: []SyncProperty{{Path: ".:aim", Mode: ReplicateAlways}},
		OnReceive: func(n *SceneNode, from PeerID) {
			var aim variant.Vector2
			n.Get("aim", &aim)
			got <- fmt.Sprintf("%s %d %v", n.Path(), from, aim)
		}}); err != nil {
		t.Fatal(err)
	}
	la, a := rawClient(t, url, variant.Godot4)
	ra := newFrameReader(la)
	waitPeers(t, h, 1)
	h.Replicate()
	ann := ra.next(t, isCmd(1))
	pk, err := Parse(variant.Godot4, ann)
	if err != nil || string(pk.Path) != "Main/World/Sync" {
		t.Fatalf("SIMPLIFY_PATH %q: %v", ann, err)
	}
	// Not confirmed yet: nothing sent.
	h.Replicate()
	if !ra.quiet(100*time.Millisecond, func(b []byte) bool { return b[0]&7 == 6 }) {
		t.Fatal("SYNC before the path was confirmed")
	}
	la.WriteFrame(Frame{Data: AppendConfirmPath(nil, variant.Godot4, true, pk.NodeID, "")})
	time.Sleep(50 * time.Millisecond)
	h.Replicate()
	sy, err := ParseSync(ra.next(t, isCmd(6)), nil)
	if err != nil || len(sy.States) != 1 || sy.States[0].ID != pk.NodeID|SyncPathID {
		t.Fatalf("SYNC %+v %v", sy, err)
	}
	if v, _, err := DecodeState(nil, sy.States[0].State, 1, nil); err != nil || v[0] != variant.Float(1.5) {
		t.Errorf("time %v %v", v, err)
	}
	dl, err := ParseSync(ra.next(t, isCmd(0x16)), nil)
	if err != nil || !dl.Delta || dl.States[0].Mask != 1 {
		t.Fatalf("DELTA %+v %v", dl, err)
	}
	// The peer's own synchronizer, known by pattern.
	p := fmt.Sprintf("Main/Others/%d/Input", a)
	la.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 9, p)})
	if c := ra.next(t, isCmd(2)); !bytes.Equal(c, AppendConfirmPath(nil, variant.Godot4, true, 9, "")) {
		t.Fatalf("CONFIRM_PATH %x", c)
	}
	st, _ := AppendState(nil, nil, variant.Vector2{X: 3, Y: 4})
	la.WriteFrame(Frame{Data: AppendSync(nil, 1, SyncState{ID: 9 | SyncPathID, State: st})})
	select {
	case g := <-got:
		if want := fmt.Sprintf("Main/Others/%d %d Vector2(3, 4)", a, a); g != want {
			t.Errorf("got %q, want %q", g, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("no input")
	}
	// Another peer's path under the pattern is not its own: refused.
	la.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 10, "Main/Others/12345/Input")})
	ra.next(t, isCmd(2))
	la.WriteFrame(Frame{Data: AppendSync(nil, 2, SyncState{ID: 10 | SyncPathID, State: st})})
	select {
	case g := <-got:
		t.Errorf("a state from a peer that is not the authority was applied: %s", g)
	case <-time.After(200 * time.Millisecond):
	}
}

// Confirming the spawner's path, or the path of a node despawned since the
// host announced it, is what a real client does: never counted against it
// (the engine ignores a confirmation for a node it no longer has).
func TestConfirmSpawnedPaths(t *testing.T) {
	elog := &eventLog{}
	h, url := startHost(t, HostOptions{Logger: quiet, ReplicationTick: -1, MaxErrors: 1, Observe: elog.observe})
	sp := arenaSpawner(nil)
	sp.Scenes[0].Nodes = []Node{{Path: ".", Methods: []Method{{Name: "hit", Mode: AnyPeer}}}}
	if err := h.AddSpawner(sp); err != nil {
		t.Fatal(err)
	}
	la, a := rawClient(t, url, variant.Godot4)
	ra := newFrameReader(la)
	waitPeers(t, h, 1)
	n, err := h.Spawn("Main/Spawner", 0, "x", SpawnOptions{})
	if err != nil {
		t.Fatal(err)
	}
	spPath, _ := Parse(variant.Godot4, ra.next(t, isCmd(1)))
	ra.next(t, isCmd(4))
	if err := h.Call(a, n.Path(), "hit"); err != nil {
		t.Fatal(err)
	}
	nodePath, _ := Parse(variant.Godot4, ra.next(t, isCmd(1)))
	n.Despawn()
	ra.next(t, isCmd(5))
	for _, id := range []uint32{spPath.NodeID, nodePath.NodeID, nodePath.NodeID} {
		la.WriteFrame(Frame{Data: AppendConfirmPath(nil, variant.Godot4, true, id, "")})
	}
	if closedWithin(la, 300*time.Millisecond) {
		t.Fatal("the host dropped a client for its confirmations")
	}
	elog.mu.Lock()
	defer elog.mu.Unlock()
	if len(elog.errs) > 0 {
		t.Errorf("refused: %v", elog.errs)
	}
}

// A custom spawn sends the argument for the clients' spawn_function in
// place of a scene index, to late joiners too.
func TestCustomSpawn(t *testing.T) {
	h, url := startHost(t, HostOptions{Logger: quiet, ReplicationTick: -1})
	if err := h.AddSpawner(Spawner{Path: "Main/Spawner", SpawnPath: "../Mobs", Custom: &Scene{
		Synchronizers: []Synchronizer{{Name: "Sync", Properties: []SyncProperty{{Path: ".:position", Spawn: true, Mode: ReplicateAlways}}}},
	}}); err != nil {
		t.Fatal(err)
	}
	if _, err := h.Spawn("Main/Spawner", 0, "x", SpawnOptions{}); err == nil {
		t.Error("spawned scene 0 of a spawner without scenes")
	}
	n, err := h.Spawn("Main/Spawner", SpawnCustom, "mob", SpawnOptions{Arg: map[string]any{"kind": "slime"}, State: map[string]any{"position": variant.Vector2{X: 3}}})
	if err != nil {
		t.Fatal(err)
	}
	la, _ := rawClient(t, url, variant.Godot4)
	ra := newFrameReader(la)
	sp, err := ParseSpawn(ra.next(t, isCmd(4)))
	if err != nil {
		t.Fatal(err)
	}
	arg, _, err := DecodeArg(nil, sp.Arg)
	if err != nil {
		t.Fatal(err)
	}
	d, ok := arg.(*variant.Dictionary)
	if !ok || sp.Scene != SpawnCustom || sp.Name != "mob" || sp.NetID != n.NetID() || len(sp.SyncIDs) != 1 {
		t.Fatalf("SPAWN %+v, arg %v", sp, arg)
	}
	if k, _ := d.Get(variant.String("kind")); k != variant.String("slime") {
		t.Errorf("arg %v", arg)
	}
	st, _, err := DecodeState(nil, sp.State, 1, nil)
	if err != nil || st[0] != (variant.Vector2{X: 3}) {
		t.Errorf("state %v %v", st, err)
	}
}

// Paths a client announced for spawned nodes leave its path cache with the
// nodes, as they leave the client's: a long-lived client in a world whose
// nodes come and go stays within MaxPathCache.
func TestSpawnChurnKeepsPathCache(t *testing.T) {
	h, url := startHost(t, HostOptions{Logger: quiet, ReplicationTick: -1, MaxPathCache: 4})
	if err := h.AddSpawner(arenaSpawner(nil)); err != nil {
		t.Fatal(err)
	}
	la, a := rawClient(t, url, variant.Godot4)
	ra := newFrameReader(la)
	waitPeers(t, h, 1)
	for i := range 20 {
		n, err := h.Spawn("Main/Spawner", 0, fmt.Sprint("p", i), SpawnOptions{Owner: a})
		if err != nil {
			t.Fatal(err)
		}
		ra.next(t, isCmd(4))
		la.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), uint32(100+i), n.Path()+"/InputSync")})
		ra.next(t, isCmd(2))
		n.Despawn()
		ra.next(t, isCmd(5))
	}
	if closedWithin(la, 200*time.Millisecond) {
		t.Error("the client was dropped for the paths of nodes that are gone")
	}
}
