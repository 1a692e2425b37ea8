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
// client of a Godot host. A Godot 4 host can own the game's world: it
// spawns nodes through the game's MultiplayerSpawners and synchronizes them
// through its MultiplayerSynchronizers (see Replication); Godot 3's remote
// variables (rset) go both ways. Rooms serves many hosts from one process.
// Limits: replication follows Godot 4.6 (no spawns by peers, nested
// spawners, synchronizers rooted below their scene's root, or authority
// changes after a spawn; a Client reads replication packets but keeps no
// scene model); WebRTC and ENet's DTLS are not implemented; every host
// bounds what each client may cost it (see Limits).
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
//     joins a host. Rooms serves many independent Hosts (rooms, matches)
//     from one process and one port: WebSocket clients name their room in
//     the URL (ws://host:port/NAME), ENet rooms get a port each from a
//     range. Its Open callback creates or refuses rooms (the refused
//     client reads the WebSocket close code and reason), empty rooms end
//     after a grace period, Shutdown drains (RoomsOptions.Drain ends the
//     matches, what is queued is sent, clients are disconnected the
//     engine's way), and limits for the whole process (rooms, the rate
//     they are created at, clients, bytes queued per room and in all)
//     keep one busy room from starving the others. Meter feeds package
//     multiplayer/metrics (Prometheus, and the /healthz and /readyz
//     probes); docs/deploy.md runs it on Kubernetes and Agones.
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
// # Replication
//
// A Godot 4 Host keeps a model of the scene that the game's
// MultiplayerSpawner and MultiplayerSynchronizer nodes replicate, with Go
// values for the properties. Declare the spawners with AddSpawner (their
// spawnable scenes: the synchronizers each holds, with their properties in
// the game's order, modes and intervals, and the scene's RPC nodes), or read
// them from the game with ReadProject. Then:
//
//	n, err := host.Spawn("Main/Spawner", 0, id.String(), multiplayer.SpawnOptions{
//		Owner: id, State: Player{Position: start, HP: 100}})
//	n.Set("position", pos)        // sent in the next SYNC
//	n.Get("direction", &dir)      // what the owner's input synchronizer sent
//	n.Despawn()
//
// The host is the authority of its spawners and of the synchronizers not
// marked Owned: it spawns nodes on every peer that may see them (public,
// per peer with SetVisible, filter functions), late joiners included, and
// sends SYNC at each synchronizer's replication interval and DELTA when
// on-change properties change, every HostOptions.ReplicationTick. An Owned
// synchronizer belongs to the node's owner, as a game that calls
// set_multiplayer_authority(id) in _enter_tree: the host answers its path
// announcement, applies the states the owner sends (and only the owner),
// calls Synchronizer.OnReceive, and the engine's relay carries them to the
// other peers. AddSynchronizer declares synchronizers the host did not
// spawn (in the main scene, or by pattern: "Main/Players/*/Input"), and
// AddNode RPC nodes by pattern, both while the host runs.
//
// Custom spawns (spawn_function) take Spawner.Custom, scene SpawnCustom
// and SpawnOptions.Arg. Not supported: spawns by peers (a SPAWN sent to the
// host is refused;
// between peers the host relays it), synchronizers rooted below their
// scene's root, several nodes per spawn (nested spawners), changing a
// synchronizer's authority after the spawn, and a client-side scene model.
// Properties not set are Nil: give a spawned node every property in
// SpawnOptions.State. The protocol is the engine's implementation detail;
// this package follows Godot 4.6.
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
