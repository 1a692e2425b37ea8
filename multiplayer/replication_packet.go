package multiplayer

import (
	"bytes"
	"encoding/binary"
	"strconv"
	"unicode/utf8"

	"github.com/gdvar/gdvar/variant"
)

// Godot 4's replication packets (SceneReplicationInterface): SPAWN and
// DESPAWN of a MultiplayerSpawner, SYNC and its reliable "delta" form of a
// MultiplayerSynchronizer. They exist in Godot 4 only; docs/
// multiplayer-protocol.md (section 6) gives the layouts and the engine
// versions each fact was checked against.

// Replication constants, as the engine defines them.
const (
	// SpawnCustom is the scene index of a custom spawn (the spawner's
	// spawn_function; MultiplayerSpawner::INVALID_ID): the packet then
	// carries the spawn argument instead of naming a spawnable scene.
	SpawnCustom = 0xFF
	// SyncPathID is the bit of a synchronizer id in SYNC and DELTA that
	// says the low 31 bits are the path cache id of a synchronizer that was
	// not spawned (announced with SIMPLIFY_PATH), not a spawn's sync id.
	SyncPathID = 0x80000000
	// DefaultSyncMTU is SceneMultiplayer.max_sync_packet_size: a SYNC
	// state larger than it is not sent, and states are packed into
	// packets up to it.
	DefaultSyncMTU = 1350
	// DefaultDeltaMTU is SceneMultiplayer.max_delta_packet_size, the same
	// for DELTA.
	DefaultDeltaMTU = 65535
	// MinSyncMTU is the smallest MTU the engine accepts for either.
	MinSyncMTU = 128
	// MaxWatchedProperties is the most on-change properties a
	// synchronizer can send: DELTA names them in a 64-bit mask.
	MaxWatchedProperties = 64
)

// Fixed sizes of the replication packets (the engine's own minimums).
const (
	spawnHeader  = 18 // [4, scene, u32 spawner, u32 net id, u32 n sync, u32 name len]
	despawnSize  = 5  // [5, u32 net id]
	syncHeader   = 3  // [6, u16 time]
	syncEntry    = 8  // u32 id, u32 size
	deltaHeader  = 1  // [6|0x10]
	deltaEntry   = 16 // u32 id, u64 mask, u32 size
	syncMinSize  = 11 // the engine refuses a shorter SYNC (either form)
	deltaFlag    = 1 << 4
	cmdSpawn     = 4
	cmdDespawn   = 5
	cmdSync      = 6
	syncCmdMask  = 7
	maxNodeName  = 1 << 16 // gdvar's bound on a spawned node's name
	maxSyncCount = 1 << 16 // gdvar's bound on sync ids in one SPAWN
)

// Spawn is a SPAWN packet: the spawner's authority tells a peer to
// instantiate a node under the spawner's spawn_path. Its byte slices share
// the parsed input.
type Spawn struct {
	// Scene is the index of the scene in the spawner's spawnable scenes
	// (the order of add_spawnable_scene / _spawnable_scenes), or
	// SpawnCustom.
	Scene uint8
	// Spawner is the path cache id of the MultiplayerSpawner, announced to
	// the receiver with SIMPLIFY_PATH before the SPAWN.
	Spawner uint32
	// NetID names the spawned node in DESPAWN.
	NetID uint32
	// SyncIDs are the ids the sender gives the node's synchronizers it has
	// authority over, in the order the receiver finds them (the order they
	// enter the tree): SYNC and DELTA name them so.
	SyncIDs []uint32
	// Name is the node's name.
	Name string
	// Arg is the argument of a custom spawn (Scene == SpawnCustom): one
	// compressed Variant (AppendState of one value writes it, DecodeArg
	// reads it).
	Arg []byte
	// State is the spawn state: the values of each synchronizer's spawn
	// properties, synchronizer after synchronizer, as compressed Variants
	// (DecodeState reads them). Empty when there are none.
	State []byte
}

