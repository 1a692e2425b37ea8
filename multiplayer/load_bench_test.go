package multiplayer

import (
	"context"
	"os"
	"runtime"
	"runtime/debug"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/leaktest"
	"github.com/gdvar/gdvar/internal/procstat"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// Load on one Host: loadClients Go clients on loopback WebSocket, each
// calling an RPC on the host loadRate times a second, paced by a ticker of
// its own. Each iteration of the benchmark is one second of that load, so
// -benchtime=5x measures five seconds. The clients run in the benchmark's
// process, so the CPU and memory figures count both ends of every
// connection.
//
// Reported:
//   - cpu-µs/client-s: process CPU time (user+sys, getrusage) during the
//     load, per client and second of load (loadRate calls), so it does not
//     depend on how long the machine took to run them;
//   - rpc/s: RPCs handled by the host per second of wall time, which falls
//     short of loadClients*loadRate when the machine cannot keep up;
//   - heap-B/client, stack-B/client: heap (after GC) and goroutine
//     stacks held per connected, idle client;
//   - RSS-B/client: resident set growth per connected client, after
//     free pages are returned to the system;
//   - p50-µs, p99-µs: time from Client.Call to the host's handler;
//   - connect-ms: time to connect and join all clients, 32 at a time.
//
// Every call must reach the handler, and every goroutine and socket must
// be gone after Close, or the benchmark fails.
const (
	loadClients = 1000
	loadRate    = 20 // RPCs per client per second
)

func BenchmarkLoad(b *testing.B) {
	raiseOpenFiles(b, 2*loadClients+256)
	base := leaktest.Take()

	// Each call carries the time it was sent since epoch; the handler
	// stores its latency in lat.
	epoch := time.Now()
	var got atomic.Int64
	var latp atomic.Pointer[[]int64]
	node := Node{Path: "P", Methods: []Method{{Name: "move", Mode: AnyPeer, Transfer: Reliable,
		Handler: func(_ context.Context, from PeerID, pos variant.Vector2, sent int) {
			us := (time.Since(epoch) - time.Duration(sent)) / time.Microsecond
			i := got.Add(1) - 1
			if lat := latp.Load(); lat != nil && i < int64(len(*lat)) {
				(*lat)[i] = int64(us)
			}
		}}}}

	// FreeOSMemory collects and returns free pages, so that the resident
	// set counts what is live.
	var before, after runtime.MemStats
	debug.FreeOSMemory()
	runtime.ReadMemStats(&before)
	rssBefore := rss()

	h, err := NewHost(HostOptions{Logger: quiet, NoRelay: true, MaxPeers: loadClients, MaxPeersPerIP: loadClients}, node)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	// Every client comes from 127.0.0.1: lift the per-address caps.
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", WebSocketOptions{Peer: peer.Options{MaxConns: loadClients, MaxConnsPerIP: loadClients}})
	if err != nil {
		b.Fatal(err)
	}
	served := make(chan error, 1)
	go func() { served <- h.Serve(ctx, l) }()

	cs := make([]*Client, loadClients)
	cleanup := func() {
		for _, c := range cs {
			if c != nil {
				c.Close()
			}
		}
		h.Close()
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
				if i >= loadClients {
					return
				}
				jctx, jcancel := context.WithTimeout(ctx, 30*time.Second)
				link, err := DialWebSocket(jctx, "ws://"+l.Addr().String(), WebSocketOptions{})
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
	connectTime := time.Since(connectStart)
	if err, _ := joinErr.Load().(error); err != nil {
		cleanup()
		b.Fatalf("joining: %v", err)
	}
	if n := len(h.Peers()); n != loadClients {
		cleanup()
		b.Fatalf("%d of %d clients connected", n, loadClients)
	}
	debug.FreeOSMemory()
	runtime.ReadMemStats(&after)
	rssAfter := rss()

	perClient := loadRate * b.N
	total := int64(perClient * loadClients)
	lat := make([]int64, total)
	latp.Store(&lat)
	b.ReportAllocs()
	cpu, elapsed := pacedCalls(b, cs, loadRate, &got, cleanup, func(c *Client) error {
		return c.Call(HostID, "P", "move", variant.Vector2{X: 1, Y: 2}, int(time.Since(epoch)))
	})
	b.ReportMetric(float64(cpu/time.Microsecond)/float64(loadClients*b.N), "cpu-µs/client-s")
	b.ReportMetric((float64(after.HeapAlloc)-float64(before.HeapAlloc))/loadClients, "heap-B/client")
	b.ReportMetric((float64(after.StackInuse)-float64(before.StackInuse))/loadClients, "stack-B/client")
	b.ReportMetric(float64(rssAfter-rssBefore)/loadClients, "RSS-B/client")
	b.ReportMetric(float64(total)/elapsed.Seconds(), "rpc/s")
	slices.Sort(lat)
	b.ReportMetric(float64(lat[len(lat)/2]), "p50-µs")
	b.ReportMetric(float64(lat[len(lat)*99/100]), "p99-µs")
	b.ReportMetric(float64(connectTime.Milliseconds()), "connect-ms")

	// Everything the host and the clients started must be gone.
	base.Check(b, 10*time.Second)
}

// pacedCalls is the load of BenchmarkLoad and BenchmarkRooms: each client
// calls call rate times a second for b.N seconds, its ticks spread over
// the period as real clients' are, while got counts the calls that arrive
// (it is given 10 s after the last call). Then cleanup runs, and every
// call must have arrived. It returns the process's CPU time (user and
// system) and the wall time the load took, the timer running meanwhile.
func pacedCalls(b *testing.B, cs []*Client, rate int, got *atomic.Int64, cleanup func(), call func(*Client) error) (cpu, elapsed time.Duration) {
	perClient := rate * b.N
	total := int64(perClient * len(cs))
	period := time.Second / time.Duration(rate)
	cpu0 := procstat.Self()
	b.ResetTimer()
	start := time.Now()
	var callErr atomic.Value
	var wg sync.WaitGroup
	for i, c := range cs {
		wg.Go(func() {
			time.Sleep(period * time.Duration(i) / time.Duration(len(cs)))
			t := time.NewTicker(period)
			defer t.Stop()
			for range perClient {
				if err := call(c); err != nil {
					callErr.CompareAndSwap(nil, err)
					return
				}
				<-t.C
			}
		})
	}
	wg.Wait()
	deadline := time.Now().Add(10 * time.Second)
	for got.Load() < total && time.Now().Before(deadline) {
		time.Sleep(time.Millisecond)
	}
	elapsed = time.Since(start)
	b.StopTimer()
	cpu1 := procstat.Self()
	cleanup()
	if err, _ := callErr.Load().(error); err != nil {
		b.Fatalf("calling: %v", err)
	}
	if n := got.Load(); n != total {
		b.Fatalf("%d of %d calls arrived (%d lost)", n, total, total-n)
	}
	cpu = cpu1 - cpu0
	return cpu, elapsed
}

// rss is the process's resident set in bytes, from /proc/self/statm, or 0.
func rss() int64 {
	b, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		return 0
	}
	var pages int64
	i := 0
	for i < len(b) && b[i] != ' ' {
		i++
	}
	for i++; i < len(b) && b[i] >= '0' && b[i] <= '9'; i++ {
		pages = pages*10 + int64(b[i]-'0')
	}
	return pages * int64(os.Getpagesize())
}
