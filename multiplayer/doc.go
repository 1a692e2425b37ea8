// Package multiplayer speaks Godot's high-level multiplayer protocol: the
// packets behind rpc(), rpc_id(), @rpc functions, send_bytes and
// peer_packet, as Godot 4's SceneMultiplayer and Godot 3's MultiplayerAPI
// (3.2–3.6) exchange them over WebSocketMultiplayerPeer (for Godot 4, the
// framing of the later releases: an early 4.x WebSocketMultiplayerPeer
// framed messages as Godot 3 does, which the Godot 4 link does not speak)
// and over ENet (NetworkedMultiplayerENet, ENetMultiplayerPeer).
// Verified against Godot 4.6 and 3.2.3 (ENet: 3.2.3; the Godot 4 ENet
// dialect is built from the engine's source). A Go
// program can be the host (peer 1) that unmodified Godot games join, or a
// client of a Godot host.
//
// The package has three layers:
//
//   - packets: Parse and the Append functions read and write each command
//     (REMOTE_CALL, SIMPLIFY_PATH, CONFIRM_PATH, RAW, SYS, …) as pure
//     functions; AppendArgs, DecodeArg and DecodeArgs handle the argument
//     encodings (Godot 4's compressed one, Godot 3's plain Variants).
//     Godot 4's replication packets (MultiplayerSpawner's SPAWN and
//     DESPAWN, MultiplayerSynchronizer's SYNC and DELTA) have their own:
//     ParseSpawn, ParseSync, AppendSpawn, AppendSync, AppendDelta,
//     SyncPacker (the engine's MTU packing), AppendState and DecodeState;
//     Godot 3's rset is AppendSet.
//   - transports: a Link carries Frames between a host and one client.
//     ListenWebSocket and DialWebSocket provide WebSocketMultiplayerPeer's
//     framing for both families, ListenENet and DialENet the engine's ENet
//     peers (package enet, with Godot's compression modes from
//     enet/godotcompress); another transport (WebRTC) only needs to
//     implement Link and Listener. One Host may serve several listeners.
//   - sessions: Host accepts clients, assigns ids, relays between them as
//     the engine's server_relay does, authenticates them (AuthFunc in place
//     of auth_callback) and dispatches their RPCs to Go handlers; Client
//     joins a host.
//
// # RPCs in Go
//
// Godot 4 names an RPC method by its index among the node's RPC methods
// sorted by name, so both sides must know the node's methods: a Node
// declares them with their modes, and LoadProject reads them from a Godot
// project. A Method's Handler is an ordinary function whose parameters after
// the context and the caller's id receive the arguments, converted as
// gdvar.Unmarshal converts values:
//
//	func(ctx context.Context, from multiplayer.PeerID, name string, pos variant.Vector2) error
//
// Calls are checked as the engine checks them: an "authority" RPC sent by a
// client is refused, as is any call from a peer that has not completed
// authentication.
//
// Godot 3's rset (remote, master and puppet variables) works the same way:
// Node.Properties declares the properties peers may set, with their modes
// and Go handlers, and Host.Set and Client.Set set a property on other
// peers (rset_id; SetUnreliable for rset_unreliable_id).
//
// # Limits
//
// A Host bounds what each client can cost it: the number of peers, overall
// and per IP address, the packet size, the bytes queued for a peer that
// does not read (each frame charged what it holds), the node paths a peer
// may register (in count and bytes; a path longer than MaxPathLength is
// refused), the packets it may get refused before it is dropped, and the
// authentication time; HostOptions gives the defaults. A client refused
// for capacity is told why (over WebSocket, close status 1008 and the
// reason). Malformed packets are reported as *PacketError values and never
// stop the host or disturb other peers. The host's log lines cut the text
// clients control (HostOptions.MaxLogText) and are rate-limited by kind,
// with a count of the lines held back. The host's memory as a whole is
// bounded only through these per-client limits and MaxPeers.
//
// docs/multiplayer-protocol.md describes the protocol, with the engine
// versions each fact was read from or checked against.
package multiplayer
