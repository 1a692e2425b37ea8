package multiplayer

import (
	"errors"
	"fmt"
	"path"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// DefaultReplicationTick is how often the host sends SYNC and DELTA
// packets when HostOptions.ReplicationTick is 0: the engine sends them
// every network frame, 60 times a second by default; a synchronizer's
// intervals slow its own down.
const DefaultReplicationTick = time.Second / 60

// maxPatternNodes bounds the nodes the host makes from synchronizer
// patterns (AddSynchronizer) as peers announce them.
const maxPatternNodes = 1 << 16

// replState is the host's scene model.
type replState struct {
	spawners  map[string]*spawner
	byPath    map[string]*SceneNode
	spawned   []*SceneNode // in spawn order: late joiners get them so
	filtered  int          // spawned nodes with a filter
	pathSyncs []*syncInst  // synchronizers the host sends, named by path
	patterns  []*syncDecl
	nPattern  int
	lastNetID uint32
	seq       uint64 // counts property changes
	epoch     time.Time
	scratch   []byte
	pkt       []byte
	state     []byte
	ids       []uint32
	offs      []int
	ends      []int
	slots     int   // peer slots handed out
	free      []int // and given back
	vals      []variant.Value
	states    []SyncState
	// packer packs the SYNC and DELTA states of one peer at a time.
	packer   SyncPacker
	packTo   *hostPeer
	packMode TransferMode
}

// replPeer is what the model knows of one peer: the SceneMultiplayer
// PeerInfo of the host's side.
type replPeer struct {
	// slot numbers the peer among the current ones: the index of its
	// entries in SceneNode.at and syncInst.marks (maps keyed by peer
	// would cost a lookup per node and peer at every tick).
	slot     int
	syncTime uint16       // last_sent_sync
	list     []*SceneNode // spawned for this peer
	cbNodes  []*SceneNode // OnReceive calls to make
	cbFuncs  []func(*SceneNode, PeerID)
}

type mark struct {
	seq uint64
	at  int64
}

func newReplPeer() *replPeer { return &replPeer{slot: -1} }

// attachPeerLocked gives p its view of the model and a free slot.
func (h *Host) attachPeerLocked(p *hostPeer) {
	rs := h.repl
	p.rp = newReplPeer()
	if n := len(rs.free); n > 0 {
		p.rp.slot = rs.free[n-1]
		rs.free = rs.free[:n-1]
	} else {
		p.rp.slot = rs.slots
		rs.slots++
	}
}

// detachPeerLocked frees p's slot, clearing what the nodes kept for it.
func (h *Host) detachPeerLocked(p *hostPeer) {
	rs := h.repl
	if p.rp == nil || p.rp.slot < 0 {
		return
	}
	slot := p.rp.slot
	clearSlot := func(n *SceneNode) {
		if slot < len(n.at) {
			n.at[slot] = 0
		}
		for _, si := range n.syncs {
			if slot < len(si.marks) {
				si.marks[slot] = mark{}
			}
		}
	}
	for _, n := range rs.spawned {
		clearSlot(n)
	}
	for _, si := range rs.pathSyncs {
		clearSlot(si.n)
	}
	rs.free = append(rs.free, slot)
	p.rp.slot = -1
}

// replLocked returns the scene model, starting it (and its ticker) at the
// first use.
func (h *Host) replLocked() *replState {
	if h.repl != nil {
		return h.repl
	}
	rs := &replState{spawners: map[string]*spawner{}, byPath: map[string]*SceneNode{}, epoch: time.Now()}
	rs.packer.Send = func(pkt []byte) { h.sendLocked(rs.packTo, pkt, 0, rs.packMode) }
	h.repl = rs
	for _, id := range h.order {
		if p := h.peers[id]; p.admitted {
			h.attachPeerLocked(p)
		}
	}
	if every := h.o.ReplicationTick; every >= 0 && !h.closed {
		if every == 0 {
			every = DefaultReplicationTick
		}
		h.wg.Add(1)
		go func() {
			defer h.wg.Done()
			t := time.NewTicker(every)
			defer t.Stop()
			for {
				select {
				case <-h.ctx.Done():
					return
				case <-t.C:
					h.Replicate()
				}
			}
		}()
	}
	return rs
}

func (rs *replState) now() int64 { return time.Since(rs.epoch).Microseconds() + 1 }

// Spawn spawns a node of the spawner's scene at index scene, named name,
// under the spawner's spawn path, on every peer that may see it: the
// MultiplayerSpawner's spawn() on the authority. Peers that join later get
// it too, with its state at that time. Scene SpawnCustom makes a custom
// spawn of SpawnOptions.Arg (Spawner.Custom).
func (h *Host) Spawn(spawnerPath string, scene int, name string, o SpawnOptions) (*SceneNode, error) {
	if err := ValidNodeName(name); err != nil {
		return nil, err
	}
	var st *variant.Dictionary
	if o.State != nil {
		d, err := h.stateDict(o.State)
		if err != nil {
			return nil, err
		}
		st = d
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	rs := h.repl
	if rs == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownSpawner, spawnerPath)
	}
	sp := rs.spawners[trimRoot(spawnerPath)]
	if sp == nil {
		return nil, fmt.Errorf("%w: %q", ErrUnknownSpawner, spawnerPath)
	}
	var sd *sceneDecl
	switch {
	case scene == SpawnCustom && sp.custom != nil:
		sd = sp.custom
	case scene == SpawnCustom:
		return nil, fmt.Errorf("multiplayer: spawner %q declares no custom spawns (Spawner.Custom)", sp.Path)
	case o.Arg != nil:
		return nil, errors.New("multiplayer: a spawn argument without scene SpawnCustom")
	case scene < 0 || scene >= len(sp.scenes):
		return nil, fmt.Errorf("multiplayer: spawner %q has no scene %d", sp.Path, scene)
	default:
		sd = sp.scenes[scene]
	}
	p := sp.parent + "/" + name
	if rs.byPath[p] != nil {
		return nil, fmt.Errorf("multiplayer: a node %q exists already", p)
	}
	n := h.newSceneNodeLocked(p, sp, scene, name, o.Owner)
	n.public = !o.Hidden
	if len(o.VisibleTo) > 0 {
		n.visible = map[PeerID]bool{}
		for _, id := range o.VisibleTo {
			n.visible[id] = true
		}
	}
	n.filter = o.Filter
	if scene == SpawnCustom {
		var err error
		if n.arg, err = h.encodeValue(nil, o.Arg); err != nil {
			return nil, fmt.Errorf("multiplayer: spawn argument: %w", err)
		}
	}
	fail := func(err error) (*SceneNode, error) {
		for _, nd := range n.nodes {
			h.unregister(nd)
		}
		return nil, err
	}
	for _, d := range sd.syncs {
		if _, err := h.attachSyncLocked(n, d, d.Name, true); err != nil {
			return fail(err)
		}
	}
	for _, decl := range sd.nodes {
		np := path.Clean(p + "/" + decl.Path)
		decl.Path = np
		if decl.Authority == OwnerAuthority {
			decl.Authority = o.Owner
		}
		nd, err := newNode(decl, 0)
		if err != nil {
			return fail(err)
		}
		nd.sn = n
		h.nmu.Lock()
		if _, dup := h.nodes[np]; dup {
			h.nmu.Unlock()
			return fail(fmt.Errorf("multiplayer: node %q declared twice", np))
		}
		h.registerLocked(nd)
		h.nmu.Unlock()
		n.nodes = append(n.nodes, nd)
	}
	if st != nil {
		if err := h.applyDictLocked(n, st); err != nil {
			return fail(err)
		}
	}
	// One counter numbers nodes and synchronizers (last_net_id).
	rs.lastNetID++
	n.netID = rs.lastNetID
	for _, si := range n.syncs {
		if si.authority == HostID {
			rs.lastNetID++
			si.netID = rs.lastNetID
		}
	}
	rs.byPath[p] = n
	rs.spawned = append(rs.spawned, n)
	if n.filter != nil {
		rs.filtered++
	}
	h.updateVisibilityLocked(n)
	return n, nil
}

