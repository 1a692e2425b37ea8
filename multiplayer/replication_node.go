package multiplayer

import (
	"bytes"
	"encoding/binary"
	"fmt"
	"path"
	"slices"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// SceneNode is a node of the host's scene model: one the host spawned, or
// one whose synchronizer it knows by path. Its replicated properties are Go
// values, converted as gdvar.Marshal and gdvar.Unmarshal convert them. Its
// methods are safe for concurrent use.
type SceneNode struct {
	h       *Host
	path    string
	name    string
	spawner *spawner // nil: not spawned by the host
	scene   int
	netID   uint32
	owner   PeerID
	props   []propSlot
	syncs   []*syncInst
	public  bool
	visible map[PeerID]bool
	filter  func(PeerID) bool
	gone    bool
	nodes   []*node // in the path cache: RPC nodes, peer-owned synchronizers
	// fromPattern: made when a peer announced a synchronizer that an
	// AddSynchronizer pattern matches.
	fromPattern bool
	// arg is a custom spawn's argument, encoded.
	arg []byte
	// recvBy are the paths of its nodes that peers announced.
	recvBy []recvRef
	// at holds, by peer slot, 1 + the node's index in that peer's list
	// of spawned nodes; 0: not spawned there.
	at []int32
}

// propSlot holds one property's current value, encoded as the engine's
// compressed arguments encode it.
type propSlot struct {
	path, key string
	val       []byte
	changed   uint64 // replState.seq at the last change
}

// syncInst is a synchronizer of a SceneNode.
type syncInst struct {
	d         *syncDecl
	n         *SceneNode
	path      string // the synchronizer's own path
	authority PeerID
	// netID names it on the wire: the net id a SPAWN gave it, or its
	// path cache id with bit 31 set.
	netID                     uint32
	pnode                     *node // its path cache entry, when named by path
	spawnIdx, syncIdx, watchI []int // property slots
	// Outbound: update_outbound_sync_time and this tick's SYNC state.
	lastSync int64
	due      bool
	state    []byte
	// marks holds, by peer slot, the last DELTA sent to that peer
	// (last_watch_usecs).
	marks []mark
	// Inbound: update_inbound_sync_time.
	inStarted bool
	inTime    uint16
}

// nilArg is the encoding of Nil, the value of a property not set yet.
var nilArg = []byte{0, 0, 0, 0}

func (h *Host) newSceneNodeLocked(p string, sp *spawner, scene int, name string, owner PeerID) *SceneNode {
	if name == "" {
		name = path.Base(p)
	}
	return &SceneNode{h: h, path: p, name: name, spawner: sp, scene: scene, owner: owner, public: true}
}

// slot returns the index of the slot of property path p, adding it.
func (n *SceneNode) slot(p string) int {
	for i := range n.props {
		if n.props[i].path == p {
			return i
		}
	}
	key := SyncProperty{Path: p}.Key()
	n.props = append(n.props, propSlot{path: p, key: key, val: nilArg})
	return len(n.props) - 1
}

// find returns the slot of a property by path or key.
func (n *SceneNode) find(name string) int {
	for i := range n.props {
		if n.props[i].path == name || n.props[i].key == name {
			return i
		}
	}
	return -1
}

// attachSyncLocked adds a synchronizer to n. rel is the synchronizer's
// path relative to n's scene root (spawned) or its full path.
func (h *Host) attachSyncLocked(n *SceneNode, d *syncDecl, rel string, spawned bool) (*syncInst, error) {
	rs := h.repl
	si := &syncInst{d: d, n: n, authority: d.Authority}
	if spawned {
		si.path = n.path + "/" + rel
		if d.root != "." {
			// Properties of a synchronizer rooted below the scene root
			// name their node relative to that root; the model keeps one
			// namespace per spawned node, so they are prefixed.
			return nil, fmt.Errorf("multiplayer: synchronizer %q: only synchronizers rooted at their scene's root are supported", d.Name)
		}
	} else {
		si.path = rel
	}
	if si.authority == 0 {
		si.authority = HostID
	}
	if d.Owned {
		si.authority = n.owner
		if si.authority == 0 {
			si.authority = HostID
		}
	}
	for _, p := range d.spawn {
		si.spawnIdx = append(si.spawnIdx, n.slot(p))
	}
	for _, p := range d.sync {
		si.syncIdx = append(si.syncIdx, n.slot(p))
	}
	for _, p := range d.watch {
		si.watchI = append(si.watchI, n.slot(p))
	}
	for _, pr := range d.Properties {
		n.slot(pr.Path)
	}
	if si.authority != HostID || !spawned {
		// Named by its path: peers announce it (they own it), or the
		// host does (a synchronizer outside spawned nodes).
		nd, err := newNode(Node{Path: si.path}, 0)
		if err != nil {
			return nil, err
		}
		nd.si = si
		h.nmu.Lock()
		if _, dup := h.nodes[nd.path]; dup {
			h.nmu.Unlock()
			return nil, fmt.Errorf("multiplayer: node %q already declared", nd.path)
		}
		h.registerLocked(nd)
		h.nmu.Unlock()
		si.pnode = nd
		si.netID = nd.cacheID | SyncPathID
		n.nodes = append(n.nodes, nd)
	}
	n.syncs = append(n.syncs, si)
	if !spawned {
		n.public = !d.Hidden
		rs.byPath[n.path] = n
	}
	return si, nil
}

// Path is the node's path from the multiplayer root ("Main/Players/42").
func (n *SceneNode) Path() string { return n.path }

// Name is the node's name.
func (n *SceneNode) Name() string { return n.name }

// Owner is the peer that owns the node (SpawnOptions.Owner), 0 if none.
func (n *SceneNode) Owner() PeerID { return n.owner }

// NetID is the id its SPAWN gave the node on the wire, 0 for a node the
// host did not spawn.
func (n *SceneNode) NetID() uint32 {
	n.h.mu.Lock()
	defer n.h.mu.Unlock()
	return n.netID
}

// Set sets a replicated property, by path (".:position") or key
// ("position"). v is converted as gdvar.Marshal converts it (a
// variant.Value as it is). Synchronizers the host owns send it: in the
// next SYNC if it is synchronized always, in a DELTA if on change and
// different from before.
func (n *SceneNode) Set(prop string, v any) error {
	h := n.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if n.gone {
		return ErrDespawned
	}
	i := n.find(prop)
	if i < 0 {
		return fmt.Errorf("%w: %q on %s", ErrUnknownProperty, prop, n.path)
	}
	return h.setSlotLocked(n, i, v)
}

func (h *Host) setSlotLocked(n *SceneNode, i int, v any) error {
	rs := h.repl
	s := &n.props[i]
	old := s.val
	buf := rs.scratch[:0]
	buf, err := h.encodeValue(buf, v)
	rs.scratch = buf
	if err != nil {
		return fmt.Errorf("multiplayer: property %q: %w", s.path, err)
	}
	if bytes.Equal(old, buf) {
		return nil
	}
	if len(old) > 0 && &old[0] == &nilArg[0] {
		old = nil
	}
	s.val = append(old[:0], buf...)
	rs.seq++
	s.changed = rs.seq
	return nil
}

// SetState sets several properties at once from a struct (fields named as
// gdvar names them: by their gdvar tag, json tag or Go name, matched to
// SyncProperty.Key), a map[string]any or a *variant.Dictionary. Entries that
// name no property of the node are an error.
func (n *SceneNode) SetState(state any) error {
	d, err := n.h.stateDict(state)
	if err != nil {
		return err
	}
	h := n.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if n.gone {
		return ErrDespawned
	}
	return h.applyDictLocked(n, d)
}

func (h *Host) applyDictLocked(n *SceneNode, d *variant.Dictionary) error {
	for k, v := range d.All() {
		var name string
		switch k := k.(type) {
		case variant.String:
			name = string(k)
		case variant.StringName:
			name = string(k)
		default:
			return fmt.Errorf("multiplayer: state key %v is not a string", k)
		}
		i := n.find(name)
		if i < 0 {
			return fmt.Errorf("%w: %q on %s", ErrUnknownProperty, name, n.path)
		}
		if err := h.setSlotLocked(n, i, v); err != nil {
			return err
		}
	}
	return nil
}

// stateDict converts a state (struct, map or Dictionary) to a Dictionary.
func (h *Host) stateDict(state any) (*variant.Dictionary, error) {
	if d, ok := state.(*variant.Dictionary); ok {
		return d, nil
	}
	b, err := h.enc.Marshal(state)
	if err != nil {
		return nil, fmt.Errorf("multiplayer: state: %w", err)
	}
	v, _, err := h.vdec.Decode(b)
	if err != nil {
		return nil, fmt.Errorf("multiplayer: state: %w", err)
	}
	d, ok := v.(*variant.Dictionary)
	if !ok {
		return nil, fmt.Errorf("multiplayer: state of type %T is not a struct or a map", state)
	}
	return d, nil
}

// Get reads a replicated property, by path or key, into dst (a pointer),
// converted as gdvar.Unmarshal converts values. A property not set yet
// (Nil: say, an input its owner has not sent) leaves dst as it is.
func (n *SceneNode) Get(prop string, dst any) error {
	h := n.h
	h.mu.Lock()
	i := n.find(prop)
	if i < 0 {
		h.mu.Unlock()
		return fmt.Errorf("%w: %q on %s", ErrUnknownProperty, prop, n.path)
	}
	var sbuf [12]byte
	b := h.plainArg(&sbuf, n.props[i].val)
	err := h.dec.Unmarshal(b, dst)
	h.mu.Unlock()
	return err
}

// Value returns a replicated property as a variant.Value.
func (n *SceneNode) Value(prop string) (variant.Value, error) {
	h := n.h
	h.mu.Lock()
	defer h.mu.Unlock()
	i := n.find(prop)
	if i < 0 {
		return nil, fmt.Errorf("%w: %q on %s", ErrUnknownProperty, prop, n.path)
	}
	v, _, err := DecodeArg(h.vdec, n.props[i].val)
	return v, err
}

// State reads every replicated property into dst: a pointer to a struct
// (fields matched to SyncProperty.Key as gdvar matches Dictionary keys), to a
// map, or to any.
func (n *SceneNode) State(dst any) error {
	h := n.h
	h.mu.Lock()
	d := variant.NewDictionary(len(n.props))
	for _, s := range n.props {
		v, _, err := DecodeArg(h.vdec, s.val)
		if err != nil {
			h.mu.Unlock()
			return err
		}
		d.Set(variant.String(s.key), v)
	}
	h.mu.Unlock()
	return h.dec.UnmarshalValue(d, dst)
}

// plainArg returns the plain Variant encoding of a compressed argument.
func (h *Host) plainArg(buf *[12]byte, b []byte) []byte {
	v, isBool, _, ok, err := compressedScalar(h.d, b)
	if ok && err == nil {
		return plainScalar(buf, h.f, v, isBool)
	}
	return b
}

// encodeValue appends v in the compressed argument encoding.
func (h *Host) encodeValue(dst []byte, v any) ([]byte, error) {
	if vv, ok := v.(variant.Value); ok && vv != nil {
		return appendArg(dst, h.d, h.venc, vv)
	}
	start := len(dst)
	dst, err := h.enc.Append(dst, v)
	if err != nil {
		return dst[:start], err
	}
	return compressPlain(dst, start, h.d), nil
}

// compressPlain rewrites the plain Variant encoding at dst[start:] in the
// compressed argument encoding: only bools and ints differ.
func compressPlain(dst []byte, start int, d *dialect) []byte {
	b := dst[start:]
	if len(b) < 8 {
		return dst
	}
	hdr := binary.LittleEndian.Uint32(b)
	switch hdr & 0xFF {
	case typeBool:
		v := b[4]
		dst = dst[:start]
		if v != 0 {
			return append(dst, typeBool|0x80)
		}
		return append(dst, typeBool)
	case typeInt:
		var n int64
		if hdr&(1<<16) != 0 && len(b) >= 12 {
			n = int64(binary.LittleEndian.Uint64(b[4:]))
		} else {
			n = int64(int32(binary.LittleEndian.Uint32(b[4:])))
		}
		return appendIntArg(dst[:start], d, n)
	}
	return dst
}

// SetVisible makes the node visible, or not, to one peer, in addition to
// (or in place of, when it is hidden) its public visibility. The host
// spawns or despawns it for that peer at once.
func (n *SceneNode) SetVisible(peer PeerID, visible bool) {
	h := n.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if n.visible == nil {
		n.visible = map[PeerID]bool{}
	}
	if visible {
		n.visible[peer] = true
	} else {
		delete(n.visible, peer)
	}
	h.updateVisibilityLocked(n)
}

// SetPublic makes the node visible to every peer (the default), or only to
// those SetVisible names.
func (n *SceneNode) SetPublic(public bool) {
	h := n.h
	h.mu.Lock()
	defer h.mu.Unlock()
	n.public = public
	h.updateVisibilityLocked(n)
}

// SetFilter sets the node's visibility filter (nil: none); see
// SpawnOptions.Filter. Filters are evaluated again on every replication
// tick; UpdateVisibility evaluates them at once.
func (n *SceneNode) SetFilter(f func(PeerID) bool) {
	h := n.h
	h.mu.Lock()
	defer h.mu.Unlock()
	if (n.filter == nil) != (f == nil) && h.repl != nil && n.spawner != nil {
		if f == nil {
			h.repl.filtered--
		} else {
			h.repl.filtered++
		}
	}
	n.filter = f
	h.updateVisibilityLocked(n)
}

// UpdateVisibility evaluates the node's visibility for every peer now.
func (n *SceneNode) UpdateVisibility() {
	h := n.h
	h.mu.Lock()
	defer h.mu.Unlock()
	h.updateVisibilityLocked(n)
}

// VisibleTo reports whether the peer sees the node.
func (n *SceneNode) VisibleTo(peer PeerID) bool {
	h := n.h
	h.mu.Lock()
	defer h.mu.Unlock()
	return n.visibleLocked(peer)
}

func (n *SceneNode) visibleLocked(peer PeerID) bool {
	if n.gone {
		return false
	}
	if n.filter != nil && !n.filter(peer) {
		return false
	}
	return n.public || n.visible[peer]
}

// Despawn removes the node from every peer that has it.
func (n *SceneNode) Despawn() error {
	h := n.h
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.despawnLocked(n)
}

// String describes the node for logs.
func (n *SceneNode) String() string {
	if n.netID != 0 {
		return n.path + "#" + strconv.FormatUint(uint64(n.netID), 10)
	}
	return n.path
}

// Synchronizers returns the paths of the node's synchronizers.
func (n *SceneNode) Synchronizers() []string {
	var out []string
	for _, s := range n.syncs {
		out = append(out, s.path)
	}
	return slices.Clip(out)
}

// hasPeerLocked reports whether the node exists on peer p: spawned there,
// or, for a node the host did not spawn, visible to it.
func (n *SceneNode) hasPeerLocked(p *hostPeer) bool {
	if n.gone {
		return false
	}
	if n.spawner == nil {
		return n.visibleLocked(p.id)
	}
	if p.rp == nil {
		return false
	}
	return n.onPeer(p.rp)
}

// onPeer reports whether n is spawned on the peer rp.
func (n *SceneNode) onPeer(rp *replPeer) bool {
	return rp.slot >= 0 && rp.slot < len(n.at) && n.at[rp.slot] != 0
}

// setAt records that n is at index i of the list of the peer in slot.
func (n *SceneNode) setAt(slot, i int) {
	if slot >= len(n.at) {
		n.at = append(n.at, make([]int32, slot+1-len(n.at))...)
	}
	n.at[slot] = int32(i + 1)
}
