package main

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// gdvar host prints the replication packets a Godot 4.6 game sent (the
// engine's captured packets, replayed by a Go peer) decoded, with node
// names.
func TestHostCommandReplication(t *testing.T) {
	out, _ := hostReplay(t)
	for _, want := range []string{
		`SPAWN "P1" by Main/Spawner scene 0 net #1 sync #2,#3 state(Vector2(10, 20), 100, Vector2(0, 0))`,
		`SPAWN "Bullet" by Main/Spawner custom({ "speed": 3 }) net #4`,
		`DELTA P1#2[0,1](100, "start")`,
		`DELTA P1#2[0](99)`,
		`DESPAWN #1 "P1"`,
		`DESPAWN #4 "Bullet"`,
		` SYNC t=`, `Main/World/Sync(Vector2(0, `, `P1#3(Vector2(`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
}

// With --project, gdvar host names the synchronizers of spawned nodes and
// the properties of every state from the project's scenes.
func TestHostCommandReplicationNames(t *testing.T) {
	out, errOut := hostReplay(t, "--project", filepath.Join("testdata", "replication4"))
	for _, want := range []string{
		"gdvar host: Main/Spawner spawns res://player.tscn\n",
		"gdvar host: Main/World/Sync synchronizes position\n",
	} {
		if !strings.Contains(errOut, want) {
			t.Errorf("standard error lacks %q", want)
		}
	}
	for _, want := range []string{
		`SPAWN "P1" by Main/Spawner scene 0 res://player.tscn net #1 sync #2,#3 state(position=Vector2(10, 20), hp=100, direction=Vector2(0, 0))`,
		`SPAWN "Bullet" by Main/Spawner custom({ "speed": 3 }) net #4`,
		`DELTA P1/ServerSync#2(hp=100, label="start")`,
		`DELTA P1/ServerSync#2(hp=99)`,
		`DELTA P1/ServerSync#2(label="moved")`,
		`DESPAWN #1 "P1"`,
		` SYNC t=`, ` Main/World/Sync(position=Vector2(0, `,
		` P1/ServerSync#2(position=Vector2(`, ` P1/InputSync#3(direction=Vector2(`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	if strings.Contains(out, "[0") {
		t.Error("a DELTA mask printed as indices although the project names its properties")
	}
}

// hostReplay runs gdvar host with args, replays the captured replication
// packets of a Godot 4.6 game to it from a Go peer, and returns what the
// host printed on standard output and standard error.
func hostReplay(t *testing.T, args ...string) (stdout, stderr string) {
	t.Helper()
	var pkts [][]byte
	nSync := 0
	f, err := os.Open(filepath.Join("..", "..", "multiplayer", "testdata", "capture", "godot4.6-replication.txt"))
	if err != nil {
		t.Fatal(err)
	}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if l := sc.Text(); l != "" && l[0] != '#' {
			hx, _, _ := strings.Cut(l, "\t")
			b, err := hex.DecodeString(hx)
			if err != nil {
				t.Fatal(err)
			}
			pkts = append(pkts, b)
			if b[0]&7 == 6 {
				nSync++
			}
		}
	}
	f.Close()

	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	var outBuf, errBuf syncBuffer
	done := make(chan int)
	go func() {
		done <- hostMain(ctx, append([]string{"--ws", "127.0.0.1:0"}, args...), &outBuf, &errBuf)
	}()
	addrRE := regexp.MustCompile(`ws://(\S+)`)
	waitUntil(t, "the host to listen", func() bool { return addrRE.MatchString(errBuf.String()) })
	jctx, jcancel := context.WithTimeout(ctx, 5*time.Second)
	defer jcancel()
	link, err := multiplayer.DialWebSocket(jctx, "ws://"+addrRE.FindStringSubmatch(errBuf.String())[1], multiplayer.WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer link.Close()
	for _, b := range pkts {
		if err := link.WriteFrame(multiplayer.Frame{Kind: multiplayer.FrameData, To: 1, Data: b}); err != nil {
			t.Fatal(err)
		}
	}
	waitUntil(t, "the host to see the last packet", func() bool {
		return strings.Count(outBuf.String(), "DESPAWN") == 2 && strings.Contains(outBuf.String(), "DELTA")
	})
	link.Close()
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, errBuf.String())
	}
	out := outBuf.String()
	t.Logf("gdvar host printed:\n%s", out)
	if n := strings.Count(out, " SYNC t="); n == 0 || n > nSync {
		t.Errorf("%d SYNC lines for %d SYNC packets", n, nSync)
	}
	return out, errBuf.String()
}

// A spawned scene whose synchronizers send nothing in the spawn state still
// has its synchronizers and properties named in later SYNC lines.
func TestHostPrinterNamesWithoutSpawnState(t *testing.T) {
	var out bytes.Buffer
	p := newHostPrinter(&out, 300, 0, false, gdtext.Options{Family: variant.Godot4})
	p.project = &multiplayer.Project{Spawners: []multiplayer.Spawner{{
		Path: "Main/Spawner",
		Scenes: []multiplayer.Scene{{Path: "res://ball.tscn", Synchronizers: []multiplayer.Synchronizer{{
			Name:       "Sync",
			Properties: []multiplayer.SyncProperty{{Path: ".:position", Mode: multiplayer.ReplicateAlways}},
		}}}},
	}}}
	print := p.eventIn("")
	print(&multiplayer.Event{From: 7, To: 1, Node: "Main/Spawner",
		Packet:      multiplayer.Packet{Command: multiplayer.CmdSpawn},
		Replication: &multiplayer.Replication{Spawn: &multiplayer.Spawn{Name: "Ball", NetID: 1, SyncIDs: []uint32{5}}}})
	print(&multiplayer.Event{From: 7, To: 1,
		Packet: multiplayer.Packet{Command: multiplayer.CmdSync},
		Replication: &multiplayer.Replication{
			Sync:   &multiplayer.Sync{Time: 3, States: []multiplayer.SyncState{{ID: 5}}},
			Paths:  []string{""},
			Values: [][]variant.Value{{variant.Vector2{X: 1, Y: 2}}},
		}})
	want := "7 -> 1 SPAWN \"Ball\" by Main/Spawner scene 0 res://ball.tscn net #1 sync #5\n" +
		"7 -> 1 SYNC t=3 Ball/Sync#5(position=Vector2(1, 2))\n"
	if out.String() != want {
		t.Errorf("printed\n%s\nwant\n%s", out.String(), want)
	}
}