// AppendSpawn appends a SPAWN packet as the engine writes it.
func AppendSpawn(dst []byte, s *Spawn) []byte {
	dst = append(dst, cmdSpawn, s.Scene)
	dst = binary.LittleEndian.AppendUint32(dst, s.Spawner)
	dst = binary.LittleEndian.AppendUint32(dst, s.NetID)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s.SyncIDs)))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s.Name)+1)) // with its NUL
	for _, id := range s.SyncIDs {
		dst = binary.LittleEndian.AppendUint32(dst, id)
	}
	dst = append(append(dst, s.Name...), 0)
	if s.Scene == SpawnCustom {
		dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s.Arg)))
		dst = append(dst, s.Arg...)
	}
	return append(dst, s.State...)
}

// ParseSpawn parses a SPAWN packet (byte 0 included) as the engine's
// on_spawn_receive reads it, and also refuses a node name the engine
// refuses (see ValidNodeName). Its allocations are the name and the sync
// ids; Arg and State share b.
func ParseSpawn(b []byte) (Spawn, error) {
	var s Spawn
	if len(b) < spawnHeader {
		return s, perr(len(b), CmdSpawn, ErrTruncated, "SPAWN needs 18 bytes at least")
	}
	if b[0]&syncCmdMask != cmdSpawn {
		return s, perr(0, CmdSpawn, ErrInvalidPacket, "not a SPAWN packet")
	}
	s.Scene = b[1]
	s.Spawner = binary.LittleEndian.Uint32(b[2:])
	s.NetID = binary.LittleEndian.Uint32(b[6:])
	nSync := binary.LittleEndian.Uint32(b[10:])
	nameLen := binary.LittleEndian.Uint32(b[14:])
	off := spawnHeader
	rest := uint64(len(b) - off)
	if uint64(nameLen)+uint64(nSync)*4 > rest {
		return s, perr(10, CmdSpawn, ErrTruncated, strconv.FormatUint(uint64(nSync), 10)+" sync ids and a name of "+strconv.FormatUint(uint64(nameLen), 10)+" bytes in "+strconv.FormatUint(rest, 10))
	}
	if nSync > 0 {
		s.SyncIDs = make([]uint32, nSync)
		for i := range s.SyncIDs {
			s.SyncIDs[i] = binary.LittleEndian.Uint32(b[off:])
			off += 4
		}
	}
	if nameLen < 1 {
		return s, perr(14, CmdSpawn, ErrInvalidPacket, "empty node name")
	}
	// The engine reads the name as UTF-8 up to its NUL or its length.
	name := b[off : off+int(nameLen)]
	if i := bytes.IndexByte(name, 0); i >= 0 {
		name = name[:i]
	}
	if err := ValidNodeName(string(name)); err != nil {
		return s, perr(off, CmdSpawn, ErrInvalidPacket, err.Error())
	}
	s.Name = string(name)
	off += int(nameLen)
	if s.Scene == SpawnCustom {
		if len(b)-off < 4 {
			return s, perr(off, CmdSpawn, ErrTruncated, "custom spawn without its argument size")
		}
		n := binary.LittleEndian.Uint32(b[off:])
		off += 4
		if uint64(n) > uint64(len(b)-off) {
			return s, perr(off-4, CmdSpawn, ErrTruncated, "custom spawn argument of "+strconv.FormatUint(uint64(n), 10)+" bytes in "+strconv.Itoa(len(b)-off))
		}
		s.Arg = b[off : off+int(n) : off+int(n)]
		off += int(n)
	}
	s.State = b[off:len(b):len(b)]
	return s, nil
}

