package enet

import (
	"encoding/binary"
	"net"
	"net/netip"
)

// handleDatagram is enet_protocol_handle_incoming_commands: it checks one
// datagram's header and runs its commands until the first bad one.
func (h *Host) handleDatagram(b []byte, ap netip.AddrPort, addr net.Addr) {
	var hd header
	if !parseHeader(b, h.cfg.Checksum, &hd) {
		h.stats.DatagramsDropped++
		return
	}
	var p *Peer
	if hd.peerID != maxPeerID {
		if int(hd.peerID) >= len(h.peers) {
			h.stats.DatagramsDropped++
			return
		}
		p = h.peers[hd.peerID]
		if p == nil || p.state == stateDisconnected || p.state == stateZombie ||
			!p.sameAddr(ap, addr) ||
			(p.outgoingPeerID < maxPeerID && hd.sessionID != p.incomingSessionID) {
			h.stats.DatagramsDropped++
			return
		}
	}
	if hd.flags&headerFlagCompress != 0 {
		if h.compressor == nil {
			h.stats.DatagramsDropped++
			return
		}
		out := append(h.dbuf[:0], b[:hd.size]...)
		out, ok := h.compressor.Decompress(out, b[hd.size:], maxMTU-hd.size)
		h.dbuf = out[:0]
		if !ok || len(out) == hd.size {
			h.stats.DatagramsDropped++
			return
		}
		b = out
	}
	if h.cfg.Checksum {
		var seed [4]byte
		if p != nil {
			binary.LittleEndian.PutUint32(seed[:], p.connectID)
		}
		sumAt := hd.size - 4
		if enetCRC32(b[:sumAt], seed[:], b[hd.size:]) != hd.checksum {
			h.stats.DatagramsDropped++
			return
		}
	}
	if p != nil {
		p.setAddrFrom(ap, addr)
		p.incomingDataTotal += uint32(len(b))
	}
	data := b[hd.size:]
	var c command
	for len(data) > 0 {
		if len(data) < 4 {
			break
		}
		n := data[0] & commandMask
		if n >= cmdCount {
			break
		}
		size := commandSizes[n]
		if size == 0 || len(data) < size {
			break
		}
		decodeCommand(data, &c)
		data = data[size:]
		if p == nil && n != cmdConnect {
			break
		}
		var payload []byte
		switch n {
		case cmdSendReliable, cmdSendUnreliable, cmdSendUnsequenced, cmdSendFragment, cmdSendUnreliableFragment:
			l := int(c.dataLength)
			if l > len(data) || l > h.cfg.MaxPacketSize {
				h.stats.CommandsRefused++
				return
			}
			payload = data[:l]
			data = data[l:]
		}
		ok := true
		switch n {
		case cmdAcknowledge:
			ok = h.handleAcknowledge(p, &c)
		case cmdConnect:
			if p != nil {
				ok = false
				break
			}
			p = h.handleConnect(&c, ap, addr)
			ok = p != nil
		case cmdVerifyConnect:
			ok = h.handleVerifyConnect(p, &c)
		case cmdDisconnect:
			h.handleDisconnect(p, &c)
		case cmdPing:
			ok = p.state == stateConnected || p.state == stateDisconnectLater
		case cmdSendReliable:
			ok = h.handleSendReliable(p, &c, payload)
		case cmdSendUnreliable:
			ok = h.handleSendUnreliable(p, &c, payload)
		case cmdSendUnsequenced:
			ok = h.handleSendUnsequenced(p, &c, payload)
		case cmdSendFragment:
			ok = h.handleSendFragment(p, &c, payload)
		case cmdSendUnreliableFragment:
			ok = h.handleSendUnreliableFragment(p, &c, payload)
		case cmdBandwidthLimit:
			ok = h.handleBandwidthLimit(p, &c)
		case cmdThrottleConfigure:
			ok = p.state == stateConnected || p.state == stateDisconnectLater
			if ok {
				p.packetThrottleInterval = c.throttleInterval
				p.packetThrottleAcceleration = c.throttleAccel
				p.packetThrottleDecel(c.throttleDecel)
			}
		default:
			ok = false
		}
		if !ok {
			h.stats.CommandsRefused++
			return
		}
		if p != nil && c.command&flagAcknowledge != 0 {
			if hd.flags&headerFlagSentTime == 0 {
				break
			}
			switch p.state {
			case stateDisconnecting, stateAcknowledgingConnect, stateDisconnected, stateZombie:
			case stateAcknowledgingDisconnect:
				if n == cmdDisconnect {
					h.queueAck(p, &c, hd.sentTime)
				}
			default:
				h.queueAck(p, &c, hd.sentTime)
			}
		}
	}
}

