package gdjson

import (
	"math"
	"slices"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/variant"
)

// Format returns the JSON text of v in the form o.Form, as Godot 4.6's
// JSON.stringify writes it (see the package documentation for where the
// typed form departs from it to stay lossless).
func Format(v variant.Value, o Options) (string, error) {
	b, err := Append(nil, v, o)
	return string(b), err
}

// Append appends the JSON text of v to dst; on error it returns dst
// unchanged.
func Append(dst []byte, v variant.Value, o Options) ([]byte, error) {
	w := &writer{buf: dst, o: o}
	var err error
	if o.Form == Typed {
		err = w.typed(v, 0, nil)
	} else {
		err = w.plain(v, 0, nil)
	}
	if err != nil {
		return dst, err
	}
	return w.buf, nil
}

type writer struct {
	buf []byte
	o   Options
}

func valueErr(p *variant.Path, msg string) error {
	return &Error{Offset: -1, Path: p.String(), Msg: msg}
}

func (w *writer) newline(depth int) {
	if w.o.Indent == "" {
		return
	}
	w.buf = append(w.buf, '\n')
	for range depth {
		w.buf = append(w.buf, w.o.Indent...)
	}
}

// list writes a JSON array of n elements, each written by elem.
func (w *writer) list(depth, n int, elem func(i int) error) error {
	if n == 0 {
		w.buf = append(w.buf, "[]"...)
		return nil
	}
	w.buf = append(w.buf, '[')
	for i := range n {
		if i > 0 {
			w.buf = append(w.buf, ',')
		}
		w.newline(depth + 1)
		if err := elem(i); err != nil {
			return err
		}
	}
	w.newline(depth)
	w.buf = append(w.buf, ']')
	return nil
}

// object writes a JSON object with the given keys in the given order,
// each value written by val.
func (w *writer) object(depth int, keys []string, val func(i int) error) error {
	w.buf = append(w.buf, '{')
	if w.o.Indent != "" {
		w.buf = append(w.buf, '\n')
	}
	for i, k := range keys {
		if i > 0 {
			w.buf = append(w.buf, ',')
			if w.o.Indent != "" {
				w.buf = append(w.buf, '\n')
			}
		}
		for range depth + 1 {
			w.buf = append(w.buf, w.o.Indent...)
		}
		w.quote(k)
		w.buf = append(w.buf, ':')
		if w.o.Indent != "" {
			w.buf = append(w.buf, ' ')
		}
		if err := val(i); err != nil {
			return err
		}
	}
	w.newline(depth)
	w.buf = append(w.buf, '}')
	return nil
}

// quote writes s as the engine's json_escape does: backslash, quote, \b,
// \f, \n, \r, \t and \v escaped, everything else as it is, except NUL,
// written \u0000. \v is not JSON and the engine's own parser refuses it;
// the typed form, which must read back, writes \u000b instead.
func (w *writer) quote(s string) {
	w.buf = append(w.buf, '"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '\\':
			w.buf = append(w.buf, `\\`...)
		case '"':
			w.buf = append(w.buf, `\"`...)
		case '\b':
			w.buf = append(w.buf, `\b`...)
		case '\f':
			w.buf = append(w.buf, `\f`...)
		case '\n':
			w.buf = append(w.buf, `\n`...)
		case '\r':
			w.buf = append(w.buf, `\r`...)
		case '\t':
			w.buf = append(w.buf, `\t`...)
		case 0:
			// The engine would write the NUL as it is, and no JSON reader,
			// the engine's included, reads that back.
			w.buf = append(w.buf, `\u0000`...)
		case '\v':
			if w.o.Form == Typed {
				w.buf = append(w.buf, `\u000b`...)
			} else {
				w.buf = append(w.buf, `\v`...)
			}
		default:
			w.buf = append(w.buf, c)
		}
	}
	w.buf = append(w.buf, '"')
}

func tooDeep(depth int, p *variant.Path) error {
	if depth > DefaultMaxDepth {
		return valueErr(p, "nested more than "+strconv.Itoa(DefaultMaxDepth)+" levels (or the value holds itself)")
	}
	return nil
}

