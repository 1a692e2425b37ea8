package resource

import (
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/variant"
)

// The encoding of a PackedScene's _bundled Dictionary
// (scene/resources/packed_scene.cpp, SceneState), the same in Godot 3 and
// 4 except where noted.
const (
	flagIDIsPath            = 1 << 30    // a parent, owner, from or to that indexes node_paths
	typeInstanced           = 0x7fffffff // a node whose class comes from an instanced scene
	flagInstancePlaceholder = 1 << 30    // the instance is a placeholder's path
	flagPathPropertyIsNode  = 1 << 30    // Godot 4: the property is in node_paths=
	nameIndexBits           = 18         // a node's name word holds (index+1) above these bits
	bundleVersion3          = 2          // Godot 3's _bundled version
	bundleVersion4          = 3          // Godot 4's, which adds unbinds to connections
)

// bundleErr reports a malformed _bundled Dictionary.
func bundleErr(detail string) error {
	return &Error{Offset: -1, What: "PackedScene _bundled", Err: ErrCorrupt, Detail: detail}
}

// unbundle turns the main resource's _bundled property into Scene.
func (f *File) unbundle() error {
	v, ok := getProp(f.Properties, "_bundled")
	if !ok {
		return nil // an empty PackedScene
	}
	d, ok := v.(*variant.Dictionary)
	if !ok {
		return bundleErr("not a Dictionary")
	}
	get := func(key string) variant.Value {
		v, _ := d.Get(variant.String(key))
		return v
	}
	names, _ := get("names").(variant.PackedStringArray)
	var variants []variant.Value
	if a, ok := get("variants").(*variant.Array); ok && a != nil {
		variants = a.Values
	}
	nodes, _ := get("nodes").(variant.PackedInt32Array)
	conns, _ := get("conns").(variant.PackedInt32Array)
	nodeCount, _ := get("node_count").(variant.Int)
	connCount, _ := get("conn_count").(variant.Int)
	version, _ := get("version").(variant.Int)
	var nodePaths []string
	if a, ok := get("node_paths").(*variant.Array); ok && a != nil {
		for _, p := range a.Values {
			np, ok := p.(variant.NodePath)
			if !ok {
				return bundleErr("node_paths holds a " + variant.TypeOf(p).String())
			}
			nodePaths = append(nodePaths, np.String())
		}
	}
	var idPaths [][]int32
	if a, ok := get("id_paths").(*variant.Array); ok && a != nil {
		for _, p := range a.Values {
			ip, ok := p.(variant.PackedInt32Array)
			if !ok {
				return bundleErr("id_paths holds a " + variant.TypeOf(p).String())
			}
			idPaths = append(idPaths, ip)
		}
	}
	nodeIDs, _ := get("node_ids").(variant.PackedInt32Array)
	s := &Scene{Version: int(version)}
	name := func(i int32) (string, error) {
		if i < 0 || int(i) >= len(names) {
			return "", bundleErr("name index " + strconv.Itoa(int(i)) + " past the " + strconv.Itoa(len(names)) + " names")
		}
		return names[i], nil
	}
	variantAt := func(i int32) (variant.Value, error) {
		if i < 0 || int(i) >= len(variants) {
			return nil, bundleErr("variant index " + strconv.Itoa(int(i)) + " past the " + strconv.Itoa(len(variants)) + " variants")
		}
		return variants[i], nil
	}
	pos := 0
	next := func() (int32, error) {
		if pos >= len(nodes) {
			return 0, bundleErr("nodes ends early")
		}
		pos++
		return nodes[pos-1], nil
	}
	if nodeCount < 0 || int64(nodeCount) > int64(len(nodes)/7) {
		return bundleErr("node_count " + strconv.FormatInt(int64(nodeCount), 10) + " does not fit nodes")
	}
	// nodePath returns the path of node reference x (a node index or a
	// node_paths index) from the root.
	paths := make([]string, 0, nodeCount)
	var idPath []int32 // the id path of the last reference ref resolved
	ref := func(x int32, parent bool) (string, error) {
		idPath = nil
		if x == -1 {
			return "", nil
		}
		if x&flagIDIsPath != 0 {
			i := int(x &^ flagIDIsPath)
			if i < 0 || i >= len(nodePaths) {
				return "", bundleErr("node path index " + strconv.Itoa(i) + " past node_paths")
			}
			if i < len(idPaths) && len(idPaths[i]) > 0 {
				idPath = idPaths[i]
			}
			return nodePaths[i], nil
		}
		if x < 0 || int(x) >= len(paths) {
			return "", bundleErr("node index " + strconv.Itoa(int(x)) + " refers to no node before it")
		}
		return paths[x], nil
	}
	for n := range int(nodeCount) {
		var w [7]int32
		for i := range 3 {
			var err error
			if w[i], err = next(); err != nil {
				return err
			}
		}
		nd := Node{Index: -1}
		parent, owner, typ := w[0], w[1], w[2]
		nameWord, err := next()
		if err != nil {
			return err
		}
		if nd.Name, err = name(nameWord & (1<<nameIndexBits - 1)); err != nil {
			return err
		}
		nd.Index = int(uint32(nameWord)>>nameIndexBits) - 1
		if typ != typeInstanced {
			if nd.Type, err = name(typ); err != nil {
				return err
			}
		}
		inst, err := next()
		if err != nil {
			return err
		}
		if inst != -1 {
			v, err := variantAt(inst &^ flagInstancePlaceholder)
			if err != nil {
				return err
			}
			if inst&flagInstancePlaceholder != 0 {
				p, ok := v.(variant.String)
				if !ok {
					return bundleErr("placeholder path is a " + variant.TypeOf(v).String())
				}
				nd.InstancePlaceholder = string(p)
			} else {
				r, ok := v.(variant.ResourceRef)
				if !ok {
					return bundleErr("instance is a " + variant.TypeOf(v).String())
				}
				nd.Instance = &r
			}
		}
		if n == 0 {
			nd.Parent = ""
		} else if nd.Parent, err = ref(parent, true); err != nil {
			return err
		}
		nd.ParentIDPath = idPath
		if parent == -1 && n > 0 {
			return bundleErr("node " + strconv.Itoa(n) + " has no parent")
		}
		if n > 0 {
			nd.Parent = simplifyPath(nd.Parent)
			if parent&flagIDIsPath != 0 {
				s.FromText = true
			}
		}
		if owner != -1 && owner != 0 {
			if nd.Owner, err = ref(owner, false); err != nil {
				return err
			}
			nd.OwnerIDPath = idPath
		}
		pc, err := next()
		if err != nil {
			return err
		}
		if pc < 0 || int(pc) > (len(nodes)-pos)/2 {
			return bundleErr("property count " + strconv.Itoa(int(pc)) + " past the end of nodes")
		}
		for range pc {
			nw, _ := next()
			vw, _ := next()
			pn, err := name(nw & (flagPathPropertyIsNode - 1))
			if err != nil {
				return err
			}
			pv, err := variantAt(vw)
			if err != nil {
				return err
			}
			if nw&flagPathPropertyIsNode != 0 {
				nd.NodePaths = append(nd.NodePaths, pn)
			}
			nd.Properties = append(nd.Properties, variant.Property{Name: pn, Value: pv})
		}
		gc, err := next()
		if err != nil {
			return err
		}
		if gc < 0 || int(gc) > len(nodes)-pos {
			return bundleErr("group count " + strconv.Itoa(int(gc)) + " past the end of nodes")
		}
		for range gc {
			gw, _ := next()
			g, err := name(gw)
			if err != nil {
				return err
			}
			nd.Groups = append(nd.Groups, g)
		}
		if n < len(nodeIDs) {
			nd.UniqueID = nodeIDs[n]
		}
		if n == 0 && pc > 0 && typ != typeInstanced && typ < nodes[8] {
			// The text loader names the type before the properties,
			// PackedScene.pack after them.
			s.FromText = true
		}
		if n == 0 {
			paths = append(paths, ".")
		} else {
			paths = append(paths, nd.Path())
		}
		s.Nodes = append(s.Nodes, nd)
	}
	pos = 0
	nextC := func() (int32, error) {
		if pos >= len(conns) {
			return 0, bundleErr("conns ends early")
		}
		pos++
		return conns[pos-1], nil
	}
	if connCount < 0 || int64(connCount) > int64(len(conns)/6) {
		return bundleErr("conn_count " + strconv.FormatInt(int64(connCount), 10) + " does not fit conns")
	}
	for range int(connCount) {
		var w [6]int32
		for i := range w {
			var err error
			if w[i], err = nextC(); err != nil {
				return err
			}
		}
		var c Connection
		var err error
		if c.From, err = ref(w[0], false); err != nil {
			return err
		}
		c.FromIDPath = idPath
		if c.To, err = ref(w[1], false); err != nil {
			return err
		}
		c.ToIDPath = idPath
		// As the text reader has them (a NodePath made from the text
		// drops empty names): "s/" is "s".
		c.From, c.To = simplifyPath(c.From), simplifyPath(c.To)
		if c.Signal, err = name(w[2]); err != nil {
			return err
		}
		if c.Method, err = name(w[3]); err != nil {
			return err
		}
		c.Flags = int(w[4])
		if w[5] < 0 || int(w[5]) > len(conns)-pos {
			return bundleErr("bind count past the end of conns")
		}
		for range w[5] {
			bw, _ := nextC()
			b, err := variantAt(bw)
			if err != nil {
				return err
			}
			c.Binds = append(c.Binds, b)
		}
		if version >= bundleVersion4 {
			u, err := nextC()
			if err != nil {
				return err
			}
			c.Unbinds = int(u)
		}
		s.Connections = append(s.Connections, c)
	}
	if a, ok := get("editable_instances").(*variant.Array); ok && a != nil {
		for _, p := range a.Values {
			np, ok := p.(variant.NodePath)
			if !ok {
				return bundleErr("editable_instances holds a " + variant.TypeOf(p).String())
			}
			s.Editable = append(s.Editable, np.String())
		}
	}
	if b, ok := get("base_scene").(variant.Int); ok {
		v, err := variantAt(int32(b))
		if err != nil {
			return err
		}
		r, ok := v.(variant.ResourceRef)
		if !ok {
			return bundleErr("base_scene is a " + variant.TypeOf(v).String())
		}
		s.BaseScene = &r
	}
	f.Scene = s
	f.Properties = withoutProps(f.Properties, "_bundled")
	return nil
}