func (h *Host) handleAcknowledge(p *Peer, c *command) bool {
	if p.state == stateDisconnected || p.state == stateZombie {
		return true
	}
	now := h.serviceTime
	sent := uint32(c.receivedSentTime) | now&0xFFFF0000
	if sent&0x8000 > now&0x8000 {
		sent -= 0x10000
	}
	if timeLess(now, sent) {
		return true
	}
	rtt := max(timeDiff(now, sent), 1)
	if p.lastReceiveTime > 0 {
		h.throttle(p, rtt)
		p.roundTripTimeVariance -= p.roundTripTimeVariance / 4
		if rtt >= p.roundTripTime {
			d := rtt - p.roundTripTime
			p.roundTripTimeVariance += d / 4
			p.roundTripTime += d / 8
		} else {
			d := p.roundTripTime - rtt
			p.roundTripTimeVariance += d / 4
			p.roundTripTime -= d / 8
		}
	} else {
		p.roundTripTime = rtt
		p.roundTripTimeVariance = (rtt + 1) / 2
	}
	if p.roundTripTime < p.lowestRoundTripTime {
		p.lowestRoundTripTime = p.roundTripTime
	}
	if p.roundTripTimeVariance > p.highestRTTVariance {
		p.highestRTTVariance = p.roundTripTimeVariance
	}
	if p.packetThrottleEpoch == 0 || timeDiff(now, p.packetThrottleEpoch) >= p.packetThrottleInterval {
		p.lastRoundTripTime = p.lowestRoundTripTime
		p.lastRoundTripTimeVariance = max(p.highestRTTVariance, 1)
		p.lowestRoundTripTime = p.roundTripTime
		p.highestRTTVariance = p.roundTripTimeVariance
		p.packetThrottleEpoch = now
	}
	p.lastReceiveTime = max(now, 1)
	p.earliestTimeout = 0

	number := h.removeSentReliable(p, c.receivedSeq, c.channelID)
	if p.outgoingSendReliable.len() > 0 || p.outgoing.len() > 0 {
		h.markDirty(p) // the window has room again
	}
	switch p.state {
	case stateAcknowledgingConnect:
		if number != cmdVerifyConnect {
			return false
		}
		h.notifyConnect(p)
	case stateDisconnecting:
		if number != cmdDisconnect {
			return false
		}
		h.notifyDisconnect(p)
	case stateDisconnectLater:
		if !p.hasOutgoing() {
			h.disconnect(p, p.eventData)
		}
	}
	return true
}

// throttle is enet_peer_throttle.
func (h *Host) throttle(p *Peer, rtt uint32) {
	switch {
	case p.lastRoundTripTime <= p.lastRoundTripTimeVariance:
		p.packetThrottle = p.packetThrottleLimit
	case rtt <= p.lastRoundTripTime:
		p.packetThrottle += p.packetThrottleAcceleration
		if p.packetThrottle > p.packetThrottleLimit {
			p.packetThrottle = p.packetThrottleLimit
		}
	case rtt > p.lastRoundTripTime+2*p.lastRoundTripTimeVariance:
		if p.packetThrottle > p.packetThrottleDeceleration {
			p.packetThrottle -= p.packetThrottleDeceleration
		} else {
			p.packetThrottle = 0
		}
	}
}

