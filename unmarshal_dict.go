package gdvar

// Decoding Dictionaries into the Go values that take them: maps (keys of
// any type the map's key type holds) and structs (fields by name, with a
// fast path for a Dictionary written in the struct's order).

import (
	"reflect"
	"unsafe"

	"github.com/gdvar/gdvar/variant"
)

//go:noinline
func decMap(c, kc, vc *codec) decFunc {
	t := c.typ
	ifaceKeys := t.Key().Kind() == reflect.Interface
	return func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		h, wt, err := d.Head(off, depth)
		if err != nil {
			return 0, err
		}
		if wt != variant.TypeDictionary {
			if wt == variant.TypeNil {
				*(*unsafe.Pointer)(p) = nil
				return off + 4, nil
			}
			return 0, d.mismatch(off, wt, t)
		}
		kt, _, n, countAt, err := d.DictHead(off, h)
		if err != nil {
			return 0, err
		}
		q := countAt + 4
		if _, vk := d.TypeKinds(h, variant.TypeDictionary); t == mapStringAnyType && !kt.IsTyped() && vk == 0 {
			m := *(*map[string]any)(p)
			if m == nil {
				m = make(map[string]any, d.Reserve(int64(min(n, max(len(d.b)-q, 0)/8))))
				*(*map[string]any)(p) = m
			}
			next, err := d.naturalEntries(q, n, depth, m, t)
			return next, err
		}
		mv := reflect.NewAt(t, p).Elem()
		if mv.IsNil() {
			mv.Set(reflect.MakeMapWithSize(t, d.Reserve(int64(min(n, max(len(d.b)-q, 0)/8)))))
		}
		kv := reflect.New(t.Key()).Elem()
		vv := reflect.New(t.Elem()).Elem()
		kp, vp := kv.Addr().UnsafePointer(), vv.Addr().UnsafePointer()
		var texts textKeys // for keys of interface type (ifaceKeys): see textKeys
		saved := d.hops
		d.hops = 0
		for i := range n {
			keyOff := q
			_, kwt, err := d.Head(q, depth+1)
			if err != nil {
				return 0, keyErr(err, i)
			}
			kv.SetZero()
			var next int
			if exact(kwt, kt) {
				if err := d.nilKey(t, kwt, q, i); err != nil {
					return 0, err
				}
				if next, err = kc.dec(d, q, kp, depth+1); err != nil {
					return 0, keyErr(err, i)
				}
			} else {
				key, ok, after, err := d.typedKey(kt, q, i, depth)
				if err != nil {
					return 0, err
				}
				if !ok {
					q = after // dropped: the engine drops entries whose key it refuses
					continue
				}
				if err := d.nilKey(t, variant.TypeOf(key), q, i); err != nil {
					return 0, err
				}
				if err := kc.fill(d, key, q, kp); err != nil {
					return 0, keyErr(err, i)
				}
				next = after
			}
			if err := d.hashableKey(t, kv, kwt, keyOff, i); err != nil {
				return 0, err
			}
			if ifaceKeys {
				texts.same(kv)
			}
			vv.SetZero()
			if q, err = vc.dec(d, next, vp, depth+1); err != nil {
				return 0, prefix(err, goKeySeg(kv), d.KeySegAt(keyOff, depth+1))
			}
			mv.SetMapIndex(kv, vv)
		}
		d.hops = saved
		return q, nil
	}
}

// textKeys are the String and StringName keys of a Dictionary decoded so
// far into a map whose keys are interfaces, by their text. The engine's
// Dictionary holds "a" and &"a" as one key (the first one, with the last
// value), as variant.Dictionary does; as Go values they are two (a Go
// string or variant.String, and a variant.StringName), so the decoder
// stores a key whose text it has seen under the first one.
type textKeys struct {
	small []textKey      // the first ones
	big   map[string]any // past textKeysSmall of them
}

type textKey struct {
	text string
	key  any
}

const textKeysSmall = 16

// same replaces the key in kv, an interface value, by the first key of
// the same text, or notes it as that first key.
func (tk *textKeys) same(kv reflect.Value) {
	var text string
	switch k := kv.Interface().(type) {
	case string:
		text = k
	case variant.String:
		text = string(k)
	case variant.StringName:
		text = string(k)
	default:
		return
	}
	if tk.big != nil {
		if first, ok := tk.big[text]; ok {
			kv.Set(reflect.ValueOf(first))
			return
		}
		tk.big[text] = kv.Interface()
		return
	}
	for _, e := range tk.small {
		if e.text == text {
			kv.Set(reflect.ValueOf(e.key))
			return
		}
	}
	tk.small = append(tk.small, textKey{text, kv.Interface()})
	if len(tk.small) > textKeysSmall {
		tk.big = make(map[string]any, 2*len(tk.small))
		for _, e := range tk.small {
			tk.big[e.text] = e.key
		}
		tk.small = nil
	}
}

