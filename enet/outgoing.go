package enet

import (
	"encoding/binary"
)

// An outCmd is a command queued or sent and not yet acknowledged. It is
// the host's most numerous structure (every packet in flight to every
// peer has one, 96 bytes), so it keeps only what a packet's commands
// need; the rare commands with fields of their own (CONNECT,
// VERIFY_CONNECT, DISCONNECT, BANDWIDTH_LIMIT, THROTTLE_CONFIGURE) keep
// their whole command behind ctl.
type outCmd struct {
	data             []byte   // the whole packet, nil for commands without one
	next             *outCmd  // the next in the command's queue (outList)
	ctl              *command // the command itself, for those with fields of their own; nil otherwise
	sentTime         uint32
	roundTripTimeout uint32
	queueTime        uint32
	fragmentOffset   uint32
	fragmentLength   uint32 // also the command's dataLength
	sendAttempts     uint32
	fragmentCount    uint32 // SEND_FRAGMENT, SEND_UNRELIABLE_FRAGMENT
	fragmentNumber   uint32 // SEND_FRAGMENT, SEND_UNRELIABLE_FRAGMENT
	cost             int32  // charged to the outgoing budgets: the command, and on the last of a packet its data
	reliableSeq      uint16 // also the command's sequence number
	unreliableSeq    uint16
	seq2             uint16  // the command's unreliable sequence number, unsequenced group or first fragment's number
	command          uint8   // number | flags
	channelID        uint8   // 0xFF for the peer's own commands
	buf              bufKind // whose data is: the caller's, the command's own pooled buffer, or one shared
}

// number is the command's number, without its flags.
func (oc *outCmd) number() uint8 { return oc.command & commandMask }

// hasFields reports whether commands of number n have fields beyond
// those of a packet's commands (outCmd.ctl).
func hasFields(n uint8) bool {
	switch n {
	case cmdConnect, cmdVerifyConnect, cmdDisconnect, cmdBandwidthLimit, cmdThrottleConfigure:
		return true
	}
	return false
}

// appendOutCmd appends the wire form of oc's command to b.
func appendOutCmd(b []byte, oc *outCmd) []byte {
	if oc.ctl != nil {
		c := *oc.ctl
		c.seq = oc.reliableSeq
		return appendCommand(b, &c)
	}
	c := command{command: oc.command, channelID: oc.channelID, seq: oc.reliableSeq, seq2: oc.seq2,
		dataLength: uint16(oc.fragmentLength), fragmentCount: oc.fragmentCount, fragmentNumber: oc.fragmentNumber,
		totalLength: uint32(len(oc.data)), fragmentOffset: oc.fragmentOffset}
	return appendCommand(b, &c)
}

// queueOutgoing is enet_peer_queue_outgoing_command.
func (h *Host) queueOutgoing(p *Peer, c *command, data []byte, offset, length uint32) *outCmd {
	oc := h.newOutCmd()
	*oc = outCmd{command: c.command, channelID: c.channelID, fragmentOffset: offset, fragmentLength: length, data: data}
	if hasFields(c.number()) {
		ctl := *c
		oc.ctl = &ctl
	}
	h.setupOutgoing(p, oc)
	return oc
}

