package resource

import (
	"bytes"
	"encoding/binary"
	"errors"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// Header flags of Godot 4 binary files.
const (
	flagNamedSceneIDs = 1
	flagUIDs          = 2
	flagRealDouble    = 4
	flagScriptClass   = 8
)

// reservedWords is the number of reserved 32-bit words after the uid
// (and script class) in the header; Godot 3 files have 14 after the
// import metadata offset, which the flags and the uid overlay.
const reservedWords = 11

// newestBinaryFormat is the newest format version of each family.
func newestBinaryFormat(f variant.Family) int {
	if f == variant.Godot3 {
		return 3
	}
	return 6
}

// Magic numbers of binary resource files.
var (
	magicRSRC = []byte("RSRC")
	magicRSCC = []byte("RSCC")
)

// IsBinary reports whether data starts like a binary resource file.
func IsBinary(data []byte) bool {
	return bytes.HasPrefix(data, magicRSRC) || bytes.HasPrefix(data, magicRSCC)
}

// ReadBinary reads a binary resource file (.res, .scn; RSRC, or RSCC when
// compressed).
func ReadBinary(data []byte, o Options) (*File, error) {
	if int64(len(data)) > o.maxSize() {
		return nil, errAt(0, "file", ErrTooLarge, "size "+strconv.Itoa(len(data))+" above Options.MaxSize")
	}
	f := &File{}
	start := 4
	if bytes.HasPrefix(data, magicRSCC) {
		wrapped := append([]byte("GCPF"), data[4:]...)
		plain, c, err := gdfile.Unwrap(wrapped, gdfile.Options{MaxSize: int(o.maxSize())})
		if err != nil {
			sentinel := ErrCorrupt
			switch {
			case errors.Is(err, gdfile.ErrTooLarge):
				sentinel = ErrTooLarge
			case errors.Is(err, gdfile.ErrTruncated):
				sentinel = ErrTruncated
			case errors.Is(err, gdfile.ErrUnsupported):
				sentinel = ErrUnsupported
			}
			var ge *gdfile.Error
			off := int64(0)
			if errors.As(err, &ge) {
				off = ge.Offset
			}
			return nil, errAt(off, "compressed file", sentinel, err.Error())
		}
		f.Binary.Compressed, f.Binary.Compression = true, c.Compression
		// The compressed data starts after the magic, and the offsets in
		// it count from there.
		data, start = plain, 0
	} else if !bytes.HasPrefix(data, magicRSRC) {
		return nil, errAt(0, "magic", ErrNotResource, "no RSRC or RSCC")
	}
	r := &binReader{b: data, off: start, order: binary.LittleEndian, what: "header"}
	be, err := r.u32()
	if err != nil {
		return nil, err
	}
	if be != 0 {
		r.order = binary.BigEndian
		f.Binary.BigEndian = true
	}
	if f.Binary.Real64, err = r.u32(); err != nil {
		return nil, err
	}
	var v [3]uint32
	for i := range v {
		if v[i], err = r.u32(); err != nil {
			return nil, err
		}
	}
	f.Binary.Major, f.Binary.Minor, f.Binary.Format = int(v[0]), int(v[1]), int(v[2])
	if v[0] > 4 || v[2] > 6 {
		return nil, errAt(12, "header", ErrUnsupported, "engine "+strconv.Itoa(int(v[0]))+"."+strconv.Itoa(int(v[1]))+", format "+strconv.Itoa(int(v[2])))
	}
	f.Family = variant.Godot4
	if v[0] < 4 {
		f.Family = variant.Godot3
		r.g3 = true
	}
	r.v3 = f.Binary.Format < 3
	if f.Type, err = r.str(); err != nil {
		return nil, err
	}
	if f.Binary.ImportMetadataOffset, err = r.u64(); err != nil {
		return nil, err
	}
	flags, err := r.u32()
	if err != nil {
		return nil, err
	}
	uid, err := r.u64()
	if err != nil {
		return nil, err
	}
	f.UID = NoUID
	if flags&flagUIDs != 0 {
		f.UID = UID(uid)
		f.Binary.UIDs = true
	}
	f.Binary.NamedSceneIDs = flags&flagNamedSceneIDs != 0
	r.named = f.Binary.NamedSceneIDs
	if flags&flagRealDouble != 0 {
		f.Binary.RealDouble, r.real64 = true, true
	}
	if flags&flagScriptClass != 0 {
		if f.ScriptClass, err = r.str(); err != nil {
			return nil, err
		}
	}
	if err := r.need(4 * reservedWords); err != nil {
		return nil, err
	}
	r.off += 4 * reservedWords

	r.what = "string table"
	n, err := r.count(4, 0xffffffff)
	if err != nil {
		return nil, err
	}
	r.strs = make([]string, n)
	for i := range r.strs {
		if r.strs[i], err = r.str(); err != nil {
			return nil, err
		}
	}
	f.Binary.Strings = r.strs
	r.what = "external resources"
	n, err = r.count(8, 0xffffffff)
	if err != nil {
		return nil, err
	}
	f.Ext = make([]ExtResource, n)
	for i := range f.Ext {
		e := &f.Ext[i]
		e.ID, e.UID = extID(i), NoUID
		if e.Type, err = r.str(); err != nil {
			return nil, err
		}
		if e.Path, err = r.str(); err != nil {
			return nil, err
		}
		if f.Binary.UIDs {
			u, err := r.u64()
			if err != nil {
				return nil, err
			}
			e.UID = UID(u)
		}
	}
	r.nExt = len(f.Ext)
	r.what = "internal resources"
	n, err = r.count(12, 0xffffffff)
	if err != nil {
		return nil, err
	}
	if n == 0 {
		return nil, r.fail(ErrCorrupt, "no main resource")
	}
	type entry struct {
		path string
		off  uint64
	}
	table := make([]entry, n)
	r.subs = make([]string, n)
	for i := range table {
		at := r.off
		if table[i].path, err = r.str(); err != nil {
			return nil, err
		}
		if table[i].off, err = r.u64(); err != nil {
			return nil, err
		}
		if i < n-1 {
			// The engine takes the rest of the path as the id, even when
			// it is empty.
			id, ok := strings.CutPrefix(table[i].path, "local://")
			if !ok {
				return nil, errAt(int64(at), "internal resource "+strconv.Itoa(i), ErrUnsupported, "path "+strconv.Quote(table[i].path)+" is not local://")
			}
			r.subs[i] = id
		}
	}
	f.Binary.MainPath = table[n-1].path
	defined := make(map[string]bool, n)
	// Every resource lies after the tables and before the next one: the
	// engine writes them so, and it keeps the reading cost within the
	// file's size.
	for i, e := range table {
		what := "internal resource " + strconv.Itoa(i)
		if i == n-1 {
			what = "main resource"
		}
		limit := uint64(len(data))
		if i+1 < n {
			limit = table[i+1].off
		}
		if e.off < uint64(r.off) || e.off > limit {
			return nil, errAt(int64(r.off), what, ErrCorrupt, "offset "+strconv.FormatUint(e.off, 10)+" out of order or past the end")
		}
		r.off, r.what = int(e.off), what
		typ, err := r.str()
		if err != nil {
			return nil, err
		}
		pc, err := r.count(8, 0xffffffff)
		if err != nil {
			return nil, err
		}
		props := make([]variant.Property, pc)
		for j := range props {
			name, err := r.u32()
			if err != nil {
				return nil, err
			}
			if int64(name) >= int64(len(r.strs)) {
				r.off -= 4
				return nil, r.fail(ErrCorrupt, "property name index "+strconv.FormatUint(uint64(name), 10)+" past the string table ("+strconv.Itoa(len(r.strs))+")")
			}
			props[j].Name = r.strs[name]
			r.what = what + ", property " + strconv.Quote(props[j].Name)
			if props[j].Value, err = r.value(0); err != nil {
				return nil, err
			}
			if err := checkRefs(props[j].Value, defined); err != nil {
				return nil, errAt(int64(e.off), r.what, ErrCorrupt, err.Error())
			}
		}
		if uint64(r.off) > limit {
			return nil, errAt(int64(r.off), what, ErrCorrupt, "runs into the next resource")
		}
		if i < n-1 {
			defined[r.subs[i]] = true
		}
		if i == n-1 {
			if typ != f.Type {
				f.Type = typ
			}
			f.Properties = props
		} else {
			f.Sub = append(f.Sub, &Resource{ID: r.subs[i], Type: typ, Properties: props})
		}
	}
	if f.Type == "PackedScene" {
		if err := f.unbundle(); err != nil {
			return nil, err
		}
	}
	return f, nil
}

// checkRefs reports a reference to a sub-resource not defined before (in
// defined): the engine loads each resource after those it refers to, so
// such a reference (every cycle has one) loads as null.
func checkRefs(v variant.Value, defined map[string]bool) error {
	var bad error
	walkRefs(v, func(r variant.ResourceRef) bool {
		if r.Kind != variant.RefSub || defined[r.ID] {
			return true
		}
		bad = &refError{r.ID}
		return false
	})
	return bad
}

type refError struct{ id string }

func (e *refError) Error() string {
	return "reference to sub-resource " + strconv.Quote(e.id) + " before it is defined (a cycle, or a missing resource)"
}

// walkRefs calls fn for every resource reference in v, depth first, until
// fn returns false.
func walkRefs(v variant.Value, fn func(variant.ResourceRef) bool) bool {
	switch v := v.(type) {
	case variant.ResourceRef:
		return fn(v)
	case *variant.Array:
		if v == nil {
			return true
		}
		for _, e := range v.Values {
			if !walkRefs(e, fn) {
				return false
			}
		}
	case *variant.Dictionary:
		for k, e := range v.All() {
			if !walkRefs(k, fn) || !walkRefs(e, fn) {
				return false
			}
		}
	case *variant.Object:
		if v == nil {
			return true
		}
		for _, p := range v.Properties {
			if !walkRefs(p.Value, fn) {
				return false
			}
		}
	}
	return true
}
