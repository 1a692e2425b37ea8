package enet

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/procstat"
)

// Throughput on loopback: b.N packets of 64 bytes or 1 KB from a sender to a
// receiver, each side Go or the C library; the receiver counts what it
// received and answers a final "done" with "done N S", N the packets and
// S the seconds from the first to the last of them. Reported: packets
// received per second over those S seconds (pkt/s: the receiver's intake,
// which a lost "done" and its resend do not stretch; unreliable packets
// may be dropped on the way), the sender's own view of it (sent-pkt/s:
// received over the sender's time to the answer), and the share of those
// sent that arrived (delivered%). The Go host runs on the benchmark's
// process; the C side is testdata/enetpeer.c.

// benchSizes are the packet sizes each mode is measured with.
var benchSizes = []int{64, 1024}

// benchModes runs fn for reliable and unreliable packets of each size,
// as sub-benchmarks named mode/size: flags for a Go sender, cflags for
// the C one.
func benchModes(b *testing.B, fn func(b *testing.B, flags Flags, cflags string, size int)) {
	for _, kind := range []string{"reliable", "unreliable"} {
		for _, size := range benchSizes {
			b.Run(fmt.Sprintf("%s/%dB", kind, size), func(b *testing.B) {
				flags, cflags := benchFlags(kind)
				b.SetBytes(int64(size))
				fn(b, flags, cflags, size)
			})
		}
	}
}

// sinkCount counts a receiver's packets and the time they came over.
type sinkCount struct {
	n           int
	first, last time.Time
}

// add counts a packet that is not "done", or answers "done" on p with
// "done N S" and starts counting again.
func (s *sinkCount) add(p *Peer, packet []byte) {
	if string(packet) == "done" {
		span := s.last.Sub(s.first).Seconds()
		p.Send(0, []byte("done "+strconv.Itoa(s.n)+" "+strconv.FormatFloat(span, 'f', 6, 64)), Reliable)
		*s = sinkCount{}
		return
	}
	s.last = time.Now()
	if s.n == 0 {
		s.first = s.last
	}
	s.n++
}

// parseDone reads a receiver's answer "done N S" (S may be missing).
func parseDone(b testing.TB, answer string) (received int, span float64) {
	f := strings.Fields(strings.TrimPrefix(answer, "done "))
	var err error
	if len(f) > 0 {
		received, err = strconv.Atoi(f[0])
	}
	if len(f) > 1 && err == nil {
		span, err = strconv.ParseFloat(f[1], 64)
	}
	if len(f) == 0 || err != nil {
		b.Fatalf("answer %q", answer)
	}
	return received, span
}

// goSink serves h until ctx ends, counting packets and answering "done"
// as sinkCount does.
func goSink(ctx context.Context, h *Host) {
	var count sinkCount
	for {
		ev, err := h.Service(ctx)
		if err != nil {
			return
		}
		if ev.Type == EventReceive {
			count.add(ev.Peer, ev.Packet)
		}
	}
}

// goSinkHost starts a Go host served by goSink until the benchmark ends.
func goSinkHost(b *testing.B) *Host {
	srv, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		b.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	go goSink(ctx, srv)
	b.Cleanup(func() { cancel(); srv.Close() })
	return srv
}

// goHandleSinkHost starts a Go host that counts packets in a handler
// (Handle: read, handled and answered on the host's goroutine, each
// packet given back with ReleasePacket) and answers "done" as goSink
// does.
func goHandleSinkHost(b *testing.B) *Host {
	srv, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		b.Fatal(err)
	}
	var count sinkCount
	srv.Handle(func(ev Event) {
		if ev.Type == EventReceive {
			count.add(ev.Peer, ev.Packet)
			srv.ReleasePacket(ev.Packet)
		}
	})
	b.Cleanup(func() { srv.Close() })
	return srv
}

// pushBack is the configuration of a sender that waits when Send says
// ErrQueueFull: its outgoing budget is below MaxPeerMemory, so Send pushes
// back before the peer would be disconnected.
var pushBack = &Config{MaxOutgoingData: 16 << 20}