// plain writes v as JSON.stringify does.
func (w *writer) plain(v variant.Value, depth int, p *variant.Path) error {
	if err := tooDeep(depth, p); err != nil {
		return err
	}
	switch x := v.(type) {
	case nil:
		w.buf = append(w.buf, "null"...)
	case variant.Bool:
		w.buf = strconv.AppendBool(w.buf, bool(x))
	case variant.Int:
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	case variant.Float:
		s, _ := jsonFloat(float64(x))
		w.buf = append(w.buf, s...)
	case variant.String:
		w.quote(string(x))
	case *variant.Array:
		return w.list(depth, x.Len(), func(i int) error { return w.plain(x.Values[i], depth+1, p.Add(variant.IndexSeg(i))) })
	case variant.PackedInt32Array:
		return w.list(depth, len(x), func(i int) error {
			w.buf = strconv.AppendInt(w.buf, int64(x[i]), 10)
			return nil
		})
	case variant.PackedInt64Array:
		return w.list(depth, len(x), func(i int) error {
			w.buf = strconv.AppendInt(w.buf, x[i], 10)
			return nil
		})
	case variant.PackedFloat32Array:
		return w.list(depth, len(x), func(i int) error {
			s, _ := jsonFloat(float64(x[i]))
			w.buf = append(w.buf, s...)
			return nil
		})
	case variant.PackedFloat64Array:
		return w.list(depth, len(x), func(i int) error {
			s, _ := jsonFloat(x[i])
			w.buf = append(w.buf, s...)
			return nil
		})
	case variant.PackedStringArray:
		return w.list(depth, len(x), func(i int) error {
			w.quote(x[i])
			return nil
		})
	case *variant.Dictionary:
		entries := x.Entries()
		order := make([]int, len(entries))
		for i := range order {
			order[i] = i
		}
		if !w.o.KeepOrder {
			slices.SortStableFunc(order, func(a, b int) int {
				switch {
				case keyLess(entries[a].Key, entries[b].Key):
					return -1
				case keyLess(entries[b].Key, entries[a].Key):
					return 1
				}
				return 0
			})
		}
		keys := make([]string, len(order))
		for i, j := range order {
			keys[i] = str(entries[j].Key)
		}
		return w.object(depth, keys, func(i int) error {
			e := entries[order[i]]
			return w.plain(e.Value, depth+1, p.Add(variant.KeySeg(e.Key)))
		})
	default:
		w.quote(str(v))
	}
	return nil
}

// keyLess orders Dictionary keys as JSON.stringify sorts them: strings and
// StringNames by their text, everything else by type first, then by value
// where the type has an order.
func keyLess(a, b variant.Value) bool {
	sa, aStr := stringLike(a)
	sb, bStr := stringLike(b)
	if aStr && bStr {
		return sa < sb
	}
	ta, tb := variant.TypeOf(a), variant.TypeOf(b)
	if ta != tb {
		return ta < tb
	}
	switch x := a.(type) {
	case variant.Bool:
		return !bool(x) && bool(b.(variant.Bool))
	case variant.Int:
		return x < b.(variant.Int)
	case variant.Float:
		return x < b.(variant.Float)
	case variant.NodePath:
		return x.String() < b.(variant.NodePath).String()
	case variant.Vector2:
		y := b.(variant.Vector2)
		return x.X < y.X || x.X == y.X && x.Y < y.Y
	case variant.Vector2i:
		y := b.(variant.Vector2i)
		return x.X < y.X || x.X == y.X && x.Y < y.Y
	case variant.Vector3:
		y := b.(variant.Vector3)
		return x.X < y.X || x.X == y.X && (x.Y < y.Y || x.Y == y.Y && x.Z < y.Z)
	case variant.Vector3i:
		y := b.(variant.Vector3i)
		return x.X < y.X || x.X == y.X && (x.Y < y.Y || x.Y == y.Y && x.Z < y.Z)
	}
	return false
}

func stringLike(v variant.Value) (string, bool) {
	switch x := v.(type) {
	case variant.String:
		return string(x), true
	case variant.StringName:
		return string(x), true
	}
	return "", false
}

// realBits is the precision a real component is held at: 32 bits when it
// is a float32 value (single-precision data), else 64.
func realBits(x float64) int {
	if float64(float32(x)) == x || x != x {
		return 32
	}
	return 64
}