// typedKey reads the i-th key, at q, of a typed Dictionary at off (its
// count at countAt), nested depth deep, when the key is not of the
// Dictionary's key type: it returns the key as the engine converts it,
// and the offset of the entry's value; or false when the engine drops the
// entry, with the offset after the (checked) value.
func (d *decodeState) typedKey(kt variant.ContainerType, q, i, depth int) (variant.Value, bool, int, error) {
	next, _, _, err := d.Skip(q, depth+1)
	if err != nil {
		return nil, false, 0, keyErr(err, i)
	}
	if next > len(d.b) {
		// A key whose final padding is missing: no value can follow.
		_, _, _, err := d.Skip(next, depth+1)
		return nil, false, 0, prefix(err, variant.KeyIndexSeg(i), d.KeySegAt(q, depth+1))
	}
	key, ok, err := d.conformed(kt, q, depth)
	if err != nil {
		return nil, false, 0, keyErr(err, i)
	}
	if !ok {
		after, _, _, err := d.Skip(next, depth+1)
		if err != nil {
			return nil, false, 0, prefix(err, variant.KeyIndexSeg(i), d.KeySegAt(q, depth+1))
		}
		return nil, false, after, nil
	}
	return key, true, next, nil
}

//go:noinline
func decStruct(c *codec, info *structInfo) decFunc {
	t := c.typ
	keys := info.keys
	// run is the leading fields that the first loop below decodes: short
	// keys (see variant.KeyWords), fast types, no embedded pointer.
	run := keys
	for i, k := range keys {
		if k.words.Size() == 0 || k.f.fast == 0 || k.f.steps != nil {
			run = keys[:i]
			break
		}
	}
	return func(d *decodeState, off int, p unsafe.Pointer, depth int) (int, error) {
		h, wt, ok := d.QuickHead(off, depth)
		if !ok {
			var err error
			if h, wt, err = d.Head(off, depth); err != nil {
				return 0, err
			}
		}
		if wt != variant.TypeDictionary {
			if wt == variant.TypeNil {
				return off + 4, nil
			}
			return 0, d.mismatch(off, wt, t)
		}
		var kt variant.ContainerType
		var err error
		n, countAt, ok := d.QuickContainerHead(off, h)
		if !ok {
			if kt, _, n, countAt, err = d.DictHead(off, h); err != nil {
				return 0, err
			}
		}
		q := countAt + 4
		guess := 0
		saved := d.hops
		d.hops = 0
		typedKeys := kt.IsTyped()
		plain := !typedKeys && depth < d.maxDepth
		i := 0
		if plain {
			// The most common case of all: the struct's fields in order,
			// from the first, each written as the engine writes it and of
			// a type fastField decodes. The first entry that is not goes
			// to the loop below.
			for ; i < n && i < len(run); i++ {
				k := &run[i]
				if !d.MatchKey(&k.words, q) {
					break
				}
				next, ok := d.fastField(k.f, unsafe.Add(p, k.f.offset), q+k.words.Size())
				if !ok {
					break
				}
				q = next
			}
			guess = i
		}
		for ; i < n; i++ {
			var f *field
			var key structKey
			// The common case first: the key after the last one, stored
			// exactly as the engine writes it.
			if plain && guess < len(keys) {
				if k := &keys[guess]; d.MatchKey(&k.words, q) {
					f = k.f
					q += k.words.Size()
				} else if k.key != "" && q+len(k.key) <= len(d.b) && string(d.b[q:q+len(k.key)]) == k.key {
					f = k.f
					q += len(k.key)
				}
			}
			if f == nil {
				keyOff := q
				var skip bool
				if typedKeys {
					_, kwt, err := d.Head(q, depth+1)
					if err != nil {
						return 0, prefix(err, "", variant.KeyIndexSeg(i))
					}
					if !exact(kwt, kt) {
						k, ok, after, err := d.typedKey(kt, q, i, depth)
						if err != nil {
							return 0, err
						}
						q = after
						if !ok {
							continue // dropped
						}
						if key, ok = structKeyOf(k); !ok {
							return 0, d.badKey(keyOff, variant.TypeOf(k), t)
						}
						key.value = d.keyAt(keyOff, depth+1)
						if f, q, skip, err = d.field(info, t, key, keyOff, q, depth+1); err != nil {
							return 0, err
						}
						if skip {
							continue
						}
						goto found
					}
				}
				if f, key, q, skip, err = d.structKey(info, t, q, i, depth+1); err != nil {
					return 0, err
				}
				if skip {
					continue
				}
			}
		found:
			guess = f.pos + 1
			if f.fast != 0 && f.steps == nil && depth < d.maxDepth {
				if next, ok := d.fastField(f, unsafe.Add(p, f.offset), q); ok {
					q = next
					continue
				}
			}
			fp, err := d.fieldSlot(f, t, p, q)
			if err != nil {
				return 0, err
			}
			next, err := f.codec.dec(d, q, fp, depth+1)
			if err != nil {
				return 0, fieldErr(err, f, key)
			}
			q = next
		}
		d.hops = saved
		return q, nil
	}
}

