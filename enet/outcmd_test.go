package enet

import (
	"bytes"
	"testing"
)

// Every kind of command, queued as an outCmd (which keeps only a packet's
// fields, and the others behind ctl), is written as the command it was
// queued from: decoding what appendOutCmd wrote gives that command back,
// numbered as setupOutgoing numbered it.
func TestOutCmdEncoding(t *testing.T) {
	h, err := Listen("udp4", "127.0.0.1:0", nil)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	h.mu.Lock()
	defer h.mu.Unlock()
	p := h.newPeer(0)
	p.channelCount = 3
	p.mtu = 1400
	p.state = stateConnected

	check := func(name string, oc *outCmd, want command) {
		t.Helper()
		b := appendOutCmd(nil, oc)
		if len(b) != commandSize(want.command) {
			t.Fatalf("%s: %d bytes written, the command has %d", name, len(b), commandSize(want.command))
		}
		var got command
		decodeCommand(b, &got)
		if got != want {
			t.Errorf("%s: wrote\n%+v\nwant\n%+v", name, got, want)
		}
	}
	queue := func(c command, data []byte) *outCmd {
		return h.queueOutgoing(p, &c, data, 0, uint32(len(data)))
	}

	connect := command{command: cmdConnect | flagAcknowledge, channelID: 0xFF, outgoingPeerID: 7,
		incomingSessionID: 1, outgoingSessionID: 2, mtu: 1400, windowSize: 32768, channelCount: 3,
		incomingBandwidth: 11, outgoingBandwidth: 12, throttleInterval: 5000, throttleAccel: 2,
		throttleDecel: 3, connectID: 0xA1B2C3D4, data: 0xCAFE}
	oc := queue(connect, nil)
	connect.seq = oc.reliableSeq
	check("CONNECT", oc, connect)

	verify := connect
	verify.command = cmdVerifyConnect | flagAcknowledge
	verify.data = 0 // VERIFY_CONNECT has no data field
	oc = queue(verify, nil)
	verify.seq = oc.reliableSeq
	check("VERIFY_CONNECT", oc, verify)

	for _, c := range []command{
		{command: cmdDisconnect | flagUnsequenced, channelID: 0xFF, data: 0xDEAD},
		{command: cmdBandwidthLimit | flagAcknowledge, channelID: 0xFF, incomingBandwidth: 1000, outgoingBandwidth: 2000},
		{command: cmdThrottleConfigure | flagAcknowledge, channelID: 0xFF, throttleInterval: 5000, throttleAccel: 4, throttleDecel: 5},
		{command: cmdPing | flagAcknowledge, channelID: 0xFF},
	} {
		oc := queue(c, nil)
		if (oc.ctl != nil) != hasFields(c.number()) {
			t.Errorf("command %d: ctl %v", c.number(), oc.ctl)
		}
		c.seq = oc.reliableSeq
		check("control", oc, c)
	}

	data := []byte("0123456789")
	for _, c := range []command{
		{command: cmdSendReliable | flagAcknowledge, channelID: 1},
		{command: cmdSendUnreliable, channelID: 2},
		{command: cmdSendUnsequenced | flagUnsequenced, channelID: 1},
	} {
		oc := queue(c, data)
		if oc.ctl != nil {
			t.Errorf("command %d keeps a ctl", c.number())
		}
		c.seq, c.dataLength = oc.reliableSeq, uint16(len(data))
		switch c.number() {
		case cmdSendUnreliable:
			c.seq2 = oc.unreliableSeq
		case cmdSendUnsequenced:
			c.seq2 = p.outgoingUnsequencedGroup
		}
		if c.number() != cmdSendReliable && c.seq2 == 0 {
			t.Errorf("command %d: no sequence number of its own", c.number())
		}
		check("send", oc, c)
	}

	// A packet in fragments, reliable and not, through Send's own path.
	big := bytes.Repeat([]byte("x"), 3000)
	for _, kind := range []struct {
		flags  Flags
		number uint8
	}{{Reliable, cmdSendFragment}, {UnreliableFragment, cmdSendUnreliableFragment}} {
		// What the fragments must say, from ENet's protocol rather than
		// the commands: an MTU less the protocol header (4 bytes) and a
		// SEND_FRAGMENT command (24) of data each; the first fragment's
		// number is the channel's next reliable number (each fragment
		// takes one) or, unreliable, its next unreliable number (the
		// reliable number stays the channel's last).
		c := p.channel(1)
		fragLen := int(p.mtu) - 4 - 24
		start, reliable := c.outgoingReliableSeq+1, c.outgoingReliableSeq
		if kind.flags&Reliable == 0 {
			start = c.outgoingUnreliableSeq + 1
		}
		if err := h.send(p, 1, nil, big, kind.flags, sendCopy); err != nil {
			t.Fatal(err)
		}
		var frags []*outCmd
		for _, l := range []*outList{&p.outgoing, &p.outgoingSendReliable} {
			for o := l.head; o != nil; o = o.next {
				if o.number() == kind.number {
					frags = append(frags, o)
				}
			}
		}
		if len(frags) < 3 {
			t.Fatalf("command %d: %d fragments", kind.number, len(frags))
		}
		if want := (len(big) + fragLen - 1) / fragLen; len(frags) != want {
			t.Fatalf("command %d: %d fragments, want %d", kind.number, len(frags), want)
		}
		for i, oc := range frags {
			seq := reliable
			if kind.flags&Reliable != 0 {
				seq = start + uint16(i)
			}
			want := command{command: kind.number | oc.command&^commandMask, channelID: 1, seq: seq, seq2: start,
				dataLength: uint16(min(fragLen, len(big)-i*fragLen)), fragmentCount: uint32(len(frags)), fragmentNumber: uint32(i),
				totalLength: uint32(len(big)), fragmentOffset: uint32(i * fragLen)}
			check("fragment", oc, want)
		}
	}
}