// bundler builds a _bundled Dictionary. With share (PackedScene.pack's
// layout) equal names and values share an index; without (the text
// loader's), every use adds an entry.
type bundler struct {
	share     bool
	names     variant.PackedStringArray
	nameIdx   map[string]int32
	variants  []variant.Value
	byText    map[string][]int32 // sharing: the indices of the values with a text
	nodePaths []string
	idPaths   [][]int32
	byPath    map[string]int32
}

func (b *bundler) name(s string) int32 {
	if b.share {
		if i, ok := b.nameIdx[s]; ok {
			return i
		}
		b.nameIdx[s] = int32(len(b.names))
	}
	b.names = append(b.names, s)
	return int32(len(b.names) - 1)
}

// variant adds v; sharing, it reuses an equal earlier value of the same
// type, as the engine's variant map does.
func (b *bundler) variant(v variant.Value) int32 {
	var key string
	if b.share {
		// Equal values have the same type and text (the text is exact);
		// the candidates are then compared.
		text, err := variant.AppendText([]byte(variant.TypeOf(v).String()+":"), v, variant.TextOptions{})
		if err == nil {
			key = string(text)
		}
		for _, i := range b.byText[key] {
			if e := b.variants[i]; variant.TypeOf(e) == variant.TypeOf(v) && sameValue(e, v) {
				return i
			}
		}
	}
	b.variants = append(b.variants, v)
	i := int32(len(b.variants) - 1)
	if b.share {
		b.byText[key] = append(b.byText[key], i)
	}
	return i
}