// fastField decodes the most common field values in place: an int,
// float, bool, Vector2 or ASCII String written as the engine writes them.
// It reports false to leave anything else to the field's codec. The
// caller checked the depth; the reader's Quick methods check the bytes.
func (d *decodeState) fastField(f *field, fp unsafe.Pointer, q int) (int, bool) {
	switch f.fast {
	case fastInt:
		if x, ok := d.QuickInt(q); ok {
			*(*int64)(fp) = x
			return q + 8, true
		}
	case fastFloat64:
		if x, ok := d.QuickFloat(q); ok {
			*(*float64)(fp) = x
			return q + 8, true
		}
	case fastBool:
		if x, ok := d.QuickBool(q); ok {
			*(*bool)(fp) = x
			return q + 8, true
		}
	case fastVector2:
		if x, ok := d.QuickVector2(q); ok {
			*(*variant.Vector2)(fp) = x
			return q + 12, true
		}
	case fastString:
		if d.QuickString(q) {
			if raw, next, ok := d.QuickStr(q + 4); ok && variant.PlainText(raw) {
				*(*string)(fp) = d.stringOf(raw)
				return next, true
			}
		}
	}
	return 0, false
}

// keyAt decodes the (checked) key at off again, as stored, for paths.
func (d *decodeState) keyAt(off, depth int) variant.Value {
	k, _, err := d.Reread(off, depth)
	if err != nil {
		return nil
	}
	return k
}

// structKey reads the i-th key of a Dictionary at q for a struct, nested
// depth deep, and finds its field. It reports skip when the entry is to be
// left out (an unknown name), with the entry's value checked and next
// after it.
func (d *decodeState) structKey(info *structInfo, t reflect.Type, q, i, depth int) (f *field, key structKey, next int, skip bool, err error) {
	_, kwt, err := d.Head(q, depth)
	if err != nil {
		return nil, key, 0, false, prefix(err, "", variant.KeyIndexSeg(i))
	}
	if kwt != variant.TypeString && kwt != variant.TypeStringName {
		return nil, key, 0, false, d.badKey(q, kwt, t)
	}
	s, next, err := d.Str(q+4, kwt)
	if err != nil {
		return nil, key, 0, false, prefix(err, "", variant.KeyIndexSeg(i))
	}
	key.name, key.stringName = s, kwt == variant.TypeStringName
	f, next, skip, err = d.field(info, t, key, q, next, depth)
	return f, key, next, skip, err
}

// field finds the field a key names; for a key that names none it
// refuses it (RejectUnknownFields) or checks and skips the value at q.
func (d *decodeState) field(info *structInfo, t reflect.Type, key structKey, keyOff, q, depth int) (*field, int, bool, error) {
	if f, err := d.lookupField(info, t, key, keyOff); f != nil || err != nil {
		return f, q, false, err
	}
	next, _, _, err := d.Skip(q, depth)
	if err != nil {
		return nil, 0, false, prefix(err, "."+string(key.name), key.seg())
	}
	return nil, next, true, nil
}

// badKey reports a Dictionary key that cannot name a struct field.
func (d *decodeState) badKey(off int, kt variant.Type, t reflect.Type) error {
	return d.semErr(off, kt, t, ErrTypeMismatch,
		"cannot unmarshal a Dictionary with a "+typeName(d.fam, kt)+" key into "+t.String()+": struct fields need String keys")
}
