package enet

import (
	"net"
	"net/netip"
	"time"
)

type peerState uint8

// Peer states, numbered as ENet's ENetPeerState.
const (
	stateDisconnected peerState = iota
	stateConnecting
	stateAcknowledgingConnect
	stateConnectionPending
	stateConnectionSucceeded
	stateConnected
	stateDisconnectLater
	stateDisconnecting
	stateAcknowledgingDisconnect
	stateZombie
)

// Peer and host constants of ENet (include/enet/enet.h).
const (
	defaultRoundTripTime       = 500
	defaultPacketThrottle      = 32
	packetThrottleScale        = 32
	packetThrottleCounter      = 7
	packetThrottleAcceleration = 2
	packetThrottleDeceleration = 2
	packetThrottleInterval     = 5000
	packetLossScale            = 1 << 16
	packetLossInterval         = 10000
	windowSizeScale            = 64 * 1024
	bandwidthThrottleInterval  = 1000
	timeOverflow               = 86400000
)

func timeLess(a, b uint32) bool { return a-b >= timeOverflow }
func timeDiff(a, b uint32) uint32 {
	if a-b >= timeOverflow {
		return b - a
	}
	return a - b
}

func clampWindow(w uint32) uint32 {
	if w < minWindowSize {
		return minWindowSize
	}
	if w > maxWindowSize {
		return maxWindowSize
	}
	return w
}

// Peer is the other end of one connection. A Peer value belongs to one
// connection: once it is disconnected it stays so, and a new connection
// from the same address is a new Peer.
type Peer struct {
	host *Host

	id                                   uint16 // incomingPeerID: our slot
	outgoingPeerID                       uint16
	connectID                            uint32
	outgoingSessionID, incomingSessionID uint8

	ap    netip.AddrPort
	addr  net.Addr
	key   string       // addr.String() when addr is not UDP
	ua    *net.UDPAddr // ap as a *net.UDPAddr, made when a batch needs it (nil when ap changes)
	state peerState

	// channelCount is the connection's number of channels; channels
	// holds those used so far, up to the highest one used, each allocated
	// when first used.
	channelCount uint8
	// ended: the connection has ended; everUp: it was ever connected
	// (next to the small fields above, where they take no room of their
	// own).
	ended, everUp bool
	channels      []*channel

	incomingBandwidth, outgoingBandwidth                           uint32
	incomingBandwidthThrottleEpoch, outgoingBandwidthThrottleEpoch uint32
	incomingDataTotal, outgoingDataTotal                           uint32

	lastSendTime, lastReceiveTime, nextTimeout, earliestTimeout uint32
	packetLossEpoch, packetsSent, packetsLost                   uint32
	packetLoss, packetLossVariance                              uint32

	packetThrottle, packetThrottleLimit, packetThrottleCounter, packetThrottleEpoch uint32
	packetThrottleAcceleration, packetThrottleDeceleration, packetThrottleInterval  uint32

	pingInterval, timeoutLimit, timeoutMinimum, timeoutMaximum uint32

	lastRoundTripTime, lowestRoundTripTime             uint32
	lastRoundTripTimeVariance, highestRTTVariance      uint32
	roundTripTime, roundTripTimeVariance               uint32
	mtu, windowSize, reliableDataInTransit             uint32
	outgoingReliableSequenceNumber                     uint16
	incomingUnsequencedGroup, outgoingUnsequencedGroup uint16
	unsequencedWindow                                  *[unsequencedWindowSize / 32]uint32 // made by the first unsequenced packet

	acks ackList
	// ackedData is the data of the commands acks acknowledges (about:
	// kept until every owed acknowledgement has gone).
	ackedData uint32
	// windowFull: the reliable window held back a packet at the last
	// datagram built (an acknowledgement may free it: flush at once).
	windowFull bool
	// ackAfter, when ackAfterOK, is the command of sentReliable before
	// the one the last acknowledgement removed (nil: the head), where the
	// search for the next begins: acknowledgements come mostly in the
	// order the commands were sent, and commands lost in transit stay at
	// the head until resent. Only removeSentReliable keeps it; any other
	// change to sentReliable but a push clears ackAfterOK.
	ackAfterOK           bool
	ackAfter             *outCmd
	sentReliable         outList
	outgoing             outList
	outgoingSendReliable outList

	eventData   uint32
	connectData uint32
	waiting     int // incoming bytes charged to MaxWaitingData and MaxPeerMemory
	queued      int // outgoing bytes charged to MaxOutgoingData and MaxPeerMemory
	handshake   uint32
	pending     bool // counted in host.pending
	dirty       bool
	cont        bool // continue sending
	capped      bool // the last pass ended at maxDatagramsPerPass with more to send

	// connectedCh is closed when a connection this host started is up
	// (nil for a peer that connected to us); closedCh when the
	// connection has ended (ended), made when first asked for.
	connectedCh chan struct{}
	closedCh    chan struct{}
}

