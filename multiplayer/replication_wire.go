package multiplayer

import "encoding/binary"

// The replication packets as the scene model writes them. SPAWN:
// [4, scene, u32 spawner cache id, u32 net id, u32 sync count, u32 name
// length with its NUL, sync ids…, name, NUL, state]; DESPAWN: [5, u32 net
// id]; SYNC: [6, u16 time, (u32 id, u32 size, state)*]; DELTA: [6|0x10,
// (u32 id, u64 mask, u32 size, state)*].

const (
	replSyncMTU   = 1350  // SceneReplicationInterface's sync_mtu
	replDeltaMTU  = 65535 // delta_mtu
	replDeltaFlag = 0x10  // CMD_FLAG_0 of SYNC: a DELTA
	replSyncHead  = 3
	replDeltaHead = 1
)

func appendSpawnPacket(dst []byte, scene byte, spawner, netID uint32, syncIDs []uint32, name string) []byte {
	dst = append(dst, 4, scene)
	dst = binary.LittleEndian.AppendUint32(dst, spawner)
	dst = binary.LittleEndian.AppendUint32(dst, netID)
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(syncIDs)))
	dst = binary.LittleEndian.AppendUint32(dst, uint32(len(name)+1))
	for _, id := range syncIDs {
		dst = binary.LittleEndian.AppendUint32(dst, id)
	}
	return append(append(dst, name...), 0)
}

func appendDespawnPacket(dst []byte, netID uint32) []byte {
	return binary.LittleEndian.AppendUint32(append(dst, 5), netID)
}

func appendSyncHeader(dst []byte, time uint16) []byte {
	return binary.LittleEndian.AppendUint16(append(dst, 6), time)
}

func appendDeltaHeader(dst []byte) []byte { return append(dst, 6|replDeltaFlag) }
