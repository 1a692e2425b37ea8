package multiplayer

import (
	"bufio"
	"context"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"runtime"
	"runtime/pprof"
	"strconv"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/enet"
	"github.com/gdvar/gdvar/variant"
)

var joinHeapProfile = flag.String("joinheapprofile", "", "BenchmarkJoinENetMemory: write a heap profile of the joined host to this file")

// The environment that makes TestENetJoinClientsProcess the clients of
// BenchmarkJoinENetMemory: the host's address and how many clients.
const (
	envENetJoinAddr = "GDVAR_ENET_JOIN_ADDR"
	envENetJoinN    = "GDVAR_ENET_JOIN_N"
)

// What 100 and 1,000 idle Godot 3 ENet clients cost a Host listening with
// ListenENet, once joined and every notice of the join acknowledged:
// alloc-B/client is what the joins allocated (garbage included),
// heap-B/client the heap in use after a collection (HeapInuse) and
// live-B/client the live objects in it (HeapAlloc), idle-live-B/client
// the same after 2.2 s more of idleness, stack-B/client the
// goroutine stacks, goroutines/client the goroutines added,
// rss-B/client the growth of the process's resident memory without a
// forced collection (what the collector's pacing leaves), all per
// client. The clients are an ENet host in a process of their own (the
// test binary, as TestENetJoinClientsProcess), so that all of it is the
// host's. Run one iteration a process (-benchtime=1x): resident memory
// is not given back. -joinheapprofile=FILE writes a heap profile of the
// joined host per client count, FILE.100 and FILE.1000 (go tool pprof
// -sample_index=inuse_space).
func BenchmarkJoinENetMemory(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run(fmt.Sprintf("clients=%d", n), func(b *testing.B) { benchJoinENetMemory(b, n) })
	}
}

func benchJoinENetMemory(b *testing.B, n int) {
	var alloc, heap, live, idle, stack, goroutines, rssGrowth float64
	for range b.N {
		h, err := NewHost(HostOptions{Godot: variant.Godot3, Logger: quiet, MaxPeers: n + 16, MaxPeersPerIP: n + 16})
		if err != nil {
			b.Fatal(err)
		}
		o := ENetOptions{Godot: variant.Godot3}
		o.ENet.PeerLimit = n + 16
		o.ENet.MaxPeersPerIP = n + 16
		ctx, cancel := context.WithCancel(context.Background())
		l, err := ListenENet(ctx, "127.0.0.1:0", o)
		if err != nil {
			b.Fatal(err)
		}
		served := make(chan struct{})
		go func() { h.Serve(ctx, l); close(served) }()
		eh := l.(*enetListener).h
		time.Sleep(50 * time.Millisecond)
		m0 := memNow()
		r0 := residentBytes(b)
		g0 := runtime.NumGoroutine()

		stop := startENetJoinClients(b, l.Addr().String(), n)
		for deadline := time.Now().Add(60 * time.Second); len(h.Peers()) < n; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("%d clients joined of %d (ENet: %+v)", len(h.Peers()), n, eh.Stats())
			}
		}
		// Every notice of the join sent and acknowledged: ENet holds
		// nothing queued.
		for deadline := time.Now().Add(60 * time.Second); eh.Stats().Memory > 0; time.Sleep(10 * time.Millisecond) {
			if time.Now().After(deadline) {
				b.Fatalf("ENet still holds %d bytes for its peers", eh.Stats().Memory)
			}
		}
		time.Sleep(200 * time.Millisecond)
		r1 := residentBytes(b)
		var m1 runtime.MemStats
		runtime.ReadMemStats(&m1)
		alloc += float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n)
		rssGrowth += float64(r1-r0) / float64(n)
		m1 = memNow()
		heap += float64(int64(m1.HeapInuse)-int64(m0.HeapInuse)) / float64(n)
		live += float64(int64(m1.HeapAlloc)-int64(m0.HeapAlloc)) / float64(n)
		stack += float64(int64(m1.StackInuse)-int64(m0.StackInuse)) / float64(n)
		goroutines += float64(runtime.NumGoroutine()-g0) / float64(n)
		// Idle for a while: the ENet host gives back what its free lists
		// did not use (once a second).
		time.Sleep(2200 * time.Millisecond)
		m2 := memNow()
		idle += float64(int64(m2.HeapAlloc)-int64(m0.HeapAlloc)) / float64(n)
		if *joinHeapProfile != "" {
			f, err := os.Create(fmt.Sprintf("%s.%d", *joinHeapProfile, n))
			if err != nil {
				b.Fatal(err)
			}
			if err := pprof.Lookup("heap").WriteTo(f, 0); err != nil {
				b.Fatal(err)
			}
			f.Close()
		}
		stop()
		cancel()
		h.Close()
		<-served
	}
	b.ReportMetric(alloc/float64(b.N), "alloc-B/client")
	b.ReportMetric(heap/float64(b.N), "heap-B/client")
	b.ReportMetric(live/float64(b.N), "live-B/client")
	b.ReportMetric(idle/float64(b.N), "idle-live-B/client")
	b.ReportMetric(stack/float64(b.N), "stack-B/client")
	b.ReportMetric(goroutines/float64(b.N), "goroutines/client")
	b.ReportMetric(rssGrowth/float64(b.N), "rss-B/client")
}

