package resource

import (
	"bytes"
	"errors"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
)

// IsText reports whether data starts like a text resource file (after
// white space and ';' comments): [gd_resource or [gd_scene.
func IsText(data []byte) bool {
	t := &textReader{src: string(data)}
	t.skipSpace()
	rest := t.src[t.pos:]
	return strings.HasPrefix(rest, "[gd_resource") || strings.HasPrefix(rest, "[gd_scene")
}

// textReader reads the text form.
type textReader struct {
	src string
	pos int
	fam variant.Family
}

// field is one key=value of a section header.
type field struct {
	key string
	val variant.Value
	at  int
}

// section is a [tag key=value …] header and the properties after it.
type section struct {
	tag    string
	at     int
	fields []field
	props  []variant.Property
}

func (s *section) get(key string) (variant.Value, bool) {
	for _, f := range s.fields {
		if f.key == key {
			return f.val, true
		}
	}
	return nil, false
}

func (t *textReader) errAt(at int, what string, err error, detail string) *Error {
	if at > len(t.src) {
		at = len(t.src)
	}
	return &Error{Offset: int64(at), Line: 1 + strings.Count(t.src[:at], "\n"), What: what, Err: err, Detail: detail}
}

// skipSpace skips white space and ';' comments.
func (t *textReader) skipSpace() {
	for t.pos < len(t.src) {
		c := t.src[t.pos]
		switch {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
			t.pos++
		case c == ';':
			for t.pos < len(t.src) && t.src[t.pos] != '\n' {
				t.pos++
			}
		default:
			return
		}
	}
}

// skipBlank skips spaces and tabs only.
func (t *textReader) skipBlank() {
	for t.pos < len(t.src) && (t.src[t.pos] == ' ' || t.src[t.pos] == '\t' || t.src[t.pos] == '\r') {
		t.pos++
	}
}

// value parses one value at the current position.
func (t *textReader) value(what string) (variant.Value, error) {
	v, n, err := gdtext.ParsePrefix(t.src[t.pos:], gdtext.ParseOptions{Family: t.fam, Resources: true, File: true})
	if err != nil {
		var se *gdtext.SyntaxError
		at := t.pos
		if errors.As(err, &se) {
			at += se.Offset
			err = errors.New(se.Msg)
		}
		return nil, t.errAt(at, what, ErrCorrupt, err.Error())
	}
	t.pos += n
	return v, nil
}

// header reads a section header; the current byte is '['.
func (t *textReader) header() (*section, error) {
	s := &section{at: t.pos}
	t.pos++
	start := t.pos
	for t.pos < len(t.src) && isIdentByte(t.src[t.pos]) {
		t.pos++
	}
	s.tag = t.src[start:t.pos]
	if s.tag == "" {
		return nil, t.errAt(start, "section header", ErrCorrupt, "expected a tag name after '['")
	}
	for {
		t.skipSpace()
		if t.pos >= len(t.src) {
			return nil, t.errAt(t.pos, "["+s.tag+"]", ErrTruncated, "the header does not end")
		}
		if t.src[t.pos] == ']' {
			t.pos++
			return s, nil
		}
		at := t.pos
		for t.pos < len(t.src) && isIdentByte(t.src[t.pos]) {
			t.pos++
		}
		key := t.src[at:t.pos]
		t.skipBlank()
		if key == "" || t.pos >= len(t.src) || t.src[t.pos] != '=' {
			return nil, t.errAt(t.pos, "["+s.tag+"]", ErrCorrupt, "expected key=value")
		}
		t.pos++
		v, err := t.value("[" + s.tag + "] " + key)
		if err != nil {
			return nil, err
		}
		s.fields = append(s.fields, field{key, v, at})
	}
}

