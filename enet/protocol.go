package enet

import (
	"encoding/binary"
	"hash/crc32"
)

// Protocol limits of ENet 1.3.x (include/enet/protocol.h).
const (
	minMTU             = 576
	maxMTU             = 4096
	maxPacketCommands  = 32
	minWindowSize      = 4096
	maxWindowSize      = 65536
	minChannelCount    = 1
	maxChannelCount    = 255
	maxPeerID          = 0xFFF
	maxFragmentCount   = 1024 * 1024
	headerFlagCompress = 1 << 14
	headerFlagSentTime = 1 << 15
	headerFlagMask     = headerFlagCompress | headerFlagSentTime
	headerSessionMask  = 3 << 12
	headerSessionShift = 12
	flagAcknowledge    = 1 << 7
	flagUnsequenced    = 1 << 6
	commandMask        = 0x0F
)

// Command numbers of ENet's protocol.
const (
	cmdNone                   = 0
	cmdAcknowledge            = 1
	cmdConnect                = 2
	cmdVerifyConnect          = 3
	cmdDisconnect             = 4
	cmdPing                   = 5
	cmdSendReliable           = 6
	cmdSendUnreliable         = 7
	cmdSendFragment           = 8
	cmdSendUnsequenced        = 9
	cmdBandwidthLimit         = 10
	cmdThrottleConfigure      = 11
	cmdSendUnreliableFragment = 12
	cmdCount                  = 13
)

// commandSizes is the fixed size of each command on the wire, its payload
// (dataLength bytes for the send commands) not included.
var commandSizes = [cmdCount]int{
	cmdNone:                   0,
	cmdAcknowledge:            8,
	cmdConnect:                48,
	cmdVerifyConnect:          44,
	cmdDisconnect:             8,
	cmdPing:                   4,
	cmdSendReliable:           6,
	cmdSendUnreliable:         8,
	cmdSendFragment:           24,
	cmdSendUnsequenced:        8,
	cmdBandwidthLimit:         12,
	cmdThrottleConfigure:      16,
	cmdSendUnreliableFragment: 24,
}

// commandSize returns the wire size of command number c (flags ignored).
func commandSize(c uint8) int {
	n := c & commandMask
	if n >= cmdCount {
		return 0
	}
	return commandSizes[n]
}

// command is one protocol command in host form. Which fields are used
// depends on the command number; the rest stay zero.
type command struct {
	command   uint8 // number | flags
	channelID uint8
	seq       uint16 // reliableSequenceNumber

	// ACKNOWLEDGE
	receivedSeq      uint16
	receivedSentTime uint16

	// CONNECT, VERIFY_CONNECT
	outgoingPeerID    uint16
	incomingSessionID uint8
	outgoingSessionID uint8
	mtu               uint32
	windowSize        uint32
	channelCount      uint32
	incomingBandwidth uint32 // also BANDWIDTH_LIMIT
	outgoingBandwidth uint32 // also BANDWIDTH_LIMIT
	throttleInterval  uint32 // also THROTTLE_CONFIGURE
	throttleAccel     uint32
	throttleDecel     uint32
	connectID         uint32 // opaque: kept in the byte order it came in
	data              uint32 // CONNECT, DISCONNECT

	// SEND_*
	seq2           uint16 // unreliableSequenceNumber, unsequencedGroup or startSequenceNumber
	dataLength     uint16
	fragmentCount  uint32
	fragmentNumber uint32
	totalLength    uint32
	fragmentOffset uint32
}

func (c *command) number() uint8 { return c.command & commandMask }

// decodeCommand reads the fixed part of one command from b, which holds
// at least commandSize(b[0]) bytes.
func decodeCommand(b []byte, c *command) {
	be := binary.BigEndian
	*c = command{command: b[0], channelID: b[1], seq: be.Uint16(b[2:])}
	switch c.number() {
	case cmdAcknowledge:
		c.receivedSeq = be.Uint16(b[4:])
		c.receivedSentTime = be.Uint16(b[6:])
	case cmdConnect, cmdVerifyConnect:
		c.outgoingPeerID = be.Uint16(b[4:])
		c.incomingSessionID = b[6]
		c.outgoingSessionID = b[7]
		c.mtu = be.Uint32(b[8:])
		c.windowSize = be.Uint32(b[12:])
		c.channelCount = be.Uint32(b[16:])
		c.incomingBandwidth = be.Uint32(b[20:])
		c.outgoingBandwidth = be.Uint32(b[24:])
		c.throttleInterval = be.Uint32(b[28:])
		c.throttleAccel = be.Uint32(b[32:])
		c.throttleDecel = be.Uint32(b[36:])
		c.connectID = binary.LittleEndian.Uint32(b[40:])
		if c.number() == cmdConnect {
			c.data = be.Uint32(b[44:])
		}
	case cmdDisconnect:
		c.data = be.Uint32(b[4:])
	case cmdSendReliable:
		c.dataLength = be.Uint16(b[4:])
	case cmdSendUnreliable, cmdSendUnsequenced:
		c.seq2 = be.Uint16(b[4:])
		c.dataLength = be.Uint16(b[6:])
	case cmdSendFragment, cmdSendUnreliableFragment:
		c.seq2 = be.Uint16(b[4:])
		c.dataLength = be.Uint16(b[6:])
		c.fragmentCount = be.Uint32(b[8:])
		c.fragmentNumber = be.Uint32(b[12:])
		c.totalLength = be.Uint32(b[16:])
		c.fragmentOffset = be.Uint32(b[20:])
	case cmdBandwidthLimit:
		c.incomingBandwidth = be.Uint32(b[4:])
		c.outgoingBandwidth = be.Uint32(b[8:])
	case cmdThrottleConfigure:
		c.throttleInterval = be.Uint32(b[4:])
		c.throttleAccel = be.Uint32(b[8:])
		c.throttleDecel = be.Uint32(b[12:])
	}
}