// Node returns the scene node at path (spawned, or known by a
// synchronizer), or nil.
func (h *Host) Node(p string) *SceneNode {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.repl == nil {
		return nil
	}
	return h.repl.byPath[trimRoot(p)]
}

// Spawned returns the nodes the host has spawned, in spawn order.
func (h *Host) Spawned() []*SceneNode {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.repl == nil {
		return nil
	}
	return append([]*SceneNode(nil), h.repl.spawned...)
}

func (h *Host) despawnLocked(n *SceneNode) error {
	rs := h.repl
	if n.gone {
		return ErrDespawned
	}
	if n.spawner == nil {
		return fmt.Errorf("multiplayer: %s was not spawned by the host", n.path)
	}
	for _, id := range h.order {
		if p := h.peers[id]; p.rp != nil {
			if n.onPeer(p.rp) {
				h.despawnToLocked(p, n)
			}
		}
	}
	n.gone = true
	if n.filter != nil {
		rs.filtered--
	}
	for i, o := range rs.spawned {
		if o == n {
			rs.spawned = append(rs.spawned[:i], rs.spawned[i+1:]...)
			break
		}
	}
	delete(rs.byPath, n.path)
	h.forgetLocked(n)
	return nil
}

// updateVisibilityLocked spawns or despawns n for each peer as its
// visibility now says.
func (h *Host) updateVisibilityLocked(n *SceneNode) {
	if n.spawner == nil || n.gone {
		return
	}
	for _, id := range h.order {
		p := h.peers[id]
		if p.rp == nil || !p.admitted {
			continue
		}
		h.updatePeerVisibilityLocked(p, n)
	}
}

