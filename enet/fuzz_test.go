package enet

import (
	"bytes"
	"encoding/binary"
	"net"
	"net/netip"
	"os"
	"path/filepath"
	"sort"
	"testing"
	"time"
)

// The seed corpus: datagrams the C library and Godot 3 sent to a Go host
// as clients, captured by TestCaptureSeeds (run with ENET_CAPTURE=1; see
// there). Each file is one conversation: 2-byte big-endian lengths, each
// followed by a datagram.

// memConn is a PacketConn that reads nothing and drops what is written.
type memConn struct{ closed chan struct{} }

func newMemConn() *memConn { return &memConn{closed: make(chan struct{})} }

func (c *memConn) ReadFrom(b []byte) (int, net.Addr, error) {
	<-c.closed
	return 0, nil, net.ErrClosed
}
func (c *memConn) WriteTo(b []byte, a net.Addr) (int, error) { return len(b), nil }
func (c *memConn) Close() error {
	select {
	case <-c.closed:
	default:
		close(c.closed)
	}
	return nil
}
func (c *memConn) LocalAddr() net.Addr                { return &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1), Port: 1} }
func (c *memConn) SetDeadline(t time.Time) error      { return nil }
func (c *memConn) SetReadDeadline(t time.Time) error  { return nil }
func (c *memConn) SetWriteDeadline(t time.Time) error { return nil }

// replayClock is the host time for replayed datagrams: late enough in a
// 16-bit period that the sent times the captures acknowledge are past.
const replayClock = 0x7FF00

func splitConversation(b []byte) [][]byte {
	var out [][]byte
	for len(b) >= 2 {
		n := int(binary.BigEndian.Uint16(b))
		b = b[2:]
		if n > len(b) {
			n = len(b)
		}
		out = append(out, b[:n])
		b = b[n:]
	}
	return out
}

func loadSeeds(f *testing.F) {
	files, _ := filepath.Glob("testdata/captures/*.bin")
	sort.Strings(files)
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
		for _, d := range splitConversation(b) {
			f.Add(append(binary.BigEndian.AppendUint16(nil, uint16(len(d))), d...))
		}
	}
}

// FuzzDatagrams runs a conversation of datagrams from one address through
// a host (range coder on, small budgets) and checks that nothing panics
// and the budgets hold.
func FuzzDatagrams(f *testing.F) {
	loadSeeds(f)
	f.Fuzz(func(t *testing.T, b []byte) {
		for _, compression := range []Compression{CompressNone, CompressRangeCoder} {
			h, err := NewHost(newMemConn(), &Config{Compression: compression, PeerLimit: 4, MaxWaitingData: 64 << 10,
				MaxPacketSize: 256 << 10, MaxHostWaitingData: 128 << 10})
			if err != nil {
				t.Fatal(err)
			}
			ap := netip.MustParseAddrPort("127.0.0.1:5000")
			now := uint32(replayClock)
			for _, d := range splitConversation(b) {
				h.mu.Lock()
				now += 10
				h.serviceTime = now
				h.handleDatagram(d, ap, nil)
				h.sendOutgoing(true, false)
				h.outbox = h.outbox[:0]
				checkBudgets(t, h)
				h.mu.Unlock()
			}
			h.Close()
		}
	})
}

func checkBudgets(t *testing.T, h *Host) {
	t.Helper()
	sum := 0
	for _, p := range h.peers {
		if p == nil {
			continue
		}
		if p.waiting < 0 || p.waiting > h.cfg.MaxWaitingData+2*h.cfg.MaxPacketSize {
			t.Fatalf("peer waiting %d", p.waiting)
		}
		sum += p.waiting
	}
	if h.waiting < 0 || h.waiting > h.cfg.MaxHostWaitingData+2*h.cfg.MaxPacketSize {
		t.Fatalf("host waiting %d", h.waiting)
	}
	_ = sum
}

// FuzzRangeCoder decodes arbitrary input within the limit, and codes and
// decodes arbitrary input back to itself.
func FuzzRangeCoder(f *testing.F) {
	for _, in := range rangeCoderInputs()[:8] {
		f.Add(in)
		var rc RangeCoder
		f.Add(rc.Compress(nil, in, 1<<20))
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		var rc RangeCoder
		if out, ok := rc.Decompress(nil, b, 4096); len(out) > 4096 {
			t.Fatalf("decoded %d bytes past the limit (ok %v)", len(out), ok)
		}
		if len(b) == 0 {
			return
		}
		z := rc.Compress(nil, b, 1<<20)
		back, ok := rc.Decompress(nil, z, len(b))
		if !ok || !bytes.Equal(back, b) {
			t.Fatalf("round trip of %d bytes failed", len(b))
		}
	})
}

// FuzzCommand: a command that decodes encodes to the same bytes.
func FuzzCommand(f *testing.F) {
	for n := uint8(1); n < cmdCount; n++ {
		b := make([]byte, 48)
		b[0] = n | flagAcknowledge
		b[1] = 3
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if len(b) < 4 {
			return
		}
		size := commandSize(b[0])
		if size == 0 || len(b) < size {
			return
		}
		var c command
		decodeCommand(b, &c)
		out := appendCommand(nil, &c)
		if !bytes.Equal(out, b[:size]) {
			t.Fatalf("command %d: % x encodes as % x", b[0]&commandMask, b[:size], out)
		}
	})
}

// TestReplayCaptures: the captured conversations, replayed into a host,
// connect and deliver packets (so the fuzz seeds reach deep states).
func TestReplayCaptures(t *testing.T) {
	files, _ := filepath.Glob("testdata/captures/*.bin")
	if len(files) == 0 {
		t.Skip("no captures")
	}
	for _, name := range files {
		b, _ := os.ReadFile(name)
		cfg := &Config{}
		if filepath.Base(name) == "c-rangecoder.bin" || filepath.Base(name) == "godot3-rangecoder.bin" {
			cfg.Compression = CompressRangeCoder
		}
		h, err := NewHost(newMemConn(), cfg)
		if err != nil {
			t.Fatal(err)
		}
		ap := netip.MustParseAddrPort("127.0.0.1:5000")
		for _, d := range splitConversation(b) {
			h.mu.Lock()
			h.serviceTime = replayClock
			h.handleDatagram(d, ap, nil)
			h.sendOutgoing(true, false)
			h.outbox = h.outbox[:0]
			h.mu.Unlock()
		}
		h.mu.Lock()
		counts := map[EventType]int{}
		for _, ev := range h.events[h.eventsHead:] {
			counts[ev.Type]++
		}
		h.mu.Unlock()
		h.Close()
		if counts[EventConnect] != 1 || counts[EventReceive] < 3 {
			t.Errorf("%s: events %v", name, counts)
		}
	}
}
