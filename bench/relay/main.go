// Command relay measures a multiplayer host relaying RPCs between clients,
// side by side with Godot's own server: the same load generator drives
// gdvar's host (this program's serve mode, a multiplayer.Host with
// server_relay as a Go game server runs it) and a headless Godot 3.2.3
// host (host3.gd), and reads the host process's CPU time and resident
// memory from /proc. Linux only (it reads /proc/PID/stat and status).
//
//	relay serve --transport enet --addr 127.0.0.1:7777 --clients 100
//	relay load  --transport enet --addr 127.0.0.1:7777 --clients 100 --rate 20 --pid PID
//
// load connects the clients (Godot 3's NetworkedMultiplayerENet or
// WebSocketClient dialect), waits until every client knows every other,
// measures the host's resident memory per connected client, then has each
// client call rpc("ping", seq) on /root/Bench (to every peer: the host
// relays it to the N−1 others) rate times a second for the duration, and
// prints one line of JSON:
//
//	deliveries        calls received by clients (of clients×(clients−1)×rate×seconds scheduled)
//	held              deliveries / scheduled
//	cpu_ms_per_1k     host CPU (user+sys) per 1,000 deliveries
//	sys_share         the part of it in the kernel (system time)
//	rss_kb_per_client host resident memory growth per connected client (Godot's
//	                  ENet host allocates its peer table when it starts: see rss_mb)
//	anon_kb_per_client the same, of anonymous memory only (heap, stacks): without
//	                  the program's code and other file pages that the first
//	                  joins bring in once, which are shared and evictable
//	rss_mb            host resident memory with every client connected
//	latency_ms_p50, latency_ms_p99
//	                  how long a call took from the caller's Call to a
//	                  receiver's handler (every client is in this process,
//	                  so one clock times both ends): the host's share is
//	                  what differs between hosts
//
// run.sh runs both hosts in turn for each transport and size and prints
// the table.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"os/signal"
	"runtime"
	"runtime/pprof"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/gdvar/gdvar/internal/procstat"
	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: relay serve|load [flags]")
		os.Exit(2)
	}
	var err error
	switch os.Args[1] {
	case "serve":
		err = serve(os.Args[2:])
	case "load":
		err = load(os.Args[2:])
	default:
		err = fmt.Errorf("unknown mode %q: serve or load", os.Args[1])
	}
	if err != nil {
		log.Fatal("relay: ", err)
	}
}

// benchNode is /root/Bench with its one RPC, as host3.gd declares it
// (remote func ping(seq)); handler is given the argument of each call
// that reaches a peer.
func benchNode(mode multiplayer.TransferMode, handler func(int)) multiplayer.Node {
	return multiplayer.Node{Path: "Bench", Methods: []multiplayer.Method{{
		Name: "ping", Mode: multiplayer.AnyPeer, Transfer: mode,
		Handler: func(_ context.Context, _ multiplayer.PeerID, arg int) { handler(arg) },
	}}}
}

type common struct {
	transport string
	addr      string
	clients   int
	reliable  bool
}

func (c *common) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.transport, "transport", "enet", "enet or ws")
	fs.StringVar(&c.addr, "addr", "127.0.0.1:7777", "the host's address")
	fs.IntVar(&c.clients, "clients", 10, "number of clients")
	fs.BoolVar(&c.reliable, "reliable", true, "reliable calls (false: unreliable)")
}

func (c *common) mode() multiplayer.TransferMode {
	if c.reliable {
		return multiplayer.Reliable
	}
	return multiplayer.Unreliable
}

