package multiplayer

import (
	"fmt"
	"io/fs"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gdvar/gdvar/resource"
	"github.com/gdvar/gdvar/variant"
)

// Project is what ReadProject finds in a Godot 4 project: the RPC nodes
// (as LoadProject), the MultiplayerSpawners with their spawnable scenes,
// and the MultiplayerSynchronizers outside those scenes.
type Project struct {
	// Nodes are the nodes whose scripts declare RPCs; give them to
	// NewHost.
	Nodes []Node
	// Spawners are the MultiplayerSpawners of the project's scenes, each
	// with its spawnable scenes: their synchronizers (in tree order) and
	// RPC nodes. The host is taken as their authority; set
	// Synchronizer.Owned or Authority where the game's code changes it
	// (the .tscn files cannot say).
	Spawners []Spawner
	// Synchronizers are the MultiplayerSynchronizers of scenes that no
	// spawner spawns, by full path.
	Synchronizers []Synchronizer
}

// Synchronizer returns the declaration of the synchronizer named name (a
// full path, a leading "/root/" ignored, or a path inside a spawnable
// scene, "ServerSync"), for changing it before AddTo; nil if none.
func (p *Project) Synchronizer(name string) *Synchronizer {
	name = trimRoot(name)
	for i := range p.Synchronizers {
		if trimRoot(p.Synchronizers[i].Name) == name {
			return &p.Synchronizers[i]
		}
	}
	for i := range p.Spawners {
		for j := range p.Spawners[i].Scenes {
			sc := &p.Spawners[i].Scenes[j]
			for k := range sc.Synchronizers {
				if sc.Synchronizers[k].Name == name {
					return &sc.Synchronizers[k]
				}
			}
		}
	}
	return nil
}

// Spawner returns the declaration of the spawner at path (from the
// multiplayer root, "Main/Spawner"; a leading "/root/" is ignored); nil if
// none.
func (p *Project) Spawner(path string) *Spawner {
	path = trimRoot(path)
	for i := range p.Spawners {
		if trimRoot(p.Spawners[i].Path) == path {
			return &p.Spawners[i]
		}
	}
	return nil
}

// AddTo declares the project's spawners and synchronizers on h.
func (p *Project) AddTo(h *Host) error {
	for _, s := range p.Spawners {
		if err := h.AddSpawner(s); err != nil {
			return err
		}
	}
	for _, s := range p.Synchronizers {
		if _, err := h.AddSynchronizer(s); err != nil {
			return err
		}
	}
	return nil
}

// projectScene is a scene of the project as ReadProject needs it, read
// by package resource (text .tscn or binary .scn).
type projectScene struct {
	file string // res:// path
	f    *resource.File
}

func (sc *projectScene) root() *resource.Node {
	if sc.f.Scene == nil || len(sc.f.Scene.Nodes) == 0 {
		return nil
	}
	return &sc.f.Scene.Nodes[0]
}

// textString is the text of a NodePath, String or StringName value.
func textString(v variant.Value) string {
	switch v := v.(type) {
	case variant.NodePath:
		return v.String()
	case variant.String:
		return string(v)
	case variant.StringName:
		return string(v)
	}
	return ""
}

// boolOf and numberOf read a property as the engine's setters convert it.
func boolOf(v variant.Value) bool {
	b, ok := v.(variant.Bool)
	return ok && bool(b)
}

func numberOf(v variant.Value) (float64, bool) {
	switch v := v.(type) {
	case variant.Int:
		return float64(v), true
	case variant.Float:
		return float64(v), true
	}
	return 0, false
}

// replicationConfig reads a SceneReplicationConfig as the engine's _set
// applies its keys, in file order: properties/N/path adds a property
// (spawn on, mode always), then replication_mode, spawn, and the older
// sync and watch booleans change it.
func replicationConfig(sub *resource.Resource) ([]SyncProperty, error) {
	var props []SyncProperty
	for _, kv := range sub.Properties {
		rest, ok := strings.CutPrefix(kv.Name, "properties/")
		if !ok {
			continue
		}
		idxS, what, ok := strings.Cut(rest, "/")
		idx, err := strconv.Atoi(idxS)
		if !ok || err != nil {
			continue
		}
		if what == "path" && idx == len(props) {
			props = append(props, SyncProperty{Path: textString(kv.Value), Spawn: true, Mode: ReplicateAlways})
			continue
		}
		if idx < 0 || idx >= len(props) {
			return nil, fmt.Errorf("property %d before its path", idx)
		}
		p := &props[idx]
		switch what {
		case "replication_mode":
			n, ok := kv.Value.(variant.Int)
			if !ok || n < 0 || n > variant.Int(ReplicateOnChange) {
				return nil, fmt.Errorf("property %s: replication_mode %v", p.Path, kv.Value)
			}
			p.Mode = ReplicationMode(n)
		case "spawn":
			p.Spawn = boolOf(kv.Value)
		case "sync":
			if boolOf(kv.Value) {
				p.Mode = ReplicateAlways
			} else if p.Mode == ReplicateAlways {
				p.Mode = ReplicateNever
			}
		case "watch":
			if boolOf(kv.Value) {
				p.Mode = ReplicateOnChange
			} else if p.Mode == ReplicateOnChange {
				p.Mode = ReplicateNever
			}
		}
	}
	return props, nil
}

