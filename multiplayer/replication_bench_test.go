package multiplayer

import (
	"context"
	"fmt"
	"net"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/procstat"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// benchModel is a host with a scene model and peers that are only queues:
// the cost of the model and its packets, without a transport.
func benchModel(b testing.TB, nodes, peers int, filter bool) (*Host, []*SceneNode) {
	b.Helper()
	h, err := NewHost(HostOptions{Logger: quiet, ReplicationTick: -1, MaxPeers: peers})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { h.Close() })
	if err := h.AddSpawner(arenaSpawner(nil)); err != nil {
		b.Fatal(err)
	}
	h.mu.Lock()
	for i := range peers {
		p := &hostPeer{id: PeerID(i + 2), link: nopLink{}, q: newOutQueue(1<<40, nopLink{}, nil), remote: newRemote(h.pathBudget()), admitted: true}
		p.q.writing = true // no writer: drain empties the queue
		h.peers[p.id] = p
		h.order = append(h.order, p.id)
		h.replJoinLocked(p)
	}
	h.mu.Unlock()
	var out []*SceneNode
	for i := range nodes {
		// Owned by a peer that is not there: its input synchronizer
		// sends nothing, ServerSync one state per node, as in the arena.
		o := SpawnOptions{Owner: absentPeer, State: playerState{Position: variant.Vector2{X: float64(i), Y: 1}, HP: 100}}
		if filter {
			// Each peer sees one node in ten, as interest management
			// by area would.
			k := PeerID(i % 10)
			o.Filter = func(p PeerID) bool { return p%10 == k }
		}
		n, err := h.Spawn("Main/Spawner", 0, fmt.Sprint("n", i), o)
		if err != nil {
			b.Fatal(err)
		}
		out = append(out, n)
	}
	drain(h)
	return h, out
}

// absentPeer owns the benchmarks' nodes.
const absentPeer PeerID = 1 << 30

// nopLink is the link of a peer that is only a queue.
type nopLink struct{}

func (nopLink) ReadFrame() (Frame, error) { return Frame{}, net.ErrClosed }
func (nopLink) WriteFrame(Frame) error    { return nil }
func (nopLink) Close() error              { return nil }
func (nopLink) RemoteAddr() net.Addr      { return nil }

// drain empties the peers' queues; it returns the bytes and packets that
// were in them.
func drain(h *Host) (bytes, packets int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.peers {
		p.q.mu.Lock()
		if p.q.queue != nil {
			for _, f := range p.q.queue.fs {
				bytes += len(f.Data)
			}
			packets += len(p.q.queue.fs)
			putFrames(p.q.queue)
			p.q.queue = nil
		}
		p.q.bytes = 0
		p.q.mu.Unlock()
	}
	return
}

// A replication tick of the scene model: SYNC (and, when hp changes,
// DELTA) for every node to every peer that sees it. Reported: sync-pkt/s,
// the SYNC and DELTA packets built per second on one core;
// B/node-tick, the bytes allocated per synchronized node per tick, the
// queue's copy of each packet included; states/s, the node states sent.
func BenchmarkReplicationTick(b *testing.B) {
	for _, c := range []struct {
		nodes, peers int
		filter, move bool
	}{
		{1000, 1, false, false},
		{1000, 20, false, false},
		{1000, 20, false, true},
		{2000, 200, true, true},
	} {
		name := fmt.Sprintf("nodes=%d/peers=%d/filter=%v/move=%v", c.nodes, c.peers, c.filter, c.move)
		b.Run(name, func(b *testing.B) {
			h, nodes := benchModel(b, c.nodes, c.peers, c.filter)
			now := int64(1)
			var pos variant.Value = variant.Vector2{X: 1, Y: 2}
			tick := func() {
				if c.move {
					for _, n := range nodes {
						n.Set("position", pos)
					}
				}
				h.mu.Lock()
				now += 16667
				h.replicateLocked(now)
				h.mu.Unlock()
			}
			tick()
			drain(h)
			packets, states := 0, 0
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				tick()
				b.StopTimer()
				_, n := drain(h)
				packets += n
				b.StartTimer()
			}
			b.StopTimer()
			seen := c.nodes * c.peers
			if c.filter {
				seen /= 10
			}
			states = seen * b.N
			var ms runtime.MemStats
			runtime.ReadMemStats(&ms)
			sec := b.Elapsed().Seconds()
			b.ReportMetric(float64(packets)/sec, "sync-pkt/s")
			b.ReportMetric(float64(states)/sec, "states/s")
			_ = ms
		})
	}
}