func isIdentByte(c byte) bool {
	return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

// property reads "name = value", the name as the engines read it
// (gdtext.ScanKey: spaces left out, a quoted string, ';' comments). ok is
// false, with no error, when no property follows: a name without '='
// before the end of the file (the engines drop it), or a section header
// after an empty quoted name.
func (t *textReader) property(tag string) (p variant.Property, ok bool, err error) {
	at := t.pos
	name, n, ok, err := gdtext.ScanKey(t.src[t.pos:], gdtext.ParseOptions{Family: t.fam})
	if err != nil {
		var se *gdtext.SyntaxError
		if errors.As(err, &se) {
			return variant.Property{}, false, t.errAt(at+se.Offset, "property name", ErrCorrupt, se.Msg)
		}
		return variant.Property{}, false, t.errAt(at, "property name", ErrCorrupt, err.Error())
	}
	t.pos += n
	if !ok {
		return variant.Property{}, false, nil
	}
	if name == "" {
		return variant.Property{}, false, t.errAt(at, tag, ErrCorrupt, "expected name = value")
	}
	v, err := t.value(tag + " property " + strconv.Quote(name))
	if err != nil {
		return variant.Property{}, false, err
	}
	return variant.Property{Name: name, Value: v}, true, nil
}

// sections reads all sections.
func (t *textReader) sections() ([]*section, error) {
	var out []*section
	for {
		t.skipSpace()
		if t.pos >= len(t.src) {
			return out, nil
		}
		if t.src[t.pos] == '[' {
			s, err := t.header()
			if err != nil {
				return nil, err
			}
			if len(out) == 0 {
				t.setFamily(s)
			}
			out = append(out, s)
			continue
		}
		if len(out) == 0 {
			return nil, t.errAt(t.pos, "file", ErrNotResource, "no [gd_resource] or [gd_scene] header")
		}
		cur := out[len(out)-1]
		p, ok, err := t.property("[" + cur.tag + "]")
		if err != nil {
			return nil, err
		}
		if ok {
			cur.props = append(cur.props, p)
		}
	}
}

// setFamily picks the family from the header's format: 1 and 2 are
// Godot 3's, 3 and up Godot 4's.
func (t *textReader) setFamily(s *section) {
	t.fam = variant.Godot4
	if v, ok := s.get("format"); ok {
		if n, ok := v.(variant.Int); ok && n <= 2 {
			t.fam = variant.Godot3
		}
	}
}

// ReadText reads a text resource file (.tres, .tscn).
func ReadText(data []byte, o Options) (*File, error) {
	if int64(len(data)) > o.maxSize() {
		return nil, errAt(0, "file", ErrTooLarge, "size "+strconv.Itoa(len(data))+" above Options.MaxSize")
	}
	data = bytes.TrimPrefix(data, []byte("\xef\xbb\xbf"))
	t := &textReader{src: string(data), fam: variant.Godot4}
	t.skipSpace()
	if !IsText(data) {
		return nil, t.errAt(t.pos, "file", ErrNotResource, "no [gd_resource] or [gd_scene] header")
	}
	secs, err := t.sections()
	if err != nil {
		return nil, err
	}
	head := secs[0]
	f := &File{Family: t.fam, UID: NoUID}
	str := func(s *section, key string, need bool) (string, error) {
		v, ok := s.get(key)
		if !ok {
			if need {
				return "", t.errAt(s.at, "["+s.tag+"]", ErrCorrupt, "no "+key+"=")
			}
			return "", nil
		}
		switch v := v.(type) {
		case variant.String:
			return string(v), nil
		case variant.StringName:
			return string(v), nil
		case variant.Int:
			return strconv.FormatInt(int64(v), 10), nil
		case variant.NodePath:
			return v.String(), nil
		}
		return "", t.errAt(s.at, "["+s.tag+"] "+key, ErrCorrupt, "not a string")
	}
	num := func(s *section, key string) (int, bool, error) {
		v, ok := s.get(key)
		if !ok {
			return 0, false, nil
		}
		switch v := v.(type) {
		case variant.Int:
			return int(v), true, nil
		case variant.String:
			n, err := strconv.Atoi(string(v))
			if err == nil {
				return n, true, nil
			}
		}
		return 0, false, t.errAt(s.at, "["+s.tag+"] "+key, ErrCorrupt, "not a number")
	}
	isScene := head.tag == "gd_scene"
	if !isScene && head.tag != "gd_resource" {
		return nil, t.errAt(head.at, "header", ErrNotResource, "first section is ["+head.tag+"]")
	}
	if isScene {
		f.Type = "PackedScene"
		f.Scene = &Scene{FromText: true}
	} else if f.Type, err = str(head, "type", true); err != nil {
		return nil, err
	}
	if f.ScriptClass, err = str(head, "script_class", false); err != nil {
		return nil, err
	}
	if f.Text.Format, _, err = num(head, "format"); err != nil {
		return nil, err
	}
	if f.Text.LoadSteps, _, err = num(head, "load_steps"); err != nil {
		return nil, err
	}
	if u, err := str(head, "uid", false); err != nil {
		return nil, err
	} else if u != "" {
		if f.UID, _ = ParseUID(u); f.UID == NoUID {
			return nil, t.errAt(head.at, "header uid", ErrCorrupt, strconv.Quote(u)+" is not a uid")
		}
	}
	if len(head.props) > 0 {
		return nil, t.errAt(head.at, "header", ErrCorrupt, "properties before the first resource")
	}
	defined := map[string]bool{} // sub-resources read so far
	exts := map[string]bool{}
	sawMain := false
	for _, s := range secs[1:] {
		if sawMain && !isScene {
			return nil, t.errAt(s.at, "["+s.tag+"]", ErrCorrupt, "section after [resource]")
		}
		check := func(ps []variant.Property) error {
			for _, p := range ps {
				var bad error
				walkRefs(p.Value, func(r variant.ResourceRef) bool {
					switch r.Kind {
					case variant.RefSub:
						if !defined[r.ID] {
							bad = &refError{r.ID}
						}
					case variant.RefExt:
						if !exts[r.ID] {
							bad = errors.New("ExtResource(" + strconv.Quote(r.ID) + ") names no [ext_resource]")
						}
					}
					return bad == nil
				})
				if bad != nil {
					return t.errAt(s.at, "["+s.tag+"] property "+strconv.Quote(p.Name), ErrCorrupt, bad.Error())
				}
			}
			return nil
		}
		switch s.tag {
		case "ext_resource":
			e := ExtResource{UID: NoUID}
			if e.Type, err = str(s, "type", true); err != nil {
				return nil, err
			}
			if e.Path, err = str(s, "path", true); err != nil {
				return nil, err
			}
			if e.ID, err = str(s, "id", true); err != nil {
				return nil, err
			}
			if u, err := str(s, "uid", false); err != nil {
				return nil, err
			} else if u != "" {
				e.UID, _ = ParseUID(u)
			}
			if exts[e.ID] {
				return nil, t.errAt(s.at, "[ext_resource]", ErrCorrupt, "id "+strconv.Quote(e.ID)+" used twice")
			}
			exts[e.ID] = true
			f.Ext = append(f.Ext, e)
		case "sub_resource":
			r := &Resource{Properties: s.props}
			if r.Type, err = str(s, "type", true); err != nil {
				return nil, err
			}
			if r.ID, err = str(s, "id", true); err != nil {
				return nil, err
			}
			if defined[r.ID] {
				return nil, t.errAt(s.at, "[sub_resource]", ErrCorrupt, "id "+strconv.Quote(r.ID)+" used twice")
			}
			if err := check(s.props); err != nil {
				return nil, err
			}
			defined[r.ID] = true
			f.Sub = append(f.Sub, r)
		case "resource":
			if isScene {
				return nil, t.errAt(s.at, "[resource]", ErrCorrupt, "a scene has no [resource]")
			}
			if err := check(s.props); err != nil {
				return nil, err
			}
			f.Properties = s.props
			sawMain = true
		case "node", "connection", "editable":
			if !isScene {
				return nil, t.errAt(s.at, "["+s.tag+"]", ErrCorrupt, "only scenes have ["+s.tag+"]")
			}
			if err := check(s.props); err != nil {
				return nil, err
			}
			if v, ok := s.get("instance"); ok { // an instanced or inherited scene
				if err := check([]variant.Property{{Name: "instance", Value: v}}); err != nil {
					return nil, err
				}
			}
			if err := t.sceneSection(f, s, str, num); err != nil {
				return nil, err
			}
		default:
			return nil, t.errAt(s.at, "["+s.tag+"]", ErrCorrupt, "unknown section")
		}
	}
	return f, nil
}

// sceneSection adds a [node], [connection] or [editable] section.
func (t *textReader) sceneSection(f *File, s *section,
	str func(*section, string, bool) (string, error), num func(*section, string) (int, bool, error)) error {
	sc := f.Scene
	var err error
	ints := func(key string) ([]int32, error) {
		v, ok := s.get(key)
		if !ok {
			return nil, nil
		}
		a, ok := v.(variant.PackedInt32Array)
		if !ok {
			return nil, t.errAt(s.at, "["+s.tag+"] "+key, ErrCorrupt, "not a PackedInt32Array")
		}
		return a, nil
	}
	switch s.tag {
	case "node":
		nd := Node{Index: -1, Properties: s.props}
		if nd.Name, err = str(s, "name", true); err != nil {
			return err
		}
		if nd.Type, err = str(s, "type", false); err != nil {
			return err
		}
		if nd.Parent, err = str(s, "parent", false); err != nil {
			return err
		}
		if _, has := s.get("parent"); has {
			nd.Parent = simplifyPath(nd.Parent)
		}
		if (nd.Parent == "") != (len(sc.Nodes) == 0) {
			return t.errAt(s.at, "[node]", ErrCorrupt, "the first node, and only it, has no parent")
		}
		if nd.Owner, err = str(s, "owner", false); err != nil {
			return err
		}
		idx, ok, err := num(s, "index")
		if err != nil {
			return err
		}
		if ok {
			nd.Index = idx
		}
		uid, ok, err := num(s, "unique_id")
		if err != nil {
			return err
		}
		if ok {
			nd.UniqueID = int32(uid)
		}
		if v, ok := s.get("instance"); ok {
			r, ok := v.(variant.ResourceRef)
			if !ok {
				return t.errAt(s.at, "[node] instance", ErrCorrupt, "not a resource reference")
			}
			if len(sc.Nodes) == 0 {
				sc.BaseScene = &r
			} else {
				nd.Instance = &r
			}
		}
		if nd.InstancePlaceholder, err = str(s, "instance_placeholder", false); err != nil {
			return err
		}
		if v, ok := s.get("groups"); ok {
			a, ok := v.(*variant.Array)
			if !ok {
				return t.errAt(s.at, "[node] groups", ErrCorrupt, "not an Array")
			}
			for _, g := range a.Values {
				switch g := g.(type) {
				case variant.String:
					nd.Groups = append(nd.Groups, string(g))
				case variant.StringName:
					nd.Groups = append(nd.Groups, string(g))
				default:
					return t.errAt(s.at, "[node] groups", ErrCorrupt, "a group is not a string")
				}
			}
		}
		if v, ok := s.get("node_paths"); ok {
			a, ok := v.(variant.PackedStringArray)
			if !ok {
				return t.errAt(s.at, "[node] node_paths", ErrCorrupt, "not a PackedStringArray")
			}
			nd.NodePaths = a
		}
		if nd.ParentIDPath, err = ints("parent_id_path"); err != nil {
			return err
		}
		if nd.OwnerIDPath, err = ints("owner_uid_path"); err != nil {
			return err
		}
		sc.Nodes = append(sc.Nodes, nd)
	case "connection":
		c := Connection{Flags: connectPersist}
		for _, k := range []struct {
			key string
			dst *string
		}{{"signal", &c.Signal}, {"from", &c.From}, {"to", &c.To}, {"method", &c.Method}} {
			if *k.dst, err = str(s, k.key, true); err != nil {
				return err
			}
		}
		c.From, c.To = simplifyPath(c.From), simplifyPath(c.To)
		if n, ok, err := num(s, "flags"); err != nil {
			return err
		} else if ok {
			c.Flags = n
		}
		if n, ok, err := num(s, "unbinds"); err != nil {
			return err
		} else if ok {
			c.Unbinds = n
		}
		if v, ok := s.get("binds"); ok {
			a, ok := v.(*variant.Array)
			if !ok {
				return t.errAt(s.at, "[connection] binds", ErrCorrupt, "not an Array")
			}
			c.Binds = a.Values
		}
		if c.FromIDPath, err = ints("from_uid_path"); err != nil {
			return err
		}
		if c.ToIDPath, err = ints("to_uid_path"); err != nil {
			return err
		}
		sc.Connections = append(sc.Connections, c)
	case "editable":
		p, err := str(s, "path", true)
		if err != nil {
			return err
		}
		sc.Editable = append(sc.Editable, simplifyPath(p))
	}
	if s.tag != "node" && len(s.props) > 0 {
		return t.errAt(s.at, "["+s.tag+"]", ErrCorrupt, "properties after ["+s.tag+"]")
	}
	return nil
}

// Read reads a resource file in either form.
func Read(data []byte, o Options) (*File, error) {
	if IsBinary(data) {
		return ReadBinary(data, o)
	}
	return ReadText(data, o)
}
