package enet

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"net"
	"runtime"
	"testing"
	"time"
)

// rawClient speaks ENet by hand, to send what a well-behaved peer never
// would.
type rawClient struct {
	t        testing.TB
	conn     *net.UDPConn
	to       *net.UDPAddr
	peerID   uint16 // the host's ID for us
	session  uint8
	channels uint32
}

func newRaw(t testing.TB, h *Host) *rawClient {
	t.Helper()
	conn, err := net.ListenUDP("udp4", &net.UDPAddr{IP: net.IPv4(127, 0, 0, 1)})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	return &rawClient{t: t, conn: conn, to: h.LocalAddr().(*net.UDPAddr), peerID: maxPeerID}
}

// send sends one datagram with cmds and their payloads.
func (r *rawClient) send(cmds ...any) {
	b := binary.BigEndian.AppendUint16(nil, r.peerID|uint16(r.session)<<headerSessionShift|headerFlagSentTime)
	b = binary.BigEndian.AppendUint16(b, 1)
	for _, c := range cmds {
		switch c := c.(type) {
		case command:
			b = appendCommand(b, &c)
		case []byte:
			b = append(b, c...)
		}
	}
	r.conn.WriteToUDP(b, r.to)
}

func (r *rawClient) connectCmd(connectID uint32) command {
	channels := r.channels
	if channels == 0 {
		channels = 2
	}
	return command{command: cmdConnect | flagAcknowledge, channelID: 0xFF, seq: 1, outgoingPeerID: 0,
		incomingSessionID: 0xFF, outgoingSessionID: 0xFF, mtu: 1392, windowSize: maxWindowSize, channelCount: channels,
		throttleInterval: packetThrottleInterval, throttleAccel: 2, throttleDecel: 2, connectID: connectID, data: 5}
}

// handshake connects and acknowledges the VERIFY_CONNECT.
func (r *rawClient) handshake() {
	r.t.Helper()
	r.send(r.connectCmd(rand.Uint32()))
	buf := make([]byte, 4096)
	r.conn.SetReadDeadline(time.Now().Add(5 * time.Second))
	for {
		n, _, err := r.conn.ReadFromUDP(buf)
		if err != nil {
			r.t.Fatal("no VERIFY_CONNECT: ", err)
		}
		var hd header
		if !parseHeader(buf[:n], false, &hd) {
			continue
		}
		body := buf[hd.size:n]
		if hd.flags&headerFlagCompress != 0 {
			var rc RangeCoder
			body, _ = rc.Decompress(nil, body, 4096)
		}
		if len(body) < 44 {
			continue
		}
		var c command
		decodeCommand(body, &c)
		if c.number() != cmdVerifyConnect {
			continue
		}
		r.peerID = c.outgoingPeerID
		r.session = c.outgoingSessionID
		r.send(command{command: cmdAcknowledge, channelID: 0xFF, seq: 1, receivedSeq: 1, receivedSentTime: hd.sentTime})
		return
	}
}

func reliable(ch uint8, seq uint16, data []byte) []any {
	return []any{command{command: cmdSendReliable | flagAcknowledge, channelID: ch, seq: seq, dataLength: uint16(len(data))}, data}
}

func fragment(ch uint8, seq, start uint16, count, number, total, offset uint32, data []byte) []any {
	return []any{command{command: cmdSendFragment | flagAcknowledge, channelID: ch, seq: seq, seq2: start, dataLength: uint16(len(data)),
		fragmentCount: count, fragmentNumber: number, totalLength: total, fragmentOffset: offset}, data}
}

// settle waits until the host has read everything sent so far, or reads
// nothing more for 100 ms (the socket buffer may drop some of a burst).
func settle(t *testing.T, h *Host, datagrams uint64) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	last, since := uint64(0), time.Now()
	for time.Now().Before(deadline) {
		n := h.Stats().DatagramsReceived
		if n >= datagrams {
			return
		}
		if n != last {
			last, since = n, time.Now()
		} else if time.Since(since) > 100*time.Millisecond {
			break
		}
		time.Sleep(2 * time.Millisecond)
	}
	t.Logf("host read %d of %d datagrams", h.Stats().DatagramsReceived, datagrams)
}

func (h *Host) snapshot() (pending, peers, waiting int) {
	h.mu.Lock()
	defer h.mu.Unlock()
	for _, p := range h.peers {
		if p != nil {
			peers++
		}
	}
	return h.pending, peers, h.waiting
}

// TestConnectFlood: CONNECTs from one address with ever new connect IDs
// (what a spoofing flood looks like) take at most MaxPendingConnections
// slots, which free themselves after HandshakeTimeout; then a real client
// connects.
func TestConnectFlood(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", &Config{PeerLimit: 200, MaxPendingConnections: 16, HandshakeTimeout: 300 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := newRaw(t, h)
	for i := 0; i < 2000; i++ {
		r.send(r.connectCmd(uint32(i + 1)))
	}
	settle(t, h, 2000)
	pending, peers, _ := h.snapshot()
	if pending > 16 || peers > 16 {
		t.Fatalf("after the flood: %d pending, %d peers; cap 16", pending, peers)
	}
	time.Sleep(500 * time.Millisecond)
	if pending, peers, _ := h.snapshot(); pending != 0 || peers != 0 {
		t.Fatalf("after the handshake timeout: %d pending, %d peers", pending, peers)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, _, err := Dial(ctx, "udp4", h.LocalAddr().String(), 1, 9, nil)
	if err != nil {
		t.Fatal("a real client after the flood: ", err)
	}
	c.Close()
}

// TestPeersPerIP caps the connections from one IP address.
func TestPeersPerIP(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", &Config{MaxPeersPerIP: 3})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	for i := 0; i < 10; i++ {
		r := newRaw(t, h)
		r.send(r.connectCmd(uint32(i + 1)))
	}
	settle(t, h, 10)
	if _, peers, _ := h.snapshot(); peers != 3 {
		t.Fatalf("%d peers from one IP, cap 3", peers)
	}
}

