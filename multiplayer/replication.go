package multiplayer

import (
	"errors"
	"fmt"
	"path"
	"slices"
	"strings"
	"time"
)

// Replication: the host's model of the scene that Godot 4's
// MultiplayerSpawner and MultiplayerSynchronizer replicate. The host is the
// authority of its spawners: it spawns and despawns nodes on the peers that
// may see them and sends the state of the synchronizers it owns; it reads
// the state of the synchronizers its peers own (a player's input).

// ReplicationMode says when a synchronizer sends a property, as
// SceneReplicationConfig's replication_mode.
type ReplicationMode uint8

// The replication modes, numbered as the engine numbers them in .tscn
// files.
const (
	// ReplicateNever: only in the spawn state, if Spawn is set.
	ReplicateNever ReplicationMode = iota
	// ReplicateAlways: in every SYNC, at the replication interval
	// (unreliable).
	ReplicateAlways
	// ReplicateOnChange: in a DELTA when it changed, at the delta
	// interval (reliable). At most 64 per synchronizer.
	ReplicateOnChange
)

// String returns the mode as the editor names it.
func (m ReplicationMode) String() string {
	switch m {
	case ReplicateNever:
		return "never"
	case ReplicateAlways:
		return "always"
	case ReplicateOnChange:
		return "on change"
	}
	return fmt.Sprintf("ReplicationMode(%d)", uint8(m))
}

// SyncProperty is one property of a SceneReplicationConfig.
type SyncProperty struct {
	// Path is the property path relative to the synchronizer's root, as the
	// editor writes it: ".:position", "Sprite:modulate".
	Path string
	// Spawn sends the property in the spawn state.
	Spawn bool
	// Mode says when it is synchronized afterwards.
	Mode ReplicationMode
}

// Key is the name the property has in a SceneNode's state: the path
// without a leading ".:" ("position"; "Sprite:modulate" stays as it is).
// A struct given to SetState or State names it by its gdvar tag.
func (p SyncProperty) Key() string { return strings.TrimPrefix(p.Path, ".:") }

// Synchronizer declares a MultiplayerSynchronizer.
type Synchronizer struct {
	// Name is the synchronizer's path relative to the root of its scene
	// ("ServerSync", "Body/Sync"). For AddSynchronizer it is the full
	// path from the multiplayer root, "*" elements allowed:
	// "Main/Players/*/InputSync".
	Name string
	// Root is root_path, relative to the synchronizer; "" means "..", the
	// engine's default.
	Root string
	// Properties are the replication config's properties in the order
	// the game declares them: that order is the order on the wire.
	Properties []SyncProperty
	// ReplicationInterval and DeltaInterval are replication_interval and
	// delta_interval; 0 means every replication tick.
	ReplicationInterval time.Duration
	DeltaInterval       time.Duration
	// Authority is the synchronizer's multiplayer authority: 0 means the
	// host, which then sends its state. Any other peer sends it, and the
	// host only reads it.
	Authority PeerID
	// Owned makes the synchronizer's authority the peer that owns its
	// node, as a game does with set_multiplayer_authority(id) in the
	// node's _enter_tree: SpawnOptions.Owner for a spawned node; for
	// AddSynchronizer, the peer id in the path element the first "*"
	// matched (players named after their peers). A spawned node without
	// an owner leaves it to the host.
	Owned bool
	// Hidden is public_visibility off: the host sends the state of a
	// synchronizer declared with AddSynchronizer only to the peers
	// SceneNode.SetVisible names. Spawned nodes take their visibility from
	// SpawnOptions instead.
	Hidden bool
	// OnReceive, when set, is called after the host applied a state a
	// peer sent for this synchronizer (the engine's synchronized and
	// delta_synchronized signals), on that peer's goroutine. Read the
	// values with node.Get or node.State.
	OnReceive func(node *SceneNode, from PeerID)
}

// SpawnProperties lists the properties of the synchronizer's state in a
// SPAWN (those with Spawn set), in wire order.
func (s *Synchronizer) SpawnProperties() []SyncProperty {
	return s.filtered(func(p SyncProperty) bool { return p.Spawn })
}

// SyncProperties lists the properties a SYNC carries for the synchronizer
// (mode ReplicateAlways), in wire order.
func (s *Synchronizer) SyncProperties() []SyncProperty {
	return s.filtered(func(p SyncProperty) bool { return p.Mode == ReplicateAlways })
}

// DeltaProperties lists the properties a DELTA can carry for the
// synchronizer (mode ReplicateOnChange): bit i of a DELTA's mask stands
// for DeltaProperties()[i].
func (s *Synchronizer) DeltaProperties() []SyncProperty {
	return s.filtered(func(p SyncProperty) bool { return p.Mode == ReplicateOnChange })
}