// channel returns channel i (below channelCount), allocating it on first
// use.
func (p *Peer) channel(i uint8) *channel {
	if int(i) >= len(p.channels) {
		p.channels = append(p.channels, make([]*channel, int(i)+1-len(p.channels))...)
	}
	c := p.channels[i]
	if c == nil {
		c = new(channel)
		p.channels[i] = c
	}
	return c
}

type channel struct {
	outgoingReliableSeq   uint16
	outgoingUnreliableSeq uint16
	usedReliableWindows   uint16
	reliableWindows       [reliableWindows]uint16
	incomingReliableSeq   uint16
	incomingUnreliableSeq uint16
	incomingReliable      reliableQueue
	incomingUnreliable    []*inCmd
}

type ack struct {
	sentTime  uint16
	command   uint8
	channelID uint8
	seq       uint16
}

type inCmd struct {
	cmd                command
	reliableSeq        uint16
	unreliableSeq      uint16
	fragmentCount      uint32
	fragmentsRemaining uint32
	fragments          []uint32
	totalLength        uint32
	pieces             []piece
	received           uint32
	data               []byte
	flags              Flags
	cost               int
	delivered          bool
}

type piece struct {
	offset uint32
	data   []byte
}

func (h *Host) newPeer(id uint16) *Peer {
	p := &Peer{
		host:              h,
		id:                id,
		outgoingSessionID: 0xFF,
		incomingSessionID: 0xFF,
	}
	p.resetFields()
	return p
}

func (p *Peer) resetFields() {
	h := p.host
	p.outgoingPeerID = maxPeerID
	p.packetThrottle = defaultPacketThrottle
	p.packetThrottleLimit = packetThrottleScale
	p.packetThrottleAcceleration = packetThrottleAcceleration
	p.packetThrottleDeceleration = packetThrottleDeceleration
	p.packetThrottleInterval = packetThrottleInterval
	p.pingInterval = h.cfg.pingInterval
	p.timeoutLimit = uint32(h.cfg.TimeoutLimit)
	p.timeoutMinimum = h.cfg.timeoutMinimum
	p.timeoutMaximum = h.cfg.timeoutMaximum
	p.lastRoundTripTime = defaultRoundTripTime
	p.lowestRoundTripTime = defaultRoundTripTime
	p.roundTripTime = defaultRoundTripTime
	p.mtu = uint32(h.cfg.MTU)
	p.windowSize = maxWindowSize
}

func (p *Peer) setAddr(addr net.Addr) {
	p.addr = addr
	if ua, ok := addr.(*net.UDPAddr); ok {
		ap := ua.AddrPort()
		p.ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
		return
	}
	p.key = addr.String()
}

func (p *Peer) sameAddr(ap netip.AddrPort, addr net.Addr) bool {
	if ap.IsValid() {
		return p.ap == ap
	}
	return addr != nil && p.key == addr.String()
}

func (p *Peer) sameIP(ap netip.AddrPort, addr net.Addr) bool {
	if ap.IsValid() {
		return p.ap.Addr() == ap.Addr()
	}
	if addr == nil {
		return false
	}
	host1, _, _ := net.SplitHostPort(p.key)
	host2, _, _ := net.SplitHostPort(addr.String())
	return host1 == host2
}

// Host is the host the peer belongs to.
func (p *Peer) Host() *Host { return p.host }

// ID is the peer's slot in its host (ENet's incomingPeerID), 0..PeerLimit-1.
// It is reused by later connections once this one has ended.
func (p *Peer) ID() int { return int(p.id) }

// Addr is the peer's address.
func (p *Peer) Addr() net.Addr {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	if p.addr == nil && p.ap.IsValid() {
		return net.UDPAddrFromAddrPort(p.ap)
	}
	return p.addr
}

