package multiplayer

import (
	"context"
	"fmt"
	"path"
	"strings"
	"sync"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

// session is what a host and a client share: the declared nodes, the codecs
// of the engine family, and the RPC steps that do not depend on the side.
type session struct {
	f    variant.Family
	d    *dialect
	dec  *gdvar.DecMode
	vdec *variant.DecMode
	enc  *gdvar.EncMode
	venc *variant.EncMode
	// nmu guards nodes, byID, patterns and lastCacheID: nodes are added
	// and removed while the host runs (spawned nodes, AddNode).
	nmu         sync.RWMutex
	nodes       map[string]*node
	byID        map[uint32]*node
	patterns    []*node // declared with "*" path elements
	lastCacheID uint32
}

// remote is the path cache state shared with one other peer: the paths it
// registered (SIMPLIFY_PATH to us) and the paths we announced to it. The
// maps are made by their first entry (setRecv, setSent): a peer that
// uses no paths holds none.
type remote struct {
	recv   map[uint32]recvEntry
	sent   map[*node]bool // announced: confirmed?
	budget *pathBudget    // what recv may hold; shared by the caches of one peer
}

func newRemote(b *pathBudget) *remote {
	return &remote{budget: b}
}

// setRecv records the path the peer registered as id.
func (r *remote) setRecv(id uint32, e recvEntry) {
	if r.recv == nil {
		r.recv = map[uint32]recvEntry{}
	}
	r.recv[id] = e
}

// setSent records nd's path as announced to the peer, and whether the
// peer confirmed it.
func (r *remote) setSent(nd *node, confirmed bool) {
	if r.sent == nil {
		r.sent = map[*node]bool{}
	}
	r.sent[nd] = confirmed
}

// MaxPathLength is the longest node path a peer may register in a host's
// or client's path cache (SIMPLIFY_PATH); a longer one is refused as a bad
// packet. The engines set no limit of their own below the packet size,
// but a game's paths are tens of bytes: 4096 is a path of a hundred
// levels of 40-character names.
const MaxPathLength = 4096

// pathEntryOverhead is what one cache entry costs besides its path's
// bytes: its slot in the map (the key and a recvEntry, 32 bytes), with the
// map's control bytes and the room it keeps free to grow, and the
// string's header.
const pathEntryOverhead = 96

// pathCost is what registering a path of n bytes costs: the entry, and
// the string's allocation, which the allocator rounds up by at most an
// eighth (its size classes) and 16 bytes.
func pathCost(n int) int { return pathEntryOverhead + n + n/8 + 16 }

// pathBudget bounds the path caches of one peer, in entries and in bytes.
type pathBudget struct {
	maxPaths, maxBytes int
	paths, bytes       int
}

// charge reserves the cost of a path of n bytes; false when over budget.
func (b *pathBudget) charge(n int) bool {
	c := pathCost(n)
	if b.paths+1 > b.maxPaths || b.bytes+c > b.maxBytes {
		return false
	}
	b.paths++
	b.bytes += c
	return true
}

// refund gives back what charge reserved for a path of n bytes that
// left the cache (a despawned node's path).
func (b *pathBudget) refund(n int) {
	b.paths--
	b.bytes -= pathCost(n)
}

func newSession(f variant.Family, allowObjects bool, nodes []Node) (*session, error) {
	if f == 0 {
		f = variant.Godot4
	}
	if f != variant.Godot4 && f != variant.Godot3 {
		return nil, fmt.Errorf("multiplayer: unknown engine family %d", f)
	}
	s := &session{f: f, d: dialectOf(f), nodes: map[string]*node{}, byID: map[uint32]*node{}}
	var err error
	if s.dec, err = (gdvar.DecOptions{Family: f, AllowObjects: allowObjects}).DecMode(); err != nil {
		return nil, err
	}
	if s.vdec, err = (variant.DecOptions{Family: f, AllowObjects: allowObjects}).DecMode(); err != nil {
		return nil, err
	}
	if s.enc, err = (gdvar.EncOptions{Family: f, FullObjects: allowObjects}).EncMode(); err != nil {
		return nil, err
	}
	if s.venc, err = (variant.EncOptions{Family: f, FullObjects: allowObjects}).EncMode(); err != nil {
		return nil, err
	}
	for _, n := range nodes {
		if _, err := s.addNode(n); err != nil {
			return nil, err
		}
	}
	return s, nil
}

// addNode declares a node, or a pattern of nodes when its path has "*"
// elements, and gives it the next path cache id.
func (s *session) addNode(n Node) (*node, error) {
	s.nmu.Lock()
	defer s.nmu.Unlock()
	nd, err := newNode(n, 0)
	if err != nil {
		return nil, err
	}
	if isPattern(nd.path) {
		if _, err := path.Match(nd.path, ""); err != nil {
			return nil, fmt.Errorf("multiplayer: node pattern %q: %w", nd.path, err)
		}
		for _, o := range s.patterns {
			if o.path == nd.path {
				return nil, fmt.Errorf("multiplayer: node %q declared twice", nd.path)
			}
		}
		s.patterns = append(s.patterns, nd)
		return nd, nil
	}
	if _, dup := s.nodes[nd.path]; dup {
		return nil, fmt.Errorf("multiplayer: node %q declared twice", nd.path)
	}
	s.registerLocked(nd)
	return nd, nil
}

// registerLocked gives nd the next cache id and makes it known by path
// and id. The engine's cache ids start at 1 (last_send_cache_id).
func (s *session) registerLocked(nd *node) {
	s.lastCacheID++
	nd.cacheID = s.lastCacheID
	s.nodes[nd.path] = nd
	s.byID[nd.cacheID] = nd
}

// unregister forgets a node added while running (a despawned node).
func (s *session) unregister(nd *node) {
	s.nmu.Lock()
	if s.nodes[nd.path] == nd {
		delete(s.nodes, nd.path)
	}
	if s.byID[nd.cacheID] == nd {
		delete(s.byID, nd.cacheID)
	}
	s.nmu.Unlock()
}

func isPattern(p string) bool { return strings.ContainsAny(p, "*?[") }

// maxMaterialized bounds the nodes made from patterns for the host's own
// calls (Call on a path a pattern matches); each stays known until the
// end of the host, as the engine's cache of sent paths does.
const maxMaterialized = 1 << 16

// lookup returns the node at path p: a declared one, or one made from the
// first pattern that matches. keep registers a node made from a pattern
// (the host calls it, so it needs a stable cache id); otherwise it is a
// transient node, known only to the caller (a path a peer announced).
func (s *session) lookup(p string, keep bool) *node {
	s.nmu.RLock()
	nd := s.nodes[p]
	var pat *node
	if nd == nil {
		for _, pn := range s.patterns {
			if ok, _ := path.Match(pn.path, p); ok {
				pat = pn
				break
			}
		}
	}
	s.nmu.RUnlock()
	if nd != nil || pat == nil {
		return nd
	}
	c := pat.instance(p)
	if !keep {
		return c
	}
	s.nmu.Lock()
	defer s.nmu.Unlock()
	if nd := s.nodes[p]; nd != nil {
		return nd
	}
	if len(s.nodes) >= maxMaterialized {
		return nil
	}
	s.registerLocked(c)
	return c
}

// prepareCall encodes a call of methodName on the node at path.
func (s *session) prepareCall(path, methodName string, args []any) (*node, *method, Call, error) {
	nd := s.lookup(trimRoot(path), true)
	if nd == nil {
		return nil, nil, Call{}, fmt.Errorf("%w: %q", ErrUnknownNode, path)
	}
	m := nd.method(methodName)
	if m == nil {
		return nil, nil, Call{}, fmt.Errorf("%w: %q on %q", ErrUnknownMethod, methodName, nd.path)
	}
	vals := make([]variant.Value, len(args))
	for i, a := range args {
		if v, ok := a.(variant.Value); ok && a != nil {
			vals[i] = v
			continue
		}
		b, err := s.enc.Marshal(a)
		if err != nil {
			return nil, nil, Call{}, fmt.Errorf("multiplayer: argument %d: %w", i, err)
		}
		v, _, err := s.vdec.Decode(b)
		if err != nil {
			return nil, nil, Call{}, fmt.Errorf("multiplayer: argument %d: %w", i, err)
		}
		vals[i] = v
	}
	enc, raw, count, err := AppendArgs(nil, s.venc, vals...)
	if err != nil {
		return nil, nil, Call{}, err
	}
	return nd, m, Call{NodeID: nd.cacheID, Method: m.id, Name: m.Name, Raw: raw, ArgCount: count, Args: enc}, nil
}

// callPackets returns the packets that carry c to a peer, announcing the
// node first when the peer does not know it yet, as SceneCacheInterface
// does: SIMPLIFY_PATH once, then the path in full until it is confirmed.
func (s *session) callPackets(r *remote, nd *node, c Call) [][]byte {
	var out [][]byte
	confirmed, announced := r.sent[nd]
	if !announced {
		out = append(out, AppendSimplifyPath(nil, s.f, nd.checksum, nd.cacheID, nd.path))
		r.setSent(nd, false)
	}
	if !confirmed {
		c.Path = nd.path
	}
	return append(out, AppendCall(nil, s.f, c))
}

// simplify registers a path a peer announced and returns the CONFIRM_PATH
// to answer with, or nil when the engine would not answer. A path longer
// than MaxPathLength is refused (ErrTooLarge); one that would take the
// peer's caches over their budget, in entries or bytes, fails with
// ErrBudget.
func (s *session) simplify(r *remote, pk *Packet) ([]byte, error) {
	if _, dup := r.recv[pk.NodeID]; dup {
		return nil, fmt.Errorf("%w: cache id %d registered twice", ErrInvalidPacket, pk.NodeID)
	}
	if len(pk.Path) > MaxPathLength {
		return nil, perr(s.d.simplifyPathOffset(), CmdSimplifyPath, ErrTooLarge,
			fmt.Sprintf("node path of %d bytes, more than %d", len(pk.Path), MaxPathLength))
	}
	if !r.budget.charge(len(pk.Path)) {
		return nil, fmt.Errorf("%w: more than %d cached paths or %d bytes of them", ErrBudget, r.budget.maxPaths, r.budget.maxBytes)
	}
	path := string(pk.Path)
	nd := s.lookup(path, false)
	r.setRecv(pk.NodeID, recvEntry{path: path, node: nd})
	if s.d.byName {
		// Godot 3 confirms every path, known or not.
		return AppendConfirmPath(nil, s.f, true, pk.NodeID, path), nil
	}
	if nd == nil {
		return nil, nil
	}
	return AppendConfirmPath(nil, s.f, string(pk.Checksum) == nd.checksum, pk.NodeID, path), nil
}

// confirm records a CONFIRM_PATH.
func (s *session) confirm(r *remote, pk *Packet) error {
	var nd *node
	s.nmu.RLock()
	if s.d.confirmByID {
		nd = s.byID[pk.NodeID]
		if _, sent := r.sent[nd]; nd == nil || !sent {
			if pn := s.nodes[string(pk.Path)]; pn != nil {
				nd = pn // the path form of earlier 4.x
			}
		}
	} else {
		nd = s.nodes[string(pk.Path)]
	}
	s.nmu.RUnlock()
	if nd == nil {
		// The engine ignores a confirmation of a node it no longer has
		// (removed, or despawned, since it sent the path).
		return nil
	}
	if _, sent := r.sent[nd]; !sent {
		return fmt.Errorf("%w: confirms a path that was not sent", ErrInvalidPacket)
	}
	r.setSent(nd, true)
	return nil
}

// resolve finds the node and method a REMOTE_CALL names (or the property
// a REMOTE_SET sets), filling in e.
func (s *session) resolve(r *remote, e *Event) (nd *node, m *method, err error) {
	nd, m, miss := s.find(r, e)
	pk := &e.Packet
	switch miss {
	case missNone:
		return nd, m, nil
	case missNode, missCachedNode:
		return nil, nil, &CallError{From: e.From, Node: e.Node, Err: ErrUnknownNode}
	case missCacheID:
		return nil, nil, &CallError{From: e.From, Node: fmt.Sprintf("#%d", pk.NodeID), Err: fmt.Errorf("%w: cache id %d not registered", ErrUnknownNode, pk.NodeID)}
	case missProperty:
		return nd, nil, &CallError{From: e.From, Node: nd.path, Method: string(pk.Name), Err: ErrUnknownProperty}
	case missMethodName:
		return nd, nil, &CallError{From: e.From, Node: nd.path, Method: e.Method, Err: ErrUnknownMethod}
	default: // missMethodID
		return nd, nil, &CallError{From: e.From, Node: nd.path, Method: fmt.Sprintf("#%d", pk.Method), Err: ErrUnknownMethod}
	}
}

// callMiss is what find did not know of a call.
type callMiss uint8

const (
	missNone       callMiss = iota
	missNode                // the path it names in full is not declared
	missCacheID             // its cache id is not registered
	missCachedNode          // the path its cache id stands for is not declared
	missProperty            // the node has no such property (REMOTE_SET)
	missMethodName          // the node has no method of that name (Godot 3)
	missMethodID            // the node has no method of that id (Godot 4)
)

// find is resolve without the error: the node and method a call names,
// as far as they are known, with e's Node and Method filled in, and what
// was not known. It allocates nothing for a call it knows.
func (s *session) find(r *remote, e *Event) (nd *node, m *method, miss callMiss) {
	pk := &e.Packet
	if s.d.byName {
		defer func() {
			if e.Method == "" {
				e.Method = string(pk.Name) // Godot 3 names it even for unknown nodes
			}
		}()
	}
	if pk.Path != nil {
		e.Node = string(pk.Path)
		nd = s.lookup(e.Node, false)
		if nd == nil {
			return nil, nil, missNode
		}
	} else {
		rec, ok := r.recv[pk.NodeID]
		if !ok {
			return nil, nil, missCacheID
		}
		e.Node = rec.path
		if rec.node == nil {
			return nil, nil, missCachedNode
		}
		nd = rec.node
	}
	if pk.Command == CmdRemoteSet {
		if m = nd.propBytes(pk.Name); m == nil {
			return nd, nil, missProperty
		}
		e.Method = m.Name
		return nd, m, missNone
	}
	if s.d.byName {
		if m = nd.methodBytes(pk.Name); m == nil {
			e.Method = string(pk.Name)
			return nd, nil, missMethodName
		}
		e.Method = m.Name
	} else {
		if int(pk.Method) >= len(nd.methods) {
			return nd, nil, missMethodID
		}
		m = nd.methods[pk.Method]
		e.Method = m.Name
	}
	return nd, m, missNone
}

// dispatch checks the method's mode and runs its handler.
func (s *session) dispatch(ctx context.Context, self PeerID, nd *node, m *method, e *Event) error {
	if !m.allows(e.From, self, nd.authority) {
		return &CallError{From: e.From, Node: nd.path, Method: m.Name, Err: fmt.Errorf("%w: mode %s, authority %d", ErrNotAllowed, m.Mode, nd.authority)}
	}
	if err := m.invoke(ctx, s.dec, s.f, e.From, &e.Packet); err != nil {
		return &CallError{From: e.From, Node: nd.path, Method: m.Name, Err: err}
	}
	return nil
}