// ValidNodeName says whether name is a node name a SPAWN may carry, as
// the receiving engine checks it (the name must equal its
// String.validate_node_name()): not empty and without . : @ / " or %,
// which Godot 4.6 replaces. gdvar also requires valid UTF-8 and at most
// 65536 bytes.
func ValidNodeName(name string) error {
	if name == "" {
		return errNodeName("empty node name")
	}
	if len(name) > maxNodeName {
		return errNodeName("node name longer than " + strconv.Itoa(maxNodeName) + " bytes")
	}
	if !utf8.ValidString(name) {
		return errNodeName("node name is not UTF-8")
	}
	for _, r := range name {
		switch r {
		case '.', ':', '@', '/', '"', '%':
			return errNodeName("node name " + strconv.Quote(name) + " holds " + strconv.QuoteRune(r))
		}
	}
	return nil
}

type errNodeName string

func (e errNodeName) Error() string { return string(e) }

// AppendDespawn appends a DESPAWN packet for the node the sender spawned
// with netID.
func AppendDespawn(dst []byte, netID uint32) []byte {
	return binary.LittleEndian.AppendUint32(append(dst, cmdDespawn), netID)
}

// ParseDespawn parses a DESPAWN packet and returns the net id. Bytes after
// it are ignored, as the engine ignores them.
func ParseDespawn(b []byte) (netID uint32, err error) {
	if len(b) < despawnSize {
		return 0, perr(len(b), CmdDespawn, ErrTruncated, "DESPAWN needs 5 bytes")
	}
	if b[0]&syncCmdMask != cmdDespawn {
		return 0, perr(0, CmdDespawn, ErrInvalidPacket, "not a DESPAWN packet")
	}
	return binary.LittleEndian.Uint32(b[1:]), nil
}

// SyncState is one synchronizer's state in a SYNC or DELTA packet.
type SyncState struct {
	// ID names the synchronizer: a sync id from the SPAWN of its node, or
	// SyncPathID | the path cache id of a synchronizer that was not
	// spawned.
	ID uint32
	// Mask (DELTA only) says which on-change properties State holds: bit
	// i is the i-th watched property of the synchronizer's
	// SceneReplicationConfig.
	Mask uint64
	// State holds the values as compressed Variants: a SYNC has every
	// "always" property in the config's order, a DELTA the masked
	// on-change properties in order. It shares the parsed input.
	State []byte
}

// Sync is a parsed SYNC packet: the unreliable periodic form, or the
// reliable DELTA form (Delta set) of properties that changed.
type Sync struct {
	// Delta is set for the DELTA form (byte 0 is 6 | 1<<4).
	Delta bool
	// Time is the sender's sync counter for the receiving peer (SYNC
	// only): it grows by one at each network frame that sends states to
	// that peer; a receiver drops a state older than the newest it
	// applied (see NewerSyncTime).
	Time uint16
	// States are the synchronizers' states in packet order.
	States []SyncState
}

// ParseSync parses a SYNC packet, either form, as the engine's
// on_sync_receive and on_delta_receive read it. The states are appended to
// states[:0] (pass nil to allocate, or a slice to reuse: then it allocates
// nothing) and share b. Up to 8 (SYNC) or 16 (DELTA) bytes after the last
// state are ignored, as the engine ignores them; a state whose size runs
// past the end is an error. What depends on the synchronizer is left to
// the receiver, as the engine checks it when it applies a state: a DELTA
// mask naming no watched property (CheckDeltaMask), and DELTA values that
// do not fill their state exactly (DecodeState).
func ParseSync(b []byte, states []SyncState) (Sync, error) {
	s := Sync{States: states[:0]}
	if len(b) < syncMinSize {
		return s, perr(len(b), CmdSync, ErrTruncated, "SYNC needs 11 bytes at least")
	}
	if b[0]&syncCmdMask != cmdSync {
		return s, perr(0, CmdSync, ErrInvalidPacket, "not a SYNC packet")
	}
	if b[0]&deltaFlag != 0 {
		s.Delta = true
		off := deltaHeader
		for off+deltaEntry < len(b) {
			st := SyncState{ID: binary.LittleEndian.Uint32(b[off:]), Mask: binary.LittleEndian.Uint64(b[off+4:])}
			n := binary.LittleEndian.Uint32(b[off+12:])
			if uint64(n) > uint64(len(b)-off-deltaEntry) {
				return s, perr(off+12, CmdSync, ErrTruncated, "delta state of "+strconv.FormatUint(uint64(n), 10)+" bytes in "+strconv.Itoa(len(b)-off-deltaEntry))
			}
			off += deltaEntry
			st.State = b[off : off+int(n) : off+int(n)]
			off += int(n)
			s.States = append(s.States, st)
		}
		return s, nil
	}
	s.Time = binary.LittleEndian.Uint16(b[1:])
	off := syncHeader
	for off+syncEntry < len(b) {
		st := SyncState{ID: binary.LittleEndian.Uint32(b[off:])}
		n := binary.LittleEndian.Uint32(b[off+4:])
		if uint64(n) > uint64(len(b)-off-syncEntry) {
			return s, perr(off+4, CmdSync, ErrTruncated, "state of "+strconv.FormatUint(uint64(n), 10)+" bytes in "+strconv.Itoa(len(b)-off-syncEntry))
		}
		off += syncEntry
		st.State = b[off : off+int(n) : off+int(n)]
		off += int(n)
		s.States = append(s.States, st)
	}
	return s, nil
}