// removeSentReliable is enet_protocol_remove_sent_reliable_command; it
// returns the number of the acknowledged command, or cmdNone.
func (h *Host) removeSentReliable(p *Peer, seq uint16, channelID uint8) uint8 {
	list := &p.sentReliable
	wasSent := true
	var prev, oc *outCmd
	// From where the last one was found to the tail, then from the head
	// to there: a (sequence number, channel) is in the list once at most,
	// so the order of the search changes only its length.
	var from *outCmd
	if p.ackAfterOK {
		from = p.ackAfter
	}
	start := list.head
	if from != nil {
		start = from.next
	}
	for pv, o := from, start; o != nil; pv, o = o, o.next {
		if o.reliableSeq == seq && o.channelID == channelID {
			prev, oc = pv, o
			break
		}
	}
	if oc == nil && from != nil {
		for pv, o := (*outCmd)(nil), list.head; o != nil && pv != from; pv, o = o, o.next {
			if o.reliableSeq == seq && o.channelID == channelID {
				prev, oc = pv, o
				break
			}
		}
	}
	if oc != nil {
		p.ackAfter, p.ackAfterOK = prev, true
	}
	if oc == nil {
		wasSent = false
		find := func(l *outList) bool {
			var before *outCmd
			for o := l.head; o != nil; before, o = o, o.next {
				if o.command&flagAcknowledge == 0 {
					continue
				}
				if o.sendAttempts < 1 {
					break
				}
				if o.reliableSeq == seq && o.channelID == channelID {
					oc, prev, list = o, before, l
					return true
				}
			}
			return false
		}
		if !find(&p.outgoing) {
			find(&p.outgoingSendReliable)
		}
		if oc == nil {
			return cmdNone
		}
	}
	if channelID < p.channelCount {
		ch := p.channel(channelID)
		w := seq / reliableWindowSize
		if ch.reliableWindows[w] > 0 {
			ch.reliableWindows[w]--
			if ch.reliableWindows[w] == 0 {
				ch.usedReliableWindows &^= 1 << w
			}
		}
	}
	number := oc.number()
	list.remove(prev, oc)
	if oc.data != nil {
		if wasSent {
			p.reliableDataInTransit -= oc.fragmentLength
		}
		h.uncharge(p, int(oc.cost))
	}
	h.recycle(oc)
	if f := p.sentReliable.head; f != nil {
		p.nextTimeout = f.sentTime + f.roundTripTimeout
	}
	return number
}

// queueAck is enet_peer_queue_acknowledgement.
func (h *Host) queueAck(p *Peer, c *command, sentTime uint16) {
	if c.channelID < p.channelCount {
		ch := p.channel(c.channelID)
		w := c.seq / reliableWindowSize
		cur := ch.incomingReliableSeq / reliableWindowSize
		if c.seq < ch.incomingReliableSeq {
			w += reliableWindows
		}
		if w >= cur+freeReliableWindows-1 && w <= cur+freeReliableWindows {
			return
		}
	}
	// The acknowledgements of one datagram are bounded by its commands;
	// a peer that is never sent to (no flush) cannot make them grow.
	if p.acks.n >= 4096 {
		return
	}
	p.outgoingDataTotal += uint32(commandSizes[cmdAcknowledge])
	h.pushAck(p, ack{sentTime: sentTime, command: c.command, channelID: c.channelID, seq: c.seq})
	p.ackedData += uint32(c.dataLength)
	h.markDirty(p)
}

func (h *Host) connectedForData(p *Peer, c *command) bool {
	return c.channelID < p.channelCount && (p.state == stateConnected || p.state == stateDisconnectLater)
}

func (h *Host) handleSendReliable(p *Peer, c *command, payload []byte) bool {
	if !h.connectedForData(p, c) {
		return false
	}
	return h.queueIncoming(p, c, payload, Reliable, 0) >= 0
}

func (h *Host) handleSendUnreliable(p *Peer, c *command, payload []byte) bool {
	if !h.connectedForData(p, c) {
		return false
	}
	return h.queueIncoming(p, c, payload, 0, 0) >= 0
}

func (h *Host) handleSendUnsequenced(p *Peer, c *command, payload []byte) bool {
	if !h.connectedForData(p, c) {
		return false
	}
	group := uint32(c.seq2)
	index := group % unsequencedWindowSize
	if group < uint32(p.incomingUnsequencedGroup) {
		group += 0x10000
	}
	if group >= uint32(p.incomingUnsequencedGroup)+freeUnsequencedWindows*unsequencedWindowSize {
		return true
	}
	group &= 0xFFFF
	if uint16(group-index) != p.incomingUnsequencedGroup {
		p.incomingUnsequencedGroup = uint16(group - index)
		if p.unsequencedWindow != nil {
			*p.unsequencedWindow = [unsequencedWindowSize / 32]uint32{}
		}
	} else if p.unsequencedWindow != nil && p.unsequencedWindow[index/32]&(1<<(index%32)) != 0 {
		return true
	}
	if h.queueIncoming(p, c, payload, Unsequenced, 0) < 0 {
		return false
	}
	if p.unsequencedWindow == nil {
		p.unsequencedWindow = new([unsequencedWindowSize / 32]uint32)
	}
	p.unsequencedWindow[index/32] |= 1 << (index % 32)
	return true
}

