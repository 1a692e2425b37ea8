package multiplayer

import (
	"bufio"
	"context"
	"encoding/binary"
	"fmt"
	"io"
	"net"
	"os"
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// rawWS is a Godot 3 WebSocket client with no library: it does the
// opening handshake by hand, then writes masked frames and reads frames
// into buffers of its own, so that what a benchmark counts is the host's
// memory and allocations, not a client's.
type rawWS struct {
	c   net.Conn
	r   *bufio.Reader
	out []byte
	in  []byte
	hdr [8]byte // a frame header's bytes, read here: a local array would escape
}

// dialRawWS connects to addr ("host:port", or "host:port/path").
func dialRawWS(tb testing.TB, addr string) *rawWS {
	host, path := addr, "/" // addr may name a path: 127.0.0.1:1234/room
	if i := strings.IndexByte(addr, '/'); i >= 0 {
		host, path = addr[:i], addr[i:]
	}
	c, err := net.Dial("tcp", host)
	if err != nil {
		tb.Fatal(err)
	}
	fmt.Fprintf(c, "GET %s HTTP/1.1\r\nHost: %s\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"+
		"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n", path, host)
	r := bufio.NewReaderSize(c, 512)
	for {
		line, err := r.ReadString('\n')
		if err != nil {
			tb.Fatal(err)
		}
		if strings.HasPrefix(line, "HTTP/") && !strings.Contains(line, " 101 ") {
			tb.Fatalf("handshake: %s", line)
		}
		if line == "\r\n" {
			return &rawWS{c: c, r: r}
		}
	}
}

// send writes one Godot 3 message (its 9-byte header, then data) from
// from to to, masked with a zero key.
func (w *rawWS) send(from, to PeerID, data []byte) error {
	n := ws3HeaderSize + len(data)
	b := append(w.out[:0], 0x82)
	if n < 126 {
		b = append(b, 0x80|byte(n))
	} else {
		b = append(b, 0x80|126, byte(n>>8), byte(n))
	}
	b = append(b, 0, 0, 0, 0, ws3SysNone)
	b = binary.LittleEndian.AppendUint32(b, uint32(from))
	b = binary.LittleEndian.AppendUint32(b, uint32(to))
	b = append(b, data...)
	w.out = b
	_, err := w.c.Write(b)
	return err
}

// recv reads one message and returns its payload, valid until the next.
func (w *rawWS) recv() ([]byte, error) {
	h := w.hdr[:2]
	if _, err := io.ReadFull(w.r, h); err != nil {
		return nil, err
	}
	n := int(h[1] & 0x7f)
	switch n {
	case 126:
		e := w.hdr[:2]
		if _, err := io.ReadFull(w.r, e); err != nil {
			return nil, err
		}
		n = int(binary.BigEndian.Uint16(e))
	case 127:
		e := w.hdr[:8]
		if _, err := io.ReadFull(w.r, e); err != nil {
			return nil, err
		}
		n = int(binary.BigEndian.Uint64(e))
	}
	if cap(w.in) < n {
		w.in = make([]byte, n)
	}
	w.in = w.in[:n]
	_, err := io.ReadFull(w.r, w.in)
	return w.in, err
}

// startWSHost starts a relaying Godot 3 host on a loopback WebSocket
// listener for up to n clients.
func startWSHost(tb testing.TB, n int) (*Host, string) {
	return startWSHostWith(tb, n, WebSocketOptions{})
}

// startWSHostWith is startWSHost with more WebSocket options.
func startWSHostWith(tb testing.TB, n int, o WebSocketOptions) (*Host, string) {
	h, err := NewHost(HostOptions{Godot: variant.Godot3, Logger: quiet, MaxPeers: n + 16, MaxPeersPerIP: n + 16})
	if err != nil {
		tb.Fatal(err)
	}
	o.Godot = variant.Godot3
	o.Peer.MaxConnsPerIP = n + 16
	l, err := ListenWebSocket(context.Background(), "127.0.0.1:0", o)
	if err != nil {
		tb.Fatal(err)
	}
	go h.Serve(context.Background(), l)
	tb.Cleanup(func() { h.Close() })
	return h, l.Addr().String()
}

// joinRawWS connects n raw clients and waits until the host has them all
// and has sent them what joining sends.
func joinRawWS(tb testing.TB, peers func() int, addr string, n int) []*rawWS {
	cs := make([]*rawWS, n)
	for i := range cs {
		cs[i] = dialRawWS(tb, addr)
		tb.Cleanup(func() { cs[i].c.Close() })
	}
	for deadline := time.Now().Add(30 * time.Second); peers() < n; time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			tb.Fatalf("%d clients joined of %d", peers(), n)
		}
	}
	return cs
}

