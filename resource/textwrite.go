package resource

import (
	"strconv"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
)

// textWriter writes the text form, as ResourceFormatSaverText lays it out.
type textWriter struct {
	b    []byte
	g3   bool
	opts gdtext.Options
	err  error
}

func (w *textWriter) s(s string) { w.b = append(w.b, s...) }

// value writes v as the engine writes property values.
func (w *textWriter) value(v variant.Value, what string) {
	out, err := gdtext.Append(w.b, v, w.opts)
	if err != nil {
		if w.err == nil {
			w.err = &Error{Offset: -1, What: what, Err: ErrCannotWrite, Detail: err.Error()}
		}
		return
	}
	w.b = out
}

// quoted writes s as a string literal.
func (w *textWriter) quoted(s string) {
	w.value(variant.String(s), "string")
}

// attr writes ` key="value"`.
func (w *textWriter) attr(key, val string) {
	w.s(" " + key + "=")
	w.quoted(val)
}

// id writes ` id=…`: a number in Godot 3, a string in Godot 4.
func (w *textWriter) id(id string) {
	if w.g3 {
		// The engine reads the id as a number: "007" would read back as 7.
		if n, err := strconv.ParseUint(id, 10, 31); err != nil || strconv.FormatUint(n, 10) != id {
			if w.err == nil {
				w.err = &Error{Offset: -1, What: "id " + strconv.Quote(id), Err: ErrCannotWrite, Detail: "Godot 3 text files number their resources (0, 1, 2, …, without leading zeros)"}
			}
		}
		w.s(" id=" + id)
		return
	}
	w.attr("id", id)
}

// propName writes a property name, quoted when it holds characters the
// engine's reader would take for syntax (String::property_name_encode).
func (w *textWriter) propName(name string) {
	for i := 0; i < len(name); i++ {
		c := name[i]
		if c == '=' || c == '"' || c == ';' || c == '[' || c == ']' || c < 33 || c > 126 {
			w.quoted(name)
			return
		}
	}
	w.s(name)
}

func (w *textWriter) props(ps []variant.Property, what string) {
	for _, p := range ps {
		if !w.g3 && isNullScript(p) {
			continue // the engine's text saver leaves out null objects
		}
		if p.Name == "" {
			// The engine's text reader takes " = value" (quoted or not)
			// for no assignment at all.
			if w.err == nil {
				w.err = &Error{Offset: -1, What: what + " property \"\"", Err: ErrCannotWrite, Detail: "text files cannot hold a property with an empty name"}
			}
			return
		}
		w.propName(p.Name)
		w.s(" = ")
		w.value(p.Value, what+" property "+strconv.Quote(p.Name))
		w.s("\n")
	}
}

// needsFormat4 reports whether v holds what makes Godot 4.3+ write text
// format 4: a PackedVector4Array (checked with Godot 4.6: PackedByteArray,
// typed Dictionaries and the rest keep format 3). Format 4 files also write
// PackedByteArray as base64.
func needsFormat4(v variant.Value) bool {
	switch v := v.(type) {
	case variant.PackedVector4Array:
		return true
	case *variant.Array:
		if v != nil {
			for _, e := range v.Values {
				if needsFormat4(e) {
					return true
				}
			}
		}
	case *variant.Dictionary:
		for k, e := range v.All() {
			if needsFormat4(k) || needsFormat4(e) {
				return true
			}
		}
	}
	return false
}

// textFormat returns the format= the file is written with.
func (f *File) textFormat() int {
	if f.family() == variant.Godot3 {
		return 2
	}
	if f.Text.Format >= 3 {
		return f.Text.Format
	}
	any4 := false
	each := func(ps []variant.Property) {
		for _, p := range ps {
			any4 = any4 || needsFormat4(p.Value)
		}
	}
	for _, r := range f.Sub {
		each(r.Properties)
	}
	each(f.Properties)
	if f.Scene != nil {
		for _, n := range f.Scene.Nodes {
			each(n.Properties)
		}
	}
	if any4 {
		return 4
	}
	return 3
}

// EncodeText writes the file in the text form (.tres, or .tscn for a
// scene) for f.Family, laid out as the engine's saver lays it out.
// Values keep their order and exact value (Dictionaries are not sorted,
// floats are written to read back exactly, see package gdtext).
func (f *File) EncodeText() ([]byte, error) {
	fam := f.family()
	format := f.textFormat()
	w := &textWriter{g3: fam == variant.Godot3,
		opts: gdtext.Options{Family: fam, Multiline: true, ResourceFormat: format, Reals32: !f.Binary.RealDouble}}
	steps := f.Text.LoadSteps
	if w.g3 && steps == 0 {
		steps = len(f.Ext) + len(f.Sub) + 1
	}
	if f.Scene != nil {
		w.s("[gd_scene")
	} else {
		w.s("[gd_resource")
		w.attr("type", f.Type)
		if f.ScriptClass != "" {
			w.attr("script_class", f.ScriptClass)
		}
	}
	if steps > 1 {
		w.s(" load_steps=" + strconv.Itoa(steps))
	}
	w.s(" format=" + strconv.Itoa(format))
	if f.UID.Valid() && !w.g3 {
		w.attr("uid", f.UID.String())
	}
	w.s("]\n\n")
	for _, e := range f.Ext {
		w.s("[ext_resource")
		if w.g3 {
			w.attr("path", e.Path)
			w.attr("type", e.Type)
		} else {
			w.attr("type", e.Type)
			if e.UID.Valid() {
				w.attr("uid", e.UID.String())
			}
			w.attr("path", e.Path)
		}
		w.id(e.ID)
		w.s("]\n")
	}
	if len(f.Ext) > 0 {
		w.s("\n")
	}
	for i, r := range f.Sub {
		w.s("[sub_resource")
		w.attr("type", r.Type)
		w.id(r.ID)
		w.s("]\n")
		w.props(r.Properties, "sub-resource "+strconv.Quote(r.ID))
		if i < len(f.Sub)-1 || f.Scene == nil || len(f.Scene.Nodes) > 0 {
			w.s("\n")
		}
	}
	if f.Scene == nil {
		w.s("[resource]\n")
		w.props(f.Properties, "resource")
	} else {
		// A scene's text has only its nodes: a property of the
		// PackedScene itself, which the binary form may hold, would be
		// lost (a null script is the binary form's own).
		for _, p := range f.Properties {
			if p.Name != "script" || p.Value != nil {
				return nil, &Error{Offset: -1, What: "property " + strconv.Quote(p.Name) + " of the scene", Err: ErrCannotWrite,
					Detail: "the text form of a scene holds no properties of its PackedScene"}
			}
		}
		w.scene(f.Scene)
	}
	if w.err != nil {
		return nil, w.err
	}
	return w.b, nil
}

