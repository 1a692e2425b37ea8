package enet

import (
	"bytes"
	"context"
	"fmt"
	"net"
	"strconv"
	"strings"
	"testing"
	"time"
)

type interopMode struct {
	name     string
	cfg      Config
	cflags   []string
	bigSizes []int
	// noEmpty: no zero-length packets. libenet's range coder reads past
	// an empty packet's (NULL) buffer when it compresses a datagram that
	// holds one, and crashes.
	noEmpty bool
}

var interopModes = []interopMode{
	{name: "plain", bigSizes: []int{1500, 100_000, 3 << 20}},
	{name: "rangecoder", cfg: Config{Compression: CompressRangeCoder}, cflags: []string{"-compress"}, bigSizes: []int{1500, 100_000, 1 << 20}, noEmpty: true},
	{name: "checksum", cfg: Config{Checksum: true}, cflags: []string{"-checksum"}, bigSizes: []int{1500, 200_000}},
}

// TestCServerEcho: a Go client talks to the C library as server, which
// echoes every packet back.
func TestCServerEcho(t *testing.T) {
	for _, m := range interopModes {
		t.Run(m.name, func(t *testing.T) {
			c := startC(t, append([]string{"server", "0", "-echo"}, m.cflags...)...)
			var at int
			port := strings.Fields(c.Next(&at, "listening", 10*time.Second))[1]
			cfg := m.cfg
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			h, p, err := Dial(ctx, "udp4", "127.0.0.1:"+port, 4, 42, &cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			if ev := next(t, h, 5*time.Second); ev.Type != EventConnect || ev.Peer != p {
				t.Fatalf("first event %v", ev.Type)
			}
			if l := c.Next(&at, "connect", 5*time.Second); l != "connect 42" {
				t.Fatalf("C saw %q", l)
			}
			exchangeEcho(t, h, p, m.bigSizes, m.noEmpty)
			// "bye" makes the C side disconnect_later with data 7.
			if err := p.Send(0, []byte("bye"), Reliable); err != nil {
				t.Fatal(err)
			}
			ev := nextOf(t, h, EventDisconnect, 10*time.Second)
			if ev.Data != 7 {
				t.Fatalf("disconnect data %d, want 7", ev.Data)
			}
		})
	}
}

// exchangeEcho sends reliable packets of many sizes on all channels plus
// unreliable and unsequenced ones, and checks the echoes.
func exchangeEcho(t *testing.T, h *Host, p *Peer, big []int, noEmpty bool) {
	t.Helper()
	var want [4][][]byte
	seed := uint32(0)
	sizes := append([]int{0, 1, 7, 100, 1000, 1360, 1361, 1364, 1365, 4000}, big...)
	if noEmpty {
		sizes = sizes[1:]
	}
	for _, n := range sizes {
		for ch := 0; ch < 4; ch++ {
			seed++
			b := fill(n, seed)
			if err := p.Send(uint8(ch), b, Reliable); err != nil {
				t.Fatal(err)
			}
			want[ch] = append(want[ch], b)
		}
	}
	for i := 0; i < 20; i++ {
		p.Send(1, fill(50, 1000+uint32(i)), 0)
		p.Send(2, fill(60, 2000+uint32(i)), Unsequenced)
	}
	got := [4]int{}
	unrel := 0
	total := 0
	for _, w := range want {
		total += len(w)
	}
	deadline := time.Now().Add(30 * time.Second)
	for n := 0; n < total; {
		ev := next(t, h, time.Until(deadline))
		if ev.Type != EventReceive {
			t.Fatalf("event %v during the exchange", ev.Type)
		}
		if ev.Flags&Reliable == 0 {
			unrel++
			continue
		}
		ch := ev.Channel
		i := got[ch]
		if i >= len(want[ch]) {
			t.Fatalf("channel %d: more packets than sent", ch)
		}
		if !bytes.Equal(ev.Packet, want[ch][i]) {
			t.Fatalf("channel %d packet %d: %d bytes, want %d (order or content differs)", ch, i, len(ev.Packet), len(want[ch][i]))
		}
		got[ch]++
		n++
	}
	t.Logf("reliable packets echoed in order: %d; unreliable echoes: %d", total, unrel)
}

// TestCClientSends: the C library as client connects to a Go host with
// connect data, sends packets, then receives packets from Go, and is
// disconnected by Go.
func TestCClientSends(t *testing.T) {
	cases := []struct {
		name  string
		mode  interopMode
		n     int
		size  int
		flags string
	}{
		{"reliable", interopModes[0], 200, 1000, "r"},
		{"fragmented", interopModes[0], 3, 2 << 20, "r"},
		{"unsequenced", interopModes[0], 50, 200, "s"},
		{"unreliable-fragments", interopModes[0], 5, 20000, "f"},
		{"rangecoder", interopModes[1], 100, 3000, "r"},
		{"checksum", interopModes[2], 100, 3000, "r"},
		{"rangecoder+checksum", interopMode{cfg: Config{Compression: CompressRangeCoder, Checksum: true}, cflags: []string{"-compress", "-checksum"}}, 50, 5000, "r"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			cfg := tc.mode.cfg
			h, err := Listen("udp4", "127.0.0.1:0", &cfg)
			if err != nil {
				t.Fatal(err)
			}
			defer h.Close()
			port := strconv.Itoa(h.LocalAddr().(*net.UDPAddr).Port)
			args := append([]string{"client", "127.0.0.1", port, "-data", "1234", "-channels", "3", "-send", strconv.Itoa(tc.n), strconv.Itoa(tc.size), tc.flags}, tc.mode.cflags...)
			c := startC(t, args...)
			ev := next(t, h, 10*time.Second)
			if ev.Type != EventConnect || ev.Data != 1234 || ev.Peer.ConnectData() != 1234 {
				t.Fatalf("event %v data %d, want connect 1234", ev.Type, ev.Data)
			}
			p := ev.Peer
			if p.ChannelCount() != 3 {
				t.Fatalf("channels %d", p.ChannelCount())
			}
			seen := 0
			var last [3]uint32
			for {
				ev := next(t, h, 20*time.Second)
				if ev.Type != EventReceive {
					t.Fatalf("event %v", ev.Type)
				}
				if string(ev.Packet) == "done" {
					break
				}
				seed := uint32(0)
				if len(ev.Packet) >= 4 {
					seed = uint32(ev.Packet[0]) | uint32(ev.Packet[1])<<8 | uint32(ev.Packet[2])<<16 | uint32(ev.Packet[3])<<24
				}
				if !bytes.Equal(ev.Packet, fill(tc.size, seed)) {
					t.Fatalf("packet %d: content differs", seed)
				}
				if tc.flags == "r" {
					if seed != last[ev.Channel]+3 && !(seed == uint32(ev.Channel) && last[ev.Channel] == 0) {
						t.Fatalf("packet %d arrived after %d on channel %d", seed, last[ev.Channel], ev.Channel)
					}
					if int(ev.Channel) != int(seed)%3 {
						t.Fatalf("packet %d on channel %d", seed, ev.Channel)
					}
				}
				last[ev.Channel] = seed
				seen++
			}
			if tc.flags == "r" && seen != tc.n {
				t.Fatalf("received %d of %d", seen, tc.n)
			}
			t.Logf("received %d of %d", seen, tc.n)
			// Now Go sends to C.
			var at int
			c.Next(&at, "connect", 5*time.Second)
			for i := 0; i < 10; i++ {
				b := fill(100+i*5000, uint32(i))
				if err := p.Send(uint8(i%3), b, Reliable); err != nil {
					t.Fatal(err)
				}
				l := c.Next(&at, "receive", 10*time.Second)
				want := fmt.Sprintf("receive %d %d %08x 1", i%3, len(b), fnv(b))
				if l != want {
					t.Fatalf("C received %q, want %q", l, want)
				}
			}
			p.DisconnectLater(5)
			if l := c.Next(&at, "disconnect", 10*time.Second); l != "disconnect 5" {
				t.Fatalf("C: %q", l)
			}
			if ev := nextOf(t, h, EventDisconnect, 10*time.Second); ev.Peer != p {
				t.Fatal("disconnect of another peer")
			}
		})
	}
}