// synchronizer reads a MultiplayerSynchronizer node of sc; name is its
// path as the declaration names it.
func (sc *projectScene) synchronizer(n *resource.Node, name string) (Synchronizer, error) {
	s := Synchronizer{Name: name, Root: ".."}
	if v, ok := n.Get("root_path"); ok {
		s.Root = textString(v)
	}
	seconds := func(key string) time.Duration {
		v, ok := n.Get(key)
		if !ok {
			return 0
		}
		f, _ := numberOf(v)
		return time.Duration(f * float64(time.Second))
	}
	s.ReplicationInterval = seconds("replication_interval")
	s.DeltaInterval = seconds("delta_interval")
	if v, ok := n.Get("public_visibility"); ok && !boolOf(v) {
		s.Hidden = true
	}
	if v, ok := n.Get("replication_config"); ok {
		ref, isRef := v.(variant.ResourceRef)
		var sub *resource.Resource
		if isRef && ref.Kind == variant.RefSub {
			sub = sc.f.SubByID(ref.ID)
		}
		if sub == nil {
			return s, fmt.Errorf("%s: synchronizer %s: replication_config %v is not a sub-resource of the scene", sc.file, name, v)
		}
		props, err := replicationConfig(sub)
		if err != nil {
			return s, fmt.Errorf("%s: synchronizer %s: %w", sc.file, name, err)
		}
		s.Properties = props
	}
	return s, nil
}

// ReadProject reads a Godot 4 project in dir: the RPC declarations (as
// LoadProject) and, from the scenes (.tscn and .scn, read by package resource), every MultiplayerSpawner
// with its spawnable scenes and every MultiplayerSynchronizer with its
// SceneReplicationConfig (the replication_mode form and the older
// sync/watch booleans). Paths are those the nodes have when each scene's
// root is a child of /root (the main scene and autoloads). It reads what
// the files declare, not what scripts change at run time (authority,
// visibility, spawnable scenes added by code), nor the nodes of instanced
// sub-scenes.
func ReadProject(dir string) (*Project, error) {
	nodes, err := LoadProject(dir, variant.Godot4)
	if err != nil {
		return nil, err
	}
	fsys := os.DirFS(dir)
	scenes := map[string]*projectScene{} // by res:// path and by uid
	var files []string
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != "." {
			return fs.SkipDir
		}
		if d.IsDir() || path.Ext(p) != ".tscn" && path.Ext(p) != ".scn" {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		f, err := resource.Read(src, resource.Options{})
		if err != nil {
			return fmt.Errorf("res://%s: %w", p, err)
		}
		if !f.IsScene() {
			return nil
		}
		sc := &projectScene{file: "res://" + p, f: f}
		scenes[sc.file] = sc
		if f.UID.Valid() {
			scenes[f.UID.String()] = sc
		}
		files = append(files, sc.file)
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Strings(files)
	proj := &Project{Nodes: nodes}
	// RPC nodes by scene file, relative to the scene root, for scenes
	// that are spawned.
	rpcs := map[string][]Method{}
	for _, n := range nodes {
		rpcs[n.Path] = n.Methods
	}
	spawnable := map[string]bool{}
	for _, f := range files {
		sc := scenes[f]
		root := sc.root()
		if root == nil {
			continue
		}
		rootName := root.Name
		for i := range sc.f.Scene.Nodes {
			n := &sc.f.Scene.Nodes[i]
			if n.Type != "MultiplayerSpawner" {
				continue
			}
			sp := Spawner{Path: fullPath(rootName, n.Path()), SpawnPath: ""}
			if v, ok := n.Get("spawn_path"); ok {
				sp.SpawnPath = textString(v)
			}
			if v, ok := n.Get("_spawnable_scenes"); ok {
				arr, isList := v.(variant.PackedStringArray)
				if !isList {
					return nil, fmt.Errorf("%s: spawner %s: _spawnable_scenes is %v, not a PackedStringArray", f, n.Path(), v.Type())
				}
				for _, res := range arr {
					ssc := scenes[res]
					if ssc == nil {
						return nil, fmt.Errorf("%s: spawner %s: spawnable scene %s not found in the project", f, n.Path(), res)
					}
					spawnable[ssc.file] = true
					scene, err := readScene(ssc, rpcs)
					if err != nil {
						return nil, err
					}
					sp.Scenes = append(sp.Scenes, scene)
				}
			}
			proj.Spawners = append(proj.Spawners, sp)
		}
	}
	for _, f := range files {
		sc := scenes[f]
		if spawnable[f] || sc.root() == nil {
			continue
		}
		rootName := sc.root().Name
		for i := range sc.f.Scene.Nodes {
			n := &sc.f.Scene.Nodes[i]
			if n.Type != "MultiplayerSynchronizer" {
				continue
			}
			s, err := sc.synchronizer(n, fullPath(rootName, n.Path()))
			if err != nil {
				return nil, err
			}
			proj.Synchronizers = append(proj.Synchronizers, s)
		}
	}
	return proj, nil
}

// readScene reads a spawnable scene: its synchronizers in tree order and
// the RPC nodes LoadProject found in it (at its root's name).
func readScene(sc *projectScene, rpcs map[string][]Method) (Scene, error) {
	s := Scene{Path: sc.file}
	rootName := sc.root().Name
	for i := range sc.f.Scene.Nodes {
		n := &sc.f.Scene.Nodes[i]
		if n.Type == "MultiplayerSynchronizer" {
			sy, err := sc.synchronizer(n, n.Path())
			if err != nil {
				return s, err
			}
			s.Synchronizers = append(s.Synchronizers, sy)
		}
		if m, ok := rpcs[fullPath(rootName, n.Path())]; ok {
			s.Nodes = append(s.Nodes, Node{Path: n.Path(), Methods: m})
		}
	}
	return s, nil
}

func fullPath(root, p string) string {
	if p == "." {
		return root
	}
	return root + "/" + p
}