// setupOutgoing is enet_peer_setup_outgoing_command: it numbers the
// command and queues it.
func (h *Host) setupOutgoing(p *Peer, oc *outCmd) {
	p.outgoingDataTotal += uint32(commandSize(oc.command)) + oc.fragmentLength
	if oc.channelID == 0xFF {
		p.outgoingReliableSequenceNumber++
		oc.reliableSeq = p.outgoingReliableSequenceNumber
		oc.unreliableSeq = 0
	} else {
		ch := p.channel(oc.channelID)
		switch {
		case oc.command&flagAcknowledge != 0:
			ch.outgoingReliableSeq++
			ch.outgoingUnreliableSeq = 0
			oc.reliableSeq = ch.outgoingReliableSeq
			oc.unreliableSeq = 0
		case oc.command&flagUnsequenced != 0:
			p.outgoingUnsequencedGroup++
			oc.reliableSeq = 0
			oc.unreliableSeq = 0
		default:
			if oc.fragmentOffset == 0 {
				ch.outgoingUnreliableSeq++
			}
			oc.reliableSeq = ch.outgoingReliableSeq
			oc.unreliableSeq = ch.outgoingUnreliableSeq
		}
	}
	oc.sendAttempts = 0
	oc.sentTime = 0
	oc.roundTripTimeout = 0
	h.totalQueued++
	oc.queueTime = h.totalQueued
	switch oc.number() {
	case cmdSendUnreliable:
		oc.seq2 = oc.unreliableSeq
	case cmdSendUnsequenced:
		oc.seq2 = p.outgoingUnsequencedGroup
	}
	if oc.command&flagAcknowledge != 0 && oc.data != nil {
		p.outgoingSendReliable.push(oc)
	} else {
		p.outgoing.push(oc)
	}
	h.markDirty(p)
}

// maxDatagramsPerPass bounds what one peer sends in one pass, so that
// one busy peer does not hold up the others.
const maxDatagramsPerPass = 64

// sendOutgoing is enet_protocol_send_outgoing_commands for all peers
// (all) or for the peers with something new to send.
func (h *Host) sendOutgoing(all bool) {
	if all {
		for _, p := range h.dirty {
			p.dirty = false
		}
		clear(h.dirty)
		h.dirty = h.dirty[:0]
		for _, p := range h.peers {
			if p != nil {
				h.servicePeer(p)
			}
		}
		return
	}
	dirty := h.dirty
	h.dirty = h.dirtySpare[:0] // peers marked while this pass runs
	for i, p := range dirty {
		dirty[i] = nil
		p.dirty = false
		if p.state != stateDisconnected && h.peers[p.id] == p {
			h.servicePeer(p)
		}
	}
	h.dirtySpare = dirty[:0]
}

// servicePeer checks the peer's timers and sends what it has to send.
func (h *Host) servicePeer(p *Peer) {
	if p.state == stateAcknowledgingConnect && timeDiff(h.serviceTime, p.handshake) >= h.cfg.handshakeTimeout {
		h.resetPeer(p)
		return
	}
	h.sendPeer(p, true)
}

// sendPeer builds and queues the peer's datagrams.
func (h *Host) sendPeer(p *Peer, checkTimeouts bool) {
	p.capped = false
	for n := 0; n < maxDatagramsPerPass; n++ {
		if p.state == stateDisconnected || p.state == stateZombie {
			return
		}
		p.cont = false
		if !h.sendDatagram(p, checkTimeouts) {
			return
		}
		if !p.cont {
			return
		}
	}
	// More to send: the next pass goes at once (flushNow; the frame loop
	// runs passes until none is capped), the other peers having had
	// their turn meanwhile.
	p.capped = true
	h.markDirty(p)
	h.wakeSender()
}