// AppendSync appends one SYNC packet holding states (their Mask is not
// used), whatever its size; SyncPacker splits states into packets as the
// engine does. Empty states are left out, as the engine leaves them out
// (a receiver would ignore an empty last state).
func AppendSync(dst []byte, time uint16, states ...SyncState) []byte {
	dst = binary.LittleEndian.AppendUint16(append(dst, cmdSync), time)
	for _, s := range states {
		dst = appendSyncEntry(dst, false, s)
	}
	return dst
}

// AppendDelta appends one DELTA packet holding states, whatever its size,
// leaving out empty states as AppendSync does.
func AppendDelta(dst []byte, states ...SyncState) []byte {
	dst = append(dst, cmdSync|deltaFlag)
	for _, s := range states {
		dst = appendSyncEntry(dst, true, s)
	}
	return dst
}

func appendSyncEntry(dst []byte, delta bool, s SyncState) []byte {
	if len(s.State) == 0 {
		return dst
	}
	dst = binary.LittleEndian.AppendUint32(dst, s.ID)
	if delta {
		dst = binary.LittleEndian.AppendUint64(dst, s.Mask)
	}
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(s.State)))
	return append(dst, s.State...)
}

// NewerSyncTime says whether a SYNC with time t is to be applied by a
// synchronizer whose newest applied time is last (started: it has applied
// one already), as the engine's update_inbound_sync_time decides: a time
// at or before last within half the 16-bit range is old.
func NewerSyncTime(t, last uint16, started bool) bool {
	if !started {
		return true
	}
	return !(t <= last && last-t < 32767)
}

// CheckDeltaMask checks a DELTA state's mask against the number of
// on-change properties of the synchronizer: the engine applies the values
// of the set bits below watched, in order, and refuses a mask naming none
// of them. It returns how many values State must hold.
func CheckDeltaMask(mask uint64, watched int) (int, error) {
	n := 0
	for i := 0; i < watched && i < MaxWatchedProperties; i++ {
		if mask&(1<<uint(i)) != 0 {
			n++
		}
	}
	if n == 0 {
		return 0, perr(0, CmdSync, ErrInvalidPacket, "delta mask "+strconv.FormatUint(mask, 16)+" names none of the "+strconv.Itoa(watched)+" watched properties")
	}
	return n, nil
}

// AppendState appends property values as the engine's
// encode_and_compress_variants writes a replication state: each value in
// the compressed argument encoding (see AppendArgs), one after the other,
// with no count and never the raw PackedByteArray form. enc sets the
// target version and objects; nil means Godot 4 defaults.
func AppendState(dst []byte, enc *variant.EncMode, values ...variant.Value) ([]byte, error) {
	if enc == nil {
		enc = defaultEnc4
	}
	start := len(dst)
	for _, v := range values {
		var err error
		if dst, err = appendArg(dst, dialect4, enc, v); err != nil {
			return dst[:start], err
		}
	}
	return dst, nil
}

