package enet

// The commands that open, tune and close a connection, as the protocol
// receives them: CONNECT (a new peer, or a refusal), VERIFY_CONNECT,
// BANDWIDTH_LIMIT and DISCONNECT.

import (
	"encoding/binary"
	"net"
	"net/netip"
)

func (p *Peer) packetThrottleDecel(v uint32) { p.packetThrottleDeceleration = v }

func (p *Peer) setAddrFrom(ap netip.AddrPort, addr net.Addr) {
	if ap.IsValid() {
		if ap != p.ap {
			p.ap, p.ua = ap, nil
		}
	} else if addr != nil {
		p.addr = addr
	}
}

func (h *Host) handleConnect(c *command, ap netip.AddrPort, addr net.Addr) *Peer {
	if h.cfg.RefuseConnections {
		return nil
	}
	channelCount := c.channelCount
	if channelCount < minChannelCount || channelCount > maxChannelCount {
		return nil
	}
	slot := -1
	duplicates, pending := 0, 0
	for i, q := range h.peers {
		if q == nil {
			if slot < 0 {
				slot = i
			}
			continue
		}
		if q.state != stateConnecting && q.sameIP(ap, addr) {
			if q.sameAddr(ap, addr) && q.connectID == c.connectID {
				return nil // a resent CONNECT of a handshake in progress
			}
			duplicates++
			if q.pending {
				pending++
			}
		}
	}
	// The address's own limits come first, then the places all share.
	if duplicates >= h.cfg.MaxPeersPerIP || slot < 0 {
		h.refuseConnect(c, ap, addr)
		return nil
	}
	if pending >= h.cfg.MaxPendingPerIP || h.pending >= h.cfg.MaxPendingConnections {
		return nil // dropped: the client resends its CONNECT
	}
	if channelCount > uint32(h.cfg.ChannelLimit) {
		channelCount = uint32(h.cfg.ChannelLimit)
	}
	p := h.newPeer(uint16(slot))
	if ap.IsValid() {
		p.ap = ap
	} else {
		p.setAddr(addr)
	}
	p.channelCount = uint8(channelCount)
	p.state = stateAcknowledgingConnect
	p.pending = true
	h.pending++
	p.handshake = h.serviceTime
	p.connectID = c.connectID
	p.outgoingPeerID = c.outgoingPeerID
	p.incomingBandwidth = c.incomingBandwidth
	p.outgoingBandwidth = c.outgoingBandwidth
	p.packetThrottleInterval = c.throttleInterval
	p.packetThrottleAcceleration = c.throttleAccel
	p.packetThrottleDeceleration = c.throttleDecel
	p.eventData = c.data
	p.connectData = c.data

	in := c.incomingSessionID
	if in == 0xFF {
		in = p.outgoingSessionID
	}
	in = (in + 1) & (headerSessionMask >> headerSessionShift)
	if in == p.outgoingSessionID {
		in = (in + 1) & (headerSessionMask >> headerSessionShift)
	}
	p.outgoingSessionID = in
	out := c.outgoingSessionID
	if out == 0xFF {
		out = p.incomingSessionID
	}
	out = (out + 1) & (headerSessionMask >> headerSessionShift)
	if out == p.incomingSessionID {
		out = (out + 1) & (headerSessionMask >> headerSessionShift)
	}
	p.incomingSessionID = out

	mtu := min(max(c.mtu, minMTU), maxMTU)
	if mtu < p.mtu {
		p.mtu = mtu
	}
	hostOut := h.cfg.OutgoingBandwidth
	switch {
	case hostOut == 0 && p.incomingBandwidth == 0:
		p.windowSize = maxWindowSize
	case hostOut == 0 || p.incomingBandwidth == 0:
		p.windowSize = max(hostOut, p.incomingBandwidth) / windowSizeScale * minWindowSize
	default:
		p.windowSize = min(hostOut, p.incomingBandwidth) / windowSizeScale * minWindowSize
	}
	p.windowSize = clampWindow(p.windowSize)
	var windowSize uint32
	if h.cfg.IncomingBandwidth == 0 {
		windowSize = maxWindowSize
	} else {
		windowSize = h.cfg.IncomingBandwidth / windowSizeScale * minWindowSize
	}
	if windowSize > c.windowSize {
		windowSize = c.windowSize
	}
	windowSize = clampWindow(windowSize)

	h.peers[slot] = p
	v := command{
		command:           cmdVerifyConnect | flagAcknowledge,
		channelID:         0xFF,
		outgoingPeerID:    p.id,
		incomingSessionID: in,
		outgoingSessionID: out,
		mtu:               p.mtu,
		windowSize:        windowSize,
		channelCount:      channelCount,
		incomingBandwidth: h.cfg.IncomingBandwidth,
		outgoingBandwidth: h.cfg.OutgoingBandwidth,
		throttleInterval:  p.packetThrottleInterval,
		throttleAccel:     p.packetThrottleAcceleration,
		throttleDecel:     p.packetThrottleDeceleration,
		connectID:         p.connectID,
	}
	h.queueOutgoing(p, &v, nil, 0, 0)
	return p
}