// goSend sends n packets with flags and "done", waits for the answer and
// reports what the receiver counted.
func goSend(b *testing.B, h *Host, p *Peer, n, size int, flags Flags) {
	start, cpu0 := time.Now(), processCPU()
	data := make([]byte, size)
	for i := 0; i < n; i++ {
		// As the C sender (testdata/enetpeer.c): at most 256 commands
		// queued and 1 MiB of reliable data in flight, so that both
		// feed their host alike.
		for !p.roomForBench() {
			time.Sleep(20 * time.Microsecond)
		}
		for {
			err := p.Send(0, data, flags)
			if err == nil {
				break
			}
			if !errors.Is(err, ErrQueueFull) {
				b.Fatal(err)
			}
			time.Sleep(50 * time.Microsecond)
		}
	}
	p.Send(0, []byte("done"), Reliable)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	for {
		ev, err := h.Service(ctx)
		if err != nil {
			b.Fatal("no answer to done: ", err)
		}
		if ev.Type == EventReceive && strings.HasPrefix(string(ev.Packet), "done ") {
			got, span := parseDone(b, string(ev.Packet))
			reportReceived(b, n, got, time.Since(start).Seconds(), span, cpu0)
			return
		}
	}
}

// roomForBench reports whether the peer has fewer than 256 commands
// queued and less than 1 MiB of reliable data in flight.
func (p *Peer) roomForBench() bool {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	return p.outgoing.len()+p.outgoingSendReliable.len() < 256 && p.reliableDataInTransit < 1<<20
}

// reportReceived reports the receiver's count of sent packets, and the
// CPU time this process (the Go side, or both when both are Go) spent per
// packet received since cpu0: a figure that, unlike pkt/s, holds on a
// busy machine.
func reportReceived(b *testing.B, sent, received int, seconds, span float64, cpu0 time.Duration) {
	if span <= 0 {
		span = seconds
	}
	b.ReportMetric(float64(received)/span, "pkt/s")
	b.ReportMetric(float64(received)/seconds, "sent-pkt/s")
	b.ReportMetric(100*float64(received)/float64(max(sent, 1)), "delivered%")
	if received > 0 {
		b.ReportMetric(float64((processCPU()-cpu0).Nanoseconds())/float64(received), "cpu-ns/pkt")
	}
}

// processCPU is this process's user and system CPU time.
func processCPU() time.Duration { return procstat.Self() }

func benchFlags(name string) (Flags, string) {
	if name == "reliable" {
		return Reliable, "r"
	}
	return 0, "u"
}

func BenchmarkGoToGo(b *testing.B) {
	benchModes(b, func(b *testing.B, flags Flags, _ string, size int) {
		srv := goSinkHost(b)
		ctx, cancel := context.WithCancel(context.Background())
		defer cancel()
		cli, p, err := Dial(ctx, "udp4", srv.LocalAddr().String(), 1, 0, pushBack)
		if err != nil {
			b.Fatal(err)
		}
		defer cli.Close()
		b.ReportAllocs()
		b.ResetTimer()
		goSend(b, cli, p, b.N, size, flags)
	})
}

func BenchmarkGoToC(b *testing.B) { benchGoToC(b, pushBack) }

// BenchmarkGoToCFrame is BenchmarkGoToC with a sender that runs in frames
// of 1 ms (Config.Frame): one goroutine sends what was queued once a
// frame, at most the 256 packets the benchmark's sender keeps queued; a
// reliable stream is acknowledged once a frame too.
func BenchmarkGoToCFrame(b *testing.B) {
	cfg := *pushBack
	cfg.Frame = time.Millisecond
	benchGoToC(b, &cfg)
}

// benchGoToC runs a Go sender configured by cfg against the C library's
// receiver in every mode.
func benchGoToC(b *testing.B, cfg *Config) {
	benchModes(b, func(b *testing.B, flags Flags, _ string, size int) {
		c := startC(b, "server", "0", "-sink", "-seconds", "120")
		var at int
		port := strings.Fields(c.Next(&at, "listening", 10*time.Second))[1]
		ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
		defer cancel()
		cli, p, err := Dial(ctx, "udp4", "127.0.0.1:"+port, 1, 0, cfg)
		if err != nil {
			b.Fatal(err)
		}
		defer cli.Close()
		b.ReportAllocs()
		b.ResetTimer()
		goSend(b, cli, p, b.N, size, flags)
	})
}

