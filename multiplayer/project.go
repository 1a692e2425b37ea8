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

	"github.com/gdvar/gdvar/resource"
	"github.com/gdvar/gdvar/variant"
)

// Loading RPC declarations from a Godot project: the RPC functions of each
// script (@rpc annotations in Godot 4, the remote/master/puppet keywords in
// Godot 3), attached to node paths by the scenes (.tscn) and the autoloads
// of project.godot. It reads the text forms only; scripts that inherit RPCs
// from another script, and nodes added from code, need declaring by hand.

var (
	rpcAnnot4 = regexp.MustCompile(`^\s*@rpc\b(?:\s*\(([^)]*)\))?\s*(.*)$`)
	funcDecl  = regexp.MustCompile(`^\s*(?:static\s+)?func\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
	rpcKw3    = regexp.MustCompile(`^\s*(remote|master|puppet|slave|remotesync|sync|mastersync|puppetsync)\s+func\s+([A-Za-z_][A-Za-z0-9_]*)\s*\(`)
)

// ScriptRPCs reads the RPC methods a GDScript source declares.
func ScriptRPCs(f variant.Family, src string) ([]Method, error) {
	var out []Method
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(nil, 1<<20)
	var pending *Method
	for sc.Scan() {
		line := sc.Text()
		if f == variant.Godot3 {
			if m := rpcKw3.FindStringSubmatch(line); m != nil {
				meth := Method{Name: m[2], Transfer: Reliable}
				switch m[1] {
				case "remote", "remotesync", "sync":
					meth.Mode = AnyPeer
				case "master", "mastersync":
					meth.Mode = Master
				default:
					meth.Mode = Authority
				}
				meth.CallLocal = strings.HasSuffix(m[1], "sync")
				out = append(out, meth)
			}
			continue
		}
		if m := rpcAnnot4.FindStringSubmatch(line); m != nil {
			meth, err := parseRPCAnnotation(m[1])
			if err != nil {
				return nil, err
			}
			pending = &meth
			line = m[2]
			if strings.TrimSpace(line) == "" {
				continue
			}
		}
		if pending != nil {
			if m := funcDecl.FindStringSubmatch(line); m != nil {
				pending.Name = m[1]
				out = append(out, *pending)
				pending = nil
			} else if t := strings.TrimSpace(line); t != "" && !strings.HasPrefix(t, "#") && !strings.HasPrefix(t, "@") {
				pending = nil // the annotation was not on a function
			}
		}
	}
	return out, sc.Err()
}

// parseRPCAnnotation reads @rpc's arguments; the defaults are the
// engine's: authority, call_remote, unreliable, channel 0.
func parseRPCAnnotation(args string) (Method, error) {
	m := Method{Mode: Authority, Transfer: Unreliable}
	for _, a := range strings.Split(args, ",") {
		a = strings.Trim(strings.TrimSpace(a), `"'`)
		switch a {
		case "":
		case "any_peer":
			m.Mode = AnyPeer
		case "authority":
			m.Mode = Authority
		case "call_local":
			m.CallLocal = true
		case "call_remote":
			m.CallLocal = false
		case "reliable":
			m.Transfer = Reliable
		case "unreliable":
			m.Transfer = Unreliable
		case "unreliable_ordered":
			m.Transfer = UnreliableOrdered
		default:
			n, err := strconv.Atoi(a)
			if err != nil {
				return m, fmt.Errorf("multiplayer: unknown @rpc argument %q", a)
			}
			m.Channel = n
		}
	}
	return m, nil
}

// SceneScripts reads a scene, text (.tscn) or binary (.scn), and returns
// the res:// script path attached to each node, by node path relative to
// the scene root's parent: "Main", "Main/Player", … A file package
// resource cannot read gives none.
func SceneScripts(src string) map[string]string {
	out := map[string]string{}
	f, err := resource.Read([]byte(src), resource.Options{})
	if err != nil || f.Scene == nil || len(f.Scene.Nodes) == 0 {
		return out
	}
	root := f.Scene.Nodes[0].Name
	for _, n := range f.Scene.Nodes {
		v, ok := n.Get("script")
		ref, isRef := v.(variant.ResourceRef)
		if !ok || !isRef {
			continue
		}
		var path string
		switch ref.Kind {
		case variant.RefExt:
			if e := f.ExtByID(ref.ID); e != nil && e.Type == "Script" {
				path = e.Path
			}
		case variant.RefPath:
			path = ref.Path
		}
		if path == "" {
			continue
		}
		np := root
		if n.Parent != "" {
			np = root + "/" + n.Path()
		}
		out[np] = path
	}
	return out
}

// LoadProject reads the RPC declarations of a Godot project in dir: every
// scene's nodes whose scripts declare RPCs (at the path the node has when
// the scene is the main scene or is instanced under /root), and the
// autoloads. Handlers are left nil: add them to the returned Nodes. A dir
// that does not exist or is not a directory is an error that names it.
func LoadProject(dir string, f variant.Family) ([]Node, error) {
	if fi, err := os.Stat(dir); err != nil {
		return nil, fmt.Errorf("multiplayer: project: %w", err)
	} else if !fi.IsDir() {
		return nil, fmt.Errorf("multiplayer: project %s is not a directory (the project's folder holds project.godot)", dir)
	}
	fsys := os.DirFS(dir)
	scripts := map[string][]Method{}
	load := func(res string) ([]Method, error) {
		if m, ok := scripts[res]; ok {
			return m, nil
		}
		src, err := fs.ReadFile(fsys, strings.TrimPrefix(res, "res://"))
		if err != nil {
			return nil, err
		}
		m, err := ScriptRPCs(f, string(src))
		if err != nil {
			return nil, fmt.Errorf("%s: %w", res, err)
		}
		scripts[res] = m
		return m, nil
	}
	byPath := map[string][]Method{}
	err := fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && (strings.HasPrefix(d.Name(), ".") && p != ".") {
			return fs.SkipDir
		}
		if d.IsDir() || path.Ext(p) != ".tscn" && path.Ext(p) != ".scn" {
			return nil
		}
		src, err := fs.ReadFile(fsys, p)
		if err != nil {
			return err
		}
		for np, res := range SceneScripts(string(src)) {
			m, err := load(res)
			if err != nil {
				continue // a script outside the project, or unreadable
			}
			if len(m) > 0 {
				byPath[np] = m
			}
		}
		return nil
	})
	if err != nil {
		return nil, err
	}
	if cfg, err := fs.ReadFile(fsys, "project.godot"); err == nil {
		section := ""
		for _, line := range strings.Split(string(cfg), "\n") {
			line = strings.TrimSpace(line)
			if strings.HasPrefix(line, "[") {
				section = strings.Trim(line, "[]")
				continue
			}
			if section != "autoload" {
				continue
			}
			name, val, ok := strings.Cut(line, "=")
			if !ok {
				continue
			}
			res := strings.TrimPrefix(strings.Trim(strings.TrimSpace(val), `"`), "*")
			if !strings.HasSuffix(res, ".gd") {
				continue
			}
			if m, err := load(res); err == nil && len(m) > 0 {
				byPath[strings.TrimSpace(name)] = m
			}
		}
	}
	paths := make([]string, 0, len(byPath))
	for p := range byPath {
		paths = append(paths, p)
	}
	sort.Strings(paths)
	out := make([]Node, 0, len(paths))
	for _, p := range paths {
		out = append(out, Node{Path: p, Methods: byPath[p]})
	}
	return out, nil
}