// appendCommand appends the fixed part of c to b.
func appendCommand(b []byte, c *command) []byte {
	be := binary.BigEndian
	b = append(b, c.command, c.channelID)
	b = be.AppendUint16(b, c.seq)
	switch c.number() {
	case cmdAcknowledge:
		b = be.AppendUint16(b, c.receivedSeq)
		b = be.AppendUint16(b, c.receivedSentTime)
	case cmdConnect, cmdVerifyConnect:
		b = be.AppendUint16(b, c.outgoingPeerID)
		b = append(b, c.incomingSessionID, c.outgoingSessionID)
		b = be.AppendUint32(b, c.mtu)
		b = be.AppendUint32(b, c.windowSize)
		b = be.AppendUint32(b, c.channelCount)
		b = be.AppendUint32(b, c.incomingBandwidth)
		b = be.AppendUint32(b, c.outgoingBandwidth)
		b = be.AppendUint32(b, c.throttleInterval)
		b = be.AppendUint32(b, c.throttleAccel)
		b = be.AppendUint32(b, c.throttleDecel)
		b = binary.LittleEndian.AppendUint32(b, c.connectID)
		if c.number() == cmdConnect {
			b = be.AppendUint32(b, c.data)
		}
	case cmdDisconnect:
		b = be.AppendUint32(b, c.data)
	case cmdSendReliable:
		b = be.AppendUint16(b, c.dataLength)
	case cmdSendUnreliable, cmdSendUnsequenced:
		b = be.AppendUint16(b, c.seq2)
		b = be.AppendUint16(b, c.dataLength)
	case cmdSendFragment, cmdSendUnreliableFragment:
		b = be.AppendUint16(b, c.seq2)
		b = be.AppendUint16(b, c.dataLength)
		b = be.AppendUint32(b, c.fragmentCount)
		b = be.AppendUint32(b, c.fragmentNumber)
		b = be.AppendUint32(b, c.totalLength)
		b = be.AppendUint32(b, c.fragmentOffset)
	case cmdBandwidthLimit:
		b = be.AppendUint32(b, c.incomingBandwidth)
		b = be.AppendUint32(b, c.outgoingBandwidth)
	case cmdThrottleConfigure:
		b = be.AppendUint32(b, c.throttleInterval)
		b = be.AppendUint32(b, c.throttleAccel)
		b = be.AppendUint32(b, c.throttleDecel)
	}
	return b
}

// header is the start of every datagram.
type header struct {
	peerID     uint16 // 0xFFF: no peer yet (CONNECT)
	sessionID  uint8
	flags      uint16 // headerFlagCompress, headerFlagSentTime
	sentTime   uint16
	size       int    // 2 or 4, plus 4 with a checksum
	checksum   uint32 // the datagram's CRC32 as it came (checksum hosts only)
	hasSumSlot bool
}

// parseHeader reads the datagram header of b. checksum says whether the
// host uses ENet's CRC32 checksum (a 4-byte field after the header). It
// reports false when b is too short.
func parseHeader(b []byte, checksum bool, h *header) bool {
	if len(b) < 2 {
		return false
	}
	v := binary.BigEndian.Uint16(b)
	h.sessionID = uint8((v & headerSessionMask) >> headerSessionShift)
	h.flags = v & headerFlagMask
	h.peerID = v &^ (headerFlagMask | headerSessionMask)
	h.size = 2
	h.sentTime = 0
	if h.flags&headerFlagSentTime != 0 {
		if len(b) < 4 {
			return false
		}
		h.sentTime = binary.BigEndian.Uint16(b[2:])
		h.size = 4
	}
	h.hasSumSlot = checksum
	if checksum {
		if len(b) < h.size+4 {
			return false
		}
		h.checksum = binary.BigEndian.Uint32(b[h.size:])
		h.size += 4
	}
	return true
}

// enetCRC32 is enet_crc32: the IEEE CRC-32 of the datagram with the
// checksum field holding the peer's connect ID (0 before the handshake).
// ENet stores it in network byte order.
func enetCRC32(parts ...[]byte) uint32 {
	var crc uint32
	for _, p := range parts {
		crc = crc32.Update(crc, crc32.IEEETable, p)
	}
	return crc
}

// Sequence window constants (include/enet/enet.h).
const (
	reliableWindows        = 16
	reliableWindowSize     = 0x1000
	freeReliableWindows    = 8
	unsequencedWindowSize  = 1024
	freeUnsequencedWindows = 32
)

// inReliableWindow reports whether the reliable sequence number seq is in
// the window ENet accepts, given the channel's last delivered number.
func inReliableWindow(seq, incoming uint16) bool {
	window := seq / reliableWindowSize
	current := incoming / reliableWindowSize
	if seq < incoming {
		window += reliableWindows
	}
	return !(window < current || window >= current+freeReliableWindows-1)
}
