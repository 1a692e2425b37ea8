package enet

import (
	"context"
	"runtime"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/leaktest"
	"github.com/gdvar/gdvar/internal/procstat"
)

// Load on one Host: as many peers as a host takes (PeerLimit 4095)
// connect to it on loopback from loadClientHosts client hosts, then each
// sends a 16-byte packet on channel 0 loadRate times a second. Each
// iteration of the benchmark is one second of that load, so -benchtime=5x
// measures five seconds. The client hosts run in the benchmark's process,
// so the CPU and memory figures count both ends of every connection.
//
// Reported:
//   - connect-ms: time to connect all peers, 32 Connect calls at a time;
//   - B/peer: heap (after GC) held per connected, idle peer, both ends;
//   - cpu-µs/peer-s: process CPU time (user+sys, getrusage) during the
//     load, per peer and second of load (loadRate packets), so it does not
//     depend on how long the machine took to send them;
//   - pkt/s: packets the host received per second of wall time;
//   - lost-%: packets sent but never received (unreliable packets may be
//     dropped under load; reliable ones must all arrive).
//
// Every goroutine and socket must be gone after Close, or the benchmark
// fails.
const (
	loadPeers       = 4095 // ENet's maximum PeerLimit
	loadClientHosts = 8
	loadRate        = 20 // packets per peer per second
	loadSlots       = 50 // each client host sends to a fiftieth of its peers at a time (1 ms apart)
)

func BenchmarkLoad(b *testing.B) {
	for _, kind := range []string{"unreliable", "reliable"} {
		b.Run(kind, func(b *testing.B) {
			flags, _ := benchFlags(kind)
			benchLoad(b, flags)
		})
	}
}

func benchLoad(b *testing.B, flags Flags) {
	base := leaktest.Take()

	srv, err := Listen("udp4", "127.0.0.1:0", &Config{PeerLimit: loadPeers})
	if err != nil {
		b.Fatal(err)
	}
	hosts := make([]*Host, loadClientHosts)
	per := (loadPeers + loadClientHosts - 1) / loadClientHosts
	for i := range hosts {
		if hosts[i], err = Listen("udp4", "127.0.0.1:0", &Config{PeerLimit: per, RefuseConnections: true}); err != nil {
			b.Fatal(err)
		}
	}
	ctx, cancel := context.WithCancel(context.Background())
	var wg sync.WaitGroup
	cleanup := func() {
		cancel()
		for _, h := range hosts {
			if h != nil {
				h.Close()
			}
		}
		srv.Close()
		wg.Wait()
	}

	// The host counts connections and packets; the client hosts' events
	// are drained.
	var connected, disconnected, received atomic.Int64
	wg.Go(func() {
		for {
			ev, err := srv.Service(ctx)
			if err != nil {
				return
			}
			switch ev.Type {
			case EventConnect:
				connected.Add(1)
			case EventDisconnect:
				connected.Add(-1)
				disconnected.Add(1)
			case EventReceive:
				received.Add(1)
			}
		}
	})
	for _, h := range hosts {
		wg.Go(func() {
			for {
				if _, err := h.Service(ctx); err != nil {
					return
				}
			}
		})
	}

	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)

	peers := make([][]*Peer, loadClientHosts)
	for i := range loadPeers {
		peers[i%loadClientHosts] = append(peers[i%loadClientHosts], nil)
	}
	connectStart := time.Now()
	var connectErr atomic.Value
	var next atomic.Int64
	var cwg sync.WaitGroup
	for range 32 {
		cwg.Go(func() {
			for {
				i := int(next.Add(1) - 1)
				if i >= loadPeers {
					return
				}
				cctx, ccancel := context.WithTimeout(ctx, 30*time.Second)
				p, err := hosts[i%loadClientHosts].Connect(cctx, srv.LocalAddr(), 1, 0)
				ccancel()
				if err != nil {
					connectErr.CompareAndSwap(nil, err)
					return
				}
				peers[i%loadClientHosts][i/loadClientHosts] = p
			}
		})
	}
	cwg.Wait()
	if err, _ := connectErr.Load().(error); err != nil {
		cleanup()
		b.Fatalf("connecting: %v", err)
	}
	for deadline := time.Now().Add(10 * time.Second); connected.Load() < loadPeers && time.Now().Before(deadline); {
		time.Sleep(time.Millisecond)
	}
	connectTime := time.Since(connectStart)
	if n := connected.Load(); n != loadPeers {
		cleanup()
		b.Fatalf("%d of %d peers connected (%d disconnects)", n, loadPeers, disconnected.Load())
	}
	runtime.GC()
	runtime.ReadMemStats(&after)

	perPeer := loadRate * b.N
	var sent atomic.Int64
	cpu0 := procstat.Self()
	b.ReportAllocs()
	b.ResetTimer()
	start := time.Now()
	data := make([]byte, 16)
	var sendErr atomic.Value
	var swg sync.WaitGroup
	for _, ps := range peers {
		swg.Go(func() {
			// Tick k sends to the peers in slot k%loadSlots, so that
			// each peer sends loadRate packets a second, spread evenly.
			tick := time.Second / (loadRate * loadSlots)
			for k := range perPeer * loadSlots {
				time.Sleep(time.Until(start.Add(time.Duration(k) * tick)))
				for j := k % loadSlots; j < len(ps); j += loadSlots {
					if err := ps[j].Send(0, data, flags); err != nil {
						sendErr.CompareAndSwap(nil, err)
						return
					}
					sent.Add(1)
				}
			}
		})
	}
	swg.Wait()
	// Wait for the packets still on their way: all of them, or, for
	// unreliable ones, until none has come for 200 ms.
	total := sent.Load()
	wait := 200 * time.Millisecond
	if flags&Reliable != 0 {
		wait = 10 * time.Second
	}
	for last, quiet := received.Load(), time.Now(); received.Load() < total && time.Since(quiet) < wait; {
		time.Sleep(time.Millisecond)
		if n := received.Load(); n != last {
			last, quiet = n, time.Now()
		}
	}
	elapsed := time.Since(start)
	b.StopTimer()
	cpu1 := procstat.Self()
	got := received.Load()
	// Datagrams sent by the clients but not received by the host were
	// dropped by the kernel (the host's socket buffer was full).
	var sentDatagrams uint64
	for _, h := range hosts {
		sentDatagrams += h.Stats().DatagramsSent
	}
	b.Logf("client hosts sent %d datagrams, the host received %d", sentDatagrams, srv.Stats().DatagramsReceived)
	cleanup()
	if err, _ := sendErr.Load().(error); err != nil {
		b.Fatalf("sending: %v", err)
	}
	if flags&Reliable != 0 && got != total {
		b.Fatalf("%d of %d reliable packets arrived (%d peers dropped)", got, total, disconnected.Load())
	}

	cpu := cpu1 - cpu0
	b.ReportMetric(float64(connectTime.Milliseconds()), "connect-ms")
	b.ReportMetric((float64(after.HeapAlloc)-float64(before.HeapAlloc))/loadPeers, "B/peer")
	b.ReportMetric(float64(cpu/time.Microsecond)/float64(loadPeers*b.N), "cpu-µs/peer-s")
	b.ReportMetric(float64(got)/elapsed.Seconds(), "pkt/s")
	b.ReportMetric(100*float64(total-got)/float64(total), "lost-%")

	// Everything the hosts started must be gone.
	base.Check(b, 10*time.Second)
}