func sameValue(a, b variant.Value) bool {
	if ra, ok := a.(variant.ResourceRef); ok {
		rb, ok := b.(variant.ResourceRef)
		return ok && ra == rb
	}
	if _, ok := b.(variant.ResourceRef); ok {
		return false
	}
	return variant.Equal(a, b)
}

// ref refers to the node at path p (from the root): sharing, by its index
// when it is one of the scene's nodes; else through node_paths.
func (b *bundler) ref(p string, ids []int32) int32 {
	p = simplifyPath(p)
	if b.share && len(ids) == 0 {
		if i, ok := b.byPath[p]; ok {
			return i
		}
	}
	b.nodePaths = append(b.nodePaths, p)
	b.idPaths = append(b.idPaths, ids)
	return int32(len(b.nodePaths)-1) | flagIDIsPath
}

// bundle builds the _bundled Dictionary of the scene.
func (f *File) bundle(bi BinaryInfo) (*variant.Dictionary, error) {
	s := f.Scene
	fam := f.family()
	b := &bundler{share: !s.FromText, nameIdx: map[string]int32{}, byPath: map[string]int32{}, byText: map[string][]int32{}}
	var nodes variant.PackedInt32Array
	var ids variant.PackedInt32Array
	cannot := func(detail string) error {
		return &Error{Offset: -1, What: "scene", Err: ErrCannotWrite, Detail: detail}
	}
	base := int32(-1)
	for n, nd := range s.Nodes {
		var nameW, parent, typ, inst int32
		parent, inst = -1, -1
		owner := int32(-1)
		var props, groups []int32
		addProps := func() {
			for _, p := range nd.Properties {
				nw := b.name(p.Name)
				for _, np := range nd.NodePaths {
					if np == p.Name {
						nw |= flagPathPropertyIsNode
					}
				}
				props = append(props, nw, b.variant(p.Value))
			}
		}
		addGroups := func() {
			for _, g := range nd.Groups {
				groups = append(groups, b.name(g))
			}
		}
		addType := func() {
			typ = typeInstanced
			if nd.Type != "" {
				typ = b.name(nd.Type)
			}
		}
		if n > 0 && nd.Parent == "" {
			return nil, cannot("node " + strconv.Quote(nd.Name) + " has no parent but is not the first node")
		}
		if n == 0 && nd.Parent != "" {
			return nil, cannot("the first node has a parent")
		}
		if s.FromText {
			// ResourceLoaderText's order.
			nameW = b.name(nd.Name)
			if n > 0 {
				parent = b.ref(nd.Parent, nd.ParentIDPath)
			}
			addType()
			if n == 0 && s.BaseScene != nil {
				// The root's instance= is the scene it inherits.
				base = b.variant(*s.BaseScene)
			}
			if nd.Instance != nil {
				inst = b.variant(*nd.Instance)
			}
			if nd.InstancePlaceholder != "" {
				inst = b.variant(variant.String(nd.InstancePlaceholder)) | flagInstancePlaceholder
			}
			if nd.Owner != "" {
				owner = b.ref(nd.Owner, nd.OwnerIDPath)
			} else if parent != -1 && !(nd.Type == "" && inst == -1) {
				owner = 0
			}
			addGroups()
			addProps()
		} else {
			// PackedScene.pack's order.
			nameW = b.name(nd.Name)
			if nd.Instance != nil {
				inst = b.variant(*nd.Instance)
			} else if nd.InstancePlaceholder != "" {
				inst = b.variant(variant.String(nd.InstancePlaceholder)) | flagInstancePlaceholder
			}
			addProps()
			addGroups()
			addType()
			if n > 0 {
				parent = b.ref(nd.Parent, nd.ParentIDPath)
				switch {
				case nd.Owner != "" && simplifyPath(nd.Owner) != ".":
					owner = b.ref(nd.Owner, nd.OwnerIDPath)
				case !(nd.Type == "" && nd.Instance == nil):
					owner = 0
				}
			}
		}
		if nd.Index >= 0 {
			nameW |= int32(nd.Index+1) << nameIndexBits
		}
		nodes = append(nodes, parent, owner, typ, nameW, inst, int32(len(props)/2))
		nodes = append(nodes, props...)
		nodes = append(nodes, int32(len(groups)))
		nodes = append(nodes, groups...)
		ids = append(ids, nd.UniqueID)
		if n == 0 {
			b.byPath["."] = 0
		} else {
			b.byPath[simplifyPath(nd.Path())] = int32(n)
		}
	}
	if s.BaseScene != nil && base < 0 {
		base = b.variant(*s.BaseScene)
	}
	version := s.Version
	if version == 0 {
		version = bundleVersion4
		if fam == variant.Godot3 {
			version = bundleVersion3
		}
	}
	var conns variant.PackedInt32Array
	for _, c := range s.Connections {
		var from, to, signal, method int32
		var binds []int32
		if s.FromText {
			for _, v := range c.Binds {
				binds = append(binds, b.variant(v))
			}
			from, to = b.ref(c.From, c.FromIDPath), b.ref(c.To, c.ToIDPath)
			signal = b.name(c.Signal)
			method = b.name(c.Method)
		} else {
			from, to = b.ref(c.From, c.FromIDPath), b.ref(c.To, c.ToIDPath)
			method = b.name(c.Method)
			signal = b.name(c.Signal)
			for _, v := range c.Binds {
				binds = append(binds, b.variant(v))
			}
		}
		conns = append(conns, from, to, signal, method, int32(c.Flags), int32(len(binds)))
		conns = append(conns, binds...)
		if version >= bundleVersion4 {
			conns = append(conns, int32(c.Unbinds))
		} else if c.Unbinds != 0 {
			return nil, cannot("connection " + strconv.Quote(c.Signal) + ": unbinds need a Godot 4 scene")
		}
	}
	d := variant.NewDictionary(12)
	d.Set(variant.String("names"), b.names)
	d.Set(variant.String("variants"), &variant.Array{Values: b.variants})
	d.Set(variant.String("node_count"), variant.Int(len(s.Nodes)))
	d.Set(variant.String("nodes"), nodes)
	uniqueIDs := fam == variant.Godot4 && (bi.Major > 4 || bi.Major == 4 && bi.Minor >= 6)
	if uniqueIDs {
		d.Set(variant.String("node_ids"), ids)
	} else {
		for _, nd := range s.Nodes {
			if nd.UniqueID != 0 || len(nd.ParentIDPath) > 0 || len(nd.OwnerIDPath) > 0 {
				return nil, cannot("unique ids of nodes need Godot 4.6")
			}
		}
	}
	d.Set(variant.String("conn_count"), variant.Int(len(s.Connections)))
	d.Set(variant.String("conns"), conns)
	np := &variant.Array{}
	for _, p := range b.nodePaths {
		v, _ := variant.ParseNodePath(p)
		np.Values = append(np.Values, v)
	}
	d.Set(variant.String("node_paths"), np)
	if uniqueIDs {
		ip := &variant.Array{}
		for _, p := range b.idPaths {
			ip.Values = append(ip.Values, variant.PackedInt32Array(p))
		}
		d.Set(variant.String("id_paths"), ip)
	}
	ed := &variant.Array{}
	for _, p := range s.Editable {
		v, _ := variant.ParseNodePath(simplifyPath(p))
		ed.Values = append(ed.Values, v)
	}
	d.Set(variant.String("editable_instances"), ed)
	if base >= 0 {
		d.Set(variant.String("base_scene"), variant.Int(base))
	}
	d.Set(variant.String("version"), variant.Int(version))
	return d, nil
}

// simplifyPath drops "./" parts and extra slashes so that paths compare:
// "." for the root.
func simplifyPath(p string) string {
	abs := strings.HasPrefix(p, "/")
	parts := strings.Split(p, "/")
	out := parts[:0]
	for _, s := range parts {
		if s != "" && s != "." {
			out = append(out, s)
		}
	}
	if abs {
		return "/" + strings.Join(out, "/")
	}
	if len(out) == 0 {
		return "."
	}
	return strings.Join(out, "/")
}