// The host's memory per connected, idle WebSocket client (Godot 3's
// dialect): heap after a collection and goroutine stacks, per client.
// The clients have no library (rawWS): what is counted is the host's
// (and a client socket's few hundred bytes).
func BenchmarkIdleWebSocketPeer(b *testing.B) {
	b.Run("poller", func(b *testing.B) { benchIdleWebSocketPeer(b, WebSocketOptions{}) })
	b.Run("NoPoller", func(b *testing.B) { benchIdleWebSocketPeer(b, WebSocketOptions{NoPoller: true}) })
}

func benchIdleWebSocketPeer(b *testing.B, o WebSocketOptions) {
	const n = 200
	raiseOpenFiles(b, 2*n+256)
	var heap, stack, goroutines float64
	for range b.N {
		h, addr := startWSHostWith(b, n, o)
		time.Sleep(50 * time.Millisecond)
		m0 := memNow()
		g0 := runtime.NumGoroutine()
		cs := joinRawWS(b, func() int { return len(h.Peers()) }, addr, n)
		time.Sleep(200 * time.Millisecond) // the writers of the joining messages end
		m1 := memNow()
		heap += float64(m1.HeapInuse-m0.HeapInuse) / n
		stack += float64(m1.StackInuse-m0.StackInuse) / n
		goroutines += float64(runtime.NumGoroutine()-g0) / n
		for _, c := range cs {
			c.c.Close() // first, so that the host's Close need not wait for their answers
		}
		h.Close()
	}
	b.ReportMetric(heap/float64(b.N), "heap-B/peer")
	b.ReportMetric(stack/float64(b.N), "stack-B/peer")
	b.ReportMetric(goroutines/float64(b.N), "goroutines/peer")
}

func memNow() runtime.MemStats {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m
}

// A Godot 3 client's message relayed by the host over WebSocket to the
// other clients: to one (To is its id), and to 9 (To is 0, a broadcast,
// which the host also processes). One operation is one message sent and
// received by every target; allocs/op are the host's (the clients have no
// library), delivery/op is the number of targets.
func BenchmarkRelayWebSocket(b *testing.B) {
	for _, tc := range []struct {
		targets int
		name    string
		o       WebSocketOptions
	}{
		{1, "targets=1", WebSocketOptions{}},
		{9, "targets=9", WebSocketOptions{}},
		{1, "NoPoller/targets=1", WebSocketOptions{NoPoller: true}},
		{9, "NoPoller/targets=9", WebSocketOptions{NoPoller: true}},
	} {
		targets := tc.targets
		b.Run(tc.name, func(b *testing.B) {
			h, addr := startWSHostWith(b, targets+1, tc.o)
			cs := joinRawWS(b, func() int { return len(h.Peers()) }, addr, targets+1)
			// The joining messages: the id, the host, each other peer.
			ids := make([]PeerID, len(cs))
			for i, c := range cs {
				for range len(cs) + 1 {
					m, err := c.recv()
					if err != nil {
						b.Fatal(err)
					}
					if m[0] == ws3SysID {
						ids[i] = PeerID(binary.LittleEndian.Uint32(m[ws3HeaderSize:]))
					}
				}
			}
			to := ids[1]
			if targets > 1 {
				to = Broadcast
			}
			pkt := AppendRaw(nil, variant.Godot3, []byte("a relayed packet of 40 bytes, or nearly"))
			b.ReportAllocs()
			b.ResetTimer()
			for range b.N {
				if err := cs[0].send(ids[0], to, pkt); err != nil {
					b.Fatal(err)
				}
				for _, c := range cs[1:] {
					m, err := c.recv()
					if err != nil {
						b.Fatal(err)
					}
					if len(m) != ws3HeaderSize+len(pkt) {
						b.Fatalf("got %d bytes, want %d", len(m), ws3HeaderSize+len(pkt))
					}
				}
			}
			b.ReportMetric(float64(targets), "deliveries/op")
		})
	}
}