// fragmentChecks validates a fragment's fields as ENet does.
func (h *Host) fragmentChecks(c *command) bool {
	return c.dataLength > 0 &&
		c.fragmentCount <= maxFragmentCount &&
		c.fragmentNumber < c.fragmentCount &&
		int64(c.totalLength) <= int64(h.cfg.MaxPacketSize) &&
		c.totalLength >= c.fragmentCount &&
		c.fragmentOffset < c.totalLength &&
		uint32(c.dataLength) <= c.totalLength-c.fragmentOffset
}

func (h *Host) handleSendFragment(p *Peer, c *command, payload []byte) bool {
	if !h.connectedForData(p, c) || c.dataLength == 0 {
		return false
	}
	ch := p.channel(c.channelID)
	start := c.seq2
	if !inReliableWindow(start, ch.incomingReliableSeq) {
		return true
	}
	if !h.fragmentChecks(c) {
		return false
	}
	h.queueSteps++
	startCmd := ch.incomingReliable.get(start)
	if startCmd != nil && (startCmd.cmd.number() != cmdSendFragment || c.totalLength != startCmd.totalLength || c.fragmentCount != startCmd.fragmentCount) {
		return false
	}
	if startCmd == nil {
		hc := *c
		hc.seq = start
		var st int
		startCmd, st = h.queueFragmentStart(p, &hc, Reliable)
		if st < 0 {
			return false
		}
		if startCmd == nil {
			return true
		}
	}
	return h.addFragment(p, ch, startCmd, c, payload)
}

func (h *Host) handleSendUnreliableFragment(p *Peer, c *command, payload []byte) bool {
	if !h.connectedForData(p, c) || c.dataLength == 0 {
		return false
	}
	ch := p.channel(c.channelID)
	rseq := c.seq
	start := c.seq2
	if !inReliableWindow(rseq, ch.incomingReliableSeq) {
		return true
	}
	if rseq == ch.incomingReliableSeq && start <= ch.incomingUnreliableSeq {
		return true
	}
	if !h.fragmentChecks(c) {
		return false
	}
	var startCmd *inCmd
	for i := len(ch.incomingUnreliable) - 1; i >= 0; i-- {
		ic := ch.incomingUnreliable[i]
		if rseq >= ch.incomingReliableSeq {
			if ic.reliableSeq < ch.incomingReliableSeq {
				continue
			}
		} else if ic.reliableSeq >= ch.incomingReliableSeq {
			break
		}
		if ic.reliableSeq < rseq {
			break
		}
		if ic.reliableSeq > rseq {
			continue
		}
		if ic.unreliableSeq <= start {
			if ic.unreliableSeq < start {
				break
			}
			if ic.cmd.number() != cmdSendUnreliableFragment || c.totalLength != ic.totalLength || c.fragmentCount != ic.fragmentCount {
				return false
			}
			startCmd = ic
			break
		}
	}
	if startCmd == nil {
		var st int
		startCmd, st = h.queueFragmentStart(p, c, UnreliableFragment)
		if st < 0 {
			return false
		}
		if startCmd == nil {
			return true
		}
	}
	return h.addFragment(p, ch, startCmd, c, payload)
}

// queueFragmentStart queues the incoming command that collects a
// fragmented packet. Its memory grows with the fragments that arrive:
// the bitmap of received fragments (fragmentCount/8 bytes) and the
// fragments' data are charged to the budgets, not totalLength.
func (h *Host) queueFragmentStart(p *Peer, c *command, flags Flags) (*inCmd, int) {
	ic, st := h.queueIncomingCmd(p, c, nil, flags, c.fragmentCount)
	return ic, st
}

