// Package enet is a pure Go implementation of ENet 1.3.x, the reliable UDP
// protocol of the C library ENet (http://enet.bespin.org) that Godot
// embeds for ENetMultiplayerPeer (Godot 4) and NetworkedMultiplayerENet
// (Godot 3). It talks to the C library and to Godot on the wire: the
// handshake with its connect data, channels, reliable ordered, unreliable
// sequenced and unsequenced delivery, fragmentation of packets up to
// MaxPacketSize, acknowledgements and retransmission with ENet's
// round-trip estimate and timeouts, pings, the packet throttle, bandwidth
// limits, graceful and forced disconnects, the optional CRC32 checksum and
// the range coder compression. Limits: DTLS (ENetConnection.dtls_*) is not
// implemented; a host serves at most 4095 peers, and bounds each peer's
// memory (MaxPeerMemory, 64 MiB) and its own (MaxHostMemory, 256 MiB).
//
// # Use
//
// A Host owns a UDP socket. Listen makes one that peers connect to; Dial
// makes a client host and connects it; NewHost takes any net.PacketConn.
// The protocol runs on the host's own goroutines; the application takes
// what happened with Service, in a loop:
//
//	h, err := enet.Listen("udp", ":7777", &enet.Config{PeerLimit: 64})
//	...
//	for {
//		ev, err := h.Service(ctx)
//		if err != nil {
//			return err // ctx ended or the host was closed
//		}
//		switch ev.Type {
//		case enet.EventConnect:    // ev.Peer connected; ev.Data is its connect data
//		case enet.EventReceive:    // ev.Packet arrived on ev.Channel
//			ev.Peer.Send(ev.Channel, ev.Packet, enet.Reliable)
//		case enet.EventDisconnect: // ev.Peer is gone; ev.Data is its disconnect data
//		}
//	}
//
// Instead of Service, Host.Handle gives the events to a function on the
// host's own goroutines as they happen: a server that answers or relays
// what it receives then does so with no hand-off between goroutines.
// On Linux the host reads up to 16 datagrams per system call (recvmmsg),
// and flushes what a read caused from the goroutine that read it.
//
// Config.Frame runs a host as a game's main loop runs ENet: once a frame
// (Godot's headless server: about 7 ms) one goroutine reads what came,
// handles it, services the peers and sends what is new, then sleeps out
// the frame in the kernel. On Linux that costs one wake a frame, whatever
// the traffic, and no work of Go's scheduler per datagram; what is sent
// waits up to a frame, as with the engine.
//
// Peer.Send may be called from any goroutine; it copies the packet and
// returns at once. Flags select the delivery: Reliable (ordered per
// channel, resent until acknowledged), 0 (unreliable, sequenced: a packet
// older than one already delivered on its channel is dropped), or
// Unsequenced (unreliable, any order, duplicates removed).
//
// Host.Broadcast sends to every connected peer, and Host.SendMany to the
// peers given, each packet copied once for all of them. Peer.Disconnect,
// DisconnectLater and DisconnectNow are ENet's three ways to leave; the
// peer's Done channel closes when its connection has ended.
//
// # Godot
//
// godot.go says how Godot uses ENet: the client's peer ID travels as the
// connect data (NewGodotPeerID, ValidGodotClientID), Godot 4 maps its
// transfer modes to channels without a packet header (Godot4Channel), and
// Godot 3 adds an 8-byte header to every packet (AppendGodot3Packet,
// ParseGodot3Packet, Godot3Notice). Compression is set with
// Config.Compression (none, ENet's range coder, Godot's zlib) or
// Config.Compressor (for Godot's FastLZ and Zstandard modes, which package
// enet/godotcompress provides).
//
// # Budgets
//
// Everything a peer can make the host hold is bounded: see Config for the
// defaults. One budget per peer, MaxPeerMemory, and one for the host,
// MaxHostMemory, cover every queue at what it really costs: packets queued
// by Send, sent and not yet acknowledged; received packets until Service
// returns them; fragments of packets being reassembled; the index of
// reliable commands waiting for an earlier one. A Send that would take a
// peer beyond its budget disconnects it; received data beyond it is
// refused, as beyond MaxWaitingData (per peer) and MaxHostWaitingData.
// Fragmented packets are kept as the fragments that actually arrived
// (never allocated from the total length a fragment claims) and assembled
// only once all their bytes are in; reliable commands are indexed by
// sequence number, so their order of arrival does not matter; handshakes
// in progress are capped by MaxPendingConnections, and per address by
// MaxPendingPerIP, and end after HandshakeTimeout; a CONNECT the host has
// no room for is answered with a DISCONNECT. Malformed datagrams and
// commands are dropped, as ENet drops them.
package enet
