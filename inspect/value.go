package inspect

import (
	"encoding/binary"
	"io"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// Value dumps one encoded value, as var_to_bytes writes it and
// bytes_to_var reads it (no length prefix). Bytes after the value get a
// row of their own; the decoder ignores them.
func Value(b []byte, o Options) *Dump {
	fam := o.Godot
	if fam == 0 {
		fam = variant.Godot4
	}
	d := &Dump{}
	c := &collector{d: d}
	dumpValue(c, b, o)
	return d
}

// WriteValue writes the dump of Value to w row by row, as it goes, in the
// form of Dump.WriteTo: memory stays the same whatever the number of rows.
// The Dump it returns has no Sections, which went to w; err is the first
// error writing to w.
func WriteValue(w io.Writer, b []byte, o Options) (d *Dump, err error) {
	p := newPrinter(w)
	d = dumpValue(p, b, o)
	return d, p.finish(d.Err)
}

func dumpValue(s sink, b []byte, o Options) *Dump {
	fam := o.Godot
	if fam == 0 {
		fam = variant.Godot4
	}
	d := s.dump()
	d.Family = fam
	s.section("value: " + strconv.Itoa(len(b)) + " bytes, " + fam.String())
	w := newWalker(b, fam, &o)
	w.emit = s.row
	next, _, err := w.value(0, 0, "")
	err = w.finishPath(err)
	d.Err = err
	if err == nil {
		d.Used = min(next, len(b))
		if next < len(b) {
			w.row(next, len(b)-next, 0, "trailing bytes", strconv.Itoa(len(b)-next)+" bytes after the value, ignored")
		}
	}
	return d
}

// walker walks the bytes of a value the way variant's decoder does, with
// the same checks in the same order, and records a row per field.
type walker struct {
	b        []byte
	fam      variant.Family
	allow    bool
	maxDepth int
	elements int
	emit     func(Row)        // takes each row
	base     int              // added to the offsets of rows
	strDec   *variant.DecMode // decodes single strings, for the decoder's exact UTF-8 rules
	segs     []string         // path segments of the error under way, innermost first
}

func newWalker(b []byte, fam variant.Family, o *Options) *walker {
	maxDepth := o.MaxDepth
	if maxDepth == 0 {
		maxDepth = variant.DefaultMaxDepth
	}
	dm, _ := variant.DecOptions{Family: fam}.DecMode()
	return &walker{b: b, fam: fam, allow: o.AllowObjects, maxDepth: maxDepth, elements: o.elements(), strDec: dm}
}

// info is what the walk keeps of a value: enough for the decoder's
// decisions that depend on values (an object's script, paths of
// Dictionary values).
type info struct {
	t    variant.Type
	null bool   // decodes to a nil Value
	str  string // String and StringName
	i    int64  // Int
}

func (w *walker) rem(p int) int { return len(w.b) - p }

// row records a field of n bytes at off.
func (w *walker) row(off, n, depth int, field, meaning string) {
	var raw []byte
	if off >= 0 && off < len(w.b) {
		raw = w.b[off:min(off+max(n, 0), len(w.b))]
	}
	w.emit(Row{Offset: w.base + off, Size: n, Raw: raw, Depth: depth, Field: field, Meaning: meaning})
}

func (w *walker) fail(off int, t variant.Type, sentinel error, code variant.Code, detail string) error {
	return &variant.Error{Op: "decode", Offset: off, Type: t, Family: w.fam, Code: code, Err: sentinel, Detail: detail}
}

func (w *walker) short(off int, t variant.Type, need, have int) error {
	return w.fail(off, t, variant.ErrTruncated, variant.ErrCodeInvalidData,
		"need "+strconv.Itoa(need)+" bytes, have "+strconv.Itoa(max(have, 0)))
}

// prefix adds an outer path segment to an error from a nested value.
//
// The segments are collected innermost first and joined once, by
// finishPath: building the path level by level would cost time and memory
// quadratic in the nesting depth.
func (w *walker) prefix(err error, seg string) error {
	if _, ok := err.(*variant.Error); ok {
		w.segs = append(w.segs, seg)
	}
	return err
}

// finishPath joins the collected path segments into the error's Path.
func (w *walker) finishPath(err error) error {
	if e, ok := err.(*variant.Error); ok && len(w.segs) > 0 {
		var sb strings.Builder
		for i := len(w.segs) - 1; i >= 0; i-- {
			sb.WriteString(w.segs[i])
		}
		sb.WriteString(e.Path)
		e.Path = sb.String()
		w.segs = w.segs[:0]
	}
	return err
}

func (w *walker) u32(p int) uint32 { return wire.U32(w.b[p:]) }

// realCount, intCount and packedComps are the decoder's tables.
var realCount = map[variant.Type]int{
	variant.TypeVector2: 2, variant.TypeRect2: 4, variant.TypeVector3: 3, variant.TypeTransform2D: 6,
	variant.TypeVector4: 4, variant.TypePlane: 4, variant.TypeQuaternion: 4, variant.TypeAABB: 6,
	variant.TypeBasis: 9, variant.TypeTransform3D: 12, variant.TypeProjection: 16,
}

var intCount = map[variant.Type]int{variant.TypeVector2i: 2, variant.TypeRect2i: 4, variant.TypeVector3i: 3, variant.TypeVector4i: 4}

var packedComps = map[variant.Type]int{variant.TypePackedVector2Array: 2, variant.TypePackedVector3Array: 3, variant.TypePackedVector4Array: 4}

// realTypes are the types whose components double-precision builds widen.
var realTypes = map[variant.Type]bool{
	variant.TypeVector2: true, variant.TypeRect2: true, variant.TypeVector3: true, variant.TypeTransform2D: true,
	variant.TypeVector4: true, variant.TypePlane: true, variant.TypeQuaternion: true, variant.TypeAABB: true,
	variant.TypeBasis: true, variant.TypeTransform3D: true, variant.TypeProjection: true,
	variant.TypePackedVector2Array: true, variant.TypePackedVector3Array: true, variant.TypePackedVector4Array: true,
}

// Component names in wire order. Basis and Transform3D are stored row by
// row: the second real is the x of the Y column.
var componentNames = map[variant.Type][]string{
	variant.TypeVector2:     {"x", "y"},
	variant.TypeRect2:       {"position.x", "position.y", "size.x", "size.y"},
	variant.TypeVector3:     {"x", "y", "z"},
	variant.TypeTransform2D: {"x.x", "x.y", "y.x", "y.y", "origin.x", "origin.y"},
	variant.TypeVector4:     {"x", "y", "z", "w"},
	variant.TypePlane:       {"normal.x", "normal.y", "normal.z", "d"},
	variant.TypeQuaternion:  {"x", "y", "z", "w"},
	variant.TypeAABB:        {"position.x", "position.y", "position.z", "size.x", "size.y", "size.z"},
	variant.TypeBasis:       {"x.x", "y.x", "z.x", "x.y", "y.y", "z.y", "x.z", "y.z", "z.z"},
	variant.TypeTransform3D: {"basis.x.x", "basis.y.x", "basis.z.x", "basis.x.y", "basis.y.y", "basis.z.y",
		"basis.x.z", "basis.y.z", "basis.z.z", "origin.x", "origin.y", "origin.z"},
	variant.TypeProjection: {"x.x", "x.y", "x.z", "x.w", "y.x", "y.y", "y.z", "y.w",
		"z.x", "z.y", "z.z", "z.w", "w.x", "w.y", "w.z", "w.w"},
	variant.TypeVector2i: {"x", "y"},
	variant.TypeRect2i:   {"position.x", "position.y", "size.x", "size.y"},
	variant.TypeVector3i: {"x", "y", "z"},
	variant.TypeVector4i: {"x", "y", "z", "w"},
	variant.TypeColor:    {"r", "g", "b", "a"},
}

func f32(b []byte) string { return strconv.FormatFloat(float64(wire.F32(b)), 'g', -1, 32) }
func f64(b []byte) string { return strconv.FormatFloat(wire.F64(b), 'g', -1, 64) }

// headerMeaning describes a header word.
func (w *walker) headerMeaning(h uint32, t variant.Type) string {
	s := "type " + strconv.Itoa(int(uint8(h)))
	flags := h >> 16
	switch {
	case t == variant.TypeArray && w.fam == variant.Godot4 && flags&3 != 0:
		s += ", typed elements"
	case t == variant.TypeDictionary && w.fam == variant.Godot4 && flags&15 != 0:
		s += ", typed"
		if flags&3 != 0 {
			s += " keys"
		}
		if flags>>2&3 != 0 {
			s += " values"
		}
	case t == variant.TypeObject && h&wire.FlagObjectAsID != 0:
		s += ", sent as instance ID"
	case (t == variant.TypeInt || t == variant.TypeFloat) && h&wire.Flag64 != 0:
		s += ", 64-bit"
	case w.fam == variant.Godot4 && realTypes[t] && h&wire.Flag64 != 0:
		s += ", double precision"
	}
	if h&0xFF00 != 0 {
		s += ", unused header byte 0x" + strconv.FormatUint(uint64(h>>8&0xFF), 16)
	}
	return s
}

func label(lbl string, t string) string {
	if lbl == "" {
		return t
	}
	return lbl + " " + t
}

// value walks the value at off, depth deep, labelled lbl; it returns the
// offset after it.
func (w *walker) value(off, depth int, lbl string) (int, info, error) {
	if depth > w.maxDepth {
		return 0, info{}, w.fail(off, variant.TypeUnknown, variant.ErrTooDeep, variant.ErrCodeOutOfMemory,
			"more than "+strconv.Itoa(w.maxDepth)+" levels")
	}
	if w.rem(off) < 4 {
		w.row(off, 4, depth, label(lbl, "header"), "truncated: "+strconv.Itoa(max(w.rem(off), 0))+" bytes left")
		return 0, info{}, w.fail(off, variant.TypeUnknown, variant.ErrTruncated, variant.ErrCodeInvalidData, "no room for the header")
	}
	h := w.u32(off)
	t, ok := variant.TypeFromID(w.fam, uint8(h))
	if !ok {
		w.row(off, 4, depth, label(lbl, "?"), "type byte "+strconv.Itoa(int(uint8(h)))+" names no "+w.fam.String()+" type")
		return 0, info{}, w.fail(off, variant.TypeUnknown, variant.ErrInvalidType, variant.ErrCodeInvalidData,
			"type byte "+strconv.Itoa(int(uint8(h))))
	}
	name := w.fam.Name(t)
	w.row(off, 4, depth, label(lbl, name), w.headerMeaning(h, t))
	in := info{t: t}
	p := off + 4
	rem := w.rem(p)
	wide := h&wire.Flag64 != 0 && w.fam == variant.Godot4 && realTypes[t]
	d1 := depth + 1

	if n := realCount[t]; n > 0 {
		size := 4
		if wide {
			size = 8
		}
		if rem < n*size {
			return 0, in, w.short(off, t, n*size, rem)
		}
		for i, c := range componentNames[t] {
			q := p + i*size
			if wide {
				w.row(q, 8, d1, c, f64(w.b[q:]))
			} else {
				w.row(q, 4, d1, c, f32(w.b[q:]))
			}
		}
		return p + n*size, in, nil
	}

	switch t {
	case variant.TypeNil:
		in.null = true
		return p, in, nil
	case variant.TypeBool:
		if rem < 4 {
			return 0, in, w.short(off, t, 4, rem)
		}
		w.row(p, 4, d1, "value", strconv.FormatBool(w.u32(p) != 0))
		return p + 4, in, nil
	case variant.TypeInt:
		if h&wire.Flag64 != 0 {
			if rem < 8 {
				return 0, in, w.short(off, t, 8, rem)
			}
			in.i = int64(wire.U64(w.b[p:]))
			w.row(p, 8, d1, "value", strconv.FormatInt(in.i, 10))
			return p + 8, in, nil
		}
		if rem < 4 {
			return 0, in, w.short(off, t, 4, rem)
		}
		in.i = int64(int32(w.u32(p)))
		w.row(p, 4, d1, "value", strconv.FormatInt(in.i, 10))
		return p + 4, in, nil
	case variant.TypeFloat:
		if h&wire.Flag64 != 0 {
			if rem < 8 {
				return 0, in, w.short(off, t, 8, rem)
			}
			w.row(p, 8, d1, "value", f64(w.b[p:]))
			return p + 8, in, nil
		}
		if rem < 4 {
			return 0, in, w.short(off, t, 4, rem)
		}
		w.row(p, 4, d1, "value", f32(w.b[p:]))
		return p + 4, in, nil
	case variant.TypeString, variant.TypeStringName:
		s, next, err := w.str(p, t, d1, "")
		in.str = s
		return next, in, err
	case variant.TypeVector2i, variant.TypeRect2i, variant.TypeVector3i, variant.TypeVector4i:
		n := intCount[t]
		if rem < 4*n {
			return 0, in, w.short(off, t, 4*n, rem)
		}
		for i, c := range componentNames[t] {
			w.row(p+4*i, 4, d1, c, strconv.Itoa(int(int32(w.u32(p+4*i)))))
		}
		return p + 4*n, in, nil
	case variant.TypeColor:
		if rem < 16 {
			return 0, in, w.short(off, t, 16, rem)
		}
		for i, c := range componentNames[t] {
			w.row(p+4*i, 4, d1, c, f32(w.b[p+4*i:]))
		}
		return p + 16, in, nil
	case variant.TypeNodePath:
		next, err := w.nodePath(off, p, d1)
		return next, in, err
	case variant.TypeRID:
		if w.fam == variant.Godot3 {
			return p, in, nil
		}
		if rem < 8 {
			return 0, in, w.short(off, t, 8, rem)
		}
		w.row(p, 8, d1, "id", strconv.FormatUint(wire.U64(w.b[p:]), 10))
		return p + 8, in, nil
	case variant.TypeObject:
		return w.object(off, p, h, depth, in)
	case variant.TypeCallable:
		return p, in, nil
	case variant.TypeSignal:
		_, next, err := w.str(p, t, d1, "name ")
		if err != nil {
			return 0, in, err
		}
		if w.rem(next) < 8 {
			return 0, in, w.short(off, t, 8, w.rem(next))
		}
		w.row(next, 8, d1, "object", "instance ID "+strconv.FormatUint(wire.U64(w.b[next:]), 10))
		return next + 8, in, nil
	case variant.TypeDictionary:
		next, err := w.dictionary(off, p, h, depth)
		return next, in, err
	case variant.TypeArray:
		next, err := w.array(off, p, h, depth)
		return next, in, err
	case variant.TypePackedStringArray:
		next, err := w.packedStrings(off, p, d1)
		return next, in, err
	}
	next, err := w.packed(off, p, t, wide, d1)
	return next, in, err
}

// count reads a packed array's element count, with the decoder's checks.
func (w *walker) count(off, p int, t variant.Type, size, depth int) (int, error) {
	rem := w.rem(p)
	if rem < 4 {
		return 0, w.short(off, t, 4, rem)
	}
	n := int64(int32(w.u32(p)))
	if n < 0 {
		w.row(p, 4, depth, "count", strconv.FormatInt(n, 10)+": negative")
		return 0, w.fail(off, t, variant.ErrInvalidData, variant.ErrCodeInvalidData, "negative count "+strconv.FormatInt(n, 10))
	}
	if n*int64(size) > int64(rem-4) {
		w.row(p, 4, depth, "count", strconv.FormatInt(n, 10)+" elements, "+strconv.FormatInt(n*int64(size), 10)+
			" bytes; only "+strconv.Itoa(rem-4)+" left")
		return 0, w.fail(off, t, variant.ErrTruncated, variant.ErrCodeInvalidData,
			strconv.FormatInt(n, 10)+" elements need "+strconv.FormatInt(n*int64(size), 10)+
				" bytes, have "+strconv.Itoa(rem-4))
	}
	w.row(p, 4, depth, "count", strconv.FormatInt(n, 10)+" elements")
	return int(n), nil
}

// packed walks the numeric packed arrays.
func (w *walker) packed(off, p int, t variant.Type, wide bool, depth int) (int, error) {
	size := map[variant.Type]int{
		variant.TypePackedByteArray: 1, variant.TypePackedInt32Array: 4, variant.TypePackedInt64Array: 8,
		variant.TypePackedFloat32Array: 4, variant.TypePackedFloat64Array: 8, variant.TypePackedColorArray: 16,
	}[t]
	comps := packedComps[t]
	if comps > 0 {
		size = 4 * comps
		if wide {
			size = 8 * comps
		}
	}
	n, err := w.count(off, p, t, size, depth)
	if err != nil {
		return 0, err
	}
	q := p + 4
	if t == variant.TypePackedByteArray {
		// Rows of eight bytes.
		shown := 0
		for i := 0; i < n && shown < w.elements; i += rawWidth {
			k := min(rawWidth, n-i)
			w.row(q+i, k, depth, "["+strconv.Itoa(i)+"…"+strconv.Itoa(i+k-1)+"]", printable(w.b[q+i:q+i+k]))
			shown++
		}
		if rest := n - shown*rawWidth; rest > 0 {
			w.row(q+shown*rawWidth, rest, depth, "…", strconv.Itoa(rest)+" more bytes")
		}
		if pad := wire.Pad4(n); pad > 0 {
			have := max(min(pad, w.rem(q+n)), 0)
			meaning := strconv.Itoa(pad) + " bytes of padding"
			if have < pad {
				meaning += " (" + strconv.Itoa(pad-have) + " missing: tolerated, the next value is read after them)"
			}
			w.row(q+n, pad, depth, "padding", meaning)
		}
		return q + n + wire.Pad4(n), nil
	}
	for i := range min(n, w.elements) {
		e := q + i*size
		var meaning string
		switch t {
		case variant.TypePackedInt32Array:
			meaning = strconv.Itoa(int(int32(w.u32(e))))
		case variant.TypePackedInt64Array:
			meaning = strconv.FormatInt(int64(wire.U64(w.b[e:])), 10)
		case variant.TypePackedFloat32Array:
			meaning = f32(w.b[e:])
		case variant.TypePackedFloat64Array:
			meaning = f64(w.b[e:])
		default:
			meaning = "("
			step := 4
			if wide {
				step = 8
			}
			k := comps
			if t == variant.TypePackedColorArray {
				k, step = 4, 4
			}
			for c := range k {
				if c > 0 {
					meaning += ", "
				}
				if step == 8 {
					meaning += f64(w.b[e+8*c:])
				} else {
					meaning += f32(w.b[e+4*c:])
				}
			}
			meaning += ")"
		}
		w.row(e, size, depth, "["+strconv.Itoa(i)+"]", meaning)
	}
	if n > w.elements {
		w.row(q+w.elements*size, (n-w.elements)*size, depth, "…", strconv.Itoa(n-w.elements)+" more elements")
	}
	return q + n*size, nil
}

// printable shows bytes as text where they are printable ASCII.
func plural(n int64, unit string) string {
	s := strconv.FormatInt(n, 10) + " " + unit
	if n != 1 {
		s += "s"
	}
	return s
}

func printable(b []byte) string {
	out := make([]byte, len(b))
	for i, c := range b {
		if c >= 0x20 && c < 0x7F {
			out[i] = c
		} else {
			out[i] = '.'
		}
	}
	return "|" + string(out) + "|"
}

// text gives the value of a string's bytes by the decoder's own rules
// (byte order mark, NUL, the family's UTF-8), by decoding it as a String.
func (w *walker) text(raw []byte) (string, bool) {
	buf := make([]byte, 0, 8+len(raw)+3)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(variant.TypeString))
	buf = wire.AppendString(buf[:4], string(raw))
	v, _, err := w.strDec.Decode(buf)
	if err != nil {
		return "", false
	}
	s, _ := v.(variant.String)
	return string(s), true
}