func (h *Host) updatePeerVisibilityLocked(p *hostPeer, n *SceneNode) {
	has := n.onPeer(p.rp)
	switch vis := n.visibleLocked(p.id); {
	case vis && !has:
		h.spawnToLocked(p, n)
	case !vis && has:
		h.despawnToLocked(p, n)
	}
}

// spawnToLocked sends n's SPAWN to p, announcing the spawner's path first.
func (h *Host) spawnToLocked(p *hostPeer, n *SceneNode) {
	rs := h.repl
	sp := n.spawner
	if _, announced := p.remote.sent[sp.node]; !announced {
		h.sendLocked(p, AppendSimplifyPath(nil, h.f, sp.node.checksum, sp.node.cacheID, sp.node.path), 0, Reliable)
		p.remote.setSent(sp.node, false)
	}
	ids, st := rs.ids[:0], rs.state[:0]
	for _, si := range n.syncs {
		if si.authority == HostID {
			ids = append(ids, si.netID)
			for _, i := range si.spawnIdx {
				st = append(st, n.props[i].val...)
			}
		}
	}
	rs.ids, rs.state = ids, st
	buf := AppendSpawn(rs.pkt[:0], &Spawn{Scene: uint8(n.scene), Spawner: sp.node.cacheID, NetID: n.netID, SyncIDs: ids, Name: n.name, Arg: n.arg, State: st})
	rs.pkt = buf
	h.sendLocked(p, buf, 0, Reliable)
	n.setAt(p.rp.slot, len(p.rp.list))
	p.rp.list = append(p.rp.list, n)
}

func (h *Host) despawnToLocked(p *hostPeer, n *SceneNode) {
	rp := p.rp
	i := int(n.at[rp.slot]) - 1
	last := len(rp.list) - 1
	rp.list[i] = rp.list[last]
	rp.list[i].setAt(rp.slot, i)
	rp.list[last] = nil
	rp.list = rp.list[:last]
	n.at[rp.slot] = 0
	for _, si := range n.syncs {
		if rp.slot < len(si.marks) {
			si.marks[rp.slot] = mark{}
		}
	}
	h.sendLocked(p, AppendDespawn(nil, n.netID), 0, Reliable)
}