// DecodeState decodes n property values from a replication state (a
// SYNC or DELTA state, or the part of a SPAWN state that belongs to one
// synchronizer) as the engine's decode_and_decompress_variants does, and
// returns them appended to dst with the number of bytes they used. Bytes
// after them are not read (a SPAWN state holds the next synchronizer's
// values there; the engine ignores what is left of a SYNC state, and
// refuses it in a DELTA state: compare the count with len(State)). dec
// sets the limits and objects; nil means Godot 4 defaults.
func DecodeState(dec *variant.DecMode, b []byte, n int, dst []variant.Value) ([]variant.Value, int, error) {
	off := 0
	for i := 0; i < n; i++ {
		if off >= len(b) {
			return dst, off, perr(off, CmdSync, ErrTruncated, "value "+strconv.Itoa(i)+" of "+strconv.Itoa(n))
		}
		v, m, err := DecodeArg(dec, b[off:])
		if err != nil {
			return dst, off, perr(off, CmdSync, err, "value "+strconv.Itoa(i))
		}
		dst = append(dst, v)
		off += m
	}
	return dst, off, nil
}

// SyncPacker packs synchronizer states into SYNC or DELTA packets as the
// engine's _send_sync and _send_delta do: a state larger than the MTU is
// not sent (Add reports it), states are appended while the packet stays
// within the MTU, and a state that would take it over sends the packet
// first. As in the engine, the MTU bounds the states, not the headers: a
// packet holding one state close to the MTU may exceed it by up to 11
// (SYNC) or 17 (DELTA) bytes. Unlike the engine, it never sends a packet
// without states. The zero value is not usable: set Send and call Reset.
type SyncPacker struct {
	// MTU is the largest state and packet; 0 means DefaultSyncMTU for
	// SYNC and DefaultDeltaMTU for DELTA.
	MTU int
	// Send receives each finished packet; pkt is valid during the call
	// only.
	Send func(pkt []byte)

	delta bool
	buf   []byte
	head  int
}

// Reset starts a new round of packets: SYNC with sync time t, or DELTA
// (t is then unused). Packets of the previous round not yet sent are
// dropped: call Flush first.
func (p *SyncPacker) Reset(delta bool, t uint16) {
	p.delta = delta
	if delta {
		p.buf = append(p.buf[:0], cmdSync|deltaFlag)
	} else {
		p.buf = binary.LittleEndian.AppendUint16(append(p.buf[:0], cmdSync), t)
	}
	p.head = len(p.buf)
}

func (p *SyncPacker) mtu() int {
	switch {
	case p.MTU > 0:
		return p.MTU
	case p.delta:
		return DefaultDeltaMTU
	}
	return DefaultSyncMTU
}

// Add adds one synchronizer's state. A state larger than the MTU is not
// sent and gives an ErrTooLarge *PacketError; an empty state is skipped,
// as the engine skips it.
func (p *SyncPacker) Add(s SyncState) error {
	if p.head == 0 {
		p.Reset(p.delta, 0)
	}
	mtu := p.mtu()
	if len(s.State) > mtu {
		return perr(0, CmdSync, ErrTooLarge, "state of "+strconv.Itoa(len(s.State))+" bytes over the MTU of "+strconv.Itoa(mtu)+" is not sent")
	}
	if len(s.State) == 0 {
		return nil
	}
	entry := syncEntry
	if p.delta {
		entry = deltaEntry
	}
	if len(p.buf)+entry+len(s.State) > mtu {
		p.Flush()
	}
	p.buf = appendSyncEntry(p.buf, p.delta, s)
	return nil
}

// Flush sends the packet in progress, if it holds a state.
func (p *SyncPacker) Flush() {
	if len(p.buf) > p.head && p.head > 0 {
		p.Send(p.buf)
		p.buf = p.buf[:p.head]
	}
}