// str walks a "str" payload at p: length, bytes and padding.
func (w *walker) str(p int, t variant.Type, depth int, what string) (string, int, error) {
	rem := w.rem(p)
	if rem < 4 {
		w.row(p, 4, depth, what+"length", "truncated: "+strconv.Itoa(max(rem, 0))+" bytes left")
		return "", 0, w.fail(p, t, variant.ErrTruncated, variant.ErrCodeInvalidData, "no room for a string length")
	}
	n := int64(int32(w.u32(p)))
	if n < 0 {
		w.row(p, 4, depth, what+"length", strconv.FormatInt(n, 10)+": negative")
		return "", 0, w.fail(p, t, variant.ErrInvalidData, variant.ErrCodeFileEOF, "negative string length "+strconv.FormatInt(n, 10))
	}
	pad := int64(wire.Pad4(int(n)))
	if n+pad > int64(rem-4) {
		w.row(p, 4, depth, what+"length", strconv.FormatInt(n, 10)+" bytes (padded "+strconv.FormatInt(n+pad, 10)+
			"); only "+strconv.Itoa(rem-4)+" left")
		return "", 0, w.fail(p, t, variant.ErrTruncated, variant.ErrCodeFileEOF,
			"string of "+strconv.FormatInt(n, 10)+" bytes (padded "+strconv.FormatInt(n+pad, 10)+
				") exceeds the "+strconv.Itoa(rem-4)+" bytes left")
	}
	lm := plural(n, "byte")
	raw := w.b[p+4 : p+4+int(n)]
	nul := t == variant.TypePackedStringArray && n > 0 && raw[n-1] == 0
	if nul {
		lm += ", NUL included"
	}
	w.row(p, 4, depth, what+"length", lm)
	s, ok := w.text(raw)
	if !ok {
		w.row(p+4, int(n+pad), depth, what+"text", "invalid UTF-8")
		return "", 0, w.fail(p, t, variant.ErrInvalidUTF8, variant.ErrCodeInvalidData, "")
	}
	meaning := strconv.Quote(s)
	if nul {
		meaning += " + NUL"
	}
	if pad > 0 {
		meaning += " + " + strconv.FormatInt(pad, 10) + " padding"
	}
	w.row(p+4, int(n+pad), depth, what+"text", meaning)
	return s, p + 4 + int(n+pad), nil
}

