package resource

import (
	"strings"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// File is one resource file, text or binary: its main resource, the
// resources it defines inside (sub-resources), those of other files it
// refers to (external resources) and, for a PackedScene, the scene.
// Values refer to other resources with variant.ResourceRef: RefSub by the
// ID of a Sub entry, RefExt by the ID of an Ext entry.
type File struct {
	// Family is the engine family that wrote the file (or will read it).
	Family variant.Family
	// Type is the class of the main resource: "Resource", "Curve",
	// "PackedScene", …
	Type string
	// ScriptClass is the global class name of the main resource's script
	// (Godot 4.2+ headers, script_class="…"), or "".
	ScriptClass string
	// UID is the file's own uid (Godot 4); NoUID (or zero) when it has none.
	UID UID
	// Ext lists the external resources in file order.
	Ext []ExtResource
	// Sub lists the sub-resources in file order, which is the order the
	// engine loads them in: a resource comes after those it refers to.
	Sub []*Resource
	// Properties are the main resource's stored properties in order. A
	// scene's are in Scene instead (its binary form's _bundled property).
	Properties []variant.Property
	// Scene is the node tree, connections and editable instances of a
	// PackedScene (Type "PackedScene"); nil for other resources.
	Scene *Scene
	// Text holds what only the text form records; Binary what only the
	// binary form records. Each is filled by its reader and used by its
	// writer; conversion keeps the other one's values.
	Text   TextInfo
	Binary BinaryInfo
}

// IsScene reports whether the file holds a PackedScene.
func (f *File) IsScene() bool { return f.Scene != nil }

// SubByID returns the sub-resource with the given id, or nil.
func (f *File) SubByID(id string) *Resource {
	for _, r := range f.Sub {
		if r.ID == id {
			return r
		}
	}
	return nil
}

// ExtByID returns the external resource with the given id, or nil.
func (f *File) ExtByID(id string) *ExtResource {
	for i := range f.Ext {
		if f.Ext[i].ID == id {
			return &f.Ext[i]
		}
	}
	return nil
}

// Resource is a resource defined in a file: a sub-resource, or as
// File.Properties the main one.
type Resource struct {
	// ID names the sub-resource inside its file: "Resource_wje02" (Godot
	// 4), "3" (Godot 3).
	ID string
	// Type is its class.
	Type string
	// Properties are its stored properties in order.
	Properties []variant.Property
}

// Get returns the value of the property named name.
func (r *Resource) Get(name string) (variant.Value, bool) { return getProp(r.Properties, name) }

func getProp(ps []variant.Property, name string) (variant.Value, bool) {
	for _, p := range ps {
		if p.Name == name {
			return p.Value, true
		}
	}
	return nil, false
}

// ExtResource is a resource of another file that this one refers to.
type ExtResource struct {
	// ID names it inside this file: "1_x7k2p" (Godot 4), "1" (Godot 3 and
	// files converted from binary, whose external resources have no
	// names).
	ID string
	// Type is its class ("PackedScene", "Texture2D", "Script").
	Type string
	// Path is its res:// path.
	Path string
	// UID is its uid (Godot 4); NoUID (or zero) when unknown.
	UID UID
}

// Scene is what a PackedScene holds: its nodes in order (each parent
// before its children), the signal connections and the instanced
// sub-scenes whose children may be edited.
type Scene struct {
	Nodes       []Node
	Connections []Connection
	// Editable are the paths of the instances whose children are
	// editable ([editable path="…"]).
	Editable []string
	// Version is the version of the binary _bundled form (Godot 3.2: 2,
	// Godot 4: 3); 0 means the family's.
	Version int
	// BaseScene refers to the scene this one inherits from (an inherited
	// scene), or nil. In text files it is the root node's instance.
	BaseScene *variant.ResourceRef
	// FromText says how the binary form lays out its tables: as the
	// engine's text loader builds them (every name and value added anew,
	// parents and connection ends as node paths), which the engine keeps
	// when it saves a scene it loaded from text; or, when false, as
	// PackedScene.pack builds them (equal names and values shared, nodes
	// by index). Scenes read from text have it set.
	FromText bool
}

// Node is one node of a scene, as its [node] section describes it.
type Node struct {
	// Name is the node's name.
	Name string
	// Type is its class; empty for an instanced scene's root or a node
	// inherited from one, whose class comes from there.
	Type string
	// Parent is the path of its parent from the scene's root: "" for the
	// root itself, "." for the root's children, "A/B" below.
	Parent string
	// Owner is the path of its owner when it is not the root ("" or ".").
	Owner string
	// Index is its position among its parent's children when it was
	// inserted into an inherited or instanced scene; -1 when unset.
	Index int
	// UniqueID is the node's unique id in the scene (Godot 4.6+
	// unique_id=…); 0 when unset.
	UniqueID int32
	// Instance refers to the scene this node instances (an ExtResource),
	// or nil.
	Instance *variant.ResourceRef
	// InstancePlaceholder is the path of the scene of an instance
	// placeholder, or "".
	InstancePlaceholder string
	// Groups lists the groups the node is in, as saved.
	Groups []string
	// NodePaths names its properties that hold node paths to be resolved
	// to nodes when the scene is instanced (Godot 4 node_paths=…).
	NodePaths []string
	// ParentIDPath and OwnerIDPath are the unique-id paths Godot 4.6
	// writes for nodes inside instanced scenes (parent_id_path=…,
	// owner_uid_path=…); nil when absent.
	ParentIDPath, OwnerIDPath []int32
	// Properties are its stored properties in order.
	Properties []variant.Property
}

// Get returns the value of the property named name.
func (n *Node) Get(name string) (variant.Value, bool) { return getProp(n.Properties, name) }

// Path returns the node's path from the scene's root: "." for the root.
func (n *Node) Path() string {
	switch n.Parent {
	case "":
		return "."
	case ".":
		return n.Name
	}
	return n.Parent + "/" + n.Name
}

// Connection is a signal connection saved with a scene.
type Connection struct {
	Signal string
	// From and To are the paths of the emitter and the receiver from the
	// scene's root ("." for the root).
	From, To string
	Method   string
	// Flags are the connection's flags (Object.ConnectFlags); the engine
	// writes none in text when they are just CONNECT_PERSIST.
	Flags int
	// Binds are the extra arguments bound to the call.
	Binds []variant.Value
	// Unbinds is the number of signal arguments dropped (Godot 4).
	Unbinds int
	// FromIDPath and ToIDPath are Godot 4.6's unique-id paths of the
	// emitter and the receiver (from_uid_path=…, to_uid_path=…), or nil.
	FromIDPath, ToIDPath []int32
}

// connectPersist is Object.CONNECT_PERSIST, the flag every saved
// connection has, which the text form leaves out.
const connectPersist = 2

// TextInfo is what the text form records besides the resources.
type TextInfo struct {
	// Format is the header's format=: 2 in Godot 3, 3 in Godot 4, 4 in
	// Godot 4.3+ files that hold a PackedVector4Array (which also write
	// PackedByteArray as base64). 0 when writing means what the engine
	// picks for the file.
	Format int
	// LoadSteps is the header's load_steps= (the number of resources to
	// load, written by Godot 3 and by Godot 4 before 4.4), 0 when absent.
	LoadSteps int
}

// BinaryInfo is what the binary form records besides the resources.
type BinaryInfo struct {
	// Strings is the string table as read, which the writer starts from:
	// the engine also lists there the names of properties it did not
	// store (those equal to their defaults), which only its class
	// database knows. Nil when writing builds the table from the file.
	Strings []string
	// Major and Minor are the version of the engine that wrote the file.
	Major, Minor int
	// Format is the format version: 3 (Godot 3.1+), 4 (Godot 4.0–4.1), 5
	// (Godot 4.2), 6 (Godot 4.3+). 0 when writing means the family's
	// newest.
	Format int
	// BigEndian files store every number big-endian.
	BigEndian bool
	// RealDouble: reals (vectors, transforms, floats written as reals) are
	// 64-bit (Godot 4 builds with double precision).
	RealDouble bool
	// Real64 is the header's use_real64 word, which no engine writes as
	// other than 0 or reads.
	Real64 uint32
	// NamedSceneIDs marks the Godot 4 layout where sub-resources are named
	// by string ids (flag 1); Godot 4 files always have it.
	NamedSceneIDs bool
	// UIDs marks Godot 4 files that carry uids (flag 2).
	UIDs bool
	// Compressed: the file is RSCC, compressed with Compression.
	Compressed  bool
	Compression gdfile.Compression
	// ImportMetadataOffset is the header's offset of import metadata (0
	// in files the engine saves).
	ImportMetadataOffset uint64
	// MainPath is the path of the main resource in the internal table
	// ("" in files the engine saves).
	MainPath string
}

// UID is a Godot 4 resource uid, a 63-bit number written "uid://…".
type UID int64

// NoUID is the uid of a resource that has none (ResourceUID::INVALID_ID).
// The zero UID counts as none too, so that a File built in Go has none.
const NoUID UID = -1

// Valid reports whether u is a uid (positive), not NoUID or zero.
func (u UID) Valid() bool { return u > 0 }

const uidChars = "abcdefghijklmnopqrstuvwxyz0123456789"

// String returns the uid's text form, "uid://b7x1kq3…", or "" when it is
// not Valid.
func (u UID) String() string {
	if !u.Valid() {
		return ""
	}
	var buf [20]byte
	i := len(buf)
	n := uint64(u)
	for {
		i--
		buf[i] = uidChars[n%36]
		n /= 36
		if n == 0 {
			break
		}
	}
	return "uid://" + string(buf[i:])
}

// ParseUID reads a uid's text form; "uid://<invalid>" and malformed text
// give NoUID and false.
func ParseUID(s string) (UID, bool) {
	t, ok := strings.CutPrefix(s, "uid://")
	if !ok || t == "" || len(t) > 13 {
		return NoUID, false
	}
	var n uint64
	for i := 0; i < len(t); i++ {
		c := strings.IndexByte(uidChars, t[i])
		if c < 0 || n > (1<<63-1-uint64(c))/36 {
			return NoUID, false
		}
		n = n*36 + uint64(c)
	}
	return UID(n), true
}