// addFragment stores one fragment; when the last one is in, the packet is
// assembled (its fragments must cover exactly totalLength bytes).
func (h *Host) addFragment(p *Peer, ch *channel, ic *inCmd, c *command, payload []byte) bool {
	n := c.fragmentNumber
	if ic.fragmentsRemaining == 0 || ic.fragments[n/32]&(1<<(n%32)) != 0 {
		return true // a duplicate, or a fragment of a packet already complete
	}
	cost := allocSize(len(payload)) + pieceOverhead
	if p.waiting+cost > h.cfg.MaxWaitingData+h.cfg.MaxPacketSize || h.waiting+cost > h.cfg.MaxHostWaitingData+h.cfg.MaxPacketSize ||
		!h.canReceive(p, cost) {
		return false
	}
	if ic.received+uint32(len(payload)) > ic.totalLength {
		// More bytes than the packet has: not what an ENet sender does.
		return false
	}
	ic.fragmentsRemaining--
	ic.fragments[n/32] |= 1 << (n % 32)
	ic.pieces = append(ic.pieces, piece{offset: c.fragmentOffset, data: append([]byte(nil), payload...)})
	ic.received += uint32(len(payload))
	ic.cost += cost
	p.waiting += cost
	h.waiting += cost
	if ic.fragmentsRemaining > 0 {
		return true
	}
	if ic.received != ic.totalLength {
		// Complete but with gaps: refuse the packet by ending the
		// connection, as its channel could never go on.
		h.forceDisconnect(p)
		return false
	}
	data := make([]byte, ic.totalLength)
	for _, pc := range ic.pieces {
		copy(data[pc.offset:], pc.data)
	}
	ic.data = data
	ic.pieces = nil
	ic.fragments = nil
	// The pieces were charged at least what the packet now takes, but
	// for the rounding of a large allocation to whole pages.
	newCost := min(allocSize(int(ic.totalLength))+inCmdOverhead, ic.cost)
	h.release(p, ic.cost-newCost)
	ic.cost = newCost
	if ic.cmd.number() == cmdSendFragment {
		h.dispatchReliable(p, ch)
	} else {
		h.dispatchUnreliable(p, ch, nil)
	}
	return true
}

// forceDisconnect ends a connection whose peer broke the protocol.
func (h *Host) forceDisconnect(p *Peer) {
	c := command{command: cmdDisconnect | flagUnsequenced, channelID: 0xFF}
	h.resetQueues(p)
	h.queueOutgoing(p, &c, nil, 0, 0)
	h.sendPeer(p, false)
	p.eventData = 0
	h.zombie(p)
}

// queueIncoming queues a received packet: 1 queued, 0 discarded (a
// duplicate or out of order), -1 refused.
func (h *Host) queueIncoming(p *Peer, c *command, data []byte, flags Flags, fragmentCount uint32) int {
	_, st := h.queueIncomingCmd(p, c, data, flags, fragmentCount)
	return st
}

