package gdvar

// Encoding the Go values that become Dictionaries: structs (their fields
// in order) and maps (their entries in a fixed order, so that equal maps
// encode to equal bytes).

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"
	"unsafe"

	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// encStruct writes a struct as a Dictionary with its fields' keys in field
// order, as GDScript writes the dictionary literal with the same keys.
//
//go:noinline
func encStruct(info *structInfo) encFunc {
	fields := info.fields
	return func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		b, err := e.header(b, variant.TypeDictionary, 0)
		if err != nil {
			return b, err
		}
		at := len(b)
		b = wire.AppendU32(b, 0)
		n := 0
		saved := e.hops
		e.hops = 0
		for _, f := range fields {
			fp := f.fieldPtr(p)
			if fp == nil ||
				f.omitEmpty && f.codec.empty(fp) ||
				f.omitZero && f.codec.zero(fp) {
				continue
			}
			if n == 0 && depth >= e.maxDepth {
				return b, prefix(e.tooDeep(b, variant.TypeString), "", "{key}")
			}
			if !f.utf8OK && !(e.fam.Facts().LooseUTF8 && f.g3OK) {
				return b, prefix(e.checkString(b, variant.TypeString, f.name), "."+f.name, "{key}")
			}
			b = append(b, f.key...)
			if f.fast != fastNone && !f.typed {
				if out, ok := e.fastField(b, f.fast, fp); ok {
					b = out
					n++
					continue
				}
			}
			enc := f.codec.enc
			if f.typed {
				if enc = f.codec.encTyped; enc == nil {
					return b, prefix(e.semErr(b, f.typ, ErrUnsupportedType,
						"the elements of "+f.typ.String()+" have no single Variant type to type the container with"), "."+f.name, "")
				}
			}
			if b, err = enc(e, b, fp, depth+1); err != nil {
				return b, prefix(err, "."+f.name, f.varSeg)
			}
			n++
		}
		e.hops = saved
		binary.LittleEndian.PutUint32(b[at:], uint32(n))
		return b, nil
	}
}

// fastField encodes the most common field values inline; it reports false
// to leave the rest (and every error) to the field's codec.
func (e *encodeState) fastField(b []byte, k fastKind, fp unsafe.Pointer) ([]byte, bool) {
	switch k {
	case fastInt:
		return appendInt(b, *(*int64)(fp)), true
	case fastFloat64:
		return appendFloat(b, *(*float64)(fp)), true
	case fastBool:
		return encBoolValue(b, *(*bool)(fp)), true
	case fastString:
		if s := *(*string)(fp); utf8.ValidString(s) {
			b = wire.AppendU32(b, uint32(variant.TypeString))
			return wire.AppendString(b, s), true
		}
	case fastVector2:
		if !e.double {
			v := (*variant.Vector2)(fp)
			b = wire.AppendU32(b, uint32(variant.TypeVector2))
			b = wire.AppendF32(b, float32(v.X))
			return wire.AppendF32(b, float32(v.Y)), true
		}
	}
	return b, false
}

