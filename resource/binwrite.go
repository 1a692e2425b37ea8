package resource

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// binWriter writes the binary form.
type binWriter struct {
	b      []byte
	order  byteOrder
	real64 bool
	g3     bool
	format int // the format version written
	strIdx map[string]int
	strs   []string
	subIdx map[string]int // sub-resource id -> index in the internal table
	extIdx map[string]int
	err    error
}

func (w *binWriter) u32(v uint32) { w.b = w.order.AppendUint32(w.b, v) }
func (w *binWriter) u16(v uint16) { w.b = w.order.AppendUint16(w.b, v) }
func (w *binWriter) u64(v uint64) { w.b = w.order.AppendUint64(w.b, v) }

func (w *binWriter) real(f float64) {
	if w.real64 {
		w.u64(math.Float64bits(f))
	} else {
		w.u32(math.Float32bits(float32(f)))
	}
}

// str writes a string with its NUL, its length counting it.
func (w *binWriter) str(s string) {
	w.u32(uint32(len(s) + 1))
	w.b = append(w.b, s...)
	w.b = append(w.b, 0)
}

func (w *binWriter) fail(what string, detail string) {
	if w.err == nil {
		w.err = &Error{Offset: -1, What: what, Err: ErrCannotWrite, Detail: detail}
	}
}

// addString adds s to the string table.
func (w *binWriter) addString(s string) int {
	if i, ok := w.strIdx[s]; ok {
		return i
	}
	w.strIdx[s] = len(w.strs)
	w.strs = append(w.strs, s)
	return len(w.strs) - 1
}