// queueIncomingCmd is enet_peer_queue_incoming_command.
func (h *Host) queueIncomingCmd(p *Peer, c *command, data []byte, flags Flags, fragmentCount uint32) (*inCmd, int) {
	ch := p.channel(c.channelID)
	var rseq, useq uint16
	number := c.number()
	discard := func() (*inCmd, int) {
		if fragmentCount > 0 {
			return nil, -1
		}
		return nil, 0
	}
	if p.state == stateDisconnectLater {
		return discard()
	}
	if number != cmdSendUnsequenced {
		rseq = c.seq
		if !inReliableWindow(rseq, ch.incomingReliableSeq) {
			return discard()
		}
	}
	var list *[]*inCmd
	insert := 0
	switch number {
	case cmdSendFragment, cmdSendReliable:
		h.queueSteps++
		if rseq == ch.incomingReliableSeq || ch.incomingReliable.get(rseq) != nil {
			return discard()
		}
	case cmdSendUnreliable, cmdSendUnreliableFragment:
		useq = c.seq2
		if rseq == ch.incomingReliableSeq && useq <= ch.incomingUnreliableSeq {
			return discard()
		}
		list = &ch.incomingUnreliable
		if len(*list) >= maxWaitingUnreliable {
			return discard()
		}
		i := len(*list) - 1
		for ; i >= 0; i-- {
			h.queueSteps++
			ic := (*list)[i]
			if ic.cmd.number() == cmdSendUnsequenced {
				continue
			}
			if rseq >= ch.incomingReliableSeq {
				if ic.reliableSeq < ch.incomingReliableSeq {
					continue
				}
			} else if ic.reliableSeq >= ch.incomingReliableSeq {
				break
			}
			if ic.reliableSeq < rseq {
				break
			}
			if ic.reliableSeq > rseq {
				continue
			}
			if ic.unreliableSeq <= useq {
				if ic.unreliableSeq < useq {
					break
				}
				return discard()
			}
		}
		insert = i + 1
	case cmdSendUnsequenced:
		list = &ch.incomingUnreliable
		if len(*list) >= maxWaitingUnreliable {
			return discard()
		}
		insert = len(*list)
	default:
		return discard()
	}
	// Over the budget, only the packet a channel waits for next is taken
	// (up to one more MaxPacketSize), so that a gap can always be filled.
	soft := p.waiting >= h.cfg.MaxWaitingData || h.waiting >= h.cfg.MaxHostWaitingData
	if soft {
		next := (number == cmdSendReliable || number == cmdSendFragment) && rseq == ch.incomingReliableSeq+1
		if !next || p.waiting >= h.cfg.MaxWaitingData+h.cfg.MaxPacketSize || h.waiting >= h.cfg.MaxHostWaitingData+h.cfg.MaxPacketSize {
			return nil, -1
		}
	}
	cost := inCmdOverhead + sendAlloc(len(data))
	if fragmentCount > 0 {
		cost = inCmdOverhead + allocSize(int((fragmentCount+31)/32)*4)
	}
	reserve := cost
	if number == cmdSendReliable || number == cmdSendFragment {
		reserve += relDirCost + relPageCost // the index may grow
	}
	if !h.canReceive(p, reserve) {
		return nil, -1
	}
	if number == cmdSendReliable && ch.incomingReliable.n == 0 && rseq == ch.incomingReliableSeq+1 {
		// The packet the channel waits for, nothing behind it: deliver
		// it at once, as dispatchReliable would.
		p.waiting += cost
		h.waiting += cost
		ch.incomingReliableSeq = rseq
		ch.incomingUnreliableSeq = 0
		h.pushEvent(Event{Type: EventReceive, Peer: p, Channel: c.channelID, Packet: h.copyReceived(data), Flags: Reliable, cost: cost})
		if len(ch.incomingUnreliable) > 0 {
			h.dispatchUnreliable(p, ch, nil)
		}
		return nil, 1
	}
	if len(ch.incomingUnreliable) == 0 && (number == cmdSendUnsequenced ||
		number == cmdSendUnreliable && rseq == ch.incomingReliableSeq) {
		// Nothing queued before it: dispatchUnreliable would deliver it
		// at once (the older ones were discarded above).
		p.waiting += cost
		h.waiting += cost
		if number == cmdSendUnreliable {
			ch.incomingUnreliableSeq = useq
		}
		h.pushEvent(Event{Type: EventReceive, Peer: p, Channel: c.channelID, Packet: h.copyReceived(data), Flags: flags, cost: cost})
		return nil, 1
	}
	ic := &inCmd{
		cmd:                *c,
		reliableSeq:        c.seq,
		unreliableSeq:      useq,
		fragmentCount:      fragmentCount,
		fragmentsRemaining: fragmentCount,
		flags:              flags,
	}
	if fragmentCount > 0 {
		ic.fragments = make([]uint32, (fragmentCount+31)/32)
		ic.totalLength = c.totalLength
	} else {
		ic.data = h.copyReceived(data)
	}
	ic.cost = cost
	p.waiting += cost
	h.waiting += cost
	switch number {
	case cmdSendFragment, cmdSendReliable:
		grew := ch.incomingReliable.put(ic)
		p.waiting += grew
		h.waiting += grew
		h.dispatchReliable(p, ch)
	default:
		l := *list
		l = append(l, nil)
		copy(l[insert+1:], l[insert:])
		l[insert] = ic
		*list = l
		if number == cmdSendUnsequenced || rseq == ch.incomingReliableSeq {
			// A command that waits for a later reliable one changes what
			// can be delivered now in nothing.
			h.dispatchUnreliable(p, ch, ic)
		}
	}
	return ic, 1
}

