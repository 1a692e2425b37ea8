package enet

import (
	"bytes"
	"net"
	"net/netip"
	"testing"
	"time"
)

// TestBatchReader: one read returns the datagrams waiting, from several
// senders, with their contents and addresses, for IPv4 and IPv6 (and an
// IPv4 sender on a dual-stack socket as an IPv4 address); a datagram
// longer than any ENet datagram is reported, not cut short; reading
// allocates nothing.
func TestBatchReader(t *testing.T) {
	for _, c := range []struct{ network, listen, dial string }{
		{"udp4", "127.0.0.1:0", "127.0.0.1"},
		{"udp6", "[::1]:0", "::1"},
		{"udp", "[::]:0", "127.0.0.1"},
	} {
		t.Run(c.listen+"<-"+c.dial, func(t *testing.T) {
			pc, err := net.ListenPacket(c.network, c.listen)
			if err != nil {
				t.Skip(err)
			}
			defer pc.Close()
			conn := pc.(*net.UDPConn)
			r := newBatchReader(conn)
			if r == nil {
				t.Fatal("no batch reader")
			}
			port := conn.LocalAddr().(*net.UDPAddr).Port
			to := net.UDPAddrFromAddrPort(netip.AddrPortFrom(netip.MustParseAddr(c.dial), uint16(port)))
			var senders []*net.UDPConn
			for range 2 {
				s, err := net.DialUDP("udp", nil, to)
				if err != nil {
					t.Skip(err)
				}
				defer s.Close()
				senders = append(senders, s)
			}
			// 2 × 12 datagrams and a long one: more than one read takes.
			type sent struct {
				from netip.AddrPort
				b    []byte
			}
			var want []sent
			for i := range 12 {
				for k, s := range senders {
					b := bytes.Repeat([]byte{byte(i), byte(k)}, 10+i)
					if _, err := s.Write(b); err != nil {
						t.Fatal(err)
					}
					want = append(want, sent{s.LocalAddr().(*net.UDPAddr).AddrPort(), b})
				}
			}
			if _, err := senders[0].Write(make([]byte, maxMTU+1)); err != nil {
				t.Fatal(err)
			}
			conn.SetReadDeadline(time.Now().Add(5 * time.Second))
			var got []sent
			cut := 0
			for len(got)+cut < len(want)+1 {
				n, err := r.read()
				if err != nil {
					t.Fatal(err)
				}
				if n < 1 || n > readBatch {
					t.Fatalf("read %d datagrams", n)
				}
				for i := range n {
					b, ap, ok := r.datagram(i)
					if !ok {
						cut++
						continue
					}
					got = append(got, sent{ap, append([]byte(nil), b...)})
				}
			}
			if cut != 1 {
				t.Errorf("%d datagrams reported cut, want 1", cut)
			}
			if len(got) != len(want) {
				t.Fatalf("%d datagrams, want %d", len(got), len(want))
			}
			for i := range want {
				w := want[i]
				w.from = netip.AddrPortFrom(w.from.Addr().Unmap(), w.from.Port())
				if got[i].from != w.from || !bytes.Equal(got[i].b, w.b) {
					t.Fatalf("datagram %d from %v %x, want from %v %x", i, got[i].from, got[i].b, w.from, w.b)
				}
			}
			allocs := testing.AllocsPerRun(200, func() {
				if _, err := senders[1].Write([]byte("x")); err != nil {
					t.Fatal(err)
				}
				n, err := r.read()
				if err != nil || n != 1 {
					t.Fatalf("read %d, %v", n, err)
				}
				if b, _, ok := r.datagram(0); !ok || string(b) != "x" {
					t.Fatalf("datagram %q", b)
				}
			})
			if allocs > 0 && !raceEnabled {
				t.Errorf("%v allocations a read", allocs)
			}
		})
	}
}