func (w *binWriter) value(v variant.Value, depth int) {
	if depth > maxDepth {
		w.fail("value", "nesting deeper than "+strconv.Itoa(maxDepth))
		return
	}
	t := variant.TypeOf(v)
	if w.g3 {
		if _, ok := t.ID(variant.Godot3); !ok && t != variant.TypeNil {
			w.fail("value", t.String()+" does not exist in Godot 3")
			return
		}
	}
	facts := variant.Facts(t)
	if n := facts.Components(); n > 0 {
		w.u32(uint32(t.ResourceTag()))
		c := variant.AppendComponents(make([]float64, 0, 16), v)
		for _, x := range c {
			switch {
			case facts.Reals > 0:
				w.real(x)
			case facts.Ints > 0:
				w.u32(uint32(int32(x)))
			default:
				w.u32(math.Float32bits(float32(x)))
			}
		}
		return
	}
	switch v := v.(type) {
	case nil:
		w.u32(uint32(variant.ResTagNil))
	case variant.Bool:
		w.u32(uint32(variant.ResTagBool))
		if v {
			w.u32(1)
		} else {
			w.u32(0)
		}
	case variant.Int:
		if v > math.MaxInt32 || v < math.MinInt32 {
			w.u32(uint32(variant.ResTagInt64))
			w.u64(uint64(v))
		} else {
			w.u32(uint32(variant.ResTagInt))
			w.u32(uint32(int32(v)))
		}
	case variant.Float:
		// The engine narrows a float that a float32 holds exactly (NaN
		// never compares equal, so it stays wide).
		if float64(float32(v)) == float64(v) {
			w.u32(uint32(variant.ResTagFloat))
			w.real(float64(v))
		} else {
			w.u32(uint32(variant.ResTagDouble))
			w.u64(math.Float64bits(float64(v)))
		}
	case variant.String:
		w.u32(uint32(variant.ResTagString))
		w.str(string(v))
	case variant.StringName:
		w.u32(uint32(variant.ResTagStringName))
		w.str(string(v))
	case variant.NodePath:
		w.u32(uint32(variant.ResTagNodePath))
		w.u16(uint16(len(v.Names)))
		sn := uint16(len(v.Subnames))
		if v.Absolute {
			sn |= 0x8000
		}
		w.u16(sn)
		for _, s := range append(append([]string{}, v.Names...), v.Subnames...) {
			if i, ok := w.strIdx[s]; ok {
				w.u32(uint32(i))
			} else {
				w.u32(uint32(len(s)+1) | 0x80000000)
				w.b = append(append(w.b, s...), 0)
			}
		}
	case variant.RID:
		w.u32(uint32(variant.ResTagRID))
		w.u32(uint32(v))
	case variant.Callable:
		w.u32(uint32(variant.ResTagCallable))
	case variant.Signal:
		w.u32(uint32(variant.ResTagSignal))
	case variant.ObjectID:
		if v != 0 {
			w.fail("value", "an object ID cannot be stored in a resource file")
		}
		w.u32(uint32(variant.ResTagObject))
		w.u32(objEmpty)
	case *variant.Object:
		if v != nil && v.Class != "" {
			w.fail("value", "an Object that is not a resource reference cannot be stored in a binary resource file")
		}
		w.u32(uint32(variant.ResTagObject))
		w.u32(objEmpty)
	case variant.ResourceRef:
		w.u32(uint32(variant.ResTagObject))
		switch v.Kind {
		case variant.RefSub:
			i, ok := w.subIdx[v.ID]
			if !ok {
				w.fail("value", "SubResource("+strconv.Quote(v.ID)+") names no sub-resource")
			}
			w.u32(objInternal)
			w.u32(uint32(i))
		case variant.RefExt:
			i, ok := w.extIdx[v.ID]
			if !ok {
				w.fail("value", "ExtResource("+strconv.Quote(v.ID)+") names no external resource")
			}
			w.u32(objExternalIndex)
			w.u32(uint32(i))
		case variant.RefPath:
			w.u32(objExtPath)
			w.str(v.Class)
			w.str(v.Path)
		default:
			w.fail("value", "invalid resource reference")
		}
	case *variant.Dictionary:
		w.u32(uint32(variant.ResTagDictionary))
		w.u32(uint32(v.Len()))
		for k, e := range v.All() {
			w.value(k, depth+1)
			w.value(e, depth+1)
		}
	case *variant.Array:
		w.u32(uint32(variant.ResTagArray))
		w.u32(uint32(v.Len()))
		if v != nil {
			for _, e := range v.Values {
				w.value(e, depth+1)
			}
		}
	case variant.PackedByteArray:
		w.u32(uint32(variant.ResTagPackedByteArray))
		w.u32(uint32(len(v)))
		w.b = append(w.b, v...)
		// Padded by the length, not the position, as the engine does.
		for range (4 - len(v)%4) % 4 {
			w.b = append(w.b, 0)
		}
	case variant.PackedInt32Array:
		w.u32(uint32(variant.ResTagPackedInt32Array))
		w.u32(uint32(len(v)))
		for _, x := range v {
			w.u32(uint32(x))
		}
	case variant.PackedInt64Array:
		w.u32(uint32(variant.ResTagPackedInt64Array))
		w.u32(uint32(len(v)))
		for _, x := range v {
			w.u64(uint64(x))
		}
	case variant.PackedFloat32Array:
		w.u32(uint32(variant.ResTagPackedFloat32Array))
		w.u32(uint32(len(v)))
		for _, x := range v {
			w.u32(math.Float32bits(x))
		}
	case variant.PackedFloat64Array:
		w.u32(uint32(variant.ResTagPackedFloat64Array))
		w.u32(uint32(len(v)))
		for _, x := range v {
			w.u64(math.Float64bits(x))
		}
	case variant.PackedStringArray:
		w.u32(uint32(variant.ResTagPackedStringArray))
		w.u32(uint32(len(v)))
		for _, s := range v {
			w.str(s)
		}
	case variant.PackedColorArray:
		w.u32(uint32(variant.ResTagPackedColorArray))
		w.u32(uint32(len(v)))
		for _, c := range v {
			for _, x := range [4]float32{c.R, c.G, c.B, c.A} {
				w.u32(math.Float32bits(x))
			}
		}
	case variant.PackedVector2Array:
		w.u32(uint32(variant.ResTagPackedVector2Array))
		w.u32(uint32(len(v)))
		for _, e := range v {
			w.real(e.X)
			w.real(e.Y)
		}
	case variant.PackedVector3Array:
		w.u32(uint32(variant.ResTagPackedVector3Array))
		w.u32(uint32(len(v)))
		for _, e := range v {
			w.real(e.X)
			w.real(e.Y)
			w.real(e.Z)
		}
	case variant.PackedVector4Array:
		if w.format < 6 {
			w.fail("value", "PackedVector4Array needs format version 6 (Godot 4.3+)")
		}
		w.u32(uint32(variant.ResTagPackedVector4Array))
		w.u32(uint32(len(v)))
		for _, e := range v {
			w.real(e.X)
			w.real(e.Y)
			w.real(e.Z)
			w.real(e.W)
		}
	default:
		w.fail("value", "cannot store "+t.String())
	}
}