func (bd *builder) mapEncoder(c *codec) {
	t := c.typ
	kc, vc := bd.get(t.Key()), bd.get(t.Elem())
	enc := func(e *encodeState, b []byte, m reflect.Value, typed bool, depth int) ([]byte, error) {
		typed = typed || e.typed
		kTyped := typed && kc.vtype != variant.TypeUnknown
		vTyped := typed && vc.vtype != variant.TypeUnknown
		if f := variant.TypedDictionaries; (kTyped || vTyped) && (!e.fam.Facts().TypedContainers || !e.ver.Reads(f)) {
			return b, e.unsupported(b, variant.TypeDictionary, f.Missing())
		}
		hdr := len(b)
		b, err := e.header(b, variant.TypeDictionary, 0)
		if err != nil {
			return b, err
		}
		if kTyped {
			b[hdr+2] |= wire.KindBuiltin
			b = wire.AppendU32(b, uint32(kc.vtype))
		}
		if vTyped {
			b[hdr+2] |= wire.KindBuiltin << 2
			b = wire.AppendU32(b, uint32(vc.vtype))
		}
		n := m.Len()
		b = wire.AppendU32(b, uint32(n))
		if n == 0 {
			return b, nil
		}
		if depth >= e.maxDepth {
			return b, prefix(e.tooDeep(b, kc.vtype), "", "{key}")
		}
		entries := e.sortedEntries(m, kc)
		kv := reflect.New(t.Key()).Elem()
		vv := reflect.New(t.Elem()).Elem()
		kp, vp := kv.Addr().UnsafePointer(), vv.Addr().UnsafePointer()
		saved := e.hops
		e.hops = 0
		for _, en := range entries {
			k := en.k
			kv.Set(k)
			vv.Set(en.v)
			if b, err = kc.enc(e, b, kp, depth+1); err != nil {
				return b, prefix(err, goKeySeg(k), "{key}")
			}
			if b, err = vc.enc(e, b, vp, depth+1); err != nil {
				return b, prefix(err, goKeySeg(k), varKeySeg(k, kc.vtype))
			}
		}
		e.hops = saved
		return b, nil
	}
	c.encMap = enc
	c.enc = func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
		return enc(e, b, reflect.NewAt(t, p).Elem(), false, depth)
	}
	if kc.vtype != variant.TypeUnknown || vc.vtype != variant.TypeUnknown {
		c.encTyped = func(e *encodeState, b []byte, p unsafe.Pointer, depth int) ([]byte, error) {
			return enc(e, b, reflect.NewAt(t, p).Elem(), true, depth)
		}
	}
}

// varKeySeg renders a Go map key as the Variant path segment of its entry.
func varKeySeg(k reflect.Value, vt variant.Type) string {
	if k.Kind() == reflect.Interface && !k.IsNil() {
		k = k.Elem()
		vt = builtinOf(k.Type())
	}
	switch vt {
	case variant.TypeString:
		if k.Kind() == reflect.String {
			return "[" + strconv.Quote(k.String()) + "]"
		}
	case variant.TypeInt:
		return goKeySeg(k)
	case variant.TypeUnknown:
		return "[?]"
	}
	return "[<" + vt.String() + ">]"
}

func boolInt(b bool) int {
	if b {
		return 1
	}
	return 0
}

// mapEntry is one entry of a Go map being encoded.
type mapEntry struct {
	k, v reflect.Value
	enc  []byte // the key's encoding, when keys sort by it
}

// sortedEntries returns the entries of m in a fixed order, so that equal
// maps encode to equal bytes: string, number and bool keys by value, other
// keys by their encoding.
func (e *encodeState) sortedEntries(m reflect.Value, kc *codec) []mapEntry {
	entries := make([]mapEntry, 0, m.Len())
	for it := m.MapRange(); it.Next(); {
		entries = append(entries, mapEntry{k: it.Key(), v: it.Value()})
	}
	kt := m.Type().Key()
	if plainKind(kt) {
		switch kt.Kind() {
		case reflect.String:
			slices.SortFunc(entries, func(a, b mapEntry) int { return strings.Compare(a.k.String(), b.k.String()) })
			return entries
		case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
			slices.SortFunc(entries, func(a, b mapEntry) int { return cmp.Compare(a.k.Int(), b.k.Int()) })
			return entries
		case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
			slices.SortFunc(entries, func(a, b mapEntry) int { return cmp.Compare(a.k.Uint(), b.k.Uint()) })
			return entries
		case reflect.Float32, reflect.Float64:
			slices.SortStableFunc(entries, func(a, b mapEntry) int { return cmp.Compare(a.k.Float(), b.k.Float()) })
			return entries
		case reflect.Bool:
			slices.SortFunc(entries, func(a, b mapEntry) int {
				return cmp.Compare(boolInt(a.k.Bool()), boolInt(b.k.Bool()))
			})
			return entries
		}
	}
	tmp := reflect.New(kt).Elem()
	sub := *e
	for i := range entries {
		tmp.Set(entries[i].k)
		entries[i].enc, _ = kc.enc(&sub, nil, tmp.Addr().UnsafePointer(), 0)
	}
	slices.SortStableFunc(entries, func(a, b mapEntry) int { return bytes.Compare(a.enc, b.enc) })
	return entries
}