func (w *walker) nodePath(off, p, depth int) (int, error) {
	t := variant.TypeNodePath
	rem := w.rem(p)
	if rem < 4 {
		return 0, w.short(off, t, 4, rem)
	}
	first := w.u32(p)
	if first&wire.NodePathNewFormat == 0 {
		w.row(p, 4, depth, "name count", "bit 31 clear: the old NodePath format, refused")
		return 0, w.fail(off, t, variant.ErrInvalidData, variant.ErrCodeInvalidData, "old NodePath format (bit 31 clear)")
	}
	if rem < 12 {
		return 0, w.short(off, t, 12, rem)
	}
	names := first &^ wire.NodePathNewFormat
	subs := w.u32(p + 4)
	flags := w.u32(p + 8)
	w.row(p, 4, depth, "name count", strconv.FormatUint(uint64(names), 10)+" (bit 31: new format)")
	w.row(p+4, 4, depth, "subname count", strconv.FormatUint(uint64(subs), 10))
	// The engine adds the counts as 32-bit unsigned numbers (they wrap
	// around) and reads that many strings, names first.
	total := names + subs
	fm := "absolute"
	if flags&wire.NodePathAbsolute == 0 {
		fm = "relative"
	}
	if flags&wire.NodePathProperty != 0 {
		fm += ", obsolete property flag: one more subname"
		total++
	}
	if uint64(total) != uint64(names)+uint64(subs)+uint64(flags>>1&1) {
		fm += "; the counts add up to " + strconv.FormatUint(uint64(total), 10) + " (32-bit wrap-around)"
	}
	w.row(p+8, 4, depth, "flags", fm)
	q := p + 12
	for i := uint32(0); i < total; i++ {
		what := "name[" + strconv.FormatUint(uint64(i), 10) + "] "
		if i >= names {
			what = "subname[" + strconv.FormatUint(uint64(i-names), 10) + "] "
		}
		_, next, err := w.str(q, t, depth, what)
		if err != nil {
			return 0, err
		}
		q = next
	}
	return q, nil
}