// TestFragmentBomb: fragments that claim a huge packet (1M fragments,
// 32 MiB) cost what actually arrives, not what they claim.
func TestFragmentBomb(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", &Config{MaxWaitingData: 1 << 20, MaxPacketSize: 32 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := newRaw(t, h)
	r.handshake()
	nextOf(t, h, EventConnect, 5*time.Second)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	sent := h.Stats().DatagramsReceived
	// 2000 starts of different packets on both channels, each claiming
	// 32 MiB in 1M fragments, with one byte each.
	n := 0
	for seq := uint16(1); seq < 1000; seq++ {
		for ch := uint8(0); ch < 2; ch++ {
			r.send(fragment(ch, seq, seq, maxFragmentCount, 5, 32<<20, 77, []byte{1})...)
			n++
		}
	}
	settle(t, h, sent+uint64(n))
	runtime.ReadMemStats(&after)
	_, _, waiting := h.snapshot()
	if waiting > 1<<20+32<<20 {
		t.Fatalf("waiting %d beyond the budget", waiting)
	}
	if grew := after.TotalAlloc - before.TotalAlloc; grew > 8<<20 {
		t.Fatalf("allocated %d MiB for %d one-byte fragments", grew>>20, n)
	}
	t.Logf("%d bomb fragments: %d bytes charged, %d KiB allocated", n, waiting, (after.TotalAlloc-before.TotalAlloc)>>10)
	if st := h.Stats(); st.CommandsRefused == 0 {
		t.Fatal("nothing refused once the budget was used up")
	}
}

// TestFragmentGaps: a packet whose fragments are all "in" but do not
// cover its length ends the connection, without allocating the length.
func TestFragmentGaps(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := newRaw(t, h)
	r.handshake()
	nextOf(t, h, EventConnect, 5*time.Second)
	r.send(fragment(0, 1, 1, 2, 0, 30<<20, 0, []byte{1})...)
	r.send(fragment(0, 2, 1, 2, 1, 30<<20, 1000, []byte{2})...)
	if ev := next(t, h, 5*time.Second); ev.Type != EventDisconnect {
		t.Fatalf("event %v, want the peer dropped", ev.Type)
	}
}

// TestOutOfWindow: reliable commands far outside the window are dropped
// without being kept; commands inside it but behind a gap are kept only
// up to the budget.
func TestOutOfWindow(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", &Config{MaxWaitingData: 64 << 10})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := newRaw(t, h)
	r.handshake()
	nextOf(t, h, EventConnect, 5*time.Second)
	sent := h.Stats().DatagramsReceived
	payload := make([]byte, 1000)
	for i := 0; i < 500; i++ {
		r.send(reliable(0, uint16(40000+i*7), payload)...) // far ahead
	}
	settle(t, h, sent+500)
	if _, _, waiting := h.snapshot(); waiting != 0 {
		t.Fatalf("out-of-window commands kept: %d bytes", waiting)
	}
	for i := 0; i < 500; i++ {
		r.send(reliable(1, uint16(2+i), payload)...) // seq 1 never comes
	}
	settle(t, h, sent+1000)
	if _, _, waiting := h.snapshot(); waiting > 64<<10+2000 {
		t.Fatalf("commands behind a gap hold %d bytes, budget 64 KiB", waiting)
	}
	// The gap filled, everything kept is delivered in order.
	r.send(reliable(1, 1, []byte("first"))...)
	ev := next(t, h, 5*time.Second)
	if string(ev.Packet) != "first" {
		t.Fatalf("got %q", ev.Packet)
	}
}

// TestGarbage: random datagrams, with or without a valid peer ID, are
// dropped and leave the host serving its real peer.
func TestGarbage(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", &Config{Compression: CompressRangeCoder})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := newRaw(t, h)
	r.handshake()
	nextOf(t, h, EventConnect, 5*time.Second)
	rnd := rand.New(rand.NewPCG(3, 4))
	sent := h.Stats().DatagramsReceived
	for i := 0; i < 3000; i++ {
		b := make([]byte, rnd.IntN(200))
		for j := range b {
			b[j] = byte(rnd.UintN(256))
		}
		if len(b) >= 2 && i%2 == 0 {
			// Our peer ID and session, random flags and commands.
			binary.BigEndian.PutUint16(b, r.peerID|uint16(r.session)<<headerSessionShift|binary.BigEndian.Uint16(b)&headerFlagMask)
		}
		r.conn.WriteToUDP(b, r.to)
	}
	settle(t, h, sent+3000)
	// Whatever became of the raw peer, a real client is served.
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	c, p, err := Dial(ctx, "udp4", h.LocalAddr().String(), 1, 9, &Config{Compression: CompressRangeCoder, RefuseConnections: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	p.Send(0, []byte("still here"), Reliable)
	for {
		ev := next(t, h, 5*time.Second)
		if ev.Type == EventReceive && string(ev.Packet) == "still here" {
			break
		}
	}
	t.Logf("stats %+v", h.Stats())
}