// refuseConnect answers a CONNECT the host has no room for with an
// unsequenced DISCONNECT addressed to the connecting peer, as
// enet_peer_disconnect_now would send it: the client's connection fails at
// once instead of after its timeout. Nothing is kept; the answer is
// smaller than the CONNECT.
func (h *Host) refuseConnect(c *command, ap netip.AddrPort, addr net.Addr) {
	h.stats.ConnectsRefused++
	if c.outgoingPeerID >= maxPeerID {
		return
	}
	out := binary.BigEndian.AppendUint16(h.datagramBuf(), c.outgoingPeerID)
	var cmd [8]byte
	body := appendCommand(cmd[:0], &command{command: cmdDisconnect | flagUnsequenced, channelID: 0xFF})
	if h.cfg.Checksum {
		var seed [4]byte
		binary.LittleEndian.PutUint32(seed[:], c.connectID)
		out = binary.BigEndian.AppendUint32(out, enetCRC32(out[:2], seed[:], body))
	}
	out = append(out, body...)
	h.addDatagram(datagram{ap: ap, addr: addr}, out)
	h.wakeSender()
}

func (h *Host) handleVerifyConnect(p *Peer, c *command) bool {
	if p.state != stateConnecting {
		return true
	}
	if c.channelCount < minChannelCount || c.channelCount > maxChannelCount ||
		c.throttleInterval != p.packetThrottleInterval ||
		c.throttleAccel != p.packetThrottleAcceleration ||
		c.throttleDecel != p.packetThrottleDeceleration ||
		c.connectID != p.connectID {
		p.eventData = 0
		h.zombie(p)
		return false
	}
	h.removeSentReliable(p, 1, 0xFF)
	if c.channelCount < uint32(p.channelCount) {
		p.channelCount = uint8(c.channelCount)
		if len(p.channels) > int(p.channelCount) {
			p.channels = p.channels[:p.channelCount]
		}
	}
	p.outgoingPeerID = c.outgoingPeerID
	p.incomingSessionID = c.incomingSessionID
	p.outgoingSessionID = c.outgoingSessionID
	mtu := min(max(c.mtu, minMTU), maxMTU)
	if mtu < p.mtu {
		p.mtu = mtu
	}
	w := clampWindow(c.windowSize)
	if w < p.windowSize {
		p.windowSize = w
	}
	p.incomingBandwidth = c.incomingBandwidth
	p.outgoingBandwidth = c.outgoingBandwidth
	h.notifyConnect(p)
	return true
}

func (h *Host) handleBandwidthLimit(p *Peer, c *command) bool {
	if p.state != stateConnected && p.state != stateDisconnectLater {
		return false
	}
	if p.incomingBandwidth != 0 {
		h.bwLimited--
	}
	p.incomingBandwidth = c.incomingBandwidth
	p.outgoingBandwidth = c.outgoingBandwidth
	if p.incomingBandwidth != 0 {
		h.bwLimited++
	}
	hostOut := h.cfg.OutgoingBandwidth
	switch {
	case p.incomingBandwidth == 0 && hostOut == 0:
		p.windowSize = maxWindowSize
	case p.incomingBandwidth == 0 || hostOut == 0:
		p.windowSize = max(p.incomingBandwidth, hostOut) / windowSizeScale * minWindowSize
	default:
		p.windowSize = min(p.incomingBandwidth, hostOut) / windowSizeScale * minWindowSize
	}
	p.windowSize = clampWindow(p.windowSize)
	return true
}

func (h *Host) handleDisconnect(p *Peer, c *command) {
	if p.state == stateDisconnected || p.state == stateZombie || p.state == stateAcknowledgingDisconnect {
		return
	}
	h.resetQueues(p)
	switch {
	case p.state == stateConnectionSucceeded || p.state == stateDisconnecting || p.state == stateConnecting:
		p.eventData = c.data
		h.zombie(p)
	case p.state != stateConnected && p.state != stateDisconnectLater:
		if p.state == stateConnectionPending {
			h.recalcBW = true
		}
		h.resetPeer(p)
	case c.command&flagAcknowledge != 0:
		h.changeState(p, stateAcknowledgingDisconnect)
		p.eventData = c.data
	default:
		p.eventData = c.data
		h.zombie(p)
	}
}