// ConnectData is the data the peer sent with its CONNECT (for a peer that
// connected to us) or that we sent (for a peer we connected to).
func (p *Peer) ConnectData() uint32 { return p.connectData }

// Connected reports whether the connection is up (also while a
// DisconnectLater is draining).
func (p *Peer) Connected() bool {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	return p.state == stateConnected || p.state == stateDisconnectLater
}

// Done is closed when the connection has ended (or failed to start).
func (p *Peer) Done() <-chan struct{} {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	return p.doneCh()
}

// doneCh is Done's channel, under h.mu.
func (p *Peer) doneCh() chan struct{} {
	if p.closedCh == nil {
		p.closedCh = make(chan struct{})
		if p.ended {
			close(p.closedCh)
		}
	}
	return p.closedCh
}

// ChannelCount is the number of channels of the connection.
func (p *Peer) ChannelCount() int {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	return int(p.channelCount)
}

// RoundTripTime is ENet's smoothed round-trip estimate, and its variance.
func (p *Peer) RoundTripTime() (rtt, variance time.Duration) {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	return time.Duration(p.roundTripTime) * time.Millisecond, time.Duration(p.roundTripTimeVariance) * time.Millisecond
}

// PacketLoss is ENet's mean packet loss of reliable commands, 0..1.
func (p *Peer) PacketLoss() float64 {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	return float64(p.packetLoss) / packetLossScale
}

// MTU is the connection's MTU, agreed in the handshake.
func (p *Peer) MTU() int {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	return int(p.mtu)
}

// SetTimeout is enet_peer_timeout: see Config.TimeoutLimit. Zero values
// keep ENet's defaults (32, 5 s, 30 s).
func (p *Peer) SetTimeout(limit int, minimum, maximum time.Duration) {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	p.timeoutLimit = DefaultTimeoutLimit
	if limit > 0 {
		p.timeoutLimit = uint32(limit)
	}
	p.timeoutMinimum = uint32(DefaultTimeoutMinimum.Milliseconds())
	if minimum > 0 {
		p.timeoutMinimum = uint32(minimum.Milliseconds())
	}
	p.timeoutMaximum = uint32(DefaultTimeoutMaximum.Milliseconds())
	if maximum > 0 {
		p.timeoutMaximum = uint32(maximum.Milliseconds())
	}
}

// SetPingInterval is enet_peer_ping_interval (0: 500 ms).
func (p *Peer) SetPingInterval(d time.Duration) {
	p.host.mu.Lock()
	defer p.host.mu.Unlock()
	p.pingInterval = uint32(d.Milliseconds())
	if p.pingInterval == 0 {
		p.pingInterval = uint32(DefaultPingInterval.Milliseconds())
	}
}

// ConfigureThrottle is enet_peer_throttle_configure: it sets the packet
// throttle's interval (ms), acceleration and deceleration (in 1/32) and
// tells the peer.
func (p *Peer) ConfigureThrottle(interval time.Duration, acceleration, deceleration uint32) {
	h := p.host
	h.mu.Lock()
	defer h.mu.Unlock()
	p.packetThrottleInterval = uint32(interval.Milliseconds())
	p.packetThrottleAcceleration = acceleration
	p.packetThrottleDeceleration = deceleration
	if p.state != stateConnected && p.state != stateDisconnectLater {
		return
	}
	c := command{command: cmdThrottleConfigure | flagAcknowledge, channelID: 0xFF,
		throttleInterval: p.packetThrottleInterval, throttleAccel: acceleration, throttleDecel: deceleration}
	h.queueOutgoing(p, &c, nil, 0, 0)
	h.wakeSender()
}

// Ping sends a ping now (ENet pings idle peers by itself).
func (p *Peer) Ping() {
	h := p.host
	h.mu.Lock()
	defer h.mu.Unlock()
	h.ping(p)
	h.wakeSender()
}

func (h *Host) ping(p *Peer) {
	if p.state != stateConnected {
		return
	}
	c := command{command: cmdPing | flagAcknowledge, channelID: 0xFF}
	h.queueOutgoing(p, &c, nil, 0, 0)
}

// Send queues data on channel with flags (Reliable, Unsequenced,
// UnreliableFragment, or 0 for unreliable sequenced). data is copied;
// packets larger than one datagram are fragmented. The host's goroutine
// sends it within a moment.
func (p *Peer) Send(ch uint8, data []byte, flags Flags) error {
	return p.SendPrefixed(ch, nil, data, flags)
}

