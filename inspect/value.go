package inspect

import (
	"errors"
	"io"
	"math"
	"strconv"

	"github.com/gdvar/gdvar/variant"
	"github.com/gdvar/gdvar/wire"
)

// Value dumps one encoded value, as var_to_bytes writes it and
// bytes_to_var reads it (no length prefix). Bytes after the value get a
// row of their own; the decoder ignores them.
func Value(b []byte, o Options) *Dump {
	d := &Dump{}
	dumpValue(&collector{d: d}, b, o)
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
	w := newWalker(&o)
	w.emit = s.row
	if d.Err = w.start(fam, &o); d.Err != nil {
		return d
	}
	w.read(b)
	next, _, _, err := w.value(0, 0, "")
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

// walker records a row per field of the data it walks. Every decision
// about a value's bytes, and every error, comes from a variant.Reader, the
// reader of the format that variant.Decode is built on, in the order the
// decoder asks it: the walker only describes what the Reader accepted,
// and the field it refused.
type walker struct {
	dm       *variant.DecMode // the decoder's options: AllowObjects, MaxDepth
	r        variant.Reader   // the value under way
	b        []byte           // its bytes (for file headers, the file)
	fam      variant.Family
	elements int
	emit     func(Row) // takes each row
	base     int       // added to the offsets of rows
	indent   int       // added to the depths of rows
	segs     []string  // path segments of the error under way, innermost first
}

func newWalker(o *Options) *walker { return &walker{elements: o.elements()} }

// start sets the family and the decoder's options of the values to come;
// the error is that of options the decoder refuses.
func (w *walker) start(fam variant.Family, o *Options) error {
	dm, err := variant.DecOptions{Family: fam, AllowObjects: o.AllowObjects, MaxDepth: o.MaxDepth}.DecMode()
	w.dm, w.fam = dm, fam
	return err
}

// read makes b the value to walk.
func (w *walker) read(b []byte) {
	w.b = b
	w.r = w.dm.Reader(b)
}

// row records a field of n bytes at off.
func (w *walker) row(off, n, depth int, field, meaning string) {
	var raw []byte
	if off >= 0 && off < len(w.b) {
		raw = w.b[off:min(off+max(n, 0), len(w.b))]
	}
	w.emit(Row{Offset: w.base + off, Size: n, Raw: raw, Depth: w.indent + depth, Field: field, Meaning: meaning})
}

// refused records the field of n bytes at p, maybe cut short, that the
// Reader refused with err: its meaning is the error's detail (or its
// sentinel's words).
func (w *walker) refused(p, n, depth int, field string, err error) {
	e, ok := err.(*variant.Error)
	if !ok || p < 0 || p > len(w.b) {
		return
	}
	meaning := e.Detail
	if meaning == "" {
		meaning = e.Err.Error()
	}
	w.row(p, n, depth, field, meaning)
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

// finishPath puts the collected path segments in front of the error's
// Path.
func (w *walker) finishPath(err error) error {
	if e, ok := err.(*variant.Error); ok && len(w.segs) > 0 {
		var p *variant.Path
		for i := len(w.segs) - 1; i >= 0; i-- {
			p = p.Add(w.segs[i])
		}
		e.Path = p.String() + e.Path
		w.segs = w.segs[:0]
	}
	return err
}

// componentNames holds each math type's component names in wire order
// (see variant.ComponentNames): a Basis is stored row by row, so its
// second real is the x of the Y column, "y.x".
var componentNames = func() (names [variant.TypeCount][]string) {
	for t := range variant.TypeCount {
		names[t] = variant.ComponentNames(t)
	}
	return names
}()

// formatReal formats a real stored in size bytes (4: a binary32, 8: a binary64).
func formatReal(x float64, size int) string {
	return strconv.FormatFloat(x, 'g', -1, 8*size)
}

// headerMeaning describes a header word.
func (w *walker) headerMeaning(h uint32, t variant.Type) string {
	s := "type " + strconv.Itoa(int(uint8(h)))
	first, second := w.r.TypeKinds(h, t)
	switch {
	case t == variant.TypeArray && first != 0:
		s += ", typed elements"
	case t == variant.TypeDictionary && first|second != 0:
		s += ", typed"
		if first != 0 {
			s += " keys"
		}
		if second != 0 {
			s += " values"
		}
	case t == variant.TypeObject && h&wire.FlagObjectAsID != 0:
		s += ", sent as instance ID"
	case (t == variant.TypeInt || t == variant.TypeFloat) && h&wire.Flag64 != 0:
		s += ", 64-bit"
	case w.r.Wide(h, t):
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

// value walks the value at off, nested depth deep, labelled lbl, as
// variant.Reader.Skip checks it: it returns the offset after it, its type
// and whether it decodes as nil.
func (w *walker) value(off, depth int, lbl string) (int, variant.Type, bool, error) {
	r := &w.r
	h, t, err := r.Head(off, depth)
	if err != nil {
		switch {
		case errors.Is(err, variant.ErrTruncated):
			w.row(off, 4, depth, label(lbl, "header"), "truncated: "+strconv.Itoa(max(len(w.b)-off, 0))+" bytes left")
		case errors.Is(err, variant.ErrInvalidType):
			w.row(off, 4, depth, label(lbl, "?"), "type byte "+strconv.Itoa(int(w.b[off]))+" names no "+w.fam.String()+" type")
		}
		return 0, t, false, err
	}
	w.row(off, 4, depth, label(lbl, w.fam.Name(t)), w.headerMeaning(h, t))
	p := off + 4
	d1 := depth + 1

	if n := variant.Facts(t).Reals; n > 0 {
		var c [16]float64
		next, err := r.Reals(off, h, t, c[:n])
		if err != nil {
			return 0, t, false, err
		}
		size := (next - p) / n
		for i, name := range componentNames[t] {
			w.row(p+i*size, size, d1, name, formatReal(c[i], size))
		}
		return next, t, false, nil
	}
	if f := variant.Facts(t); f.Ints+f.Floats > 0 { // int32 components, or Color's float32s
		var c [16]uint32
		next, err := r.Words(off, t, c[:f.Ints+f.Floats])
		if err != nil {
			return 0, t, false, err
		}
		for i, name := range componentNames[t] {
			m := strconv.Itoa(int(int32(c[i])))
			if f.Floats > 0 {
				m = formatReal(float64(math.Float32frombits(c[i])), 4)
			}
			w.row(p+4*i, 4, d1, name, m)
		}
		return next, t, false, nil
	}

	var next int
	switch t {
	case variant.TypeBool:
		var x bool
		if x, next, err = r.Bool(off); err == nil {
			w.row(p, next-p, d1, "value", strconv.FormatBool(x))
		}
	case variant.TypeInt:
		var x int64
		if x, next, err = r.Int(off, h); err == nil {
			w.row(p, next-p, d1, "value", strconv.FormatInt(x, 10))
		}
	case variant.TypeFloat:
		var x float64
		if x, next, err = r.Float(off, h); err == nil {
			w.row(p, next-p, d1, "value", formatReal(x, next-p))
		}
	case variant.TypeString, variant.TypeStringName:
		_, next, err = w.str(p, t, d1, "")
	case variant.TypeNodePath:
		next, err = w.nodePath(off, p, d1)
	case variant.TypeRID:
		var raw []byte
		if raw, next, err = r.Field(off, p, t, w.fam.Facts().RIDSize); err == nil && len(raw) > 0 {
			w.row(p, len(raw), d1, "id", strconv.FormatUint(wire.U64(raw), 10))
		}
	case variant.TypeObject:
		return w.object(off, h, depth)
	case variant.TypeSignal:
		var q int
		if _, q, err = w.str(p, t, d1, "name "); err != nil {
			break
		}
		var raw []byte
		if raw, next, err = r.Field(off, q, t, 8); err == nil {
			w.row(q, 8, d1, "object", "instance ID "+strconv.FormatUint(wire.U64(raw), 10))
		}
	case variant.TypeDictionary:
		next, err = w.dictionary(off, h, depth)
	case variant.TypeArray:
		next, err = w.array(off, h, depth)
	case variant.TypePackedStringArray:
		next, err = w.packedStrings(off, p, d1)
	case variant.TypePackedByteArray:
		next, err = w.packedBytes(off, depth)
	default:
		if r.ElemSize(h, t) == 0 { // no payload (Nil, Callable)
			return r.Skip(off, depth)
		}
		next, err = w.packed(off, p, h, t, d1)
	}
	if err != nil {
		return 0, t, false, err
	}
	return next, t, false, nil
}

// count records the count of a packed array at p that the Reader read as
// n elements, or refused with err.
func (w *walker) count(p, depth, n int, err error) {
	if err != nil {
		w.refused(p, 4, depth, "count", err)
		return
	}
	w.row(p, 4, depth, "count", strconv.Itoa(n)+" elements")
}

// packedBytes walks a PackedByteArray at off, nested depth deep: rows of
// eight bytes, then the padding the Reader skips.
func (w *walker) packedBytes(off, depth int) (int, error) {
	p, q := off+4, off+8
	next, _, _, err := w.r.Skip(off, depth)
	n := 0
	if err == nil {
		n = int(wire.U32(w.b[p:]))
	}
	depth++
	w.count(p, depth, n, err)
	if err != nil {
		return 0, err
	}
	shown := 0
	for i := 0; i < n && shown < w.elements; i += rawWidth {
		k := min(rawWidth, n-i)
		w.row(q+i, k, depth, "["+strconv.Itoa(i)+"…"+strconv.Itoa(i+k-1)+"]", printable(w.b[q+i:q+i+k]))
		shown++
	}
	if rest := n - shown*rawWidth; rest > 0 {
		w.row(q+shown*rawWidth, rest, depth, "…", strconv.Itoa(rest)+" more bytes")
	}
	if pad := next - (q + n); pad > 0 {
		have := max(min(pad, len(w.b)-(q+n)), 0)
		meaning := strconv.Itoa(pad) + " bytes of padding"
		if have < pad {
			meaning += " (" + strconv.Itoa(pad-have) + " missing: tolerated, the next value is read after them)"
		}
		w.row(q+n, pad, depth, "padding", meaning)
	}
	return next, nil
}

// packed walks the packed arrays of fixed-size elements other than bytes.
func (w *walker) packed(off, p int, h uint32, t variant.Type, depth int) (int, error) {
	size := w.r.ElemSize(h, t)
	n, err := w.r.Count(off, p, t, size)
	w.count(p, depth, n, err)
	if err != nil {
		return 0, err
	}
	q := p + 4
	for i := range min(n, w.elements) {
		w.row(q+i*size, size, depth, variant.IndexSeg(i), element(t, w.b[q+i*size:q+(i+1)*size]))
	}
	if n > w.elements {
		w.row(q+w.elements*size, (n-w.elements)*size, depth, "…", strconv.Itoa(n-w.elements)+" more elements")
	}
	return q + n*size, nil
}

// element describes the bytes e of an element of a packed array of type t.
func element(t variant.Type, e []byte) string {
	switch t {
	case variant.TypePackedInt32Array:
		return strconv.Itoa(int(int32(wire.U32(e))))
	case variant.TypePackedInt64Array:
		return strconv.FormatInt(int64(wire.U64(e)), 10)
	case variant.TypePackedFloat32Array:
		return formatReal(float64(wire.F32(e)), 4)
	case variant.TypePackedFloat64Array:
		return formatReal(wire.F64(e), 8)
	}
	// Vectors and colors: their components, binary32 or binary64.
	k := variant.Facts(t).Comps
	if k == 0 {
		k = len(componentNames[variant.TypeColor])
	}
	step := len(e) / k
	s := "("
	for c := range k {
		if c > 0 {
			s += ", "
		}
		if step == 8 {
			s += formatReal(wire.F64(e[8*c:]), 8)
		} else {
			s += formatReal(float64(wire.F32(e[4*c:])), 4)
		}
	}
	return s + ")"
}

func plural(n int64, unit string) string {
	s := strconv.FormatInt(n, 10) + " " + unit
	if n != 1 {
		s += "s"
	}
	return s
}

// printable shows bytes as text where they are printable ASCII.
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

// str walks a "str" payload at p in a value of type t: its length, and
// its bytes and padding, whose meaning is the string's value as the
// Reader reads it. It returns that value and the offset after it.
func (w *walker) str(p int, t variant.Type, depth int, what string) ([]byte, int, error) {
	raw, next, err := w.r.StrRaw(p, t)
	if err != nil {
		w.refused(p, 4, depth, what+"length", err)
		return nil, 0, err
	}
	n := len(raw)
	stored := next - p - 4 // with the padding
	lm := plural(int64(n), "byte")
	nul := t == variant.TypePackedStringArray && n > 0 && raw[n-1] == 0
	if nul {
		lm += ", NUL included"
	}
	w.row(p, 4, depth, what+"length", lm)
	s, _, err := w.r.Str(p, t)
	if err != nil {
		w.refused(p+4, stored, depth, what+"text", err)
		return nil, 0, err
	}
	meaning := strconv.Quote(string(s))
	if nul {
		meaning += " + NUL"
	}
	if pad := stored - n; pad > 0 {
		meaning += " + " + strconv.Itoa(pad) + " padding"
	}
	w.row(p+4, stored, depth, what+"text", meaning)
	return s, next, nil
}

func (w *walker) nodePath(off, p, depth int) (int, error) {
	t := variant.TypeNodePath
	names, total, absolute, q, err := w.r.NodePathHead(off, p)
	if err != nil {
		w.refused(p, 4, depth, "name count", err)
		return 0, err
	}
	subs := wire.U32(w.b[p+4:])
	w.row(p, 4, depth, "name count", strconv.FormatUint(uint64(names), 10)+" (bit 31: new format)")
	w.row(p+4, 4, depth, "subname count", strconv.FormatUint(uint64(subs), 10))
	// The Reader adds the counts as the engine does, as 32-bit unsigned
	// numbers (they wrap around), with one more for the obsolete property
	// flag.
	fm := "relative"
	if absolute {
		fm = "absolute"
	}
	extra := total - names - subs
	if extra != 0 {
		fm += ", obsolete property flag: one more subname"
	}
	if uint64(total) != uint64(names)+uint64(subs)+uint64(extra) {
		fm += "; the counts add up to " + strconv.FormatUint(uint64(total), 10) + " (32-bit wrap-around)"
	}
	w.row(p+8, 4, depth, "flags", fm)
	for i := uint32(0); i < total; i++ {
		what := "name[" + strconv.FormatUint(uint64(i), 10) + "] "
		if i >= names {
			what = "subname[" + strconv.FormatUint(uint64(i-names), 10) + "] "
		}
		if _, q, err = w.str(q, t, depth, what); err != nil {
			return 0, err
		}
	}
	return q, nil
}

func (w *walker) packedStrings(off, p, depth int) (int, error) {
	t := variant.TypePackedStringArray
	n, err := w.r.StringsCount(off, p)
	if err != nil {
		w.refused(p, 4, depth, "count", err)
		return 0, err
	}
	meaning := strconv.Itoa(n) + " elements"
	if stored := int32(wire.U32(w.b[p:])); stored < 0 {
		meaning = strconv.Itoa(int(stored)) + ": negative, read as empty (tolerated)"
	}
	w.row(p, 4, depth, "count", meaning)
	q := p + 4
	for i := range n {
		if _, q, err = w.str(q, t, depth, variant.IndexSeg(i)+" "); err != nil {
			return 0, w.prefix(err, variant.IndexSeg(i))
		}
	}
	return q, nil
}

func (w *walker) object(off int, h uint32, depth int) (int, variant.Type, bool, error) {
	t := variant.TypeObject
	r := &w.r
	p := off + 4
	d1 := depth + 1
	if id, next, asID, err := r.ObjectID(off, h); asID {
		if err != nil {
			return 0, t, false, err
		}
		meaning := strconv.FormatUint(id, 10)
		if id == 0 {
			meaning += ": a null object"
		}
		w.row(p, 8, d1, "instance ID", meaning)
		return next, t, id == 0, nil
	}
	class, n, q, err := r.ObjectHead(off, p)
	if err != nil {
		if !errors.Is(err, variant.ErrObjectsNotAllowed) {
			w.str(p, t, d1, "class ") // the class, or why it was refused
		}
		return 0, t, false, err
	}
	w.str(p, t, d1, "class ")
	if len(class) == 0 {
		return q, t, true, nil
	}
	w.row(q-4, 4, d1, "property count", strconv.Itoa(int(int32(wire.U32(w.b[q-4:])))))
	for range n {
		name, at, err := w.str(q, t, d1, "property name ")
		if err != nil {
			return 0, t, false, err
		}
		next, vt, isNil, err := w.value(at, d1, "."+string(name))
		if err != nil {
			return 0, t, false, w.prefix(err, "."+string(name))
		}
		if err := r.CheckProperty(name, at, vt, isNil); err != nil {
			return 0, t, false, err
		}
		q = next
	}
	return q, t, false, nil
}

// containerType walks the type data of kind kind of a typed container of
// type t at p, and returns the offset after it.
func (w *walker) containerType(off, p int, kind uint32, t variant.Type, depth int, what string) (int, error) {
	ct, next, err := w.r.ContainerType(off, p, kind, t)
	switch kind {
	case wire.KindBuiltin:
		if err != nil {
			w.refused(p, 4, depth, what, err)
			return 0, err
		}
		w.row(p, 4, depth, what, ct.Builtin.String())
	case wire.KindClassName:
		w.str(p, t, depth, what+" class ")
	case wire.KindScript:
		w.str(p, t, depth, what+" script ")
	}
	return next, err
}

// containerCount records the count of an Array or Dictionary at q that
// the Reader read as n, or refused with err.
func (w *walker) containerCount(q, depth, n int, unit string, err error) {
	if err != nil {
		w.refused(q, 4, depth, "count", err)
		return
	}
	meaning := strconv.Itoa(n) + " " + unit
	if wire.U32(w.b[q:]) != uint32(n) {
		meaning += " (bit 31 set: ignored)"
	}
	w.row(q, 4, depth, "count", meaning)
}

func (w *walker) array(off int, h uint32, depth int) (int, error) {
	t := variant.TypeArray
	d1 := depth + 1
	q := off + 4
	var err error
	if kind, _ := w.r.TypeKinds(h, t); kind != 0 {
		if q, err = w.containerType(off, q, kind, t, d1, "element type"); err != nil {
			return 0, err
		}
	}
	n, err := w.r.ContainerCount(off, q, t)
	w.containerCount(q, d1, n, "elements", err)
	if err != nil {
		return 0, err
	}
	q += 4
	for i := range n {
		if q, _, _, err = w.value(q, d1, variant.IndexSeg(i)); err != nil {
			return 0, w.prefix(err, variant.IndexSeg(i))
		}
	}
	return q, nil
}

func (w *walker) dictionary(off int, h uint32, depth int) (int, error) {
	t := variant.TypeDictionary
	d1 := depth + 1
	q := off + 4
	var err error
	if kk, vk := w.r.TypeKinds(h, t); kk|vk != 0 {
		if q, err = w.containerType(off, q, kk, t, d1, "key type"); err != nil {
			return 0, err
		}
		if q, err = w.containerType(off, q, vk, t, d1, "value type"); err != nil {
			return 0, err
		}
	}
	n, err := w.r.ContainerCount(off, q, t)
	w.containerCount(q, d1, n, "entries", err)
	if err != nil {
		return 0, err
	}
	q += 4
	for i := range n {
		key := q
		if q, _, _, err = w.value(key, d1, "key "+strconv.Itoa(i)); err != nil {
			return 0, w.prefix(err, variant.KeyIndexSeg(i))
		}
		seg := w.r.KeySegAt(key, d1)
		if q, _, _, err = w.value(q, d1, seg); err != nil {
			return 0, w.prefix(err, seg)
		}
	}
	return q, nil
}
