package enet

import (
	"bytes"
	"context"
	"math/rand/v2"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// relay is a UDP relay between one client and one server that loses,
// duplicates and reorders datagrams.
type relay struct {
	front, back *net.UDPConn
	server      *net.UDPAddr
	mu          sync.Mutex
	client      *net.UDPAddr
	rnd         *rand.Rand
	loss, dup   float64
	maxDelay    time.Duration
	done        chan struct{}
	wg          sync.WaitGroup
	forwarded   int
	dropped     int
	recorded    [][]byte // datagrams from the client, when recording
	record      bool
}

func newRelay(t *testing.T, server *net.UDPAddr, loss, dup float64, maxDelay time.Duration) *relay {
	t.Helper()
	front, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	back, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	r := &relay{front: front, back: back, server: server, rnd: rand.New(rand.NewPCG(7, 9)),
		loss: loss, dup: dup, maxDelay: maxDelay, done: make(chan struct{})}
	r.wg.Add(2)
	go r.pump(front, true)
	go r.pump(back, false)
	t.Cleanup(func() {
		close(r.done)
		front.Close()
		back.Close()
		r.wg.Wait()
		t.Logf("relay: %d forwarded, %d dropped", r.forwarded, r.dropped)
	})
	return r
}

func (r *relay) addr() *net.UDPAddr { return r.front.LocalAddr().(*net.UDPAddr) }

func (r *relay) pump(from *net.UDPConn, fromClient bool) {
	defer r.wg.Done()
	buf := make([]byte, 65536)
	for {
		n, addr, err := from.ReadFromUDP(buf)
		if err != nil {
			return
		}
		b := append([]byte(nil), buf[:n]...)
		r.mu.Lock()
		var to *net.UDPConn
		var dst *net.UDPAddr
		if fromClient {
			if r.record {
				r.recorded = append(r.recorded, b)
			}
			r.client = addr
			to, dst = r.back, r.server
		} else {
			to, dst = r.front, r.client
		}
		copies := 1
		if r.rnd.Float64() < r.loss {
			copies = 0
			r.dropped++
		} else if r.rnd.Float64() < r.dup {
			copies = 2
		}
		delays := make([]time.Duration, copies)
		for i := range delays {
			delays[i] = time.Duration(r.rnd.Int64N(int64(r.maxDelay) + 1))
		}
		r.forwarded += copies
		r.mu.Unlock()
		if dst == nil {
			continue
		}
		for _, d := range delays {
			if r.maxDelay == 0 {
				to.WriteToUDP(b, dst) // in order
				continue
			}
			time.AfterFunc(d, func() {
				select {
				case <-r.done:
				default:
					to.WriteToUDP(b, dst)
				}
			})
		}
	}
}

// TestLossyCClientToGo: the C library sends reliable packets, small and
// fragmented, through a relay that loses 10%, duplicates 5% and reorders;
// the Go host receives all of them, in order, intact.
func TestLossyCClientToGo(t *testing.T) {
	for _, m := range interopModes[:2] {
		t.Run(m.name, func(t *testing.T) {
			cfg := m.cfg
			h, err := Listen("udp4", "127.0.0.1:0", &cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			r := newRelay(t, h.LocalAddr().(*net.UDPAddr), 0.10, 0.05, 8*time.Millisecond)
			const n, size = 30, 12000
			c := startC(t, append([]string{"client", "127.0.0.1", strconv.Itoa(r.addr().Port), "-channels", "2", "-send", strconv.Itoa(n), strconv.Itoa(size), "r"}, m.cflags...)...)
			_ = c
			ev := nextOf(t, h, EventConnect, 15*time.Second)
			p := ev.Peer
			// Packet i goes on channel i%2: each channel is in order.
			nextOn := [2]int{0, 1}
			done := false
			for k := 0; k < n || !done; k++ {
				ev := next(t, h, 20*time.Second)
				if ev.Type != EventReceive {
					t.Fatalf("event %v", ev.Type)
				}
				if string(ev.Packet) == "done" {
					done = true
					k--
					continue
				}
				i := nextOn[ev.Channel]
				nextOn[ev.Channel] += 2
				if want := fill(size, uint32(i)); !bytes.Equal(ev.Packet, want) {
					d := 0
					for d < len(want) && d < len(ev.Packet) && ev.Packet[d] == want[d] {
						d++
					}
					t.Fatalf("packet %d: wrong content or order (%d bytes, first difference at %d: % x)", i, len(ev.Packet), d, ev.Packet[d:min(d+8, len(ev.Packet))])
				}
			}
			// The C client acknowledges the DISCONNECT once and exits (as
			// libenet does, it sends that acknowledgement a single time):
			// when the relay loses it, the host learns of the end only by
			// its timeout, up to ENet's 30 s.
			p.Disconnect(0)
			nextOf(t, h, EventDisconnect, 40*time.Second)
		})
	}
}

// TestLossyGoToCServer: a Go client sends reliable packets through the
// lossy relay to the C library, which echoes them back through it.
func TestLossyGoToCServer(t *testing.T) {
	c := startC(t, "server", "0", "-echo")
	var at int
	port, _ := strconv.Atoi(strings.Fields(c.Next(&at, "listening", 10*time.Second))[1])
	r := newRelay(t, &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: port}, 0.10, 0.05, 8*time.Millisecond)
	ctx, cancel := context.WithTimeout(context.Background(), 15*time.Second)
	defer cancel()
	h, p, err := Dial(ctx, "udp4", r.addr().String(), 2, 0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	var want [][]byte
	for i := 0; i < 30; i++ {
		b := fill(100+i*700, uint32(i))
		want = append(want, b)
		if err := p.Send(0, b, Reliable); err != nil {
			t.Fatal(err)
		}
		p.Send(1, fill(30, uint32(i)), 0) // unreliable noise
	}
	for i := 0; i < len(want); {
		ev := next(t, h, 30*time.Second)
		if ev.Type == EventConnect || ev.Channel == 1 {
			continue
		}
		if ev.Type != EventReceive || !bytes.Equal(ev.Packet, want[i]) {
			t.Fatalf("echo %d: %v, %d bytes", i, ev.Type, len(ev.Packet))
		}
		i++
	}
	rtt, v := p.RoundTripTime()
	t.Logf("round trip %v ± %v, packet loss %.3f", rtt, v, p.PacketLoss())
}