// serve runs a relaying Host for Godot 3 clients until SIGINT or SIGTERM.
func serve(args []string) error {
	var c common
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	c.flags(fs)
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the host to this file")
	flushDelay := fs.Duration("flush-delay", 0, "enet.Config.FlushDelay (0: the default; negative: none)")
	writeDelay := fs.Duration("write-delay", 0, "WebSocket: WebSocketOptions.WriteDelay")
	frame := fs.Duration("frame", 0, "ENet: enet.Config.Frame (run the host in frames of this length)")
	noPoller := fs.Bool("no-poller", false, "WebSocket: WebSocketOptions.NoPoller (a reader goroutine per client)")
	memprofile := fs.String("memprofile", "", "write a heap profile of the host to this file when it stops (every allocation sampled)")
	fs.Parse(args)
	if *memprofile != "" {
		runtime.MemProfileRate = 1
		defer func() {
			if f, err := os.Create(*memprofile); err == nil {
				pprof.Lookup("allocs").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	h, err := multiplayer.NewHost(multiplayer.HostOptions{
		Godot: variant.Godot3, Logger: quiet,
		MaxPeers: c.clients + 16, MaxPeersPerIP: c.clients + 16,
	}, benchNode(c.mode(), func(int) {}))
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var l multiplayer.Listener
	switch c.transport {
	case "enet":
		o := multiplayer.ENetOptions{Godot: variant.Godot3}
		o.ENet.PeerLimit = min(c.clients+16, 4095)
		o.ENet.MaxPeersPerIP = c.clients + 16
		o.ENet.FlushDelay = *flushDelay
		o.ENet.Frame = *frame
		l, err = multiplayer.ListenENet(ctx, c.addr, o)
	case "ws":
		o := multiplayer.WebSocketOptions{Godot: variant.Godot3, WriteDelay: *writeDelay, NoPoller: *noPoller}
		o.Peer.MaxConns = c.clients + 16
		o.Peer.MaxConnsPerIP = c.clients + 16 // every client comes from 127.0.0.1
		l, err = multiplayer.ListenWebSocket(ctx, c.addr, o)
	default:
		err = fmt.Errorf("unknown transport %q", c.transport)
	}
	if err != nil {
		return err
	}
	fmt.Println("listening", l.Addr())
	err = h.Serve(ctx, l)
	h.Close()
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// result is what load prints.
type result struct {
	Transport  string  `json:"transport"`
	Clients    int     `json:"clients"`
	Rate       float64 `json:"rate"`
	Reliable   bool    `json:"reliable"`
	Seconds    float64 `json:"seconds"`
	Scheduled  int64   `json:"scheduled"`
	Deliveries int64   `json:"deliveries"`
	Held       float64 `json:"held"`
	CPUms      float64 `json:"cpu_ms"`
	CPUmsPer1k float64 `json:"cpu_ms_per_1k"`
	// SysShare is the part of CPUms spent in the kernel (system time):
	// on loopback, mostly delivering the datagrams or frames sent.
	SysShare        float64 `json:"sys_share"`
	RSSkbPerClient  float64 `json:"rss_kb_per_client"`
	AnonkbPerClient float64 `json:"anon_kb_per_client"`
	RSSmb           float64 `json:"rss_mb"`
	// LatencyP50 and LatencyP99 are the median and 99th percentile, in
	// milliseconds, of the time from a call to its delivery, over the
	// measured deliveries.
	LatencyP50 float64 `json:"latency_ms_p50"`
	LatencyP99 float64 `json:"latency_ms_p99"`
	// With --syscalls: the host's system calls per delivery, all of them
	// and those sending and receiving datagrams.
	SyscallsPerDelivery float64 `json:"syscalls_per_delivery,omitempty"`
	SendsPerDelivery    float64 `json:"sends_per_delivery,omitempty"`
	ReceivesPerDelivery float64 `json:"receives_per_delivery,omitempty"`
	// DatagramsPerDelivery is the datagrams the host sent per delivery.
	DatagramsPerDelivery float64 `json:"datagrams_per_delivery,omitempty"`
}

func load(args []string) error {
	var c common
	fs := flag.NewFlagSet("load", flag.ExitOnError)
	c.flags(fs)
	rate := fs.Float64("rate", 20, "calls per client per second")
	dur := fs.Duration("duration", 10*time.Second, "measured time")
	warm := fs.Duration("warmup", 2*time.Second, "load before measuring")
	pid := fs.Int("pid", 0, "the host's process id, for its CPU time and memory")
	row := fs.String("row", "", "print a Markdown table row for this host's name instead of JSON")
	warmJoin := fs.Bool("warm-join", false, "have the clients join and leave once before reading the host's idle memory")
	perf := fs.Bool("syscalls", false, "count the host's system calls while measuring (Linux perf, syscall tracepoints)")
	fs.Parse(args)
	if *pid == 0 {
		return errors.New("--pid is needed")
	}
	ctx := context.Background()
	if *warmJoin {
		// The clients join and leave once before the host's idle memory
		// is read: what the first joins cost a process once (code paged
		// in, pools, the collector's first cycle) is not counted per client.
		cs, err := joinAll(ctx, &c, func(int) {})
		if err != nil {
			return err
		}
		time.Sleep(500 * time.Millisecond)
		for _, cl := range cs {
			cl.Close()
		}
		time.Sleep(2 * time.Second)
	}
	rssIdle, err := rssKB(*pid)
	if err != nil {
		return err
	}
	anonIdle, err := anonKB(*pid)
	if err != nil {
		return err
	}

	// A call's argument is when it was made, in microseconds from start
	// (a small int, as a sequence number would be: 32 bits on the wire
	// for the first 35 minutes).
	start := time.Now()
	var got atomic.Int64
	var lat latencies
	var timing atomic.Bool
	clients, err := joinAll(ctx, &c, func(sent int) {
		got.Add(1)
		if timing.Load() {
			lat.add(time.Since(start).Microseconds() - int64(sent))
		}
	})
	if err != nil {
		return err
	}
	defer func() {
		for _, cl := range clients {
			cl.Close()
		}
	}()
	// Every client knows every other (and the host).
	deadline := time.Now().Add(30 * time.Second)
	for _, cl := range clients {
		for len(cl.Peers()) < c.clients && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if len(cl.Peers()) < c.clients {
			return fmt.Errorf("client %d knows %d peers of %d", cl.ID(), len(cl.Peers()), c.clients)
		}
	}
	time.Sleep(500 * time.Millisecond)
	rssJoined, err := rssKB(*pid)
	if err != nil {
		return err
	}
	anonJoined, err := anonKB(*pid)
	if err != nil {
		return err
	}

	// Each client calls on a ticker of its own, started at a random-ish
	// phase so the calls spread over the period.
	stop := make(chan struct{})
	var wg sync.WaitGroup
	period := time.Duration(float64(time.Second) / *rate)
	for i, cl := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			time.Sleep(time.Duration(i) * period / time.Duration(len(clients)))
			t := time.NewTicker(period)
			defer t.Stop()
			for {
				select {
				case <-stop:
					return
				case <-t.C:
					cl.Call(0, "Bench", "ping", int(time.Since(start).Microseconds()))
				}
			}
		}()
	}
	time.Sleep(*warm)
	cpu0, sys0, err := cpuMS(*pid)
	if err != nil {
		return err
	}
	got0, t0 := got.Load(), time.Now()
	timing.Store(true)
	var counter *syscallCounter
	if *perf {
		if counter, err = countSyscalls(*pid); err != nil {
			return err
		}
	}
	time.Sleep(*dur)
	var calls syscallCounts
	if counter != nil {
		if calls, err = counter.stop(); err != nil {
			return err
		}
	}
	cpu1, sys1, err := cpuMS(*pid)
	if err != nil {
		return err
	}
	got1, secs := got.Load(), time.Since(t0).Seconds()
	timing.Store(false)
	close(stop)
	wg.Wait()

	r := result{Transport: c.transport, Clients: c.clients, Rate: *rate, Reliable: c.reliable, Seconds: secs}
	r.Scheduled = int64(float64(c.clients*(c.clients-1)) * *rate * secs)
	r.Deliveries = got1 - got0
	r.Held = float64(r.Deliveries) / float64(r.Scheduled)
	r.CPUms = cpu1 - cpu0
	if r.CPUms > 0 {
		r.SysShare = (sys1 - sys0) / r.CPUms
	}
	if r.Deliveries > 0 {
		r.CPUmsPer1k = r.CPUms / (float64(r.Deliveries) / 1000)
	}
	r.RSSkbPerClient = float64(rssJoined-rssIdle) / float64(c.clients)
	r.AnonkbPerClient = float64(anonJoined-anonIdle) / float64(c.clients)
	r.RSSmb = float64(rssJoined) / 1024
	r.LatencyP50, r.LatencyP99 = lat.quantile(0.5), lat.quantile(0.99)
	if counter != nil && r.Deliveries > 0 {
		d := float64(r.Deliveries)
		r.SyscallsPerDelivery = float64(calls.all) / d
		r.SendsPerDelivery = float64(calls.send) / d
		r.ReceivesPerDelivery = float64(calls.receive) / d
		r.DatagramsPerDelivery = float64(calls.datagrams) / d
	}
	if *row != "" {
		extra := ""
		if counter != nil {
			extra = fmt.Sprintf(" %.3f | %.3f | %.3f | %.3f |", r.SyscallsPerDelivery, r.SendsPerDelivery, r.ReceivesPerDelivery, r.DatagramsPerDelivery)
		}
		_, err := fmt.Printf("| %s | %d × %g | %s | %.2f | %.0f %% | %.1f %% | %.2f / %.2f | %.1f | %.1f | %.1f |%s\n", r.Transport, r.Clients, r.Rate, *row,
			r.CPUmsPer1k, 100*r.SysShare, 100*r.Held, r.LatencyP50, r.LatencyP99, r.RSSkbPerClient, r.AnonkbPerClient, r.RSSmb, extra)
		return err
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}

// join connects one Godot 3 client to the host.
func join(ctx context.Context, c *common, node multiplayer.Node) (*multiplayer.Client, error) {
	ctx, cancel := context.WithTimeout(ctx, 20*time.Second)
	defer cancel()
	var link multiplayer.Link
	var err error
	switch c.transport {
	case "enet":
		link, err = multiplayer.DialENet(ctx, c.addr, multiplayer.ENetOptions{Godot: variant.Godot3})
	case "ws":
		link, err = multiplayer.DialWebSocket(ctx, "ws://"+c.addr, multiplayer.WebSocketOptions{Godot: variant.Godot3})
	default:
		err = fmt.Errorf("unknown transport %q", c.transport)
	}
	if err != nil {
		return nil, err
	}
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	return multiplayer.Join(ctx, link, multiplayer.ClientOptions{Godot: variant.Godot3, Logger: quiet}, node)
}

// joinAll joins c.clients clients, 16 at a time, each calling got for
// every call it receives.
func joinAll(ctx context.Context, c *common, got func(int)) ([]*multiplayer.Client, error) {
	clients := make([]*multiplayer.Client, c.clients)
	var wg sync.WaitGroup
	errs := make(chan error, c.clients)
	sem := make(chan struct{}, 16)
	for i := range clients {
		wg.Add(1)
		sem <- struct{}{}
		go func() {
			defer wg.Done()
			defer func() { <-sem }()
			cl, err := join(ctx, c, benchNode(c.mode(), got))
			if err != nil {
				errs <- fmt.Errorf("client %d: %w", i, err)
				return
			}
			clients[i] = cl
		}()
	}
	wg.Wait()
	close(errs)
	if err := <-errs; err != nil {
		for _, cl := range clients {
			if cl != nil {
				cl.Close()
			}
		}
		return nil, err
	}
	return clients, nil
}

// cpuMS is the process's user+system CPU time, and its system time, in
// milliseconds.
func cpuMS(pid int) (all, sys float64, err error) {
	u, s, err := procstat.Times(pid)
	return float64(u+s) / float64(time.Millisecond), float64(s) / float64(time.Millisecond), err
}

// rssKB is the process's resident set in KiB.
func rssKB(pid int) (int64, error) {
	b, err := procstat.RSS(pid)
	return b >> 10, err
}

// anonKB is the anonymous part of the process's resident set in KiB.
func anonKB(pid int) (int64, error) {
	b, err := procstat.RSSAnon(pid)
	return b >> 10, err
}

// latencies counts delivery times in buckets of latencyBucket, up to
// latencyBuckets of them (and one for all beyond); safe for concurrent use.
type latencies struct {
	n [latencyBuckets + 1]atomic.Int64
}

const (
	latencyBucket  = 10 // µs
	latencyBuckets = 1_000_000 / latencyBucket
)

// add counts a delivery that took us microseconds.
func (l *latencies) add(us int64) {
	l.n[min(max(us, 0)/latencyBucket, latencyBuckets)].Add(1)
}

// quantile is the time, in milliseconds, that the share q of the
// deliveries took at most (the top of its bucket; 0 when none was
// counted, 1 s and more as 1,000).
func (l *latencies) quantile(q float64) float64 {
	var total int64
	for i := range l.n {
		total += l.n[i].Load()
	}
	if total == 0 {
		return 0
	}
	want := int64(q*float64(total) + 0.5)
	var seen int64
	for i := range l.n {
		if seen += l.n[i].Load(); seen >= max(want, 1) {
			return float64(min(i+1, latencyBuckets)*latencyBucket) / 1000
		}
	}
	return float64(latencyBuckets*latencyBucket) / 1000
}