func (s *Synchronizer) filtered(keep func(SyncProperty) bool) []SyncProperty {
	var out []SyncProperty
	for _, p := range s.Properties {
		if keep(p) {
			out = append(out, p)
		}
	}
	return out
}

// Scene declares a scene a spawner can spawn: the synchronizers it holds,
// in tree order, and the RPC nodes in it.
type Scene struct {
	// Path is the scene's resource path (res://player.tscn); informative.
	Path string
	// Synchronizers are the scene's MultiplayerSynchronizers in tree
	// order, the order in which the engine hands them their ids.
	Synchronizers []Synchronizer
	// Nodes are the scene's nodes with RPCs, by path relative to the
	// scene's root ("." for the root itself). A node whose Authority is
	// OwnerAuthority belongs to the spawned node's owner.
	Nodes []Node
}

// OwnerAuthority, as a Node's Authority in a Scene, stands for the owner
// of the spawned node (SpawnOptions.Owner).
const OwnerAuthority PeerID = -1

// Spawner declares a MultiplayerSpawner whose authority is the host.
type Spawner struct {
	// Path is the spawner's path from the multiplayer root: "Main/Spawner".
	Path string
	// SpawnPath is spawn_path, relative to the spawner: "../Players".
	SpawnPath string
	// Scenes are the spawnable scenes, by index (_spawnable_scenes).
	Scenes []Scene
	// Custom, when set, is what the game's spawn_function makes of a
	// custom spawn's argument: Spawn with scene SpawnCustom and
	// SpawnOptions.Arg sends that argument in place of a scene index.
	Custom *Scene
}

// SpawnOptions says what a spawned node starts with and who sees it.
type SpawnOptions struct {
	// Owner is the peer that owns the node: the authority of its Owned
	// synchronizers and OwnerAuthority nodes.
	Owner PeerID
	// State holds the node's first property values: a struct (fields named
	// as gdvar names them, matched to SyncProperty.Key), a map[string]any or a
	// *variant.Dictionary. Properties it leaves out start as Nil.
	State any
	// Hidden: the node is not public; only the peers in VisibleTo (and
	// those given SetVisible later) see it.
	Hidden bool
	// VisibleTo are peers that see the node even when Hidden.
	VisibleTo []PeerID
	// Filter, when set, must also accept a peer for it to see the node
	// (the engine's visibility filters). It is called with the host's
	// lock held, on every replication tick: it must be fast and must not
	// call the Host.
	Filter func(peer PeerID) bool
	// Arg is the argument of a custom spawn (scene SpawnCustom): the
	// value the clients' spawn_function gets, converted as gdvar.Marshal
	// converts values.
	Arg any
}

// Errors of the scene model.
var (
	// ErrUnknownSpawner: no spawner at that path.
	ErrUnknownSpawner = errors.New("multiplayer: unknown spawner")
	// ErrDespawned: the node was despawned.
	ErrDespawned = errors.New("multiplayer: node despawned")
)

// syncDecl is a validated Synchronizer.
type syncDecl struct {
	Synchronizer
	root                string   // root path from the scene root, "." for the scene root
	spawn, sync, watch  []string // property paths in declaration order
	syncUsec, deltaUsec int64
}

func newSyncDecl(s Synchronizer) (*syncDecl, error) {
	if s.Name == "" {
		return nil, errors.New("multiplayer: a synchronizer without a name")
	}
	if s.Root == "" {
		s.Root = ".."
	}
	d := &syncDecl{Synchronizer: s, syncUsec: s.ReplicationInterval.Microseconds(), deltaUsec: s.DeltaInterval.Microseconds()}
	d.root = path.Clean(path.Join(s.Name, s.Root))
	if d.root == ".." || strings.HasPrefix(d.root, "../") {
		return nil, fmt.Errorf("multiplayer: synchronizer %q: root %q leaves its scene", s.Name, s.Root)
	}
	seen := map[string]bool{}
	for _, p := range s.Properties {
		if !strings.Contains(p.Path, ":") {
			return nil, fmt.Errorf("multiplayer: synchronizer %q: property %q has no ':' (write \".:%s\")", s.Name, p.Path, p.Path)
		}
		if seen[p.Path] {
			return nil, fmt.Errorf("multiplayer: synchronizer %q: property %q twice", s.Name, p.Path)
		}
		seen[p.Path] = true
		if p.Mode > ReplicateOnChange {
			return nil, fmt.Errorf("multiplayer: synchronizer %q: property %q: unknown mode %d", s.Name, p.Path, p.Mode)
		}
	}
	d.spawn = propertyPaths(s.SpawnProperties())
	d.sync = propertyPaths(s.SyncProperties())
	d.watch = propertyPaths(s.DeltaProperties())
	if len(d.watch) > 64 {
		return nil, fmt.Errorf("multiplayer: synchronizer %q: more than 64 on-change properties", s.Name)
	}
	return d, nil
}