func (w *textWriter) scene(s *Scene) {
	for i, nd := range s.Nodes {
		w.s("[node")
		w.attr("name", nd.Name)
		if nd.Type != "" {
			w.s(" type=\"" + nd.Type + "\"")
		}
		if nd.Parent != "" {
			w.attr("parent", nd.Parent)
			if len(nd.ParentIDPath) > 0 {
				w.s(" parent_id_path=")
				w.value(variant.PackedInt32Array(nd.ParentIDPath), "parent_id_path")
			}
		}
		if nd.Owner != "" && nd.Owner != "." {
			w.attr("owner", nd.Owner)
			if len(nd.OwnerIDPath) > 0 {
				w.s(" owner_uid_path=")
				w.value(variant.PackedInt32Array(nd.OwnerIDPath), "owner_uid_path")
			}
		}
		if nd.Index >= 0 {
			w.s(" index=\"" + strconv.Itoa(nd.Index) + "\"")
		}
		if !w.g3 {
			if nd.UniqueID != 0 {
				w.s(" unique_id=" + strconv.Itoa(int(nd.UniqueID)))
			}
			if len(nd.NodePaths) > 0 {
				w.s(" node_paths=")
				w.value(variant.PackedStringArray(nd.NodePaths), "node_paths")
			}
		}
		if len(nd.Groups) > 0 {
			if w.g3 {
				w.s(" groups=[\n")
				for _, g := range nd.Groups {
					w.quoted(g)
					w.s(",\n")
				}
				w.s("]")
			} else {
				w.s(" groups=[")
				for j, g := range nd.Groups {
					if j > 0 {
						w.s(", ")
					}
					w.quoted(g)
				}
				w.s("]")
			}
		}
		if nd.InstancePlaceholder != "" {
			w.s(" instance_placeholder=")
			w.quoted(nd.InstancePlaceholder)
		}
		inst := nd.Instance
		if i == 0 && s.BaseScene != nil {
			inst = s.BaseScene
		}
		if inst != nil {
			w.s(" instance=")
			w.value(*inst, "instance")
		}
		w.s("]\n")
		w.props(nd.Properties, "node "+strconv.Quote(nd.Name))
		if i < len(s.Nodes)-1 {
			w.s("\n")
		}
	}
	for i, c := range s.Connections {
		if i == 0 && !w.g3 {
			w.s("\n")
		}
		w.s("[connection")
		w.attr("signal", c.Signal)
		w.attr("from", c.From)
		w.attr("to", c.To)
		w.attr("method", c.Method)
		if c.Flags != connectPersist {
			w.s(" flags=" + strconv.Itoa(c.Flags))
		}
		if len(c.FromIDPath) > 0 {
			w.s(" from_uid_path=")
			w.value(variant.PackedInt32Array(c.FromIDPath), "from_uid_path")
		}
		if len(c.ToIDPath) > 0 {
			w.s(" to_uid_path=")
			w.value(variant.PackedInt32Array(c.ToIDPath), "to_uid_path")
		}
		if c.Unbinds > 0 {
			w.s(" unbinds=" + strconv.Itoa(c.Unbinds))
		}
		if len(c.Binds) > 0 {
			w.s(" binds= ")
			w.value(&variant.Array{Values: c.Binds}, "binds")
		}
		w.s("]\n")
	}
	for i, p := range s.Editable {
		if i == 0 && !w.g3 {
			w.s("\n")
		}
		w.s("[editable")
		w.attr("path", p)
		w.s("]\n")
	}
}

// isNullScript reports whether p is a null script, which Godot 4's binary
// saver stores and its text saver leaves out.
func isNullScript(p variant.Property) bool { return p.Name == "script" && p.Value == nil }

// withNullScript returns ps with a null script where Godot 4's binary
// saver stores one for a resource without a script: after the class's
// properties, before its metadata.
func withNullScript(ps []variant.Property) []variant.Property {
	if _, ok := getProp(ps, "script"); ok {
		return ps
	}
	i := len(ps)
	for j, p := range ps {
		if len(p.Name) > 9 && p.Name[:9] == "metadata/" {
			i = j
			break
		}
	}
	out := make([]variant.Property, 0, len(ps)+1)
	out = append(out, ps[:i]...)
	out = append(out, variant.Property{Name: "script"})
	return append(out, ps[i:]...)
}
