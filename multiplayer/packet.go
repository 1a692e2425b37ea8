package multiplayer

import (
	"bytes"
	"encoding/binary"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// Packet is one parsed high-level multiplayer packet. Its byte slices share
// the parsed input. Which fields are set depends on Command:
//
//	CmdRemoteCall, CmdRemoteSet  NodeID or Path, Method (Godot 4) or Name (Godot 3), Raw, ArgCount, Args
//	CmdSimplifyPath              Checksum (Godot 4), NodeID, Path
//	CmdConfirmPath               Valid and NodeID (Godot 4.6) or Path (Godot 3, earlier Godot 4)
//	CmdRaw                       Payload
//	CmdSys                       Sys, Peer, Payload (auth data or the relayed packet)
//	CmdSpawn, CmdDespawn, CmdSync  Flags, Payload (the body, not parsed further)
type Packet struct {
	Command Command
	// Flags are the bits of byte 0 above the command.
	Flags byte

	Sys  SysCommand
	Peer PeerID

	// NodeID is the path cache id of the node (REMOTE_CALL with a cached
	// node, SIMPLIFY_PATH, and Godot 4's CONFIRM_PATH).
	NodeID uint32
	// Path is the node path, relative to the multiplayer root: sent in
	// full by a REMOTE_CALL to a peer that has not confirmed the cache id
	// yet, and in SIMPLIFY_PATH and Godot 3's CONFIRM_PATH.
	Path []byte
	// Method is the RPC method id (Godot 4).
	Method uint16
	// Name is the method name of a Godot 3 REMOTE_CALL, or the property
	// name of a REMOTE_SET.
	Name []byte
	// Raw says the arguments are one PackedByteArray sent as plain bytes
	// (Args holds them) or, when Args is empty, that there are none.
	Raw bool
	// ArgCount is the number of arguments.
	ArgCount int
	// Args holds the encoded arguments.
	Args []byte

	// Checksum is SIMPLIFY_PATH's MD5 (32 hex digits) of the node's RPC
	// method names.
	Checksum []byte
	// Valid is CONFIRM_PATH's answer: whether the checksums agreed.
	Valid bool

	// Payload is RAW's bytes, SYS's data, or the body of SPAWN, DESPAWN
	// and SYNC.
	Payload []byte
}

// Parse parses one packet of engine family f (0 means Godot 4) as the
// engine's MultiplayerAPI receives it. It checks the layout, not the
// arguments (see Args). It allocates nothing; the Packet shares b.
func Parse(f variant.Family, b []byte) (Packet, error) {
	d := dialectOf(f)
	var p Packet
	if len(b) < 1 {
		return p, perr(0, CmdUnknown, ErrTruncated, "empty packet")
	}
	if d.byName {
		if b[0] > 4 {
			return p, perr(0, CmdUnknown, ErrUnknownCommand, "command "+strconv.Itoa(int(b[0])))
		}
		p.Command = d.fromWire[b[0]]
	} else {
		p.Command = d.fromWire[b[0]&7]
		p.Flags = b[0] &^ 7
	}
	switch p.Command {
	case CmdRemoteCall, CmdRemoteSet:
		return p, d.parseCall(&p, b)
	case CmdSimplifyPath:
		return p, d.parseSimplify(&p, b)
	case CmdConfirmPath:
		return p, d.parseConfirm(&p, b)
	case CmdRaw:
		if len(b) < 2 {
			return p, perr(1, p.Command, ErrTruncated, "RAW without bytes")
		}
		p.Payload = b[1:]
		return p, nil
	case CmdSys:
		if len(b) < 2 {
			return p, perr(1, p.Command, ErrTruncated, "SYS without a sub-command")
		}
		p.Sys = SysCommand(b[1])
		if p.Sys == SysAuth {
			// [7, 0, payload…]; [7, 0] alone says "done".
			p.Payload = b[2:]
			return p, nil
		}
		if p.Sys > SysRelay {
			return p, perr(1, p.Command, ErrUnknownCommand, "system command "+strconv.Itoa(int(b[1])))
		}
		if len(b) < sysCmdSize {
			return p, perr(2, p.Command, ErrTruncated, "SYS needs a 4-byte peer id")
		}
		p.Peer = PeerID(int32(binary.LittleEndian.Uint32(b[2:])))
		p.Payload = b[sysCmdSize:]
		if p.Sys == SysRelay && len(p.Payload) < 1 {
			return p, perr(sysCmdSize, p.Command, ErrTruncated, "RELAY without a packet")
		}
		return p, nil
	case CmdSpawn, CmdDespawn, CmdSync:
		p.Payload = b[1:]
		return p, nil
	}
	return p, perr(0, CmdUnknown, ErrUnknownCommand, "command "+strconv.Itoa(int(b[0]&7)))
}

func (d *dialect) parseCall(p *Packet, b []byte) error {
	if d.byName {
		return parseCall3(p, b)
	}
	nodeW := (b[0] >> d.nodeShift) & 3
	nameW := (b[0] >> d.nameShift) & 1
	p.Raw = b[0]>>d.rawShift&1 == 1
	off := 1
	var node uint32
	switch nodeW {
	case idWidth8:
		if len(b) < off+1 {
			return perr(off, p.Command, ErrTruncated, "node id")
		}
		node = uint32(b[off])
		off++
	case idWidth16:
		if len(b) < off+2 {
			return perr(off, p.Command, ErrTruncated, "node id")
		}
		node = uint32(binary.LittleEndian.Uint16(b[off:]))
		off += 2
	case idWidth32:
		if len(b) < off+4 {
			return perr(off, p.Command, ErrTruncated, "node id")
		}
		node = binary.LittleEndian.Uint32(b[off:])
		off += 4
	default:
		return perr(0, p.Command, ErrInvalidPacket, "node id width 3")
	}
	if nameW == 0 {
		if len(b) < off+1 {
			return perr(off, p.Command, ErrTruncated, "method id")
		}
		p.Method = uint16(b[off])
		off++
	} else {
		if len(b) < off+2 {
			return perr(off, p.Command, ErrTruncated, "method id")
		}
		p.Method = binary.LittleEndian.Uint16(b[off:])
		off += 2
	}
	end := len(b)
	if node&pathFlag != 0 {
		po := int(node &^ pathFlag)
		if po < off || po >= len(b) {
			return perr(1, p.Command, ErrInvalidPacket, "path offset "+strconv.Itoa(po)+" outside the packet")
		}
		p.Path = cstring(b[po:])
		end = po
	} else {
		p.NodeID = node
	}
	if p.Command == CmdRemoteSet {
		// Godot 3 rset: one compressed value, no count.
		if off >= end {
			return perr(off, p.Command, ErrTruncated, "REMOTE_SET without a value")
		}
		p.ArgCount = 1
		p.Args = b[off:end]
		return nil
	}
	if p.Raw {
		p.Args = b[off:end]
		if len(p.Args) > 0 {
			p.ArgCount = 1
		}
		return nil
	}
	if off >= end {
		return perr(off, p.Command, ErrTruncated, "argument count")
	}
	p.ArgCount = int(b[off])
	off++
	p.Args = b[off:end]
	return nil
}

// parseCall3: [cmd, u32 node, name, NUL, argc, args…] (REMOTE_SET: the
// value instead of argc and args), the path appended when the node id has
// the path flag.
func parseCall3(p *Packet, b []byte) error {
	if len(b) < 6 {
		return perr(len(b), p.Command, ErrTruncated, "a call needs 6 bytes at least")
	}
	node := binary.LittleEndian.Uint32(b[1:])
	end := len(b)
	if node&pathFlag != 0 {
		po := int(node &^ pathFlag)
		if po < 6 || po >= len(b) {
			return perr(1, p.Command, ErrInvalidPacket, "path offset "+strconv.Itoa(po)+" outside the packet")
		}
		p.Path = cstring(b[po:])
		end = po
	} else {
		p.NodeID = node
	}
	i := bytes.IndexByte(b[5:end], 0)
	if i < 0 {
		return perr(5, p.Command, ErrTruncated, "method name without its NUL")
	}
	p.Name = b[5 : 5+i : 5+i]
	off := 5 + i + 1
	if p.Command == CmdRemoteSet {
		if off >= end {
			return perr(off, p.Command, ErrTruncated, "REMOTE_SET without a value")
		}
		p.ArgCount = 1
		p.Args = b[off:end]
		return nil
	}
	if off >= end {
		return perr(off, p.Command, ErrTruncated, "argument count")
	}
	p.ArgCount = int(b[off])
	p.Args = b[off+1 : end]
	return nil
}

// simplifyPathOffset is where the path starts in a SIMPLIFY_PATH packet.
func (d *dialect) simplifyPathOffset() int {
	if d.byName {
		return 5 // [cmd, u32 id, path, NUL]
	}
	return 1 + md5HexLen + 1 + 4 // [cmd, 32 hex digits, NUL, u32 id, path, NUL]
}

func (d *dialect) parseSimplify(p *Packet, b []byte) error {
	if d.byName {
		// [cmd, u32 id, path, NUL]
		if len(b) < 5 {
			return perr(len(b), p.Command, ErrTruncated, "SIMPLIFY_PATH needs 5 bytes at least")
		}
		p.NodeID = binary.LittleEndian.Uint32(b[1:])
		p.Path = cstring(b[5:])
		if len(p.Path) == 0 {
			return perr(5, p.Command, ErrInvalidPacket, "empty node path")
		}
		return nil
	}
	// [cmd, 32 hex digits, NUL, u32 id, path, NUL]; the engine requires 38
	// bytes at least.
	min := d.simplifyPathOffset()
	if len(b) < min {
		return perr(len(b), p.Command, ErrTruncated, "SIMPLIFY_PATH needs 38 bytes at least")
	}
	p.Checksum = cstring(b[1 : 1+md5HexLen])
	p.NodeID = binary.LittleEndian.Uint32(b[1+md5HexLen+1:])
	p.Path = cstring(b[min:])
	if len(p.Path) == 0 {
		return perr(min, p.Command, ErrInvalidPacket, "empty node path")
	}
	return nil
}

func (d *dialect) parseConfirm(p *Packet, b []byte) error {
	if d.confirmByID {
		// Godot 4.6 (and the current source) name the cache id in 6 bytes;
		// earlier 4.x sources name the path, NUL-terminated, instead. A
		// 6-byte packet may be either: both readings are given.
		if len(b) < 3 {
			return perr(len(b), p.Command, ErrTruncated, "CONFIRM_PATH needs 3 bytes at least")
		}
		p.Valid = b[1] != 0
		if len(b) == 6 {
			p.NodeID = binary.LittleEndian.Uint32(b[2:])
		}
		if b[len(b)-1] == 0 {
			// The path reading of a 6-byte packet is three bytes and a
			// NUL; the id reading ends in NULs too whenever the id is
			// below 2²⁴. Only a path of printable bytes is taken as one:
			// a cache id's low bytes (1, 2, …) are control characters.
			if path := cstring(b[2:]); len(b) != 6 || printable(path) {
				p.Path = path
			}
		} else if len(b) != 6 {
			return perr(len(b)-1, p.Command, ErrInvalidPacket, "CONFIRM_PATH path without its NUL")
		}
		return nil
	}
	// Godot 3: [cmd, path, NUL]; no checksum, so always valid.
	if len(b) < 2 {
		return perr(len(b), p.Command, ErrTruncated, "CONFIRM_PATH needs 2 bytes at least")
	}
	p.Valid = true
	p.Path = cstring(b[1:])
	return nil
}

// printable reports whether b is a non-empty text of no control
// characters below U+0020, as a node path is.
func printable(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return len(b) > 0
}

// cstring returns b up to its first NUL.
func cstring(b []byte) []byte {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		return b[:i:i]
	}
	return b
}