// SendPrefixed sends prefix followed by data as one packet, as
// Send(ch, append(prefix, data...), flags) would, copying each once
// into the packet's buffer (a header built on the caller's stack, such
// as a Godot 3 packet's, costs no allocation of its own).
func (p *Peer) SendPrefixed(ch uint8, prefix, data []byte, flags Flags) error {
	h := p.host
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.sendCopied(p, ch, prefix, data, flags)
}

// sendCopied is SendPrefixed under h.mu: it queues a copy of prefix and
// data, and has the packet sent.
func (h *Host) sendCopied(p *Peer, ch uint8, prefix, data []byte, flags Flags) error {
	if err := h.send(p, ch, prefix, data, flags, sendCopy); err != nil {
		return err
	}
	h.queued1(p)
	h.wakeSender()
	return nil
}

// queued1 follows a packet queued for p: p has something to send, and
// without frames a peer with a datagram's worth queued is flushed now.
func (h *Host) queued1(p *Peer) {
	h.markDirty(p)
	if h.frame == nil && (p.outgoing.len() >= maxPacketCommands || p.outgoingSendReliable.len() >= maxPacketCommands) {
		select {
		case h.flushWake <- struct{}{}:
		default:
		}
	}
}

// SendMany queues prefix followed by data as one packet on channel ch
// for each of peers, as SendPrefixed does for each, under one lock and
// with one copy: a packet that fits one datagram and a reused buffer (up
// to 3452 bytes) is copied once into a buffer that the peers' commands
// share, which the host reuses once the last of them is sent or
// acknowledged (a larger one is copied once too, and garbage collected).
// Each peer is charged as if it held a copy of its own, so the budgets
// behave as with SendPrefixed. It returns how many peers failed; errs[i],
// for each i below len(errs), is set to peers[i]'s error, nil when the
// packet is queued for it (errs may be nil). A nil peer fails with
// ErrNotConnected, a peer of another host with ErrOtherHost.
func (h *Host) SendMany(peers []*Peer, ch uint8, prefix, data []byte, flags Flags, errs []error) int {
	h.mu.Lock()
	defer h.mu.Unlock()
	shared, how := h.sharePacket(prefix, data)
	failed := 0
	for i, p := range peers {
		var err error
		switch {
		case p == nil:
			err = ErrNotConnected
		case p.host != h:
			err = ErrOtherHost
		default:
			err = h.send(p, ch, nil, shared, flags, how)
		}
		if i < len(errs) {
			errs[i] = err
		}
		if err != nil {
			failed++
			continue
		}
		h.queued1(p)
	}
	h.shareDone(shared, how)
	if failed < len(peers) {
		h.wakeSender()
	}
	return failed
}

// sendHow says what send does with a packet's data.
type sendHow uint8

const (
	sendCopy   sendHow = iota // copy prefix and data, into a pooled buffer when they fit one
	sendKeep                  // keep data, which nobody changes (prefix empty)
	sendShared                // data is sharePacket's pooled buffer (prefix empty)
)

// bufKind is whose buffer a command's data is.
type bufKind uint8

const (
	bufCaller bufKind = iota // the caller's, or allocated for the command: garbage collected
	bufOwn                   // the command's own, from copySend: reused once it is done
	bufShared                // sharePacket's, counted (shareRefs): reused once no command holds it
)