func (w *walker) packedStrings(off, p, depth int) (int, error) {
	t := variant.TypePackedStringArray
	rem := w.rem(p)
	if rem < 4 {
		return 0, w.short(off, t, 4, rem)
	}
	n := int64(int32(w.u32(p)))
	q := p + 4
	if n <= 0 {
		meaning := "0 elements"
		if n < 0 {
			meaning = strconv.FormatInt(n, 10) + ": negative, read as empty (tolerated)"
		}
		w.row(p, 4, depth, "count", meaning)
		return q, nil
	}
	w.row(p, 4, depth, "count", strconv.FormatInt(n, 10)+" elements")
	for i := int64(0); i < n; i++ {
		_, next, err := w.str(q, t, depth, "["+strconv.FormatInt(i, 10)+"] ")
		if err != nil {
			return 0, w.prefix(err, "["+strconv.FormatInt(i, 10)+"]")
		}
		q = next
	}
	return q, nil
}

func (w *walker) object(off, p int, h uint32, depth int, in info) (int, info, error) {
	t := variant.TypeObject
	rem := w.rem(p)
	d1 := depth + 1
	if h&wire.FlagObjectAsID != 0 {
		if rem < 8 {
			return 0, in, w.short(off, t, 8, rem)
		}
		id := wire.U64(w.b[p:])
		meaning := strconv.FormatUint(id, 10)
		if id == 0 {
			meaning += ": a null object"
			in.null = true
		}
		w.row(p, 8, d1, "instance ID", meaning)
		return p + 8, in, nil
	}
	if !w.allow {
		return 0, in, w.fail(off, t, variant.ErrObjectsNotAllowed, variant.ErrCodeUnauthorized, "decoding a full Object needs AllowObjects")
	}
	class, q, err := w.str(p, t, d1, "class ")
	if err != nil {
		return 0, in, err
	}
	if class == "" {
		in.null = true
		return q, in, nil
	}
	if w.rem(q) < 4 {
		return 0, in, w.short(off, t, 4, w.rem(q))
	}
	n := int64(int32(w.u32(q)))
	w.row(q, 4, d1, "property count", strconv.FormatInt(n, 10))
	q += 4
	for i := int64(0); i < n; i++ {
		name, next, err := w.str(q, t, d1, "property name ")
		if err != nil {
			return 0, in, err
		}
		at := next
		next, v, err := w.value(next, depth+1, "."+name)
		if err != nil {
			return 0, in, w.prefix(err, "."+name)
		}
		if name == "script" && w.fam == variant.Godot4 && !v.null {
			if v.t != variant.TypeString || len(v.str) <= len("res://") || v.str[:6] != "res://" {
				return 0, in, w.prefix(w.fail(at, v.t, variant.ErrInvalidData, variant.ErrCodeInvalidData,
					"an Object's script must be a res:// path"), ".script")
			}
		}
		q = next
	}
	return q, in, nil
}