// AppendSys appends a Godot 4 SYS packet: [7, sub, i32 peer] + payload.
// For SysAuth the peer field does not exist: the payload follows the
// sub-command directly.
func AppendSys(dst []byte, sub SysCommand, peer PeerID, payload []byte) []byte {
	dst = append(dst, 7, byte(sub))
	if sub != SysAuth {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(int32(peer)))
	}
	return append(dst, payload...)
}

// AppendRaw appends a RAW packet carrying payload (send_bytes).
func AppendRaw(dst []byte, f variant.Family, payload []byte) []byte {
	c, _ := dialectOf(f).wire(CmdRaw)
	return append(append(dst, c), payload...)
}

// AppendSimplifyPath appends a SIMPLIFY_PATH packet: the checksum of the
// node's RPC method names (see MethodsChecksum; Godot 4 only), its cache id
// and its path.
func AppendSimplifyPath(dst []byte, f variant.Family, checksum string, id uint32, path string) []byte {
	d := dialectOf(f)
	c, _ := d.wire(CmdSimplifyPath)
	dst = append(dst, c)
	if !d.byName {
		dst = append(append(dst, checksum...), 0)
	}
	dst = binary.LittleEndian.AppendUint32(dst, id)
	return append(append(dst, path...), 0)
}

// AppendConfirmPath appends a CONFIRM_PATH packet answering a
// SIMPLIFY_PATH: Godot 4 says whether the checksums agreed and names the
// cache id; Godot 3 names the path.
func AppendConfirmPath(dst []byte, f variant.Family, valid bool, id uint32, path string) []byte {
	d := dialectOf(f)
	c, _ := d.wire(CmdConfirmPath)
	if d.byName {
		return append(append(append(dst, c), path...), 0)
	}
	v := byte(0)
	if valid {
		v = 1
	}
	dst = append(dst, c, v)
	if d.confirmByID {
		return binary.LittleEndian.AppendUint32(dst, id)
	}
	return append(append(dst, path...), 0)
}