// sendDatagram builds at most one datagram for the peer; it reports
// false when the peer is gone.
func (h *Host) sendDatagram(p *Peer, checkTimeouts bool) bool {
	body := h.packet[:0]
	size := 4 // ENet counts the full header here
	sentTime := false

	goodbye := false
	if p.acks.n > 0 {
		body, size, goodbye = h.sendAcks(p, body, size)
	}
	if goodbye {
		// The acknowledgement of the peer's DISCONNECT goes out, then the
		// connection ends.
		h.packet = body
		h.emit(p, body, false)
		h.zombie(p)
		return false
	}
	if checkTimeouts && p.sentReliable.len() > 0 && !timeLess(h.serviceTime, p.nextTimeout) {
		if h.checkTimeouts(p) {
			h.packet = body
			return false
		}
	}
	canPing := true
	if p.outgoing.len() > 0 || p.outgoingSendReliable.len() > 0 {
		body, size, canPing, sentTime = h.checkOutgoing(p, body, size)
	}
	if canPing && p.sentReliable.len() == 0 && timeDiff(h.serviceTime, p.lastReceiveTime) >= p.pingInterval &&
		int(p.mtu)-size >= commandSizes[cmdPing] && p.state == stateConnected {
		h.ping(p)
		var st bool
		body, _, _, st = h.checkOutgoing(p, body, size)
		sentTime = sentTime || st
	}
	if p.state == stateDisconnectLater && !p.hasOutgoing() {
		h.disconnect(p, p.eventData)
	}
	h.packet = body
	if len(body) == 0 {
		return true
	}
	if p.packetLossEpoch == 0 {
		p.packetLossEpoch = h.serviceTime
	} else if timeDiff(h.serviceTime, p.packetLossEpoch) >= packetLossInterval && p.packetsSent > 0 {
		loss := uint32(uint64(p.packetsLost) * packetLossScale / uint64(p.packetsSent))
		diff := loss - p.packetLoss
		if loss < p.packetLoss {
			diff = p.packetLoss - loss
		}
		p.packetLossVariance = (p.packetLossVariance*3 + diff) / 4
		p.packetLoss = (p.packetLoss*7 + loss) / 8
		p.packetLossEpoch = h.serviceTime
		p.packetsSent = 0
		p.packetsLost = 0
	}

	h.emit(p, body, sentTime)
	return true
}

// emit frames body as a datagram to the peer and queues it for writing.
func (h *Host) emit(p *Peer, body []byte, sentTime bool) {
	var flags uint16
	hdrLen := 2
	if sentTime {
		flags |= headerFlagSentTime
		hdrLen = 4
	}
	payload := body
	if h.compressor != nil {
		z := h.compressor.Compress(h.zbuf[:0], body, len(body))
		if z != nil {
			h.zbuf = z[:0]
			if len(z) < len(body) {
				flags |= headerFlagCompress
				payload = z
			}
		}
	}
	if p.outgoingPeerID < maxPeerID {
		flags |= uint16(p.outgoingSessionID) << headerSessionShift
	}
	out := binary.BigEndian.AppendUint16(h.datagramBuf(), p.outgoingPeerID|flags)
	if sentTime {
		out = binary.BigEndian.AppendUint16(out, uint16(h.serviceTime))
	}
	if h.cfg.Checksum {
		var seed uint32
		if p.outgoingPeerID < maxPeerID {
			seed = p.connectID
		}
		var sb [4]byte
		binary.LittleEndian.PutUint32(sb[:], seed)
		sum := enetCRC32(out[:hdrLen], sb[:], body)
		out = binary.BigEndian.AppendUint32(out, sum)
	}
	out = append(out, payload...)
	p.lastSendTime = h.serviceTime
	d := datagram{ap: p.ap, addr: p.addr}
	if h.batch != nil && p.ap.IsValid() {
		d.ua = p.udpAddr()
	}
	h.addDatagram(d, out)
}

// sendAcks is enet_protocol_send_acknowledgements.
func (h *Host) sendAcks(p *Peer, body []byte, size int) ([]byte, int, bool) {
	for i := 0; p.acks.n > 0; i++ {
		if i >= maxPacketCommands || int(p.mtu)-size < commandSizes[cmdAcknowledge] {
			p.cont = true
			break
		}
		a := p.firstAck()
		h.dropAck(p)
		c := command{command: cmdAcknowledge, channelID: a.channelID, seq: a.seq, receivedSeq: a.seq, receivedSentTime: a.sentTime}
		body = appendCommand(body, &c)
		size += commandSizes[cmdAcknowledge]
		if a.command&commandMask == cmdDisconnect {
			h.clearAcks(p)
			return body, size, true
		}
	}
	if p.acks.n == 0 {
		p.ackedData = 0
	}
	return body, size, false
}