// containerType walks the type data of a typed container.
func (w *walker) containerType(off, p int, kind uint32, t variant.Type, depth int, what string) (int, error) {
	switch kind {
	case wire.KindBuiltin:
		if w.rem(p) < 4 {
			return 0, w.short(off, t, 4, w.rem(p))
		}
		id := int32(w.u32(p))
		if id < 0 || id >= int32(variant.TypeCount) {
			w.row(p, 4, depth, what, "type id "+strconv.Itoa(int(id))+": no such type")
			return 0, w.fail(off, t, variant.ErrInvalidData, variant.ErrCodeInvalidData, "element type id "+strconv.Itoa(int(id)))
		}
		w.row(p, 4, depth, what, variant.Type(id).String())
		return p + 4, nil
	case wire.KindClassName, wire.KindScript:
		kindName := "class "
		if kind == wire.KindScript {
			kindName = "script "
		}
		name, next, err := w.str(p, t, depth, what+" "+kindName)
		if err != nil {
			return 0, err
		}
		if kind == wire.KindScript && w.allow && (len(name) <= len("res://") || name[:6] != "res://") {
			return 0, w.fail(off, t, variant.ErrInvalidData, variant.ErrCodeInvalidData,
				"script path "+strconv.Quote(name)+" is not a res:// path")
		}
		return next, nil
	}
	return p, nil
}