// BenchmarkReplicationTickAllocs reports the bytes allocated per
// synchronized node per tick in the steady state (nothing changes, and
// everything moves): the model itself allocates nothing; what remains is
// the copy of each packet into the peer's queue.
func BenchmarkReplicationTickAllocs(b *testing.B) {
	for _, move := range []bool{false, true} {
		b.Run(fmt.Sprintf("move=%v", move), func(b *testing.B) {
			const nodes, peers = 1000, 10
			h, ns := benchModel(b, nodes, peers, false)
			now := int64(1)
			var pos variant.Value = variant.Vector2{X: 1, Y: 2}
			tick := func() {
				if move {
					for _, n := range ns {
						n.Set("position", pos)
					}
				}
				h.mu.Lock()
				now += 16667
				h.replicateLocked(now)
				h.mu.Unlock()
			}
			tick()
			drain(h)
			var m0, m1 runtime.MemStats
			runtime.ReadMemStats(&m0)
			b.ResetTimer()
			for range b.N {
				tick()
				drain(h)
			}
			b.StopTimer()
			runtime.ReadMemStats(&m1)
			b.ReportMetric(float64(m1.TotalAlloc-m0.TotalAlloc)/float64(b.N*nodes*peers), "B/node-tick")
		})
	}
}

// Loopback load: replLoadPeers WebSocket clients on loopback, a world of
// replLoadNodes spawned nodes that all move, each peer seeing one node in
// ten (visibility filters), replicated at 20 Hz. Each iteration is one
// second of that load. The clients run in the same process (they read and
// count what they get), so the CPU figure counts both ends.
//
// Reported: cpu-ms/s, process CPU per second of load; heap-MB, the heap in
// use under load; states/s, node states the clients got per second;
// KB/s/peer, what each peer receives.
const (
	replLoadPeers = 200
	replLoadNodes = 2000
	replLoadHz    = 20
)

func BenchmarkReplicationLoad(b *testing.B) {
	raiseOpenFiles(b, 2*replLoadPeers+256)
	h, err := NewHost(HostOptions{Logger: quiet, NoRelay: true, MaxPeers: replLoadPeers, MaxPeersPerIP: replLoadPeers, ReplicationTick: time.Second / replLoadHz})
	if err != nil {
		b.Fatal(err)
	}
	defer h.Close()
	if err := h.AddSpawner(arenaSpawner(nil)); err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	// Every client comes from 127.0.0.1: lift the per-address cap.
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Peer: peer.Options{MaxConnsPerIP: replLoadPeers}})
	if err != nil {
		b.Fatal(err)
	}
	go h.Serve(ctx, l)
	url := "ws://" + l.Addr().String()
	var states, bytesIn atomic.Int64
	var wg sync.WaitGroup
	for range replLoadPeers {
		link, err := DialWebSocket(ctx, url, WebSocketOptions{})
		if err != nil {
			b.Fatal(err)
		}
		wg.Add(1)
		go func() {
			defer wg.Done()
			var reuse []SyncState
			for {
				f, err := link.ReadFrame()
				if err != nil {
					return
				}
				bytesIn.Add(int64(len(f.Data)))
				if len(f.Data) > 0 && f.Data[0] == 6 {
					if s, err := ParseSync(f.Data, reuse); err == nil {
						states.Add(int64(len(s.States)))
						reuse = s.States
					}
				}
			}
		}()
		defer link.Close()
	}
	for len(h.Peers()) < replLoadPeers {
		time.Sleep(time.Millisecond)
	}
	var nodes []*SceneNode
	for i := range replLoadNodes {
		k := PeerID(i % 10)
		n, err := h.Spawn("Main/Spawner", 0, fmt.Sprint("n", i), SpawnOptions{
			Owner:  absentPeer,
			State:  playerState{Position: variant.Vector2{X: float64(i)}, HP: 100},
			Filter: func(p PeerID) bool { return p%10 == k },
		})
		if err != nil {
			b.Fatal(err)
		}
		nodes = append(nodes, n)
	}
	// The game moves everything at 20 Hz.
	stop := make(chan struct{})
	go func() {
		t := time.NewTicker(time.Second / replLoadHz)
		defer t.Stop()
		x := 0.0
		for {
			select {
			case <-stop:
				return
			case <-t.C:
				x++
				for _, n := range nodes {
					n.Set("position", variant.Vector2{X: x, Y: 1})
				}
			}
		}
	}()
	time.Sleep(500 * time.Millisecond)
	cpu0 := procstat.Self()
	s0, in0 := states.Load(), bytesIn.Load()
	ticks := func() int {
		h.mu.Lock()
		defer h.mu.Unlock()
		return int(h.peers[h.order[0]].rp.syncTime)
	}
	t0 := ticks()
	start := time.Now()
	b.ResetTimer()
	time.Sleep(time.Duration(b.N) * time.Second)
	b.StopTimer()
	elapsed := time.Since(start)
	b.ReportMetric(float64(ticks()-t0)/elapsed.Seconds(), "ticks/s")
	cpu1 := procstat.Self()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	close(stop)
	cpu := cpu1 - cpu0
	b.ReportMetric(float64(cpu.Milliseconds())/elapsed.Seconds(), "cpu-ms/s")
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MB")
	b.ReportMetric(float64(states.Load()-s0)/elapsed.Seconds(), "states/s")
	b.ReportMetric(float64(bytesIn.Load()-in0)/elapsed.Seconds()/replLoadPeers/1024, "KB/s/peer")
	b.ReportMetric(float64(replLoadPeers*replLoadNodes/10*replLoadHz), "want-states/s")
	cancel()
	h.Close()
	wg.Wait()
}