// checkTimeouts is enet_protocol_check_timeouts; it reports true when the
// peer timed out.
func (h *Host) checkTimeouts(p *Peer) bool {
	var resend, resendData outList
	var prev *outCmd
	for oc := p.sentReliable.head; oc != nil; {
		next := oc.next
		if timeDiff(h.serviceTime, oc.sentTime) < oc.roundTripTimeout {
			prev, oc = oc, next
			continue
		}
		if p.earliestTimeout == 0 || timeLess(oc.sentTime, p.earliestTimeout) {
			p.earliestTimeout = oc.sentTime
		}
		if p.earliestTimeout != 0 &&
			(timeDiff(h.serviceTime, p.earliestTimeout) >= p.timeoutMaximum ||
				(oc.sendAttempts >= 1 && oc.sendAttempts-1 < 32 && uint32(1)<<(oc.sendAttempts-1) >= p.timeoutLimit &&
					timeDiff(h.serviceTime, p.earliestTimeout) >= p.timeoutMinimum)) {
			h.notifyDisconnect(p)
			return true
		}
		p.packetsLost++
		oc.roundTripTimeout *= 2
		p.sentReliable.remove(prev, oc)
		p.ackAfter, p.ackAfterOK = nil, false
		if oc.data != nil {
			p.reliableDataInTransit -= oc.fragmentLength
			resendData.push(oc)
		} else {
			resend.push(oc)
		}
		oc = next
	}
	p.outgoing.prepend(&resend)
	p.outgoingSendReliable.prepend(&resendData)
	if f := p.sentReliable.head; f != nil {
		p.nextTimeout = f.sentTime + f.roundTripTimeout
	}
	return false
}