// benchCSender runs the C library as the sender of n packets of size
// bytes against port and reports what the receiver counted.
func benchCSender(b *testing.B, port, n, size int, cflags string) {
	cpu0 := processCPU()
	c := startC(b, "client", "127.0.0.1", strconv.Itoa(port), "-channels", "1", "-bench", strconv.Itoa(n), strconv.Itoa(size), cflags, "-seconds", "120")
	var at int
	l := c.Next(&at, "bench", 120*time.Second)
	f := strings.Fields(l)
	if len(f) < 5 {
		b.Fatal(l)
	}
	secs, err1 := strconv.ParseFloat(f[2], 64)
	got, err2 := strconv.Atoi(f[3])
	span, err3 := strconv.ParseFloat(f[4], 64)
	if err1 != nil || err2 != nil || err3 != nil {
		b.Fatal(l)
	}
	reportReceived(b, n, got, secs, span, cpu0)
}

func BenchmarkCToGo(b *testing.B) {
	benchModes(b, func(b *testing.B, _ Flags, cflags string, size int) {
		srv := goSinkHost(b)
		benchCSender(b, srv.LocalAddr().(*net.UDPAddr).Port, max(b.N, 1000), size, cflags)
	})
}

// BenchmarkCToGoHandle is BenchmarkCToGo with a receiver that handles
// its packets in a handler (Handle), as a server does, instead of taking
// them from Service on a goroutine of its own.
func BenchmarkCToGoHandle(b *testing.B) {
	benchModes(b, func(b *testing.B, _ Flags, cflags string, size int) {
		srv := goHandleSinkHost(b)
		benchCSender(b, srv.LocalAddr().(*net.UDPAddr).Port, max(b.N, 1000), size, cflags)
	})
}

func BenchmarkCToC(b *testing.B) {
	benchModes(b, func(b *testing.B, _ Flags, cflags string, size int) {
		c := startC(b, "server", "0", "-sink", "-seconds", "120")
		var at int
		port, _ := strconv.Atoi(strings.Fields(c.Next(&at, "listening", 10*time.Second))[1])
		benchCSender(b, port, max(b.N, 1000), size, cflags)
	})
}

// BenchmarkPeerMemory connects peers (by hand, from sockets of their own)
// to a Go host and reports the heap the host holds per connected, idle
// peer, for Godot 3's 3 channels and Godot 4's 255.
func BenchmarkPeerMemory(b *testing.B) {
	for _, channels := range []uint32{Godot3ChannelCount, Godot4ChannelCount} {
		b.Run("channels="+strconv.Itoa(int(channels)), func(b *testing.B) {
			const peers = 200
			srv, err := Listen("udp4", "127.0.0.1:0", &Config{PeerLimit: peers})
			if err != nil {
				b.Fatal(err)
			}
			defer srv.Close()
			var before, after runtime.MemStats
			runtime.GC()
			runtime.ReadMemStats(&before)
			for i := 0; i < peers; i++ {
				r := newRaw(b, srv)
				r.channels = channels
				r.handshake()
			}
			runtime.GC()
			runtime.ReadMemStats(&after)
			if n := len(srv.Peers()); n != peers {
				b.Fatalf("%d peers connected", n)
			}
			b.ReportMetric((float64(after.HeapAlloc)-float64(before.HeapAlloc))/peers, "B/peer")
		})
	}
}

// BenchmarkFlushChecks: what the read loop's checks cost while a flush
// waits (flushNow, then dirtySends), run once per read of up to 16
// datagrams, for a host with 100 and 1,000 peers that have something new
// to send and none that ends the scan early (owed one acknowledgement
// each, nothing queued): the worst case, a full scan each.
func BenchmarkFlushChecks(b *testing.B) {
	for _, n := range []int{100, 1000} {
		b.Run("peers="+strconv.Itoa(n), func(b *testing.B) {
			h, err := Listen("udp4", "127.0.0.1:0", nil)
			if err != nil {
				b.Fatal(err)
			}
			defer h.Close()
			h.mu.Lock()
			defer h.mu.Unlock()
			saved := h.dirty
			defer func() { h.dirty = saved }()
			h.dirty = nil
			for i := range n {
				p := h.newPeer(uint16(i))
				h.pushAck(p, ack{})
				p.ackedData = 1
				h.dirty = append(h.dirty, p)
			}
			b.ResetTimer()
			for range b.N {
				if h.flushNow() || h.dirtySends() {
					b.Fatal("a peer asks for a flush")
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/peer")
		})
	}
}