// What 1,000 idle WebSocket clients (Godot 3's dialect) cost the host
// once joined, through ListenWebSocket and a Host (listener) or through
// Rooms.ServeWebSocket, all in one room (rooms): alloc-B/client is what
// their opening handshakes and joins allocated (garbage included),
// heap-B/client and stack-B/client the heap and goroutine stacks still in
// use after a collection, rss-B/client the growth of the process's
// resident memory without a forced collection (what the collector's
// pacing leaves), all per client. The clients have no library (rawWS) and
// each holds about 1 KB of its own in the same process. Run one
// iteration a process (-benchtime=1x): resident memory is not given back.
func BenchmarkJoinWebSocketMemory(b *testing.B) {
	const n = 1000
	b.Run("listener", func(b *testing.B) {
		benchJoinMemory(b, n, func() (string, func() int, func()) {
			h, addr := startWSHost(b, n)
			return addr, func() int { return len(h.Peers()) }, func() { h.Close() }
		})
	})
	b.Run("listener-NoPoller", func(b *testing.B) {
		benchJoinMemory(b, n, func() (string, func() int, func()) {
			h, addr := startWSHostWith(b, n, WebSocketOptions{NoPoller: true})
			return addr, func() int { return len(h.Peers()) }, func() { h.Close() }
		})
	})
	b.Run("rooms", func(b *testing.B) {
		benchJoinMemory(b, n, func() (string, func() int, func()) {
			o := RoomsOptions{
				Host:     HostOptions{Godot: variant.Godot3, MaxPeers: n, MaxPeersPerIP: n},
				MaxPeers: n, MaxQueuedBytes: 1 << 30, RoomQueuedBytes: 1 << 30, Logger: quiet,
			}
			o.WebSocket.Peer.MaxConnsPerIP = n + 16
			rs, err := NewRooms(o)
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
			return ln.Addr().String() + "/r", func() int { return rs.Stats().Peers }, func() { cancel(); <-served }
		})
	})
}

func benchJoinMemory(b *testing.B, n int, start func() (addr string, peers func() int, stop func())) {
	raiseOpenFiles(b, uint64(2*n+256))
	var alloc, heap, stack, rss float64
	for range b.N {
		addr, peers, stop := start()
		time.Sleep(50 * time.Millisecond)
		m0 := memNow()
		r0 := residentBytes(b)
		cs := joinRawWS(b, peers, addr, n)
		time.Sleep(200 * time.Millisecond) // the writers of the joining messages end
		r1 := residentBytes(b)
		var m1 runtime.MemStats
		runtime.ReadMemStats(&m1)
		alloc += float64(m1.TotalAlloc-m0.TotalAlloc) / float64(n)
		rss += float64(r1-r0) / float64(n)
		m1 = memNow()
		heap += float64(int64(m1.HeapInuse)-int64(m0.HeapInuse)) / float64(n)
		stack += float64(int64(m1.StackInuse)-int64(m0.StackInuse)) / float64(n)
		for _, c := range cs {
			c.c.Close()
		}
		stop()
	}
	b.ReportMetric(alloc/float64(b.N), "alloc-B/client")
	b.ReportMetric(heap/float64(b.N), "heap-B/client")
	b.ReportMetric(stack/float64(b.N), "stack-B/client")
	b.ReportMetric(rss/float64(b.N), "rss-B/client")
}

// residentBytes is the process's resident memory (Linux); it skips the
// benchmark elsewhere.
func residentBytes(b *testing.B) int64 {
	s, err := os.ReadFile("/proc/self/statm")
	if err != nil {
		b.Skipf("resident memory unknown: %v", err)
	}
	f := strings.Fields(string(s))
	if len(f) < 2 {
		b.Skipf("resident memory unknown: %q", s)
	}
	pages, err := strconv.ParseInt(f[1], 10, 64)
	if err != nil {
		b.Skipf("resident memory unknown: %v", err)
	}
	return pages * int64(os.Getpagesize())
}