// checkOutgoing is enet_protocol_check_outgoing_commands: it moves queued
// commands into the datagram body while they fit, the reliable window
// allows and the throttle keeps unreliable ones. It walks both queues in
// the order the commands were queued; those it cannot send yet stay where
// they are.
func (h *Host) checkOutgoing(p *Peer, body []byte, size int) ([]byte, int, bool, bool) {
	p.windowFull = false
	canPing := true
	sentTime := false
	windowWrap := false
	a, b := &p.outgoing, &p.outgoingSendReliable
	ca, cb := a.head, b.head // the next command of each queue to look at
	var pa, pb *outCmd       // the command before it (kept), nil at the head
	bDone := false
	commands := 0
	for {
		var oc *outCmd
		fromB := false
		if ca != nil {
			if !bDone && cb != nil && timeLess(cb.queueTime, ca.queueTime) {
				oc, fromB = cb, true
			} else {
				oc = ca
			}
		} else if !bDone && cb != nil {
			oc, fromB = cb, true
		} else {
			break
		}
		// keepIt leaves oc queued and moves on; take unlinks it.
		keepIt := func() {
			if fromB {
				pb, cb = cb, cb.next
			} else {
				pa, ca = ca, ca.next
			}
		}
		take := func() {
			if fromB {
				cb = oc.next
				b.remove(pb, oc)
			} else {
				ca = oc.next
				a.remove(pa, oc)
			}
		}
		var ch *channel
		var window uint16
		if oc.command&flagAcknowledge != 0 {
			if oc.channelID < p.channelCount {
				ch = p.channel(oc.channelID)
			}
			window = oc.reliableSeq / reliableWindowSize
			if ch != nil {
				if windowWrap {
					keepIt()
					continue
				}
				if oc.sendAttempts < 1 && oc.reliableSeq%reliableWindowSize == 0 &&
					(ch.reliableWindows[(window+reliableWindows-1)%reliableWindows] >= reliableWindowSize ||
						uint32(ch.usedReliableWindows)&((((1<<(freeReliableWindows+2))-1)<<window)|
							(((1<<(freeReliableWindows+2))-1)>>(reliableWindows-window))) != 0) {
					windowWrap = true
					p.windowFull = true
					keepIt()
					bDone = true
					continue
				}
			}
			if oc.data != nil {
				windowSize := p.packetThrottle * p.windowSize / packetThrottleScale
				if p.reliableDataInTransit+oc.fragmentLength > max(windowSize, p.mtu) {
					p.windowFull = true
					keepIt()
					bDone = true
					continue
				}
			}
			canPing = false
		}
		cs := commandSize(oc.command)
		if commands >= maxPacketCommands || int(p.mtu)-size < cs ||
			(oc.data != nil && uint16(int(p.mtu)-size) < uint16(cs+int(oc.fragmentLength))) {
			p.cont = true
			break
		}
		take()
		if oc.command&flagAcknowledge != 0 {
			if ch != nil && oc.sendAttempts < 1 {
				ch.usedReliableWindows |= 1 << window
				ch.reliableWindows[window]++
			}
			oc.sendAttempts++
			if oc.roundTripTimeout == 0 {
				oc.roundTripTimeout = p.roundTripTime + 4*p.roundTripTimeVariance
			}
			if p.sentReliable.len() == 0 {
				p.nextTimeout = h.serviceTime + oc.roundTripTimeout
			}
			p.sentReliable.push(oc)
			oc.sentTime = h.serviceTime
			sentTime = true
			p.reliableDataInTransit += oc.fragmentLength
		} else {
			if oc.data != nil && oc.fragmentOffset == 0 {
				p.packetThrottleCounter += packetThrottleCounter
				p.packetThrottleCounter %= packetThrottleScale
				if p.packetThrottleCounter > p.packetThrottle {
					// Throttled: drop this packet with all its fragments
					// (unreliable: they are in a, after it).
					rs, us := oc.reliableSeq, oc.unreliableSeq
					h.unqueue(p, oc)
					h.recycle(oc)
					for ca != nil && ca.reliableSeq == rs && ca.unreliableSeq == us {
						f := ca
						ca = f.next
						a.remove(pa, f)
						h.unqueue(p, f)
						h.recycle(f)
					}
					continue
				}
			}
			if oc.data != nil {
				h.unqueue(p, oc)
			}
		}
		body = appendOutCmd(body, oc)
		size += cs
		commands++
		if oc.data != nil {
			body = append(body, oc.data[oc.fragmentOffset:oc.fragmentOffset+oc.fragmentLength]...)
			size += int(oc.fragmentLength)
		}
		p.packetsSent++
		if oc.command&flagAcknowledge == 0 {
			h.recycle(oc) // sent and gone
		}
	}
	return body, size, canPing, sentTime
}

// newOutCmd returns a zeroed command from the host's free list.
func (h *Host) newOutCmd() *outCmd {
	if oc := h.freeCmds.pop(); oc != nil {
		h.freeCmdsLow = min(h.freeCmdsLow, h.freeCmds.len())
		return oc
	}
	return new(outCmd)
}

// recycle returns a command no list holds any more to the free list.
func (h *Host) recycle(oc *outCmd) {
	switch oc.buf {
	case bufOwn:
		h.releaseSend(oc.data)
	case bufShared:
		h.releaseShareRef(oc.data)
	}
	if h.freeCmds.len() < 4096 {
		*oc = outCmd{}
		h.freeCmds.push(oc)
	}
}

// unqueue releases an unreliable command's budget once it leaves.
func (h *Host) unqueue(p *Peer, oc *outCmd) {
	h.uncharge(p, int(oc.cost))
	oc.cost = 0
}

