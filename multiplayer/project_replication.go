package multiplayer

import (
	"bufio"
	"fmt"
	"io/fs"
	"os"
	"path"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/gdvar/gdvar/gdtext"
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
// full path, or a path inside a spawnable scene, "ServerSync"), for
// changing it before AddTo; nil if none.
func (p *Project) Synchronizer(name string) *Synchronizer {
	for i := range p.Synchronizers {
		if p.Synchronizers[i].Name == name {
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

// tscnScene is a text scene as ReadProject needs it.
type tscnScene struct {
	file  string // res:// path
	uid   string
	ext   map[string]string // ext_resource id → res:// path
	subs  map[string]*tscnSection
	nodes []*tscnSection // in file (tree) order
}

type tscnSection struct {
	kind  string // node, sub_resource, …
	attrs map[string]string
	props []tscnProp // in file order
	path  string     // node: path from the scene root, "." for the root
}

type tscnProp struct{ key, val string }

func (s *tscnSection) get(key string) (string, bool) {
	for _, p := range s.props {
		if p.key == key {
			return p.val, true
		}
	}
	return "", false
}

var (
	tscnProperty = regexp.MustCompile(`^([A-Za-z_][A-Za-z0-9_/]*)\s*=\s*(.*)$`)
	tscnCall     = regexp.MustCompile(`^(?:SubResource|ExtResource)\(\s*"?([^")\s]+)"?\s*\)$`)
	tscnUID      = regexp.MustCompile(`\buid="([^"]+)"`)
)

// parseTscn reads the sections and one-line properties of a text scene.
func parseTscn(file, src string) *tscnScene {
	sc := &tscnScene{file: file, ext: map[string]string{}, subs: map[string]*tscnSection{}}
	var cur *tscnSection
	s := bufio.NewScanner(strings.NewReader(src))
	s.Buffer(nil, 4<<20)
	for s.Scan() {
		line := strings.TrimSpace(s.Text())
		if m := tscnHeader.FindStringSubmatch(line); m != nil {
			a := attrs(m[2])
			cur = &tscnSection{kind: m[1], attrs: a}
			switch m[1] {
			case "gd_scene":
				if u := tscnUID.FindStringSubmatch(line); u != nil {
					sc.uid = u[1]
				}
			case "ext_resource":
				sc.ext[a["id"]] = a["path"]
				if u := tscnUID.FindStringSubmatch(line); u != nil {
					sc.ext[u[1]] = a["path"]
				}
			case "sub_resource":
				sc.subs[a["id"]] = cur
			case "node":
				parent, hasParent := a["parent"]
				switch {
				case !hasParent:
					cur.path = "."
				case parent == ".":
					cur.path = a["name"]
				default:
					cur.path = parent + "/" + a["name"]
				}
				sc.nodes = append(sc.nodes, cur)
			}
			continue
		}
		if cur != nil {
			if m := tscnProperty.FindStringSubmatch(line); m != nil {
				cur.props = append(cur.props, tscnProp{m[1], strings.TrimSpace(m[2])})
			}
		}
	}
	return sc
}

func (sc *tscnScene) root() *tscnSection {
	if len(sc.nodes) == 0 {
		return nil
	}
	return sc.nodes[0]
}

// textValue parses a property value in Godot's text form.
func textValue(s string) (variant.Value, error) {
	return gdtext.Parse(s, gdtext.ParseOptions{})
}

func textString(s string) string {
	v, err := textValue(s)
	if err != nil {
		return strings.Trim(s, `"`)
	}
	switch v := v.(type) {
	case variant.NodePath:
		return v.String()
	case variant.String:
		return string(v)
	case variant.StringName:
		return string(v)
	}
	return strings.Trim(s, `"`)
}

// replicationConfig reads a SceneReplicationConfig as the engine's _set
// applies its keys, in file order: properties/N/path adds a property
// (spawn on, mode always), then replication_mode, spawn, and the older
// sync and watch booleans change it.
func replicationConfig(sub *tscnSection) ([]SyncProperty, error) {
	var props []SyncProperty
	for _, kv := range sub.props {
		rest, ok := strings.CutPrefix(kv.key, "properties/")
		if !ok {
			continue
		}
		idxS, what, ok := strings.Cut(rest, "/")
		idx, err := strconv.Atoi(idxS)
		if !ok || err != nil {
			continue
		}
		if what == "path" && idx == len(props) {
			props = append(props, SyncProperty{Path: textString(kv.val), Spawn: true, Mode: ReplicateAlways})
			continue
		}
		if idx < 0 || idx >= len(props) {
			return nil, fmt.Errorf("property %d before its path", idx)
		}
		p := &props[idx]
		switch what {
		case "replication_mode":
			n, err := strconv.Atoi(kv.val)
			if err != nil || n < 0 || n > int(ReplicateOnChange) {
				return nil, fmt.Errorf("property %s: replication_mode %s", p.Path, kv.val)
			}
			p.Mode = ReplicationMode(n)
		case "spawn":
			p.Spawn = kv.val == "true"
		case "sync":
			if kv.val == "true" {
				p.Mode = ReplicateAlways
			} else if p.Mode == ReplicateAlways {
				p.Mode = ReplicateNever
			}
		case "watch":
			if kv.val == "true" {
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
func (sc *tscnScene) synchronizer(n *tscnSection, name string) (Synchronizer, error) {
	s := Synchronizer{Name: name, Root: ".."}
	if v, ok := n.get("root_path"); ok {
		s.Root = textString(v)
	}
	seconds := func(key string) time.Duration {
		v, ok := n.get(key)
		if !ok {
			return 0
		}
		f, _ := strconv.ParseFloat(v, 64)
		return time.Duration(f * float64(time.Second))
	}
	s.ReplicationInterval = seconds("replication_interval")
	s.DeltaInterval = seconds("delta_interval")
	if v, ok := n.get("public_visibility"); ok && v == "false" {
		s.Hidden = true
	}
	if v, ok := n.get("replication_config"); ok {
		m := tscnCall.FindStringSubmatch(v)
		if m == nil || sc.subs[m[1]] == nil {
			return s, fmt.Errorf("%s: synchronizer %s: replication_config %s is not a sub-resource of the scene", sc.file, name, v)
		}
		props, err := replicationConfig(sc.subs[m[1]])
		if err != nil {
			return s, fmt.Errorf("%s: synchronizer %s: %w", sc.file, name, err)
		}
		s.Properties = props
	}
	return s, nil
}

// ReadProject reads a Godot 4 project in dir: the RPC declarations (as
// LoadProject) and, from the text scenes (.tscn), every MultiplayerSpawner
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
	scenes := map[string]*tscnScene{} // by res:// path and by uid
	var files []string
	err = fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && p != "." {
			return fs.SkipDir
		}
		if d.IsDir() || path.Ext(p) != ".tscn" {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		sc := parseTscn("res://"+p, string(src))
		scenes[sc.file] = sc
		if sc.uid != "" {
			scenes[sc.uid] = sc
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
		rootName := root.attrs["name"]
		for _, n := range sc.nodes {
			if n.attrs["type"] != "MultiplayerSpawner" {
				continue
			}
			sp := Spawner{Path: fullPath(rootName, n.path), SpawnPath: ""}
			if v, ok := n.get("spawn_path"); ok {
				sp.SpawnPath = textString(v)
			}
			if v, ok := n.get("_spawnable_scenes"); ok {
				list, err := textValue(v)
				if err != nil {
					return nil, fmt.Errorf("%s: spawner %s: _spawnable_scenes: %w", f, n.path, err)
				}
				arr, _ := list.(variant.PackedStringArray)
				for _, res := range arr {
					ssc := scenes[res]
					if ssc == nil {
						return nil, fmt.Errorf("%s: spawner %s: spawnable scene %s not found in the project", f, n.path, res)
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
		rootName := sc.root().attrs["name"]
		for _, n := range sc.nodes {
			if n.attrs["type"] != "MultiplayerSynchronizer" {
				continue
			}
			s, err := sc.synchronizer(n, fullPath(rootName, n.path))
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
func readScene(sc *tscnScene, rpcs map[string][]Method) (Scene, error) {
	s := Scene{Path: sc.file}
	rootName := sc.root().attrs["name"]
	for _, n := range sc.nodes {
		if n.attrs["type"] == "MultiplayerSynchronizer" {
			sy, err := sc.synchronizer(n, n.path)
			if err != nil {
				return s, err
			}
			s.Synchronizers = append(s.Synchronizers, sy)
		}
		if m, ok := rpcs[fullPath(rootName, n.path)]; ok {
			s.Nodes = append(s.Nodes, Node{Path: n.path, Methods: m})
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