// Call is an RPC to append with AppendCall.
type Call struct {
	// NodeID is the node's path cache id, used when Path is empty.
	NodeID uint32
	// Path, when set, is sent in full after the arguments, as the engine
	// does for a peer that has not confirmed the cache id yet.
	Path string
	// Method is the method id (Godot 4).
	Method uint16
	// Name is the method name (Godot 3).
	Name string
	// Raw, ArgCount and Args are the encoded arguments, as AppendArgs
	// gives them.
	Raw      bool
	ArgCount int
	Args     []byte
}

// AppendCall appends a REMOTE_CALL packet with the node and method ids in
// the narrowest widths, as the engine writes it.
func AppendCall(dst []byte, f variant.Family, c Call) []byte {
	d := dialectOf(f)
	start := len(dst)
	if d.byName {
		dst = append(dst, 0)
		dst = binary.LittleEndian.AppendUint32(dst, c.NodeID)
		dst = append(append(dst, c.Name...), 0, byte(c.ArgCount))
		dst = append(dst, c.Args...)
		if c.Path != "" {
			binary.LittleEndian.PutUint32(dst[start+1:], pathFlag|uint32(len(dst)-start))
			dst = append(append(dst, c.Path...), 0)
		}
		return dst
	}
	dst = append(dst, 0)
	nodeW := byte(idWidth32)
	switch {
	case c.Path != "":
		dst = append(dst, 0, 0, 0, 0) // offset filled in below
	case c.NodeID <= 0xFF:
		nodeW = idWidth8
		dst = append(dst, byte(c.NodeID))
	case c.NodeID <= 0xFFFF:
		nodeW = idWidth16
		dst = binary.LittleEndian.AppendUint16(dst, uint16(c.NodeID))
	default:
		dst = binary.LittleEndian.AppendUint32(dst, c.NodeID)
	}
	nameW := byte(0)
	if c.Method <= 0xFF {
		dst = append(dst, byte(c.Method))
	} else {
		nameW = 1
		dst = binary.LittleEndian.AppendUint16(dst, c.Method)
	}
	raw := byte(0)
	if c.Raw {
		raw = 1
	} else {
		dst = append(dst, byte(c.ArgCount))
	}
	dst = append(dst, c.Args...)
	cmd, _ := d.wire(CmdRemoteCall)
	dst[start] = cmd | nodeW<<d.nodeShift | nameW<<d.nameShift | raw<<d.rawShift
	if c.Path != "" {
		binary.LittleEndian.PutUint32(dst[start+1:], pathFlag|uint32(len(dst)-start))
		dst = append(append(dst, c.Path...), 0)
	}
	return dst
}
