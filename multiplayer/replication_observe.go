package multiplayer

import (
	"github.com/gdvar/gdvar/variant"
)

// Replication is a SPAWN, DESPAWN, SYNC or DELTA packet decoded for
// Observe (Event.Replication). Its byte slices share Event.Data: they are
// valid during the call only.
type Replication struct {
	// Spawn is a SPAWN; Event.Node is then the spawner's path, when the
	// sender announced it.
	Spawn *Spawn
	// Arg is a custom spawn's argument, decoded.
	Arg variant.Value
	// Despawn is set for a DESPAWN, with NetID.
	Despawn bool
	// NetID is the net id a DESPAWN names.
	NetID uint32
	// Sync is a SYNC or DELTA.
	Sync *Sync
	// Paths[i] is the path of the synchronizer of Sync.States[i] when the
	// state names it by path cache id (SyncPathID) and the sender
	// announced that path; "" otherwise.
	Paths []string
	// Values are the decoded values: for a SPAWN one list with the whole
	// spawn state (every synchronizer's, in order), for SYNC and DELTA one
	// list per state. Without the synchronizers' configurations the
	// values carry no property names; a state that does not decode ends
	// its list early.
	Values [][]variant.Value
}

// decodeReplication fills in e.Replication (and e.Node for a SPAWN) for a
// replication packet a peer sent, naming paths from the cache of what the
// sender announced to the packet's receiver (r). The caller holds h.mu.
func (s *session) decodeReplication(r *remote, e *Event) {
	pk := &e.Packet
	if s.d.byName {
		return
	}
	switch pk.Command {
	case CmdSpawn:
		sp, err := ParseSpawn(e.Data)
		if err != nil {
			return
		}
		rep := &Replication{Spawn: &sp}
		if r != nil {
			if rec, ok := r.recv[sp.Spawner]; ok {
				e.Node = rec.path
			}
		}
		if sp.Scene == SpawnCustom {
			if v, _, err := DecodeArg(s.vdec, sp.Arg); err == nil {
				rep.Arg = v
			}
		}
		rep.Values = [][]variant.Value{s.decodeAll(sp.State)}
		e.Replication = rep
	case CmdDespawn:
		id, err := ParseDespawn(e.Data)
		if err != nil {
			return
		}
		e.Replication = &Replication{Despawn: true, NetID: id}
	case CmdSync:
		sy, err := ParseSync(e.Data, nil)
		if err != nil {
			return
		}
		rep := &Replication{Sync: &sy, Paths: make([]string, len(sy.States)), Values: make([][]variant.Value, len(sy.States))}
		for i, st := range sy.States {
			if st.ID&SyncPathID != 0 && r != nil {
				if rec, ok := r.recv[st.ID&^SyncPathID]; ok {
					rep.Paths[i] = rec.path
				}
			}
			rep.Values[i] = s.decodeAll(st.State)
		}
		e.Replication = rep
	}
}

// decodeAll decodes the values of a state up to its end or to the first
// that does not decode.
func (s *session) decodeAll(b []byte) []variant.Value {
	var out []variant.Value
	for off := 0; off < len(b); {
		v, n, err := DecodeArg(s.vdec, b[off:])
		if err != nil || n == 0 {
			break
		}
		out = append(out, v)
		off += n
	}
	return out
}