// arg writes a float argument of the typed form: the engine's text when
// that holds the value exactly, else the shortest exact text; NaN as null.
func (w *writer) arg(x float64, bits int) {
	if x != x {
		w.buf = append(w.buf, "null"...)
		return
	}
	s, _ := jsonFloat(x)
	w.buf = append(w.buf, exactFloat(s, x, bits)...)
}

// typedFloat is the "f:" text of a float.
func typedFloat(x float64) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return numReal(x, true)
	}
	return exactFloat(numReal(x, true), x, 64)
}

// fields writes a typed-form object: "type" and the given other fields,
// sorted as JSON.stringify sorts them unless KeepOrder (then in the
// engine's insertion order, "type" first).
func (w *writer) fields(depth int, typ string, names []string, vals []func() error) error {
	type field struct {
		name string
		val  func() error
	}
	fs := []field{{"type", func() error { w.quote(typ); return nil }}}
	for i, n := range names {
		fs = append(fs, field{n, vals[i]})
	}
	if !w.o.KeepOrder {
		slices.SortFunc(fs, func(a, b field) int { return strings.Compare(a.name, b.name) })
	}
	keys := make([]string, len(fs))
	for i, f := range fs {
		keys[i] = f.name
	}
	return w.object(depth, keys, func(i int) error { return fs[i].val() })
}

// argsOf writes a typed-form value {"type": t, "args": [...]}, with n
// arguments each written by elem.
func (w *writer) argsOf(depth int, t variant.Type, n int, elem func(i int)) error {
	return w.fields(depth, t.String(), []string{"args"}, []func() error{func() error {
		return w.list(depth+1, n, func(i int) error { elem(i); return nil })
	}})
}

// containerType returns the type name of a typed container's elements,
// keys or values, or "" when untyped.
func (w *writer) containerType(ct variant.ContainerType, p *variant.Path) (string, error) {
	switch ct.Kind {
	case variant.Untyped:
		return "", nil
	case variant.Builtin:
		if ct.Builtin != variant.TypeObject {
			return ct.Builtin.String(), nil
		}
		if !w.o.FullObjects {
			return "", valueErr(p, "a container of objects needs FullObjects")
		}
		return "Object", nil
	}
	if !w.o.FullObjects {
		return "", valueErr(p, "a container of objects needs FullObjects")
	}
	return ct.Name, nil
}