func propertyPaths(ps []SyncProperty) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.Path
	}
	return out
}

// sceneDecl is a validated Scene.
type sceneDecl struct {
	Scene
	syncs []*syncDecl
	nodes []Node // RPC nodes, paths relative to the scene root
}

// spawner is a declared spawner.
type spawner struct {
	Spawner
	node   *node  // the spawner in the path cache
	parent string // the spawned nodes' parent, from the multiplayer root
	scenes []*sceneDecl
	custom *sceneDecl
}

// AddSpawner declares a MultiplayerSpawner the host is the authority of.
// It may be called while the host runs.
func (h *Host) AddSpawner(s Spawner) (err error) {
	if h.o.Godot != 4 {
		return errors.New("multiplayer: replication needs Godot 4 (Godot 3 has no spawners)")
	}
	sp := &spawner{Spawner: s}
	sp.Path = trimRoot(s.Path)
	if sp.Path == "" || s.SpawnPath == "" {
		return errors.New("multiplayer: a spawner needs a path and a spawn path")
	}
	sp.parent = path.Clean(path.Join(sp.Path, s.SpawnPath))
	if sp.parent == "." || strings.HasPrefix(sp.parent, "..") {
		return fmt.Errorf("multiplayer: spawner %q: spawn path %q leaves the multiplayer root", s.Path, s.SpawnPath)
	}
	if len(s.Scenes) > 255 {
		return fmt.Errorf("multiplayer: spawner %q: more than 255 spawnable scenes", s.Path)
	}
	all := s.Scenes
	if s.Custom != nil {
		all = append(slices.Clip(all), *s.Custom)
	}
	for i, sc := range all {
		sd := &sceneDecl{Scene: sc}
		for _, sy := range sc.Synchronizers {
			d, err := newSyncDecl(sy)
			if err != nil {
				return err
			}
			sd.syncs = append(sd.syncs, d)
		}
		for _, n := range sc.Nodes {
			if _, err := newNode(Node{Path: "x/" + n.Path, Methods: n.Methods}, 0); err != nil {
				return err
			}
			sd.nodes = append(sd.nodes, n)
		}
		if s.Custom != nil && i == len(all)-1 {
			sp.custom = sd
			break
		}
		sp.scenes = append(sp.scenes, sd)
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	rs := h.replLocked()
	if _, dup := rs.spawners[sp.Path]; dup {
		return fmt.Errorf("multiplayer: spawner %q declared twice", sp.Path)
	}
	h.nmu.RLock()
	nd := h.nodes[sp.Path]
	h.nmu.RUnlock()
	if nd == nil {
		// The spawner has no RPCs of its own; declared nodes keep theirs.
		if nd, err = h.addNode(Node{Path: sp.Path}); err != nil {
			return err
		}
	}
	sp.node = nd
	rs.spawners[sp.Path] = sp
	return nil
}

// AddNode declares a node with RPCs while the host runs. Its path may hold
// "*" elements ("Main/Players/*"): every node it matches has its methods;
// the authority of such a node is Authority, or, when that is
// OwnerAuthority, the peer id in the element the first "*" matched.
func (h *Host) AddNode(n Node) error {
	_, err := h.addNode(n)
	return err
}

// AddSynchronizer declares a synchronizer that the host did not spawn: one
// in the game's main scene, or one in nodes that peers spawn, by pattern
// ("Main/Players/*/InputSync"). The host reads the state its authority
// sends; when the host itself is the authority (Authority 0, not Owned)
// and the path has no pattern, the host sends it, naming it by its path
// as the engine does.
func (h *Host) AddSynchronizer(s Synchronizer) (*SceneNode, error) {
	if h.o.Godot != 4 {
		return nil, errors.New("multiplayer: replication needs Godot 4")
	}
	s.Name = trimRoot(s.Name)
	d, err := newSyncDecl(s)
	if err != nil {
		return nil, err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	rs := h.replLocked()
	if isPattern(s.Name) {
		if _, err := path.Match(s.Name, ""); err != nil {
			return nil, fmt.Errorf("multiplayer: synchronizer pattern %q: %w", s.Name, err)
		}
		rs.patterns = append(rs.patterns, d)
		return nil, nil
	}
	if _, dup := rs.byPath[d.root]; dup {
		return nil, fmt.Errorf("multiplayer: a node at %q is already replicated", d.root)
	}
	n := h.newSceneNodeLocked(d.root, nil, 0, "", s.Authority)
	si, err := h.attachSyncLocked(n, d, d.Name, false)
	if err != nil {
		return nil, err
	}
	if si.authority == HostID {
		rs.pathSyncs = append(rs.pathSyncs, si)
	}
	return n, nil
}
