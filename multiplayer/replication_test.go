package multiplayer

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// arenaSpawner is the arena example's spawner: a player scene with a
// server-owned and a player-owned synchronizer.
func arenaSpawner(onInput func(*SceneNode, PeerID)) Spawner {
	return Spawner{Path: "Main/Spawner", SpawnPath: "../Players", Scenes: []Scene{{
		Path: "res://player.tscn",
		Synchronizers: []Synchronizer{
			{Name: "ServerSync", Properties: []SyncProperty{
				{Path: ".:position", Spawn: true, Mode: ReplicateAlways},
				{Path: ".:hp", Spawn: true, Mode: ReplicateOnChange},
			}},
			{Name: "InputSync", Owned: true, OnReceive: onInput, Properties: []SyncProperty{
				{Path: ".:direction", Mode: ReplicateAlways},
			}},
		},
	}}}
}

type playerState struct {
	Position  variant.Vector2 `gdvar:"position"`
	HP        int             `gdvar:"hp"`
	Direction variant.Vector2 `gdvar:"direction"`
}

// frames reads what the host sends a raw client until quiet for d.
type frameReader struct {
	link Link
	ch   chan []byte
}

func newFrameReader(link Link) *frameReader {
	r := &frameReader{link: link, ch: make(chan []byte, 1024)}
	go func() {
		defer close(r.ch)
		for {
			f, err := link.ReadFrame()
			if err != nil {
				return
			}
			r.ch <- append([]byte(nil), f.Data...)
		}
	}()
	return r
}

// next returns the next packet that keep accepts, failing after 5 s.
func (r *frameReader) next(t *testing.T, keep func([]byte) bool) []byte {
	t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		select {
		case b, ok := <-r.ch:
			if !ok {
				t.Fatal("the host closed the connection")
			}
			if keep == nil || keep(b) {
				return b
			}
		case <-deadline:
			t.Fatal("nothing more from the host")
		}
	}
}

func isCmd(c byte) func([]byte) bool {
	return func(b []byte) bool { return len(b) > 0 && b[0] == c }
}

func le32(v uint32) []byte { return binary.LittleEndian.AppendUint32(nil, v) }

func cat(bs ...[]byte) []byte { return bytes.Join(bs, nil) }