// bandwidthThrottle is enet_host_bandwidth_throttle.
func (h *Host) bandwidthThrottle() {
	now := h.serviceTime
	elapsed := now - h.bwEpoch
	peersRemaining := uint32(h.connected)
	dataTotal := ^uint32(0)
	bandwidth := ^uint32(0)
	var throttle, bandwidthLimit uint32
	needsAdjustment := h.bwLimited > 0
	if elapsed < bandwidthThrottleInterval {
		return
	}
	h.bwEpoch = now
	if peersRemaining == 0 {
		return
	}
	up := func(p *Peer) bool {
		return p != nil && (p.state == stateConnected || p.state == stateDisconnectLater)
	}
	if h.cfg.OutgoingBandwidth != 0 {
		dataTotal = 0
		bandwidth = uint32(uint64(h.cfg.OutgoingBandwidth) * uint64(elapsed) / 1000)
		for _, p := range h.peers {
			if up(p) {
				dataTotal += p.outgoingDataTotal
			}
		}
	}
	for peersRemaining > 0 && needsAdjustment {
		needsAdjustment = false
		if dataTotal <= bandwidth {
			throttle = packetThrottleScale
		} else {
			throttle = uint32(uint64(bandwidth) * packetThrottleScale / uint64(dataTotal))
		}
		for _, p := range h.peers {
			if !up(p) || p.incomingBandwidth == 0 || p.outgoingBandwidthThrottleEpoch == now {
				continue
			}
			peerBandwidth := uint32(uint64(p.incomingBandwidth) * uint64(elapsed) / 1000)
			if uint64(throttle)*uint64(p.outgoingDataTotal)/packetThrottleScale <= uint64(peerBandwidth) {
				continue
			}
			p.packetThrottleLimit = uint32(uint64(peerBandwidth) * packetThrottleScale / uint64(max(p.outgoingDataTotal, 1)))
			if p.packetThrottleLimit == 0 {
				p.packetThrottleLimit = 1
			}
			if p.packetThrottle > p.packetThrottleLimit {
				p.packetThrottle = p.packetThrottleLimit
			}
			p.outgoingBandwidthThrottleEpoch = now
			p.incomingDataTotal = 0
			p.outgoingDataTotal = 0
			needsAdjustment = true
			peersRemaining--
			bandwidth -= peerBandwidth
			dataTotal -= peerBandwidth
		}
	}
	if peersRemaining > 0 {
		if dataTotal <= bandwidth {
			throttle = packetThrottleScale
		} else {
			throttle = uint32(uint64(bandwidth) * packetThrottleScale / uint64(dataTotal))
		}
		for _, p := range h.peers {
			if !up(p) || p.outgoingBandwidthThrottleEpoch == now {
				continue
			}
			p.packetThrottleLimit = throttle
			if p.packetThrottle > p.packetThrottleLimit {
				p.packetThrottle = p.packetThrottleLimit
			}
			p.incomingDataTotal = 0
			p.outgoingDataTotal = 0
		}
	}
	if h.recalcBW {
		h.recalcBW = false
		peersRemaining = uint32(h.connected)
		bandwidth = h.cfg.IncomingBandwidth
		needsAdjustment = true
		if bandwidth == 0 {
			bandwidthLimit = 0
		} else {
			for peersRemaining > 0 && needsAdjustment {
				needsAdjustment = false
				bandwidthLimit = bandwidth / peersRemaining
				for _, p := range h.peers {
					if !up(p) || p.incomingBandwidthThrottleEpoch == now {
						continue
					}
					if p.outgoingBandwidth > 0 && p.outgoingBandwidth >= bandwidthLimit {
						continue
					}
					p.incomingBandwidthThrottleEpoch = now
					needsAdjustment = true
					peersRemaining--
					bandwidth -= p.outgoingBandwidth
				}
			}
		}
		for _, p := range h.peers {
			if !up(p) {
				continue
			}
			c := command{command: cmdBandwidthLimit | flagAcknowledge, channelID: 0xFF, outgoingBandwidth: h.cfg.OutgoingBandwidth}
			if p.incomingBandwidthThrottleEpoch == now {
				c.incomingBandwidth = p.outgoingBandwidth
			} else {
				c.incomingBandwidth = bandwidthLimit
			}
			h.queueOutgoing(p, &c, nil, 0, 0)
		}
	}
}