// deliver turns dispatched incoming commands into receive events.
func (h *Host) deliver(p *Peer, cmds []*inCmd) {
	for _, ic := range cmds {
		h.deliverOne(p, ic)
	}
}

func (h *Host) deliverOne(p *Peer, ic *inCmd) {
	ic.delivered = true
	flags := ic.flags &^ UnreliableFragment
	h.pushEvent(Event{Type: EventReceive, Peer: p, Channel: ic.cmd.channelID, Packet: ic.data, Flags: flags, cost: ic.cost})
}

// maxWaitingUnreliable caps the unreliable and unsequenced commands a
// channel keeps waiting (for the reliable command they follow, or behind
// one that does): a command beyond it is dropped, as a lost unreliable
// packet is. The list is ordered and walked as libenet walks it, so the
// cap bounds the steps one command can cost.
const maxWaitingUnreliable = 256

// dispatchUnreliable is enet_peer_dispatch_incoming_unreliable_commands.
// keep is a command just queued that a caller still fills (a fragment
// collector): it is not dropped now.
func (h *Host) dispatchUnreliable(p *Peer, ch *channel, keep *inCmd) {
	l := ch.incomingUnreliable
	start, dropped := 0, 0
	delivered := false
	i := 0
	for ; i < len(l); i++ {
		h.queueSteps++
		ic := l[i]
		if ic.cmd.number() == cmdSendUnsequenced {
			continue
		}
		if ic.reliableSeq == ch.incomingReliableSeq {
			if ic.fragmentsRemaining == 0 {
				ch.incomingUnreliableSeq = ic.unreliableSeq
				continue
			}
			if start != i {
				h.deliver(p, l[start:i])
				delivered = true
				dropped = i
			} else if dropped != i {
				dropped = i - 1
			}
		} else {
			w := ic.reliableSeq / reliableWindowSize
			cur := ch.incomingReliableSeq / reliableWindowSize
			if ic.reliableSeq < ch.incomingReliableSeq {
				w += reliableWindows
			}
			if w >= cur && w < cur+freeReliableWindows-1 {
				break
			}
			dropped = i + 1
			if start != i {
				h.deliver(p, l[start:i])
				delivered = true
			}
		}
		start = i + 1
	}
	if start != i {
		h.deliver(p, l[start:i])
		delivered = true
		dropped = i
	}
	if !delivered && dropped <= 0 {
		return // nothing leaves the list
	}
	// The commands before dropped that were not delivered are dropped
	// (the delivered ones moved their cost to their events). The
	// commands after start that were delivered leave the list as well.
	w := 0
	for j, ic := range l {
		h.queueSteps++
		switch {
		case ic.delivered:
		case j < dropped && ic != keep:
			h.release(p, ic.cost)
		default:
			l[w] = ic
			w++
		}
	}
	clear(l[w:])
	ch.incomingUnreliable = l[:w]
}

// dispatchReliable is enet_peer_dispatch_incoming_reliable_commands: it
// delivers the commands that follow the last one delivered, in order.
func (h *Host) dispatchReliable(p *Peer, ch *channel) {
	q := &ch.incomingReliable
	delivered := false
	for q.n > 0 {
		h.queueSteps++
		next := ch.incomingReliableSeq + 1
		ic := q.get(next)
		if ic == nil || ic.fragmentsRemaining > 0 {
			break
		}
		_, freed := q.take(next)
		h.release(p, freed)
		ch.incomingReliableSeq = next
		if ic.fragmentCount > 1 {
			// The fragments took the sequence numbers after the first;
			// a command another sent with one of them can never be
			// delivered: drop it.
			span := min(ic.fragmentCount-1, 0x8000)
			for s := uint32(1); s <= span && q.n > 0; s++ {
				h.queueSteps++
				if stale, freed := q.take(next + uint16(s)); stale != nil {
					h.release(p, stale.cost+freed)
				}
			}
			ch.incomingReliableSeq += uint16(ic.fragmentCount - 1)
		}
		h.deliverOne(p, ic)
		delivered = true
	}
	if !delivered {
		return
	}
	ch.incomingUnreliableSeq = 0
	if len(ch.incomingUnreliable) > 0 {
		h.dispatchUnreliable(p, ch, nil)
	}
}
