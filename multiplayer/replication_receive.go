package multiplayer

import (
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"
)

// What peers send the scene model: path announcements that patterns
// match, SYNC and DELTA for the synchronizers they own, and the SPAWN and
// DESPAWN the host refuses.

// materializeLocked makes the scene node a synchronizer pattern stands
// for, when a peer announces a path the host does not know.
func (h *Host) materializeLocked(p string) {
	rs := h.repl
	if rs == nil || len(rs.patterns) == 0 || rs.nPattern >= maxPatternNodes {
		return
	}
	h.nmu.RLock()
	_, known := h.nodes[p]
	h.nmu.RUnlock()
	if known {
		return
	}
	for _, d := range rs.patterns {
		m, _ := path.Match(d.Name, p)
		if !m {
			continue
		}
		root := path.Clean(path.Join(p, d.Root))
		if rs.byPath[root] != nil {
			return // another synchronizer of a node already known
		}
		owner := PeerID(0)
		if d.Owned {
			owner = ownerFromPath(d.Name, p)
			if owner < 2 {
				return
			}
		}
		n := h.newSceneNodeLocked(root, nil, 0, "", owner)
		n.fromPattern = true
		if _, err := h.attachSyncLocked(n, d, p, false); err != nil {
			return
		}
		rs.nPattern++
		return
	}
}

// ownerFromPath returns the peer id in the element of p the first "*" of
// pattern matched, or 0.
func ownerFromPath(pattern, p string) PeerID {
	pe := strings.Split(pattern, "/")
	xe := strings.Split(p, "/")
	for i, e := range pe {
		if strings.Contains(e, "*") && i < len(xe) {
			id, err := strconv.ParseInt(xe[i], 10, 32)
			if err != nil {
				return 0
			}
			return PeerID(id)
		}
	}
	return 0
}

// findSyncLocked is _find_synchronizer: a synchronizer named by a path p
// announced, or by a net id p's SPAWN gave it (the host accepts no
// spawns, so none).
func (h *Host) findSyncLocked(p *hostPeer, id uint32) *syncInst {
	if id&SyncPathID == 0 {
		return nil
	}
	rec, ok := p.remote.recv[id&^SyncPathID]
	if !ok || rec.node == nil || rec.node.si == nil || rec.node.si.n.gone {
		return nil
	}
	return rec.node.si
}

// errNotAuthority: a state from a peer that is not the synchronizer's
// authority.
var errNotAuthority = errors.New("not the synchronizer's authority")

// receiveSyncLocked applies a SYNC or DELTA that peer from sent to the
// host: on_sync_receive and on_delta_receive. It returns the first reason
// to refuse it; states before it are applied, as the engine applies them.
func (h *Host) receiveSyncLocked(p *hostPeer, from PeerID, b []byte) error {
	rs := h.repl
	sy, err := ParseSync(b, rs.states)
	rs.states = sy.States[:0]
	if err != nil {
		return err
	}
	var refused error
	for _, st := range sy.States {
		si := h.findSyncLocked(p, st.ID)
		if si == nil {
			continue // not received yet, or gone
		}
		if si.authority != from {
			refused = fmt.Errorf("%w: %s for %s from peer %d: %v", ErrNotAllowed, syncName(sy.Delta), si.path, from, errNotAuthority)
			continue
		}
		idx := si.syncIdx
		if sy.Delta {
			if _, err := CheckDeltaMask(st.Mask, len(si.watchI)); err != nil {
				return err
			}
			// Bits beyond the on-change properties are ignored, as the
			// engine ignores them.
			idx = rs.offs[:0]
			for j, i := range si.watchI {
				if st.Mask&(1<<j) != 0 {
					idx = append(idx, i)
				}
			}
			rs.offs = idx
		} else if !NewerSyncTime(sy.Time, si.inTime, si.inStarted) {
			continue // older than the last state applied
		}
		n, err := h.applyStateLocked(si.n, idx, st.State)
		if err != nil {
			return fmt.Errorf("%s of %s: %w", syncName(sy.Delta), si.path, err)
		}
		if sy.Delta && n != len(st.State) {
			return perr(n, CmdSync, ErrInvalidPacket, "bytes after the delta of "+si.path)
		}
		if !sy.Delta {
			si.inStarted, si.inTime = true, sy.Time
		}
		h.queueReceiveLocked(p, si)
	}
	return refused
}

