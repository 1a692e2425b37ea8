package multiplayer

import (
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// Command is a high-level multiplayer command, named as in the engine
// (NETWORK_COMMAND_*). The numbering here is this package's own; each
// engine family puts its own numbers on the wire (see the protocol table).
type Command uint8

// The commands. Godot 4's SceneMultiplayer has all but CmdRemoteSet; Godot
// 3's MultiplayerAPI has CmdRemoteCall, CmdRemoteSet, CmdSimplifyPath,
// CmdConfirmPath and CmdRaw.
const (
	CmdRemoteCall   Command = iota // an RPC
	CmdSimplifyPath                // announce a node path under a cache id
	CmdConfirmPath                 // acknowledge a SIMPLIFY_PATH
	CmdRaw                         // send_bytes / peer_packet
	CmdSpawn                       // MultiplayerSpawner (Godot 4)
	CmdDespawn                     // MultiplayerSpawner (Godot 4)
	CmdSync                        // MultiplayerSynchronizer (Godot 4)
	CmdSys                         // auth, peer add/remove, relay (Godot 4)
	CmdRemoteSet                   // rset (Godot 3)
	CmdUnknown      Command = 255
)

var commandNames = [...]string{"REMOTE_CALL", "SIMPLIFY_PATH", "CONFIRM_PATH", "RAW", "SPAWN", "DESPAWN", "SYNC", "SYS", "REMOTE_SET"}

// String returns the engine's name of the command, e.g. "REMOTE_CALL".
func (c Command) String() string {
	if int(c) < len(commandNames) {
		return commandNames[c]
	}
	return "command(" + strconv.Itoa(int(c)) + ")"
}

// SysCommand is the sub-command of a Godot 4 SYS packet (SYS_COMMAND_*).
type SysCommand uint8

// The system commands of Godot 4's SceneMultiplayer.
const (
	SysAuth    SysCommand = 0 // authentication payload, or [7, 0] alone: done
	SysAddPeer SysCommand = 1 // host → client: a peer joined
	SysDelPeer SysCommand = 2 // host → client: a peer left
	SysRelay   SysCommand = 3 // a packet relayed through the host
)

var sysNames = [...]string{"AUTH", "ADD_PEER", "DEL_PEER", "RELAY"}

// String returns the engine's name of the system command, e.g. "RELAY".
func (s SysCommand) String() string {
	if int(s) < len(sysNames) {
		return sysNames[s]
	}
	return "sys(" + strconv.Itoa(int(s)) + ")"
}

// dialect holds every fact about one engine family's packet layout: the one
// table the parsers, the writers and the host consult.
type dialect struct {
	family variant.Family
	// wire command number → Command, and back.
	fromWire [8]Command
	toWire   [9]int // -1: the family has no such command
	// byte 0 of REMOTE_CALL / REMOTE_SET: node-id width in 2 bits at
	// nodeShift, method-id width in 1 bit at nameShift, "one
	// PackedByteArray or no arguments" in 1 bit at rawShift.
	nodeShift, nameShift, rawShift uint
	// compressed arguments: the type in the bits of argTypeMask, the int
	// width in 2 bits at argModeShift, a bool's value in bit 7.
	argTypeMask  byte
	argModeShift uint
	// confirmByID: CONFIRM_PATH carries the u32 cache id (Godot 4.x as
	// read for 4.6); otherwise the NUL-terminated path (Godot 3.2+).
	confirmByID bool
	// byName: the Godot 3 layout. The command is the whole of byte 0, a
	// call names its method (a NUL-terminated string) after a u32 node id,
	// arguments are plain Variant encodings, SIMPLIFY_PATH has no
	// checksum and CONFIRM_PATH names the path.
	byName bool
	// variantTypes is the number of Variant types of the family
	// (VARIANT_MAX): argument types at or above it are refused.
	variantTypes byte
}

var dialect4 = &dialect{
	family:       variant.Godot4,
	fromWire:     [8]Command{CmdRemoteCall, CmdSimplifyPath, CmdConfirmPath, CmdRaw, CmdSpawn, CmdDespawn, CmdSync, CmdSys},
	toWire:       [9]int{0, 1, 2, 3, 4, 5, 6, 7, -1},
	nodeShift:    4,
	nameShift:    6,
	rawShift:     7,
	argTypeMask:  0x3F,
	argModeShift: 6,
	confirmByID:  true,
	variantTypes: 39, // Godot 4.3+ (PackedVector4Array is 38)
}

// dialect3 is Godot 3's MultiplayerAPI as 3.2.3 sends it (the source of
// the 3.x branch has the same layout).
var dialect3 = &dialect{
	family:       variant.Godot3,
	fromWire:     [8]Command{CmdRemoteCall, CmdRemoteSet, CmdSimplifyPath, CmdConfirmPath, CmdRaw, CmdUnknown, CmdUnknown, CmdUnknown},
	toWire:       [9]int{0, 2, 3, 4, -1, -1, -1, -1, 1},
	byName:       true,
	confirmByID:  false,
	variantTypes: 27,
}

func dialectOf(f variant.Family) *dialect {
	if f == variant.Godot3 {
		return dialect3
	}
	return dialect4
}

// wire returns the wire number of c, or false when the family lacks it.
func (d *dialect) wire(c Command) (byte, bool) {
	if int(c) >= len(d.toWire) || d.toWire[c] < 0 {
		return 0, false
	}
	return byte(d.toWire[c]), true
}

const (
	sysCmdSize    = 6  // [7, sub, i32 peer]
	md5HexLen     = 32 // SIMPLIFY_PATH checksum
	pathFlag      = 0x80000000
	maxArgs       = 255
	idWidth8      = 0
	idWidth16     = 1
	idWidth32     = 2
	argCountBytes = 1
)
