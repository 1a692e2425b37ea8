package gdvar

import (
	"reflect"
	"slices"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// field is one Dictionary entry of a struct: a Go field, possibly promoted
// from embedded structs.
type field struct {
	name   string // the Dictionary key
	pos    int    // position in structInfo.fields
	index  []int  // field indexes from the outer struct
	typ    reflect.Type
	codec  *codec
	key    []byte // the encoded key: a Variant String
	varSeg string // the key as a Variant path segment
	tagged bool

	omitEmpty, omitZero, typed bool
	fast                       fastKind // a common type the struct codecs handle inline

	// Where the field lives: offset from the outer struct when no
	// embedded pointer lies on the way, else the steps through them.
	offset uintptr
	steps  []step

	clean  bool // the engine reads key as name: valid UTF-8, no NUL, no leading BOM
	utf8OK bool // name is valid UTF-8 (else only Godot 3 may accept it)
	g3OK   bool // name is acceptable to Godot 3's UTF-8 parser
}

// fastKind names the field types that the struct codecs encode and decode
// inline in the common case.
type fastKind uint8

const (
	fastNone fastKind = iota
	fastInt           // a 64-bit Go integer
	fastFloat64
	fastBool
	fastString
	fastVector2
)

func fastKindOf(t reflect.Type) fastKind {
	if t == reflect.TypeFor[variant.Vector2]() {
		return fastVector2
	}
	if !plainKind(t) {
		return fastNone
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int64:
		if t.Size() == 8 {
			return fastInt
		}
	case reflect.Float64:
		return fastFloat64
	case reflect.Bool:
		return fastBool
	case reflect.String:
		return fastString
	}
	return fastNone
}

// step crosses one embedded pointer: the pointer sits at offset from the
// current struct, and points to a struct of type elem.
type step struct {
	offset     uintptr
	elem       reflect.Type
	unexported bool
}

// structInfo is the cached layout of a struct type.
type structInfo struct {
	fields []*field
	byName map[string]*field
	keys   []fieldKey // by position, as fields
}

// fieldKey is what decoding needs to recognise the key of a field
// stored exactly as the engine writes it: a short name by its KeyWords,
// a longer one by its bytes.
type fieldKey struct {
	words variant.KeyWords // for names of 1 to 8 bytes (else matching nothing)
	key   string           // the encoded key, when the name is clean
	f     *field
}

// newFieldKey returns the fieldKey of f.
func newFieldKey(f *field) fieldKey {
	k := fieldKey{f: f}
	if f.clean {
		k.words, k.key = variant.NewKeyWords(f.name), string(f.key)
	}
	return k
}

// fieldPtr returns the address of f in the struct at p for reading, or nil
// when an embedded pointer on the way is nil.
func (f *field) fieldPtr(p unsafe.Pointer) unsafe.Pointer {
	for _, s := range f.steps {
		p = *(*unsafe.Pointer)(unsafe.Add(p, s.offset))
		if p == nil {
			return nil
		}
	}
	return unsafe.Add(p, f.offset)
}

// fieldPtrAlloc returns the address of f in the struct at p for writing,
// allocating embedded structs behind nil pointers on the way.
func (f *field) fieldPtrAlloc(p unsafe.Pointer) (unsafe.Pointer, bool) {
	if f.steps == nil {
		return unsafe.Add(p, f.offset), true
	}
	return f.fieldPtrSteps(p)
}

func (f *field) fieldPtrSteps(p unsafe.Pointer) (unsafe.Pointer, bool) {
	for _, s := range f.steps {
		slot := (*unsafe.Pointer)(unsafe.Add(p, s.offset))
		if *slot == nil {
			if s.unexported {
				return nil, false
			}
			*slot = reflect.New(s.elem).UnsafePointer()
		}
		p = *slot
	}
	return unsafe.Add(p, f.offset), true
}

// tagOf returns the field's gdvar tag, or its json tag when it has none.
func tagOf(sf reflect.StructField) (string, bool) {
	if tag, ok := sf.Tag.Lookup("gdvar"); ok {
		return tag, true
	}
	if tag, ok := sf.Tag.Lookup("json"); ok {
		// Only the name and the omit options carry over.
		name, opts, _ := strings.Cut(tag, ",")
		var keep []string
		for o := range strings.SplitSeq(opts, ",") {
			if o == "omitempty" || o == "omitzero" {
				keep = append(keep, o)
			}
		}
		return strings.Join(append([]string{name}, keep...), ","), true
	}
	return "", false
}

// structFields lists the Dictionary entries of struct type t in field
// order, by encoding/json's rules: exported fields, named by their tag or
// Go name; embedded structs without a tag name flattened into the outer
// one; among fields of the same name the shallowest wins, then the one
// with a tag name; remaining ties hide each other.
func (bd *builder) structFields(t reflect.Type) *structInfo {
	type scan struct {
		typ   reflect.Type
		index []int
	}
	var current []scan
	next := []scan{{typ: t}}
	var count, nextCount map[reflect.Type]int
	visited := map[reflect.Type]bool{}
	var found []*field

	for len(next) > 0 {
		current, next = next, current[:0]
		count, nextCount = nextCount, map[reflect.Type]int{}
		for _, f := range current {
			if visited[f.typ] {
				continue
			}
			visited[f.typ] = true
			for i := range f.typ.NumField() {
				sf := f.typ.Field(i)
				if sf.Anonymous {
					et := sf.Type
					if et.Kind() == reflect.Pointer {
						et = et.Elem()
					}
					if !sf.IsExported() && et.Kind() != reflect.Struct {
						continue
					}
				} else if !sf.IsExported() {
					continue
				}
				tag, _ := tagOf(sf)
				if tag == "-" {
					continue
				}
				name, opts, _ := strings.Cut(tag, ",")
				index := append(slices.Clip(f.index), i)
				ft := sf.Type
				if ft.Name() == "" && ft.Kind() == reflect.Pointer {
					ft = ft.Elem()
				}
				if name != "" || !sf.Anonymous || ft.Kind() != reflect.Struct {
					fl := &field{name: name, tagged: name != "", index: index, typ: sf.Type}
					if fl.name == "" {
						fl.name = sf.Name
					}
					for o := range strings.SplitSeq(opts, ",") {
						switch o {
						case "omitempty":
							fl.omitEmpty = true
						case "omitzero":
							fl.omitZero = true
						case "typed":
							fl.typed = true
						}
					}
					found = append(found, fl)
					if count[f.typ] > 1 {
						// Two embeddings of the same type at one depth
						// annihilate each other's fields.
						found = append(found, found[len(found)-1])
					}
					continue
				}
				nextCount[ft]++
				if nextCount[ft] == 1 {
					next = append(next, scan{typ: ft, index: index})
				}
			}
		}
	}

	// Resolve name conflicts.
	slices.SortStableFunc(found, func(a, b *field) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := len(a.index) - len(b.index); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return slices.Compare(a.index, b.index)
	})
	var fields []*field
	for i := 0; i < len(found); {
		j := i + 1
		for j < len(found) && found[j].name == found[i].name {
			j++
		}
		group := found[i:j]
		i = j
		if len(group) > 1 && len(group[0].index) == len(group[1].index) && group[0].tagged == group[1].tagged {
			continue // ambiguous: hidden
		}
		fields = append(fields, group[0])
	}
	slices.SortFunc(fields, func(a, b *field) int { return slices.Compare(a.index, b.index) })

	info := &structInfo{fields: fields, byName: make(map[string]*field, len(fields))}
	for i, f := range fields {
		f.pos = i
		bd.locate(t, f)
		f.codec = bd.get(f.typ)
		f.key = wire.AppendString(wire.AppendU32(nil, uint32(variant.TypeString)), f.name)
		f.varSeg = variant.KeySeg(variant.String(f.name))
		f.utf8OK = utf8.ValidString(f.name)
		f.g3OK = validString(variant.Godot3, f.name)
		f.clean = f.utf8OK && !strings.ContainsRune(f.name, 0) && !strings.HasPrefix(f.name, "\uFEFF")
		f.fast = fastKindOf(f.typ)
		info.byName[f.name] = f
		info.keys = append(info.keys, newFieldKey(f))
	}
	return info
}

// locate computes where field f lives in struct type t.
func (bd *builder) locate(t reflect.Type, f *field) {
	var off uintptr
	for k, i := range f.index {
		sf := t.Field(i)
		if k == len(f.index)-1 {
			f.offset = off + sf.Offset
			return
		}
		if sf.Type.Kind() == reflect.Pointer {
			f.steps = append(f.steps, step{offset: off + sf.Offset, elem: sf.Type.Elem(), unexported: !sf.IsExported()})
			off = 0
			t = sf.Type.Elem()
			continue
		}
		off += sf.Offset
		t = sf.Type
	}
}
