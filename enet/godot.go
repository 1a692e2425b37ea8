package enet

import (
	"encoding/binary"
	"errors"
	"math/rand/v2"
)

// How Godot uses ENet.
//
// Both engine families put their multiplayer peer on a plain ENet 1.3
// host: Godot's copy of ENet (thirdparty/enet) changes only the socket
// layer (IPv6, DTLS), so the wire is the C library's. Compression is off
// by default; the checksum is never enabled.
//
// Peer IDs: a client picks its own ID, a random number in 2..2^31-1, and
// sends it as the CONNECT's data; the server is ID 1 and refuses (resets)
// a connection whose data is below 2 or already taken (4.x; 3.x keeps
// the same rule in its later releases). The server sends no ID back: the
// client knows the server as 1.
//
// Godot 4 (ENetMultiplayerPeer, modules/enet/enet_multiplayer_peer.cpp):
// no per-packet header; ENet channel 0 carries reliable packets, channel
// 1 unreliable ones (TRANSFER_MODE_UNRELIABLE sends UNSEQUENCED |
// UNRELIABLE_FRAGMENT, TRANSFER_MODE_UNRELIABLE_ORDERED sends
// UNRELIABLE_FRAGMENT), and transfer channel n > 0 is ENet channel n+1. A
// client asks for 255 channels unless told otherwise. The multiplayer
// layer (SceneMultiplayer) adds its own messages, including the peer
// add/remove notices, inside these packets.
//
// Godot 3 (NetworkedMultiplayerENet, networked_multiplayer_enet.cpp):
// every packet starts with an 8-byte header, the source peer ID and the
// target peer ID as little-endian 32-bit integers (target 0: everyone,
// -n: everyone but n); channel 0 carries the server's 8-byte notices
// SYSMSG_ADD_PEER / SYSMSG_REMOVE_PEER (message, peer ID), channel 1
// reliable packets, channel 2 unreliable ones (unsequenced unless
// always_ordered), and a transfer channel n > 0 is ENet channel n. The
// client asks for channel_count channels (3 by default). The server
// checks that the source of a client's packet is the client's ID and
// relays packets for other targets.

// Godot 4 ENet channels.
const (
	Godot4ChannelReliable   = 0
	Godot4ChannelUnreliable = 1
	// Godot4ChannelCount is what a Godot 4 client asks for by default.
	Godot4ChannelCount = maxChannelCount
)

// Godot 3 ENet channels and server notices.
const (
	Godot3ChannelConfig     = 0
	Godot3ChannelReliable   = 1
	Godot3ChannelUnreliable = 2
	Godot3ChannelCount      = 3

	Godot3AddPeer    = 0 // SYSMSG_ADD_PEER
	Godot3RemovePeer = 1 // SYSMSG_REMOVE_PEER
)

// Godot4Channel returns the ENet channel Godot 4 uses for transfer
// channel transferChannel (0: by reliability) and the flags it sends with,
// for reliable, unreliable (unordered) and unreliable ordered packets.
func Godot4Channel(transferChannel int, reliable, ordered bool) (channel uint8, flags Flags) {
	switch {
	case reliable:
		channel, flags = Godot4ChannelReliable, Reliable
	case ordered:
		channel, flags = Godot4ChannelUnreliable, UnreliableFragment
	default:
		channel, flags = Godot4ChannelUnreliable, Unsequenced|UnreliableFragment
	}
	if transferChannel > 0 {
		channel = uint8(min(2+transferChannel-1, maxChannelCount-1))
	}
	return channel, flags
}

// NewGodotPeerID returns a random peer ID as Godot clients pick them:
// 2..2^31-1.
func NewGodotPeerID() uint32 {
	return 2 + rand.Uint32N(1<<31-2)
}

// ValidGodotClientID reports whether a Godot server accepts id, the
// connect data of a client, when ids (the peers it has) do not hold it.
func ValidGodotClientID(id uint32, taken func(uint32) bool) bool {
	return id >= 2 && id < 1<<31 && (taken == nil || !taken(id))
}

// ErrGodot3Header is returned for a Godot 3 packet shorter than its
// 8-byte header.
var ErrGodot3Header = errors.New("enet: Godot 3 packet shorter than its 8-byte header")

// AppendGodot3Packet appends a Godot 3 packet: the header (source and
// target peer IDs) and payload.
func AppendGodot3Packet(dst []byte, source, target int32, payload []byte) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(source))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(target))
	return append(dst, payload...)
}

// ParseGodot3Packet splits a Godot 3 packet into its header and payload
// (a slice of b).
func ParseGodot3Packet(b []byte) (source, target int32, payload []byte, err error) {
	if len(b) < 8 {
		return 0, 0, nil, ErrGodot3Header
	}
	return int32(binary.LittleEndian.Uint32(b)), int32(binary.LittleEndian.Uint32(b[4:])), b[8:], nil
}

// Godot3Notice returns the 8-byte server notice msg (Godot3AddPeer or
// Godot3RemovePeer) about peer id, sent reliably on Godot3ChannelConfig.
func Godot3Notice(msg, id int32) []byte {
	return AppendGodot3Notice(nil, msg, id)
}

// AppendGodot3Notice appends the server notice Godot3Notice returns.
func AppendGodot3Notice(dst []byte, msg, id int32) []byte {
	dst = binary.LittleEndian.AppendUint32(dst, uint32(msg))
	return binary.LittleEndian.AppendUint32(dst, uint32(id))
}

// ParseGodot3Notice reads a server notice.
func ParseGodot3Notice(b []byte) (msg, id int32, err error) {
	if len(b) < 8 {
		return 0, 0, ErrGodot3Header
	}
	return int32(binary.LittleEndian.Uint32(b)), int32(binary.LittleEndian.Uint32(b[4:])), nil
}