// collect registers the strings the engine puts in the string table while
// it looks for the resources to save, in its order: the names and
// subnames of NodePaths, depth first, a sub-resource's before those of
// the resource that first refers to it.
func (w *binWriter) collect(subs map[string]*Resource, v variant.Value, seen map[string]bool, depth int) {
	if depth > maxDepth {
		return
	}
	switch v := v.(type) {
	case variant.NodePath:
		for _, s := range v.Names {
			w.addString(s)
		}
		for _, s := range v.Subnames {
			w.addString(s)
		}
	case variant.ResourceRef:
		if v.Kind == variant.RefSub && !seen[v.ID] {
			seen[v.ID] = true
			if r := subs[v.ID]; r != nil {
				for _, p := range r.Properties {
					w.collect(subs, p.Value, seen, depth+1)
				}
			}
		}
	case *variant.Array:
		if v != nil {
			for _, e := range v.Values {
				w.collect(subs, e, seen, depth+1)
			}
		}
	case *variant.Dictionary:
		for k, e := range v.All() {
			w.collect(subs, k, seen, depth+1)
			w.collect(subs, e, seen, depth+1)
		}
	}
}

// EncodeBinary writes the file in the binary form (.res, .scn) for
// f.Family, with the header facts of f.Binary (engine version, format
// version, compression); zero fields take the family's newest values.
func (f *File) EncodeBinary() ([]byte, error) {
	fam := f.family()
	bi := f.Binary
	if bi.Format == 0 {
		bi.Format = newestBinaryFormat(fam)
	}
	if bi.Major == 0 {
		if fam == variant.Godot3 {
			bi.Major, bi.Minor = 3, 2
		} else {
			bi.Major, bi.Minor = 4, 6
		}
	}
	if fam == variant.Godot4 && bi.Format >= 4 {
		bi.NamedSceneIDs = true
		bi.UIDs = true
	}
	props := f.Properties
	if f.Scene != nil {
		d, err := f.bundle(bi)
		if err != nil {
			return nil, err
		}
		props = []variant.Property{{Name: "_bundled", Value: d}}
		if v, ok := getProp(f.Properties, "script"); ok || fam == variant.Godot4 {
			// The engine stores the script of a PackedScene (null) after
			// _bundled.
			props = append(props, variant.Property{Name: "script", Value: v})
		}
		props = append(props, withoutProps(f.Properties, "_bundled", "script")...)
	}
	subs := f.Sub
	if fam == variant.Godot4 {
		props = withNullScript(props)
		subs = make([]*Resource, len(f.Sub))
		for i, r := range f.Sub {
			c := *r
			c.Properties = withNullScript(r.Properties)
			subs[i] = &c
		}
	}
	w := &binWriter{order: binary.LittleEndian, real64: bi.RealDouble, g3: fam == variant.Godot3, format: bi.Format,
		strIdx: map[string]int{}, subIdx: map[string]int{}, extIdx: map[string]int{}}
	if bi.BigEndian {
		w.order = binary.BigEndian
	}
	for i, e := range f.Ext {
		w.extIdx[e.ID] = i
	}
	for i, r := range f.Sub {
		if _, dup := w.subIdx[r.ID]; dup {
			return nil, &Error{Offset: -1, What: "sub-resource " + strconv.Quote(r.ID), Err: ErrCannotWrite, Detail: "duplicate id"}
		}
		if fam == variant.Godot3 || !bi.NamedSceneIDs {
			n, err := strconv.ParseUint(r.ID, 10, 31)
			if err != nil {
				return nil, &Error{Offset: -1, What: "sub-resource " + strconv.Quote(r.ID), Err: ErrCannotWrite, Detail: "Godot 3 binary files number their sub-resources; the id is not a number"}
			}
			w.subIdx[r.ID] = int(n)
		} else {
			w.subIdx[r.ID] = i
		}
	}
	for _, s := range bi.Strings {
		if _, dup := w.strIdx[s]; !dup {
			w.strIdx[s] = len(w.strs)
		}
		w.strs = append(w.strs, s)
	}
	seen := map[string]bool{}
	byID := make(map[string]*Resource, len(subs))
	for _, r := range subs {
		byID[r.ID] = r
	}
	for _, p := range props {
		w.collect(byID, p.Value, seen, 0)
	}
	for _, r := range subs {
		for _, p := range r.Properties {
			w.addString(p.Name)
		}
	}
	if f.Scene != nil && bi.Strings == nil {
		// The engine lists every stored property of the class, also those
		// at their defaults: a PackedScene's are Resource's two, then
		// _bundled and script (Godot 3.2.3 and 4.6 checked).
		w.addString("resource_local_to_scene")
		w.addString("resource_name")
	}
	for _, p := range props {
		w.addString(p.Name)
	}
	if f.Scene != nil && bi.Strings == nil {
		w.addString("script") // listed by Godot 3 too, which stores no null script
	}

	if !bi.Compressed {
		w.b = append(w.b, magicRSRC...)
	}
	if bi.BigEndian {
		w.u32(1)
	} else {
		w.u32(0)
	}
	w.u32(bi.Real64)
	w.u32(uint32(bi.Major))
	w.u32(uint32(bi.Minor))
	w.u32(uint32(bi.Format))
	typ := f.Type
	if typ == "" && f.Scene != nil {
		typ = "PackedScene"
	}
	w.str(typ)
	w.u64(bi.ImportMetadataOffset)
	var flags uint32
	if bi.NamedSceneIDs {
		flags |= flagNamedSceneIDs
	}
	if bi.UIDs {
		flags |= flagUIDs
	}
	if bi.RealDouble {
		flags |= flagRealDouble
	}
	if f.ScriptClass != "" {
		if bi.Format < 5 {
			return nil, &Error{Offset: -1, What: "header", Err: ErrCannotWrite, Detail: "a script class needs format version 5 (Godot 4.2+)"}
		}
		flags |= flagScriptClass
	}
	w.u32(flags)
	uid := f.UID
	if !bi.UIDs {
		uid = 0
	} else if !uid.Valid() {
		uid = NoUID
	}
	w.u64(uint64(uid))
	if f.ScriptClass != "" {
		w.str(f.ScriptClass)
	}
	for range reservedWords {
		w.u32(0)
	}
	w.u32(uint32(len(w.strs)))
	for _, s := range w.strs {
		w.str(s)
	}
	w.u32(uint32(len(f.Ext)))
	for _, e := range f.Ext {
		w.str(e.Type)
		w.str(e.Path)
		if bi.UIDs {
			u := e.UID
			if !u.Valid() {
				u = NoUID
			}
			w.u64(uint64(u))
		}
	}
	w.u32(uint32(len(f.Sub) + 1))
	ofs := make([]int, 0, len(f.Sub)+1)
	for _, r := range f.Sub {
		w.str("local://" + r.ID)
		ofs = append(ofs, len(w.b))
		w.u64(0)
	}
	w.str(bi.MainPath)
	ofs = append(ofs, len(w.b))
	w.u64(0)
	res := func(i int, typ string, ps []variant.Property) {
		w.order.PutUint64(w.b[ofs[i]:], uint64(len(w.b)))
		w.str(typ)
		w.u32(uint32(len(ps)))
		for _, p := range ps {
			w.u32(uint32(w.strIdx[p.Name]))
			w.value(p.Value, 0)
		}
	}
	for i, r := range subs {
		res(i, r.Type, r.Properties)
	}
	res(len(f.Sub), typ, props)
	w.b = append(w.b, magicRSRC...)
	if w.err != nil {
		return nil, w.err
	}
	if !bi.Compressed {
		return w.b, nil
	}
	wrapped, err := gdfile.Wrap(w.b, gdfile.Container{Format: gdfile.Compressed, Compression: bi.Compression}, gdfile.Options{MaxSize: 1 << 31})
	if err != nil {
		return nil, &Error{Offset: -1, What: "compression", Err: err}
	}
	copy(wrapped, magicRSCC)
	if bytes.HasSuffix(wrapped, []byte("GCPF")) {
		copy(wrapped[len(wrapped)-4:], magicRSCC)
	}
	return wrapped, nil
}

func withoutProps(ps []variant.Property, names ...string) []variant.Property {
	var out []variant.Property
	for _, p := range ps {
		skip := false
		for _, n := range names {
			skip = skip || p.Name == n
		}
		if !skip {
			out = append(out, p)
		}
	}
	return out
}

// family returns the file's family, Godot 4 when unset.
func (f *File) family() variant.Family {
	if f.Family == variant.Godot3 {
		return variant.Godot3
	}
	return variant.Godot4
}

// byteOrder reads and appends in one byte order.
type byteOrder interface {
	binary.ByteOrder
	binary.AppendByteOrder
}