func TestSpawnSyncDelta(t *testing.T) {
	var mu sync.Mutex
	var inputs []variant.Vector2
	h, url := startHost(t, HostOptions{Logger: quiet, ReplicationTick: -1})
	if err := h.AddSpawner(arenaSpawner(func(n *SceneNode, from PeerID) {
		var d variant.Vector2
		if err := n.Get("direction", &d); err != nil {
			t.Error(err)
		}
		mu.Lock()
		inputs = append(inputs, d)
		mu.Unlock()
	})); err != nil {
		t.Fatal(err)
	}
	link, id := rawClient(t, url, variant.Godot4)
	r := newFrameReader(link)
	for len(h.Peers()) < 1 {
		time.Sleep(time.Millisecond)
	}
	n, err := h.Spawn("Main/Spawner", 0, "42", SpawnOptions{Owner: id, State: playerState{Position: variant.Vector2{X: 1, Y: 2}, HP: 100}})
	if err != nil {
		t.Fatal(err)
	}
	// The spawner's path, then the SPAWN: scene 0, spawner cache id 1,
	// net id 1, one sync id (2: ServerSync), the name, the spawn state.
	sp := r.next(t, nil)
	want := AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 1, "Main/Spawner")
	if !bytes.Equal(sp, want) {
		t.Fatalf("first packet %x, want SIMPLIFY_PATH %x", sp, want)
	}
	spawn := r.next(t, nil)
	pos, _ := variant.Encode(variant.Vector2{X: 1, Y: 2})
	want = cat([]byte{4, 0}, le32(1), le32(1), le32(1), le32(3), le32(2), []byte("42\x00"), pos, []byte{2, 100})
	if !bytes.Equal(spawn, want) {
		t.Fatalf("SPAWN\n got %s\nwant %s", hex.EncodeToString(spawn), hex.EncodeToString(want))
	}
	// A tick: SYNC with time 1 and the position; DELTA with hp.
	h.Replicate()
	syncPkt := r.next(t, nil)
	want = cat([]byte{6, 1, 0}, le32(2), le32(uint32(len(pos))), pos)
	if !bytes.Equal(syncPkt, want) {
		t.Fatalf("SYNC\n got %x\nwant %x", syncPkt, want)
	}
	delta := r.next(t, nil)
	want = cat([]byte{6 | 0x10}, le32(2), []byte{1, 0, 0, 0, 0, 0, 0, 0}, le32(2), []byte{2, 100})
	if !bytes.Equal(delta, want) {
		t.Fatalf("DELTA\n got %x\nwant %x", delta, want)
	}
	// hp unchanged: no DELTA; changed: a DELTA with it alone.
	h.Replicate()
	if b := r.next(t, nil); b[0] != 6 || b[1] != 2 {
		t.Fatalf("second SYNC %x", b)
	}
	if err := n.Set("hp", 99); err != nil {
		t.Fatal(err)
	}
	h.Replicate()
	r.next(t, isCmd(6))
	delta = r.next(t, nil)
	want = cat([]byte{6 | 0x10}, le32(2), []byte{1, 0, 0, 0, 0, 0, 0, 0}, le32(2), []byte{2, 99})
	if !bytes.Equal(delta, want) {
		t.Fatalf("DELTA after Set\n got %x\nwant %x", delta, want)
	}

	// The client owns InputSync: it announces its path and sends its state.
	link.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), 7, "Main/Players/42/InputSync")})
	conf := r.next(t, isCmd(2))
	if !bytes.Equal(conf, AppendConfirmPath(nil, variant.Godot4, true, 7, "")) {
		t.Fatalf("CONFIRM_PATH %x", conf)
	}
	dir, _ := variant.Encode(variant.Vector2{X: 1, Y: 0})
	link.WriteFrame(Frame{Data: cat([]byte{6, 5, 0}, le32(7|pathFlag), le32(uint32(len(dir))), dir)})
	// An older state is dropped, as the engine drops it.
	old, _ := variant.Encode(variant.Vector2{X: -1, Y: 0})
	link.WriteFrame(Frame{Data: cat([]byte{6, 4, 0}, le32(7|pathFlag), le32(uint32(len(old))), old)})
	link.WriteFrame(Frame{Data: cat([]byte{6, 6, 0}, le32(7|pathFlag), le32(uint32(len(dir))), dir)})
	deadline := time.Now().Add(5 * time.Second)
	for {
		mu.Lock()
		got := len(inputs)
		mu.Unlock()
		if got >= 2 || time.Now().After(deadline) {
			break
		}
		time.Sleep(5 * time.Millisecond)
	}
	mu.Lock()
	if len(inputs) != 2 || inputs[0] != (variant.Vector2{X: 1}) || inputs[1] != (variant.Vector2{X: 1}) {
		t.Errorf("inputs %v", inputs)
	}
	mu.Unlock()
	var st playerState
	if err := n.State(&st); err != nil {
		t.Fatal(err)
	}
	if st != (playerState{Position: variant.Vector2{X: 1, Y: 2}, HP: 99, Direction: variant.Vector2{X: 1}}) {
		t.Errorf("state %+v", st)
	}

	// A late joiner: ADD_PEER of the first, then the SPAWN with the
	// current state; the first hears of it.
	link2, id2 := rawClient(t, url, variant.Godot4)
	r2 := newFrameReader(link2)
	add := r2.next(t, nil)
	if !bytes.Equal(add, AppendSys(nil, SysAddPeer, id, nil)) {
		t.Fatalf("late joiner's first packet %x", add)
	}
	r2.next(t, isCmd(1))
	spawn2 := r2.next(t, nil)
	if spawn2[0] != 4 || !bytes.HasSuffix(spawn2, []byte{2, 99}) {
		t.Fatalf("late joiner's SPAWN %x", spawn2)
	}
	if b := r.next(t, isCmd(7)); !bytes.Equal(b, AppendSys(nil, SysAddPeer, id2, nil)) {
		t.Fatalf("ADD_PEER %x", b)
	}
	// Despawn reaches both.
	if err := n.Despawn(); err != nil {
		t.Fatal(err)
	}
	for _, rr := range []*frameReader{r, r2} {
		if b := rr.next(t, isCmd(5)); !bytes.Equal(b, cat([]byte{5}, le32(1))) {
			t.Fatalf("DESPAWN %x", b)
		}
	}
	if err := n.Set("hp", 1); err != ErrDespawned {
		t.Errorf("Set after Despawn: %v", err)
	}
}
