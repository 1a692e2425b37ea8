package multiplayer

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"runtime/debug"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/leaktest"
	"github.com/gdvar/gdvar/variant"
)

// Rooms under load: roomsClients Go clients on loopback WebSocket, spread
// over 500, 50 or 1 rooms of one process (Rooms, relay on as the engine's
// server has it), each calling an RPC on its room's host loadRate times a
// second. As in BenchmarkLoad, an iteration is one second of that load
// (-benchtime=3x: three seconds), the clients run in the benchmark's
// process (the CPU figure counts both ends), and every call must arrive.
// roomsClients is 1,000 because both ends share this process's open
// files (two per client); the full scale, 10,000 clients in 500 rooms
// against one room of 10,000, with the server in a process of its own, is
// bench/rooms/run.sh (see docs/performance.md, "Rooms at full scale").
//
// Reported: cpu-µs/client-s (process CPU per client and second of load),
// heap-B/client and heap-B/room (heap after GC held by the connected,
// idle clients, divided by clients and by rooms), RSS-B/client, rpc/s,
// connect-ms (all clients joined, 32 at a time; one room of many pays for
// announcing every peer to every other).
const roomsClients = 1000

func BenchmarkRooms(b *testing.B) {
	for _, rooms := range []int{500, 50, 1} {
		b.Run(fmt.Sprintf("rooms=%d", rooms), func(b *testing.B) { benchRooms(b, rooms) })
	}
}

func benchRooms(b *testing.B, rooms int) {
	raiseOpenFiles(b, 2*roomsClients+256)
	base := leaktest.Take()
	var got atomic.Int64
	node := Node{Path: "P", Methods: []Method{{Name: "move", Mode: AnyPeer, Transfer: Reliable,
		Handler: func(context.Context, PeerID, variant.Vector2) { got.Add(1) }}}}

	var before, after runtime.MemStats
	debug.FreeOSMemory()
	runtime.ReadMemStats(&before)
	rssBefore := rss()

	perRoom := roomsClients / rooms
	rs, err := NewRooms(RoomsOptions{
		Host:      HostOptions{MaxPeers: perRoom, MaxPeersPerIP: perRoom},
		Nodes:     []Node{node},
		MaxRooms:  rooms,
		RoomBurst: rooms,
		MaxPeers:  roomsClients,
		Logger:    quiet,
	})
	if err != nil {
		b.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	served := make(chan error, 1)
	go func() { served <- rs.ServeWebSocket(ctx, ln) }()
	cs := make([]*Client, roomsClients)
	cleanup := func() {
		for _, c := range cs {
			if c != nil {
				c.Close()
			}
		}
		cancel()
		<-served
	}

	connectStart := time.Now()
	var joinErr atomic.Value
	var wg sync.WaitGroup
	next := atomic.Int64{}
	for range 32 {
		wg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= roomsClients {
					return
				}
				jctx, jcancel := context.WithTimeout(ctx, 60*time.Second)
				url := fmt.Sprintf("ws://%s/r%d", ln.Addr(), i%rooms)
				link, err := DialWebSocket(jctx, url, WebSocketOptions{})
				if err == nil {
					cs[i], err = Join(jctx, link, ClientOptions{Logger: quiet}, node)
				}
				jcancel()
				if err != nil {
					joinErr.CompareAndSwap(nil, err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err, _ := joinErr.Load().(error); err != nil {
		cleanup()
		b.Fatalf("joining: %v", err)
	}
	// Every client has learnt of the others of its room.
	for _, c := range cs {
		for len(c.Peers()) < perRoom && time.Since(connectStart) < 2*time.Minute {
			time.Sleep(time.Millisecond)
		}
	}
	connectTime := time.Since(connectStart)
	if s := rs.Stats(); s.Rooms != rooms || s.Peers != roomsClients {
		cleanup()
		b.Fatalf("%d rooms, %d clients", s.Rooms, s.Peers)
	}
	debug.FreeOSMemory()
	runtime.ReadMemStats(&after)
	rssAfter := rss()

	cpu, elapsed := pacedCalls(b, cs, loadRate, &got, cleanup, func(c *Client) error {
		return c.Call(HostID, "P", "move", variant.Vector2{X: 1, Y: 2})
	})
	total := loadRate * b.N * roomsClients
	heap := float64(after.HeapAlloc) - float64(before.HeapAlloc)
	b.ReportMetric(float64(cpu/time.Microsecond)/float64(roomsClients*b.N), "cpu-µs/client-s")
	b.ReportMetric(heap/roomsClients, "heap-B/client")
	b.ReportMetric(heap/float64(rooms), "heap-B/room")
	b.ReportMetric(float64(rssAfter-rssBefore)/roomsClients, "RSS-B/client")
	b.ReportMetric(float64(total)/elapsed.Seconds(), "rpc/s")
	b.ReportMetric(float64(connectTime.Milliseconds()), "connect-ms")
	base.Check(b, 10*time.Second)
}