// replJoinLocked gives a newly admitted peer every node it may see, after
// the ADD_PEER notices and before anything spawned later: the engine's
// on_peer_change on the authority.
func (h *Host) replJoinLocked(p *hostPeer) {
	rs := h.repl
	if rs == nil {
		return
	}
	h.attachPeerLocked(p)
	for _, n := range rs.spawned {
		if n.visibleLocked(p.id) {
			h.spawnToLocked(p, n)
		}
	}
}

// replLeaveLocked forgets the nodes made from patterns for a leaving
// peer that owned them.
func (h *Host) replLeaveLocked(p *hostPeer) {
	rs := h.repl
	if rs == nil {
		return
	}
	h.detachPeerLocked(p)
	for path, n := range rs.byPath {
		if n.spawner == nil && n.owner == p.id && n.fromPattern {
			delete(rs.byPath, path)
			n.gone = true
			rs.nPattern--
			h.forgetLocked(n)
		}
	}
}

// Replicate runs one replication tick now: the SYNC and DELTA packets
// due. The host runs it every HostOptions.ReplicationTick; a game loop
// that sets ReplicationTick to a negative value calls it itself.
func (h *Host) Replicate() {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.repl == nil || h.closed {
		return
	}
	h.replicateLocked(h.repl.now())
}

func (h *Host) replicateLocked(now int64) {
	rs := h.repl
	for _, n := range rs.spawned {
		for _, si := range n.syncs {
			if si.authority == HostID {
				h.prepareSyncLocked(si, now)
			}
		}
	}
	for _, si := range rs.pathSyncs {
		h.prepareSyncLocked(si, now)
	}
	for _, id := range h.order {
		p := h.peers[id]
		if p.rp == nil || !p.admitted {
			continue
		}
		if rs.filtered > 0 {
			for _, n := range rs.spawned {
				if n.filter != nil {
					h.updatePeerVisibilityLocked(p, n)
				}
			}
		}
		h.sendSyncLocked(p)
		h.sendDeltaLocked(p, now)
	}
}

// prepareSyncLocked decides whether si sends a SYNC this tick
// (update_outbound_sync_time) and builds its entry once for every peer.
func (h *Host) prepareSyncLocked(si *syncInst, now int64) {
	si.due = false
	if len(si.syncIdx) == 0 || si.n.gone {
		return
	}
	if si.lastSync != now && now < si.lastSync+si.d.syncUsec {
		return
	}
	si.lastSync = now
	st := si.state[:0]
	for _, i := range si.syncIdx {
		st = append(st, si.n.props[i].val...)
	}
	si.state = st
	if len(st) > DefaultSyncMTU {
		// The engine does not send a state larger than the MTU either.
		h.log.Warn("multiplayer: synchronizer state larger than the sync MTU is not sent", "node", si.path, "size", len(st), "mtu", DefaultSyncMTU)
		return
	}
	si.due = true
}

// pathConfirmedLocked is _verify_synchronizer for a synchronizer named by
// its path: announce it to p once, and true once p confirmed it.
func (h *Host) pathConfirmedLocked(p *hostPeer, nd *node) bool {
	confirmed, announced := p.remote.sent[nd]
	if !announced {
		h.sendLocked(p, AppendSimplifyPath(nil, h.f, nd.checksum, nd.cacheID, nd.path), 0, Reliable)
		p.remote.setSent(nd, false)
	}
	return confirmed
}

