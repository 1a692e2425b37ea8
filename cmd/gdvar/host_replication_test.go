package main

import (
	"bufio"
	"context"
	"encoding/hex"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// gdvar host prints the replication packets a Godot 4.6 game sent (the
// engine's captured packets, replayed by a Go peer) decoded, with node
// names, and at most --max-rate lines per second of each kind, counting
// the others.
func TestHostCommandReplication(t *testing.T) {
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
	var stdout, stderr syncBuffer
	done := make(chan int)
	go func() {
		done <- hostMain(ctx, []string{"--ws", "127.0.0.1:0", "--max-rate", "3"}, &stdout, &stderr)
	}()
	addrRE := regexp.MustCompile(`ws://(\S+)`)
	waitUntil(t, "the host to listen", func() bool { return addrRE.MatchString(stderr.String()) })
	jctx, jcancel := context.WithTimeout(ctx, 5*time.Second)
	defer jcancel()
	link, err := multiplayer.DialWebSocket(jctx, "ws://"+addrRE.FindStringSubmatch(stderr.String())[1], multiplayer.WebSocketOptions{})
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
		return strings.Count(stdout.String(), "DESPAWN") == 2 && strings.Contains(stdout.String(), "DELTA")
	})
	link.Close()
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("exit %d: %s", code, stderr.String())
	}
	out := stdout.String()
	t.Logf("gdvar host printed:\n%s", out)
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
	// Every SYNC and DELTA is printed or counted, never more than 3 a
	// second.
	shown := strings.Count(out, " SYNC t=") + strings.Count(out, " DELTA ")
	hidden := 0
	for _, m := range regexp.MustCompile(`… (\d+) (SYNC|DELTA) lines not shown`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		hidden += n
	}
	if shown+hidden != nSync || hidden == 0 {
		t.Errorf("%d SYNC and DELTA shown, %d counted as hidden, %d sent", shown, hidden, nSync)
	}
}

// Godot 3's rset shows as an assignment.
func TestHostPrinterSet(t *testing.T) {
	var out syncBuffer
	p := &hostPrinter{w: &out}
	v, _ := variant.EncOptions{Family: variant.Godot3}.EncMode()
	val, _ := v.Append(nil, variant.Int(20))
	pkt := multiplayer.AppendSet(nil, 1, "", "score", val)
	pk, err := multiplayer.Parse(variant.Godot3, pkt)
	if err != nil {
		t.Fatal(err)
	}
	p.event(&multiplayer.Event{From: 5, Packet: pk, Node: "Game", Method: "score", Args: []variant.Value{variant.Int(20)}})
	if got := out.String(); got != "5 -> 1 REMOTE_SET Game.score = 20\n" {
		t.Errorf("%q", got)
	}
}