// send queues the packet prefix+data, as how says.
func (h *Host) send(p *Peer, ch uint8, prefix, data []byte, flags Flags, how sendHow) error {
	if h.closed {
		return ErrClosed
	}
	if p.state != stateConnected {
		return ErrNotConnected
	}
	if ch >= p.channelCount {
		return ErrChannel
	}
	size := len(prefix) + len(data)
	if size > h.cfg.MaxPacketSize {
		return ErrTooLarge
	}
	fragmentLength := int(p.mtu) - 4 - commandSizes[cmdSendFragment]
	if h.cfg.Checksum {
		fragmentLength -= 4
	}
	count := 1
	if size > fragmentLength {
		count = (size + fragmentLength - 1) / fragmentLength
		if count > maxFragmentCount {
			return ErrTooLarge
		}
	}
	if err := h.checkSend(p, sendCost(size, count)); err != nil {
		return err
	}
	kind := bufCaller
	switch {
	case how == sendShared && count == 1:
		kind = bufShared
		addShareRef(data)
	case how != sendKeep || data == nil:
		// A shared packet that this peer's MTU fragments gets a copy of
		// its own: fragments do not count their holders.
		var b []byte
		if count == 1 {
			b = h.copySend(prefix, data)
		}
		if b != nil {
			data, kind = b, bufOwn
		} else {
			data = append(append(make([]byte, 0, size), prefix...), data...) // never nil: nil marks commands without a packet
		}
	}
	c := p.channel(ch)
	if count > 1 {
		var number uint8
		var start uint16
		if flags&(Reliable|UnreliableFragment) == UnreliableFragment && c.outgoingUnreliableSeq < 0xFFFF {
			number = cmdSendUnreliableFragment
			start = c.outgoingUnreliableSeq + 1
		} else {
			number = cmdSendFragment | flagAcknowledge
			start = c.outgoingReliableSeq + 1
		}
		for i, off := 0, 0; off < len(data); i, off = i+1, off+fragmentLength {
			n := min(fragmentLength, len(data)-off)
			oc := h.newOutCmd()
			*oc = outCmd{
				command:        number,
				channelID:      ch,
				seq2:           start,
				fragmentCount:  uint32(count),
				fragmentNumber: uint32(i),
				fragmentOffset: uint32(off),
				fragmentLength: uint32(n),
				data:           data,
			}
			oc.cost = outCmdCost
			if off+n == len(data) {
				oc.cost += int32(sendAlloc(len(data)))
			}
			h.charge(p, int(oc.cost))
			h.setupOutgoing(p, oc)
		}
		return nil
	}
	cmd := command{channelID: ch, dataLength: uint16(len(data))}
	switch {
	case flags&(Reliable|Unsequenced) == Unsequenced:
		cmd.command = cmdSendUnsequenced | flagUnsequenced
	case flags&Reliable != 0 || c.outgoingUnreliableSeq == 0xFFFF:
		cmd.command = cmdSendReliable | flagAcknowledge
	default:
		cmd.command = cmdSendUnreliable
	}
	oc := h.queueOutgoing(p, &cmd, data, 0, uint32(len(data)))
	oc.buf = kind
	oc.cost = int32(sendCost(len(data), 1))
	h.charge(p, int(oc.cost))
	return nil
}

// Disconnect asks the peer to disconnect (enet_peer_disconnect): queued
// packets are dropped, a DISCONNECT carrying data is sent reliably, and
// an EventDisconnect follows once the peer acknowledges it or times out.
func (p *Peer) Disconnect(data uint32) {
	h := p.host
	h.mu.Lock()
	defer h.mu.Unlock()
	h.disconnect(p, data)
	h.wakeSender()
}

// DisconnectLater disconnects once all queued packets are sent and
// acknowledged (enet_peer_disconnect_later).
func (p *Peer) DisconnectLater(data uint32) {
	h := p.host
	h.mu.Lock()
	defer h.mu.Unlock()
	if (p.state == stateConnected || p.state == stateDisconnectLater) && p.hasOutgoing() {
		p.state = stateDisconnectLater
		p.eventData = data
	} else {
		h.disconnect(p, data)
	}
	h.wakeSender()
}

// DisconnectNow drops the connection at once (enet_peer_disconnect_now):
// one unreliable DISCONNECT is sent, and no EventDisconnect is reported.
func (p *Peer) DisconnectNow(data uint32) {
	h := p.host
	h.mu.Lock()
	if p.state == stateDisconnected || h.closed {
		h.mu.Unlock()
		return
	}
	if p.state != stateZombie && p.state != stateDisconnecting {
		h.resetQueues(p)
		c := command{command: cmdDisconnect | flagUnsequenced, channelID: 0xFF, data: data}
		h.queueOutgoing(p, &c, nil, 0, 0)
		h.serviceTime = h.now()
		h.sendPeer(p, false)
	}
	h.resetPeer(p)
	out, arena := h.takeOutbox()
	h.mu.Unlock()
	h.write(out, arena)
}

// Reset forgets the peer without telling it (enet_peer_reset); it will
// time out on its side.
func (p *Peer) Reset() {
	h := p.host
	h.mu.Lock()
	defer h.mu.Unlock()
	if p.state != stateDisconnected {
		h.resetPeer(p)
	}
}