func (h *Host) sendSyncLocked(p *hostPeer) {
	rs, rp := h.repl, p.rp
	if len(rp.list) == 0 && len(rs.pathSyncs) == 0 {
		return
	}
	rp.syncTime++
	pk := &rs.packer
	rs.packTo, rs.packMode = p, Unreliable
	pk.Reset(false, rp.syncTime)
	for _, n := range rp.list {
		for _, si := range n.syncs {
			if si.due {
				pk.Add(SyncState{ID: si.netID, State: si.state})
			}
		}
	}
	for _, si := range rs.pathSyncs {
		if si.due && si.n.visibleLocked(p.id) && h.pathConfirmedLocked(p, si.pnode) {
			pk.Add(SyncState{ID: si.netID, State: si.state})
		}
	}
	pk.Flush()
	rs.packTo = nil
}

func (h *Host) sendDeltaLocked(p *hostPeer, now int64) {
	rs := h.repl
	pk := &rs.packer
	rs.packTo, rs.packMode = p, Reliable
	pk.Reset(true, 0)
	for _, n := range p.rp.list {
		for _, si := range n.syncs {
			if si.authority == HostID && len(si.watchI) > 0 {
				h.addDeltaLocked(p, si, now)
			}
		}
	}
	for _, si := range rs.pathSyncs {
		if len(si.watchI) > 0 && si.n.visibleLocked(p.id) && h.pathConfirmedLocked(p, si.pnode) {
			h.addDeltaLocked(p, si, now)
		}
	}
	pk.Flush()
	rs.packTo = nil
}

// addDeltaLocked adds si's changes since p last got them to the DELTA
// being packed (_send_delta).
func (h *Host) addDeltaLocked(p *hostPeer, si *syncInst, now int64) {
	rs := h.repl
	slot := p.rp.slot
	var m mark
	if slot < len(si.marks) {
		m = si.marks[slot]
	}
	if m.at != now && now < m.at+si.d.deltaUsec {
		return
	}
	var mask uint64
	st := rs.state[:0]
	for j, i := range si.watchI {
		if s := &si.n.props[i]; s.changed > m.seq {
			mask |= 1 << j
			st = append(st, s.val...)
		}
	}
	rs.state = st
	if mask == 0 {
		return
	}
	if err := rs.packer.Add(SyncState{ID: si.netID, Mask: mask, State: st}); err != nil {
		h.log.Warn("multiplayer: synchronizer delta larger than the delta MTU is not sent", "node", si.path, "size", len(st))
		return
	}
	if slot >= len(si.marks) {
		si.marks = append(si.marks, make([]mark, slot+1-len(si.marks))...)
	}
	si.marks[slot] = mark{seq: rs.seq, at: now}
}

// recvRef is a path a peer announced under cache id id.
type recvRef struct {
	p  *hostPeer
	id uint32
}

// noteRecvLocked remembers, on the scene node a path p announced belongs
// to, that p announced it: when the node goes, so does p's entry, which
// frees its place in p's MaxPathCache (the client forgets the id too:
// SceneCacheInterface drops a node's cache id when it leaves the tree).
func (h *Host) noteRecvLocked(p *hostPeer, id uint32) {
	rec, ok := p.remote.recv[id]
	if !ok || rec.node == nil {
		return
	}
	n := rec.node.sn
	if rec.node.si != nil {
		n = rec.node.si.n
	}
	if n != nil {
		n.recvBy = append(n.recvBy, recvRef{p, id})
	}
}

// forgetLocked removes what the path caches hold of a node that is gone:
// its nodes, the peers' entries for the paths they announced, and the
// announcements the host made them.
func (h *Host) forgetLocked(n *SceneNode) {
	for _, r := range n.recvBy {
		if rec, ok := r.p.remote.recv[r.id]; ok && rec.node != nil && (rec.node.sn == n || rec.node.si != nil && rec.node.si.n == n) {
			delete(r.p.remote.recv, r.id)
			r.p.remote.budget.refund(len(rec.path))
		}
	}
	n.recvBy = nil
	for _, id := range h.order {
		p := h.peers[id]
		for _, nd := range n.nodes {
			delete(p.remote.sent, nd)
		}
	}
	for _, nd := range n.nodes {
		h.unregister(nd)
	}
}