func syncName(delta bool) string {
	if delta {
		return "DELTA"
	}
	return "SYNC"
}

func (h *Host) queueReceiveLocked(p *hostPeer, si *syncInst) {
	if si.d.OnReceive != nil {
		p.rp.cbNodes = append(p.rp.cbNodes, si.n)
		p.rp.cbFuncs = append(p.rp.cbFuncs, si.d.OnReceive)
	}
}

// applyStateLocked checks that st holds a value for each slot in idx, in
// the compressed encoding and within the host's limits, then stores them.
// It returns the bytes read.
func (h *Host) applyStateLocked(n *SceneNode, idx []int, st []byte) (int, error) {
	rs := h.repl
	ends := rs.ends[:0]
	off := 0
	for range idx {
		var used int
		var err error
		rs.vals, used, err = DecodeState(h.vdec, st[off:], 1, rs.vals[:0])
		clear(rs.vals)
		if err != nil {
			return off, err
		}
		off += used
		ends = append(ends, off)
	}
	rs.ends = ends
	start := 0
	for j, i := range idx {
		v := st[start:ends[j]]
		start = ends[j]
		s := &n.props[i]
		if string(s.val) == string(v) {
			continue
		}
		old := s.val
		if len(old) > 0 && &old[0] == &nilArg[0] {
			old = nil
		}
		s.val = append(old[:0], v...)
		rs.seq++
		s.changed = rs.seq
	}
	return off, nil
}

// receiveRepl handles SPAWN, DESPAWN and SYNC sent to the host.
func (h *Host) receiveRepl(p *hostPeer, from PeerID, e *Event) {
	pk := &e.Packet
	h.mu.Lock()
	if h.repl == nil || p.rp == nil {
		// No scene model: shown to Observe and dropped, without counting
		// against the peer (a client with authority over a synchronizer
		// sends SYNC to every peer, the host included).
		h.mu.Unlock()
		return
	}
	var err error
	counted := true
	switch pk.Command {
	case CmdSync:
		err = h.receiveSyncLocked(p, from, e.Data)
	case CmdSpawn:
		err, counted = h.receiveSpawnLocked(p, from, e.Data)
	case CmdDespawn:
		// The host accepts no spawns, so no peer can despawn anything on
		// it (the engine: ERR_UNAUTHORIZED for a net id it did not get).
		if id, perr := ParseDespawn(e.Data); perr != nil {
			err = perr
		} else {
			err, counted = fmt.Errorf("%w: DESPAWN of net id %d the peer did not spawn", ErrNotAllowed, id), false
		}
	}
	// The OnReceive calls, made without the lock. Only this peer's
	// goroutine touches rp's lists of them.
	rp := p.rp
	h.mu.Unlock()
	for i, f := range rp.cbFuncs {
		f(rp.cbNodes[i], from)
	}
	clear(rp.cbNodes)
	clear(rp.cbFuncs)
	rp.cbNodes, rp.cbFuncs = rp.cbNodes[:0], rp.cbFuncs[:0]
	if err != nil {
		e.Err = err
		if counted {
			h.refuse(p, err)
		}
	}
}

// receiveSpawnLocked refuses a SPAWN sent to the host: on_spawn_receive
// wants the sender to be the spawner's authority, and the host is the
// authority of every spawner it knows. A SPAWN for a spawner the host does
// not know (a game whose clients own spawners) is dropped uncounted.
func (h *Host) receiveSpawnLocked(p *hostPeer, from PeerID, b []byte) (error, bool) {
	sp, err := ParseSpawn(b)
	if err != nil {
		return err, true
	}
	rec, ok := p.remote.recv[sp.Spawner]
	if !ok || rec.node == nil {
		return fmt.Errorf("%w: SPAWN by unknown spawner #%d", ErrUnknownNode, sp.Spawner), false
	}
	if _, ours := h.repl.spawners[rec.node.path]; ours {
		return fmt.Errorf("%w: SPAWN from peer %d, not the authority of %s", ErrNotAllowed, from, rec.node.path), true
	}
	return fmt.Errorf("%w: SPAWN by %s, not a spawner", ErrUnknownNode, rec.node.path), false
}