func (h *Host) disconnect(p *Peer, data uint32) {
	switch p.state {
	case stateDisconnecting, stateDisconnected, stateAcknowledgingDisconnect, stateZombie:
		return
	}
	h.resetQueues(p)
	c := command{command: cmdDisconnect, channelID: 0xFF, data: data}
	up := p.state == stateConnected || p.state == stateDisconnectLater
	if up {
		c.command |= flagAcknowledge
	} else {
		c.command |= flagUnsequenced
	}
	h.queueOutgoing(p, &c, nil, 0, 0)
	if up {
		h.onDisconnect(p)
		p.state = stateDisconnecting
	} else {
		h.serviceTime = h.now()
		h.sendPeer(p, false)
		h.resetPeer(p)
	}
}

func (p *Peer) hasOutgoing() bool {
	return p.outgoing.len() != 0 || p.outgoingSendReliable.len() != 0 || p.sentReliable.len() != 0
}

func (h *Host) onConnect(p *Peer) {
	if p.state != stateConnected && p.state != stateDisconnectLater {
		if p.incomingBandwidth != 0 {
			h.bwLimited++
		}
		h.connected++
	}
}

func (h *Host) onDisconnect(p *Peer) {
	if p.state == stateConnected || p.state == stateDisconnectLater {
		if p.incomingBandwidth != 0 {
			h.bwLimited--
		}
		h.connected--
	}
}

func (h *Host) changeState(p *Peer, s peerState) {
	if s == stateConnected || s == stateDisconnectLater {
		h.onConnect(p)
	} else {
		h.onDisconnect(p)
	}
	p.state = s
}

// resetQueues drops everything queued for or from the peer.
func (h *Host) resetQueues(p *Peer) {
	h.clearAcks(p)
	p.ackedData = 0
	p.sentReliable = outList{}
	p.ackAfter, p.ackAfterOK = nil, false
	p.outgoing = outList{}
	p.outgoingSendReliable = outList{}
	h.uncharge(p, p.queued)
	p.reliableDataInTransit = 0
	for _, c := range p.channels {
		if c == nil {
			continue
		}
		c.incomingReliable.each(func(ic *inCmd) { h.release(p, ic.cost) })
		h.release(p, c.incomingReliable.cost)
		for _, ic := range c.incomingUnreliable {
			h.release(p, ic.cost)
		}
	}
	p.channels = nil
	p.channelCount = 0
}

func (h *Host) release(p *Peer, cost int) {
	p.waiting -= cost
	h.waiting -= cost
}

// resetPeer ends the connection and frees the peer's slot.
func (h *Host) resetPeer(p *Peer) {
	h.onDisconnect(p)
	if p.pending {
		p.pending = false
		h.pending--
	}
	h.resetQueues(p)
	wasUp := p.state != stateDisconnected
	p.state = stateDisconnected
	if int(p.id) < len(h.peers) && h.peers[p.id] == p {
		h.peers[p.id] = nil
	}
	if wasUp && !p.ended {
		p.ended = true
		if p.closedCh != nil {
			close(p.closedCh)
		}
	}
}

// zombie reports the end of a connection: an EventDisconnect (for a peer
// the application knew) and the reset.
func (h *Host) zombie(p *Peer) {
	if p.state >= stateConnectionPending {
		h.recalcBW = true
	}
	if p.everUp || p.state == stateConnecting || p.state == stateConnectionSucceeded {
		h.pushEvent(Event{Type: EventDisconnect, Peer: p, Data: p.eventData})
	}
	h.resetPeer(p)
}

// notifyConnect completes a handshake.
func (h *Host) notifyConnect(p *Peer) {
	h.recalcBW = true
	if p.pending {
		p.pending = false
		h.pending--
	}
	h.changeState(p, stateConnected)
	p.everUp = true
	h.pushEvent(Event{Type: EventConnect, Peer: p, Data: p.eventData})
	if p.connectedCh != nil {
		close(p.connectedCh)
	}
}

// notifyDisconnect reports a connection that timed out or was refused.
func (h *Host) notifyDisconnect(p *Peer) {
	if p.state >= stateConnectionPending {
		h.recalcBW = true
	}
	if p.state != stateConnecting && p.state < stateConnectionSucceeded {
		h.resetPeer(p)
		return
	}
	p.eventData = 0
	h.zombie(p)
}