// typed writes v as JSON.stringify(JSON.from_native(v)) does.
func (w *writer) typed(v variant.Value, depth int, p *variant.Path) error {
	if err := tooDeep(depth, p); err != nil {
		return err
	}
	switch x := v.(type) {
	case nil:
		w.buf = append(w.buf, "null"...)
	case variant.Bool:
		w.buf = strconv.AppendBool(w.buf, bool(x))
	case variant.Int:
		w.quote("i:" + strconv.FormatInt(int64(x), 10))
	case variant.Float:
		w.quote("f:" + typedFloat(float64(x)))
	case variant.String:
		w.quote("s:" + string(x))
	case variant.StringName:
		w.quote("sn:" + string(x))
	case variant.NodePath:
		w.quote("np:" + x.String())
	case variant.RID, variant.Callable, variant.Signal:
		return w.fields(depth, v.Type().String(), nil, nil)
	case variant.ObjectID:
		return valueErr(p, "an object sent as its instance ID has no typed JSON form")
	case *variant.Object:
		if x == nil || x.Class == "" {
			w.buf = append(w.buf, "null"...)
			return nil
		}
		if !w.o.FullObjects {
			return valueErr(p, "a full object needs FullObjects")
		}
		return w.fields(depth, x.Class, []string{"props"}, []func() error{func() error {
			return w.list(depth+1, 2*len(x.Properties), func(i int) error {
				prop := x.Properties[i/2]
				if i%2 == 0 {
					w.quote(prop.Name)
					return nil
				}
				return w.typed(prop.Value, depth+2, p.Add("."+prop.Name))
			})
		}})
	case *variant.Array:
		elems := func(d int) error {
			return w.list(d, x.Len(), func(i int) error { return w.typed(x.Values[i], d+1, p.Add(variant.IndexSeg(i))) })
		}
		if x == nil || !x.Elem.IsTyped() {
			return elems(depth)
		}
		et, err := w.containerType(x.Elem, p)
		if err != nil {
			return err
		}
		return w.fields(depth, "Array", []string{"elem_type", "args"}, []func() error{
			func() error { w.quote(et); return nil }, func() error { return elems(depth + 1) }})
	case *variant.Dictionary:
		names := []string{}
		var vals []func() error
		if x != nil {
			for _, f := range []struct {
				name string
				ct   variant.ContainerType
			}{{"key_type", x.KeyType()}, {"value_type", x.ValueType()}} {
				t, err := w.containerType(f.ct, p)
				if err != nil {
					return err
				}
				if t != "" {
					names = append(names, f.name)
					vals = append(vals, func() error { w.quote(t); return nil })
				}
			}
		}
		entries := x.Entries()
		names = append(names, "args")
		vals = append(vals, func() error {
			return w.list(depth+1, 2*len(entries), func(i int) error {
				e := entries[i/2]
				if i%2 == 0 {
					return w.typed(e.Key, depth+2, p.Add("{key "+strconv.Itoa(i/2)+"}"))
				}
				return w.typed(e.Value, depth+2, p.Add(variant.KeySeg(e.Key)))
			})
		})
		return w.fields(depth, "Dictionary", names, vals)
	case variant.PackedByteArray:
		return w.argsOf(depth, v.Type(), len(x), func(i int) { w.buf = strconv.AppendInt(w.buf, int64(x[i]), 10) })
	case variant.PackedInt32Array:
		return w.argsOf(depth, v.Type(), len(x), func(i int) { w.buf = strconv.AppendInt(w.buf, int64(x[i]), 10) })
	case variant.PackedInt64Array:
		return w.argsOf(depth, v.Type(), len(x), func(i int) { w.buf = strconv.AppendInt(w.buf, x[i], 10) })
	case variant.PackedFloat32Array:
		return w.argsOf(depth, v.Type(), len(x), func(i int) { w.arg(float64(x[i]), 32) })
	case variant.PackedFloat64Array:
		return w.argsOf(depth, v.Type(), len(x), func(i int) { w.arg(x[i], 64) })
	case variant.PackedStringArray:
		return w.argsOf(depth, v.Type(), len(x), func(i int) { w.quote(x[i]) })
	case variant.PackedVector2Array:
		return w.argsOf(depth, v.Type(), 2*len(x), func(i int) {
			e := x[i/2]
			c := [2]float64{e.X, e.Y}[i%2]
			w.arg(c, realBits(c))
		})
	case variant.PackedVector3Array:
		return w.argsOf(depth, v.Type(), 3*len(x), func(i int) {
			e := x[i/3]
			c := [3]float64{e.X, e.Y, e.Z}[i%3]
			w.arg(c, realBits(c))
		})
	case variant.PackedColorArray:
		return w.argsOf(depth, v.Type(), 4*len(x), func(i int) {
			e := x[i/4]
			w.arg(float64([4]float32{e.R, e.G, e.B, e.A}[i%4]), 32)
		})
	case variant.PackedVector4Array:
		return w.argsOf(depth, v.Type(), 4*len(x), func(i int) {
			e := x[i/4]
			c := [4]float64{e.X, e.Y, e.Z, e.W}[i%4]
			w.arg(c, realBits(c))
		})
	default:
		if variant.Facts(v.Type()).Components() > 0 {
			return w.math(depth, v)
		}
		return valueErr(p, "unknown value type")
	}
	return nil
}

// math writes a fixed-size math value: its components in the order of the
// fields of its Go type (see variant.TypeFacts.GoIndex), which is the
// order of the engine's JSON (a Basis column by column).
func (w *writer) math(depth int, v variant.Value) error {
	t := v.Type()
	f := variant.Facts(t)
	var buf, cs [16]float64
	c := variant.AppendComponents(buf[:0], v)
	for i, x := range c {
		cs[f.GoIndex(i)] = x
	}
	n := len(c)
	switch {
	case f.Reals > 0:
		return w.argsOf(depth, t, n, func(i int) { w.arg(cs[i], realBits(cs[i])) })
	case f.Ints > 0:
		return w.argsOf(depth, t, n, func(i int) { w.buf = strconv.AppendInt(w.buf, int64(cs[i]), 10) })
	}
	return w.argsOf(depth, t, n, func(i int) { w.arg(cs[i], 32) })
}