// startENetJoinClients runs n Godot 3 ENet clients of addr in a process
// of their own (TestENetJoinClientsProcess) and returns once they have
// connected; stop ends them.
func startENetJoinClients(b *testing.B, addr string, n int) (stop func()) {
	cmd := exec.Command(os.Args[0], "-test.run=^TestENetJoinClientsProcess$", "-test.count=1")
	cmd.Env = append(os.Environ(), envENetJoinAddr+"="+addr, envENetJoinN+"="+strconv.Itoa(n))
	cmd.Stderr = os.Stderr
	in, err := cmd.StdinPipe()
	if err != nil {
		b.Fatal(err)
	}
	out, err := cmd.StdoutPipe()
	if err != nil {
		b.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		b.Fatal(err)
	}
	stop = func() {
		in.Close()
		cmd.Wait()
	}
	sc := bufio.NewScanner(out)
	for sc.Scan() {
		if sc.Text() == "joined" {
			go io.Copy(io.Discard, out)
			return stop
		}
	}
	stop()
	b.Fatalf("the clients' process ended before its clients joined")
	return nil
}

// TestENetJoinClientsProcess is the clients of BenchmarkJoinENetMemory,
// in a process of their own; it skips unless the benchmark started it.
// One ENet host connects the clients (Godot 3's channels, client ids 2,
// 3, …) eight at a time, the handshakes one address may have in progress
// at a host; it acknowledges and drops what they receive, prints
// "joined" once all are connected and ends when its standard input does.
func TestENetJoinClientsProcess(t *testing.T) {
	addr := os.Getenv(envENetJoinAddr)
	if addr == "" {
		t.Skip("the clients of BenchmarkJoinENetMemory, run by it in a process of their own")
	}
	n, err := strconv.Atoi(os.Getenv(envENetJoinN))
	if err != nil || n <= 0 {
		t.Fatalf("%s=%q", envENetJoinN, os.Getenv(envENetJoinN))
	}
	raddr, err := net.ResolveUDPAddr("udp4", addr)
	if err != nil {
		t.Fatal(err)
	}
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	h, err := enet.NewHost(conn, &enet.Config{PeerLimit: n, RefuseConnections: true})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	// A thousand connections on one socket: a larger buffer than a
	// host's own, so that a busy machine drops fewer of their datagrams
	// (a lost handshake makes a client time out and the join fail).
	_ = conn.SetReadBuffer(4 << 20)
	slots := make(chan struct{}, 8)
	var up, refused atomic.Int64
	// A client dropped while joining (on a loaded machine a handshake's
	// datagrams can be lost until it times out) tries again, at most
	// maxRetries times in all.
	const maxRetries = 20
	retry := make(chan uint32, n)
	h.Handle(func(ev enet.Event) {
		switch ev.Type {
		case enet.EventConnect:
			up.Add(1)
			<-slots
		case enet.EventReceive:
			h.ReleasePacket(ev.Packet)
		case enet.EventDisconnect:
			refused.Add(1)
			fmt.Fprintf(os.Stderr, "client %d (%d connected so far) was refused or disconnected (data %d); its host: %+v\n", ev.Peer.ConnectData(), up.Load(), ev.Data, h.Stats())
			if len(slots) > 0 {
				<-slots
			}
			select {
			case retry <- ev.Peer.ConnectData():
			default:
			}
		}
	})
	for i := range n {
		slots <- struct{}{}
		if _, err := h.ConnectAsync(raddr, enet.Godot3ChannelCount, uint32(2+i)); err != nil {
			t.Fatal(err)
		}
	}
	for deadline := time.Now().Add(60 * time.Second); up.Load() < int64(n); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) || refused.Load() > maxRetries {
			t.Fatalf("%d clients connected of %d, %d refused", up.Load(), n, refused.Load())
		}
		select {
		case id := <-retry:
			time.Sleep(100 * time.Millisecond) // the host lets the dropped one go first
			slots <- struct{}{}
			if _, err := h.ConnectAsync(raddr, enet.Godot3ChannelCount, id); err != nil {
				t.Fatal(err)
			}
		default:
		}
	}
	fmt.Println("joined")
	io.Copy(io.Discard, os.Stdin)
}