func (w *walker) array(off, p int, h uint32, depth int) (int, error) {
	t := variant.TypeArray
	d1 := depth + 1
	if w.fam == variant.Godot4 {
		var err error
		if p, err = w.containerType(off, p, h>>wire.ArrayTypeShift&wire.KindMask, t, d1, "element type"); err != nil {
			return 0, err
		}
	}
	rem := w.rem(p)
	if rem < 4 {
		return 0, w.short(off, t, 4, rem)
	}
	raw := w.u32(p)
	n := int(raw & wire.CountMask)
	meaning := strconv.Itoa(n) + " elements"
	if raw != uint32(n) {
		meaning += " (bit 31 set: ignored)"
	}
	w.row(p, 4, d1, "count", meaning)
	q := p + 4
	for i := range n {
		next, _, err := w.value(q, d1, "["+strconv.Itoa(i)+"]")
		if err != nil {
			return 0, w.prefix(err, "["+strconv.Itoa(i)+"]")
		}
		q = next
	}
	return q, nil
}

// keySeg renders a Dictionary key as a path segment, as the decoder does.
func keySeg(k info) string {
	if k.null {
		return "[<Nil>]" // a null Object is the nil Value
	}
	switch k.t {
	case variant.TypeString:
		return "[" + strconv.Quote(k.str) + "]"
	case variant.TypeStringName:
		return "[&" + strconv.Quote(k.str) + "]"
	case variant.TypeInt:
		return "[" + strconv.FormatInt(k.i, 10) + "]"
	}
	return "[<" + k.t.String() + ">]"
}

func (w *walker) dictionary(off, p int, h uint32, depth int) (int, error) {
	t := variant.TypeDictionary
	d1 := depth + 1
	if w.fam == variant.Godot4 {
		var err error
		if p, err = w.containerType(off, p, h>>wire.DictKeyTypeShift&wire.KindMask, t, d1, "key type"); err != nil {
			return 0, err
		}
		if p, err = w.containerType(off, p, h>>wire.DictValueTypeShift&wire.KindMask, t, d1, "value type"); err != nil {
			return 0, err
		}
	}
	rem := w.rem(p)
	if rem < 4 {
		return 0, w.short(off, t, 4, rem)
	}
	raw := w.u32(p)
	n := int(raw & wire.CountMask)
	meaning := strconv.Itoa(n) + " entries"
	if raw != uint32(n) {
		meaning += " (bit 31 set: ignored)"
	}
	w.row(p, 4, d1, "count", meaning)
	q := p + 4
	for i := range n {
		next, k, err := w.value(q, d1, "key "+strconv.Itoa(i))
		if err != nil {
			return 0, w.prefix(err, "{key "+strconv.Itoa(i)+"}")
		}
		seg := keySeg(k)
		next, _, err = w.value(next, d1, seg)
		if err != nil {
			return 0, w.prefix(err, seg)
		}
		q = next
	}
	return q, nil
}
