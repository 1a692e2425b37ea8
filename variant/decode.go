package variant

import (
	"math"
	"strconv"
	"unsafe"

	"github.com/gdvar/gdvar/wire"
)

// Decode decodes the first Variant in b and returns it with the number of
// bytes it used (never more than len(b)). Bytes after the value are
// ignored, as the engine ignores them.
//
// The decoder takes the engine's decisions: it refuses what the engine
// refuses (with the engine's error code in Error.Code) and tolerates what
// the engine tolerates: unknown header flag bits, bit 31 of container
// counts, non-zero padding, a missing final padding of a PackedByteArray, a
// leading byte order mark and anything after a NUL inside strings, a
// negative PackedStringArray count (an empty array), repeated Dictionary
// keys (the last value wins) and typed-container elements of the wrong type
// (converted where the engine converts them, else dropped).
//
// Memory use is bounded by the input: no count read from the data makes
// the decoder reserve more than the bytes left could hold.
func (m *DecMode) Decode(b []byte) (Value, int, error) { return m.decode(b, nil) }

// DecodeBudget is Decode for values that share one budget, such as the
// values of a file: the value itself and everything in it that becomes a
// Value or a string (Array elements, Dictionary entries, Object
// properties, NodePath names and PackedStringArray elements, through every
// level) are taken from *budget. A value that would take more than is left
// fails with ErrTooLarge before the container that exceeds the budget is
// allocated. Packed numeric arrays take nothing: they hold no more memory
// than their bytes. After a successful call *budget is what is left.
//
// Each decoded value costs some tens of bytes of memory whatever its size
// in the input, so a budget of values bounds the memory of data, such as
// decompressed data, that is far smaller than its decoded form.
func (m *DecMode) DecodeBudget(b []byte, budget *int64) (Value, int, error) {
	return m.decode(b, budget)
}

func (m *DecMode) decode(b []byte, budget *int64) (Value, int, error) {
	o := &m.opts
	if o.MaxSize > 0 && len(b) > o.MaxSize {
		return nil, 0, &Error{Op: "decode", Type: TypeUnknown, Family: o.Family, Code: ErrCodeOutOfMemory,
			Err: ErrTooLarge, Detail: "input of " + strconv.Itoa(len(b)) + " bytes exceeds MaxSize " + strconv.Itoa(o.MaxSize)}
	}
	d := decoder{Reader: m.Reader(b)}
	if budget != nil {
		if *budget < 1 {
			return nil, 0, d.Fail(0, TypeUnknown, ErrTooLarge, ErrCodeOutOfMemory, "the budget of values is spent")
		}
		d.valuesLeft = *budget - 1
	}
	v, next, err := d.value(0, 0)
	if err != nil {
		return nil, 0, finishPath(err)
	}
	if budget != nil {
		*budget = d.valuesLeft
	}
	if d.strict {
		if err := d.canonical(v, next); err != nil {
			return nil, 0, err
		}
	}
	return v, min(next, len(b)), nil
}

// canonical checks, for Strict mode, that the value re-encodes to exactly
// the input: then the input is what the engine itself writes.
func (d *decoder) canonical(v Value, n int) error {
	o := EncOptions{Family: d.fam, FullObjects: true, MaxDepth: d.maxDepth}
	if d.sawWide {
		o.Precision = Double
	}
	m, err := o.EncMode()
	if err != nil {
		return err
	}
	again, err := m.Encode(v)
	if err != nil {
		return d.Fail(0, TypeOf(v), ErrNonCanonical, ErrCodeInvalidData, "the engine could not write this value: "+err.Error())
	}
	for i := range min(len(again), len(d.b)) {
		if again[i] != d.b[i] {
			return d.Fail(i, TypeUnknown, ErrNonCanonical, ErrCodeInvalidData,
				"the input has "+hexByte(d.b[i])+" where the engine writes "+hexByte(again[i]))
		}
	}
	switch {
	case len(again) > len(d.b):
		return d.Fail(len(d.b), TypeUnknown, ErrNonCanonical, ErrCodeInvalidData, "the padding at the end is missing")
	case len(again) != n:
		return d.Fail(len(again), TypeUnknown, ErrNonCanonical, ErrCodeInvalidData,
			"the value takes "+strconv.Itoa(n)+" bytes, the engine writes it in "+strconv.Itoa(len(again)))
	case n < len(d.b):
		return d.Fail(n, TypeUnknown, ErrNonCanonical, ErrCodeInvalidData,
			strconv.Itoa(len(d.b)-n)+" bytes after the value")
	}
	return nil
}

func hexByte(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// decoder builds Values from the pieces its Reader reads.
type decoder struct {
	Reader
	base        int64                        // elements counted before this decoder started
	arena       arena                        // slabs for values, once elements reach arenaAfter
	sawWide     bool                         // a double-precision math value was read
	interned    [maxInterned + 1]internEntry // Dictionary key strings; the last stays empty (see quickKey)
	internCount int
	nextIntern  int        // the entry after the last one found: records repeat their keys in order
	types       *dictTypes // the types of the last typed Dictionary, shared with the next ones alike
}

// dictTypes returns the types of a decoded Dictionary typed kt, vt (one
// of them typed): those of the last typed Dictionary when the same.
func (d *decoder) dictTypes(kt, vt ContainerType) *dictTypes {
	if t := d.types; t == nil || t.key != kt || t.value != vt {
		d.types = newDictTypes(kt, vt)
	}
	return d.types
}

// reals reads len(dst) real components at p, float64 when wide.
func (d *decoder) reals(p int, dst []float64, wide bool) {
	if wide {
		for i := range dst {
			dst[i] = wire.F64(d.b[p+8*i:])
		}
		return
	}
	for i := range dst {
		dst[i] = float64(wire.F32(d.b[p+4*i:]))
	}
}

// value decodes the Variant at off, nested depth deep, and returns it with
// the offset after it.
//
// The containers recurse through value with a small stack frame: nesting
// thousands of levels deep keeps the stack (and the memory it touches)
// small, so the cost per level stays the same. The other types are decoded
// by leaf, whose frame is larger.
func (d *decoder) value(off, depth int) (Value, int, error) {
	h, t, ok := d.QuickHead(off, depth)
	if !ok {
		var err error
		if h, t, err = d.Head(off, depth); err != nil {
			return nil, 0, err
		}
	}
	switch t {
	case TypeArray:
		return d.array(off, h, depth)
	case TypeDictionary:
		return d.dictionary(off, h, depth)
	case TypeObject:
		return d.object(off, off+4, h, depth)
	case TypeInt:
		if h&wire.Flag64 == 0 && off+8 <= len(d.b) {
			return d.boxInt(Int(int32(wire.U32(d.b[off+4:])))), off + 8, nil
		}
	case TypeFloat:
		if h&wire.Flag64 == 0 && off+8 <= len(d.b) {
			return d.boxFloat(Float(wire.F32(d.b[off+4:]))), off + 8, nil
		}
	case TypeString:
		if raw, next, ok := d.QuickStr(off + 4); ok && PlainText(raw) {
			return d.boxText(raw, false), next, nil
		}
	case TypeVector2:
		if h&wire.Flag64 == 0 && off+12 <= len(d.b) {
			b := d.b[off+4 : off+12]
			return d.vector2(float64(wire.F32(b)), float64(wire.F32(b[4:]))), off + 12, nil
		}
	}
	return d.leaf(off, h, t)
}

// leaf decodes the Variant of type t, not a container, whose header h is
// at off.
func (d *decoder) leaf(off int, h uint32, t Type) (Value, int, error) {
	p := off + 4
	rem := d.rem(p)
	wide := d.Wide(h, t)
	if wide {
		d.sawWide = true
	}

	if facts(t).Proto != nil {
		return d.mathValue(off, t, wide)
	}

	switch t {
	case TypeNil:
		return nil, p, nil
	case TypeBool:
		x, next, err := d.Bool(off)
		if err != nil {
			return nil, 0, err
		}
		return d.boxBool(x), next, nil
	case TypeInt:
		if h&wire.Flag64 == 0 && rem >= 4 {
			return d.boxInt(Int(int32(wire.U32(d.b[p:])))), p + 4, nil
		}
		x, next, err := d.Int(off, h)
		if err != nil {
			return nil, 0, err
		}
		return d.boxInt(Int(x)), next, nil
	case TypeFloat:
		if h&wire.Flag64 == 0 && rem >= 4 {
			return d.boxFloat(Float(wire.F32(d.b[p:]))), p + 4, nil
		}
		x, next, err := d.Float(off, h)
		if err != nil {
			return nil, 0, err
		}
		return d.boxFloat(Float(x)), next, nil
	case TypeString, TypeStringName:
		raw, next, err := d.Str(p, t)
		if err != nil {
			return nil, 0, err
		}
		return d.boxText(raw, t == TypeStringName), next, nil
	case TypeNodePath:
		return d.nodePath(off, p)
	case TypeRID:
		if d.ff.RIDSize == 0 {
			return RID(0), p, nil
		}
		if rem < 8 {
			return nil, 0, d.Short(off, t, 8, rem)
		}
		return RID(wire.U64(d.b[p:])), p + 8, nil
	case TypeCallable:
		return Callable{}, p, nil
	case TypeSignal:
		name, next, err := d.str(p, t)
		if err != nil {
			return nil, 0, err
		}
		if d.rem(next) < 8 {
			return nil, 0, d.Short(off, t, 8, d.rem(next))
		}
		return Signal{Name: name, Object: wire.U64(d.b[next:])}, next + 8, nil
	case TypePackedByteArray:
		n, err := d.Count(off, p, t, 1)
		if err != nil {
			return nil, 0, err
		}
		raw := d.b[p+4 : p+4+n : p+4+n]
		if !d.zeroCopy || n == 0 {
			raw = append([]byte{}, raw...)
		}
		return PackedByteArray(raw), p + 4 + n + wire.Pad4(n), nil
	case TypePackedInt32Array:
		n, err := d.Count(off, p, t, 4)
		if err != nil {
			return nil, 0, err
		}
		return PackedInt32Array(numbers[int32](d, p+4, n)), p + 4 + 4*n, nil
	case TypePackedInt64Array:
		n, err := d.Count(off, p, t, 8)
		if err != nil {
			return nil, 0, err
		}
		return PackedInt64Array(numbers[int64](d, p+4, n)), p + 4 + 8*n, nil
	case TypePackedFloat32Array:
		n, err := d.Count(off, p, t, 4)
		if err != nil {
			return nil, 0, err
		}
		return PackedFloat32Array(numbers[float32](d, p+4, n)), p + 4 + 4*n, nil
	case TypePackedFloat64Array:
		n, err := d.Count(off, p, t, 8)
		if err != nil {
			return nil, 0, err
		}
		return PackedFloat64Array(numbers[float64](d, p+4, n)), p + 4 + 8*n, nil
	case TypePackedStringArray:
		return d.packedStrings(off, p)
	case TypePackedVector2Array, TypePackedVector3Array, TypePackedVector4Array:
		size := d.ElemSize(h, t)
		n, err := d.Count(off, p, t, size)
		if err != nil {
			return nil, 0, err
		}
		q := p + 4
		var c [4]float64
		switch t {
		case TypePackedVector2Array:
			v := make(PackedVector2Array, n)
			for i := range v {
				d.reals(q, c[:2], wide)
				v[i] = Vector2{c[0], c[1]}
				q += size
			}
			return v, q, nil
		case TypePackedVector3Array:
			v := make(PackedVector3Array, n)
			for i := range v {
				d.reals(q, c[:3], wide)
				v[i] = Vector3{c[0], c[1], c[2]}
				q += size
			}
			return v, q, nil
		default:
			v := make(PackedVector4Array, n)
			for i := range v {
				d.reals(q, c[:4], wide)
				v[i] = Vector4{c[0], c[1], c[2], c[3]}
				q += size
			}
			return v, q, nil
		}
	case TypePackedColorArray:
		n, err := d.Count(off, p, t, 16)
		if err != nil {
			return nil, 0, err
		}
		v := make(PackedColorArray, n)
		b := d.b[p+4:]
		for i := range v {
			v[i] = Color{wire.F32(b), wire.F32(b[4:]), wire.F32(b[8:]), wire.F32(b[12:])}
			b = b[16:]
		}
		return v, p + 4 + 16*n, nil
	}
	return nil, 0, d.Fail(off, t, ErrInvalidType, ErrCodeInvalidData, "")
}

// numbers returns the n packed numbers at p: a copy, or with ZeroCopy a
// view of the input when its alignment allows.
func numbers[T wire.Number](d *decoder, p, n int) []T {
	if d.zeroCopy {
		if v, ok := wire.Alias[T](d.b[p:], n); ok {
			return v
		}
	}
	return wire.Copy[T](d.b[p:], n)
}

// str reads a "str" payload at p: u32 length, UTF-8 bytes, padding.
func (d *decoder) str(p int, t Type) (string, int, error) {
	s, next, err := d.Str(p, t)
	if err != nil {
		return "", 0, err
	}
	return d.text(s), next, nil
}

// text returns the bytes of a string's value (see Reader.Text) as a string:
// a view of the input with ZeroCopy, else a copy.
func (d *decoder) text(s []byte) string {
	if d.zeroCopy && len(s) > 0 {
		return unsafe.String(unsafe.SliceData(s), len(s))
	}
	return d.copyText(s)
}

func (d *decoder) nodePath(off, p int) (Value, int, error) {
	t := TypeNodePath
	names, total, absolute, q, err := d.NodePathHead(off, p)
	if err != nil {
		return nil, 0, err
	}
	limit := uint32(max(d.rem(q), 0) / 4) // each name takes at least 4 bytes
	var np NodePath
	if n := min(names, total); n > 0 {
		np.Names = make([]string, 0, d.Reserve(int64(min(n, limit))))
	}
	if total > names {
		np.Subnames = make([]string, 0, d.Reserve(int64(min(total-names, limit))))
	}
	for i := uint32(0); i < total; i++ {
		s, next, err := d.str(q, t)
		if err != nil {
			return nil, 0, err
		}
		if i < names {
			np.Names = append(np.Names, s)
		} else {
			np.Subnames = append(np.Subnames, s)
		}
		q = next
	}
	np.Absolute = absolute
	if d.ff.EmptyPathRelative && len(np.Names) == 0 && len(np.Subnames) == 0 {
		np.Absolute = false // Godot 3 drops the flag of an empty path
	}
	return np, q, nil
}

func (d *decoder) packedStrings(off, p int) (Value, int, error) {
	t := TypePackedStringArray
	n, err := d.StringsCount(off, p)
	if err != nil {
		return nil, 0, err
	}
	q := p + 4
	if n == 0 {
		return PackedStringArray{}, q, nil
	}
	v := make(PackedStringArray, 0, d.Reserve(min(int64(n), int64(d.rem(q)/4))))
	for i := range n {
		s, next, err := d.str(q, t)
		if err != nil {
			return nil, 0, prefixPath(err, IndexSeg(i))
		}
		v = append(v, s)
		q = next
	}
	return v, q, nil
}

func (d *decoder) object(off, p int, h uint32, depth int) (Value, int, error) {
	t := TypeObject
	if id, next, asID, err := d.ObjectID(off, h); asID {
		if err != nil || id == 0 {
			return nil, next, err
		}
		return ObjectID(id), next, nil
	}
	class, n, q, err := d.ObjectHead(off, p)
	if err != nil {
		return nil, 0, err
	}
	if len(class) == 0 {
		return nil, q, nil
	}
	obj := &Object{Class: d.text(class)}
	if n > 0 {
		obj.Properties = make([]Property, 0, d.Reserve(min(int64(n), int64(d.rem(q)/8))))
	}
	for range n {
		name, next, err := d.str(q, t)
		if err != nil {
			return nil, 0, err
		}
		at := next
		v, next, err := d.value(next, depth+1)
		if err != nil {
			return nil, 0, prefixPath(err, "."+name)
		}
		if name == "script" {
			s, _ := v.(String)
			if err := d.CheckScript(at, TypeOf(v), []byte(s), v == nil); err != nil {
				return nil, 0, err
			}
		}
		obj.Properties = append(obj.Properties, Property{name, v})
		q = next
	}
	return obj, q, nil
}

func (d *decoder) array(off int, h uint32, depth int) (Value, int, error) {
	elem, n, q, err := d.ArrayHead(off, h)
	if err != nil {
		return nil, 0, err
	}
	q += 4
	a := &Array{Elem: elem}
	a.Values = make([]Value, 0, d.Reserve(int64(min(n, max(d.rem(q), 0)/4))))
	for i := range n {
		v, next, err := d.value(q, depth+1)
		if err != nil {
			return nil, 0, prefixPath(err, IndexSeg(i))
		}
		q = next
		if a.Elem.IsTyped() {
			var ok bool
			if v, ok = Conform(v, a.Elem); !ok {
				continue // the engine drops what its typed array refuses
			}
		}
		a.Values = append(a.Values, v)
	}
	return a, q, nil
}

func (d *decoder) dictionary(off int, h uint32, depth int) (Value, int, error) {
	var kt, vt ContainerType
	n, q, ok := d.QuickContainerHead(off, h)
	if !ok {
		var err error
		if kt, vt, n, q, err = d.DictHead(off, h); err != nil {
			return nil, 0, err
		}
	}
	q += 4
	typed := kt.IsTyped() || vt.IsTyped()
	if !typed && d.slabs() && n > 0 && n <= linearMax {
		return d.smallDictionary(n, q, depth)
	}
	dict := d.newDictionary(n)
	if typed {
		dict.types = d.dictTypes(kt, vt)
	}
	if dict.entries == nil {
		dict.entries = d.entrySlice(d.Reserve(int64(min(n, max(d.rem(q), 0)/8))))
	}
	q, err := d.entries(dict, 0, n, q, depth, entryState{cached: !kt.IsTyped()})
	if err != nil {
		return nil, 0, err
	}
	return dict, q, nil
}

// entryState tracks the keys of a Dictionary being decoded: while every
// key so far came from the key cache (cached), a key of a class not seen
// yet is new and needs no search.
type entryState struct {
	seen   uint64
	cached bool
}

// entries decodes entries i to n of dict, the first at q.
func (d *decoder) entries(dict *Dictionary, i, n, q, depth int, st entryState) (int, error) {
	for ; i < n; i++ {
		var k Value
		var next, class int
		if e := d.quickKey(q); e != nil && depth < d.maxDepth {
			k, next, class = e.value, q+e.words.Size(), int(e.class)
		} else {
			var err error
			if k, next, class, err = d.key(q, depth+1); err != nil {
				return 0, prefixPath(err, KeyIndexSeg(i))
			}
		}
		v, next, err := d.value(next, depth+1)
		if err != nil {
			return 0, prefixPath(err, KeySeg(k))
		}
		q = next
		d.add(dict, k, v, class, &st)
	}
	return q, nil
}

// add adds the entry {k, v}, whose key has the given class, to dict.
func (d *decoder) add(dict *Dictionary, k, v Value, class int, st *entryState) {
	if st.cached && class >= 0 && st.seen&(1<<class) == 0 && len(dict.entries) < linearMax {
		st.seen |= 1 << class
		dict.entries = append(dict.entries, Entry{k, v})
		return
	}
	st.cached = false
	if kt := dict.KeyType(); kt.IsTyped() {
		var ok bool
		if k, ok = Conform(k, kt); !ok {
			return // the engine drops entries whose key its typed dictionary refuses
		}
	}
	dict.Set(k, v)
}

// smallDictionary decodes an untyped Dictionary of n entries, at most
// linearMax, the first at q, once the arena is in use (its head is read
// and counted already). Its entries go to a block when all
// its keys come from the key cache and all its values fit in the block
// too (see arena.go); a Dictionary whose first key began one that did not
// fit goes straight to ordinary memory.
func (d *decoder) smallDictionary(n, q, depth int) (Value, int, error) {
	var k Value
	var next, class int
	var err error
	if e := d.quickKey(q); e != nil && depth < d.maxDepth {
		k, next, class = e.value, q+e.words.Size(), int(e.class)
	} else if k, next, class, err = d.key(q, depth+1); err != nil {
		return nil, 0, prefixPath(err, KeyIndexSeg(0))
	}
	if class < 0 || d.arena.misses[class] >= missLimit {
		dict := d.newDictionary(n)
		if dict.entries == nil {
			dict.entries = d.entrySlice(d.Reserve(int64(min(n, max(d.rem(q), 0)/8))))
		}
		return d.finish(dict, true, k, class, 0, n, next, depth, entryState{cached: true})
	}
	first := class
	dict := d.arena.headers.take()
	b := &d.arena.blk
	es := unsafe.Slice((*Entry)(b.take(4*n)), n)
	lo, hi := b.lo, b.hi
	var seen uint64
	for i := range n {
		if i > 0 {
			if e := d.quickKey(q); e != nil && depth < d.maxDepth {
				k, next, class = e.value, q+e.words.Size(), int(e.class)
			} else if k, next, class, err = d.key(q, depth+1); err != nil {
				return nil, 0, prefixPath(err, KeyIndexSeg(i))
			}
		}
		v, after, err := d.value(next, depth+1)
		if err != nil {
			return nil, 0, prefixPath(err, KeySeg(k))
		}
		q = after
		bit := uint64(1) << (uint(class) & 63) // (class < maxInterned when not -1)
		kb, ok := k, class >= 0 && seen&bit == 0 && within(v, lo, hi)
		switch {
		case !ok:
		case b.keyIn&bit != 0:
			kb = b.keys[class] // the block's copy of the key, made before
		case !within(k, lo, hi):
			kb = d.blockKey(class, k)
			ok = within(kb, lo, hi)
		}
		if !ok {
			// The entry cannot stay in the block: move the entries to
			// ordinary memory and go on there. Unless it is only that
			// the block filled up, this counts against trying the block
			// for Dictionaries beginning with the same key.
			if b.lo == lo {
				d.arena.misses[first] += missCost
			}
			dict.entries = append(make([]Entry, 0, n), es[:i]...)
			st := entryState{seen: seen, cached: true}
			d.add(dict, k, v, class, &st)
			return d.finish(dict, false, nil, -1, i+1, n, q, depth, st)
		}
		seen |= bit
		setWords(&es[i], kb, v)
	}
	dict.entries = es
	dict.index = inBlock
	if d.arena.misses[first] > 0 {
		d.arena.misses[first]--
	}
	return dict, q, nil
}

// finish decodes the rest of dict: when pending, the value of entry i,
// whose key k (of the given class) ends at q, then the entries up to n.
func (d *decoder) finish(dict *Dictionary, pending bool, k Value, class, i, n, q, depth int, st entryState) (Value, int, error) {
	if pending {
		v, next, err := d.value(q, depth+1)
		if err != nil {
			return nil, 0, prefixPath(err, KeySeg(k))
		}
		d.add(dict, k, v, class, &st)
		q, i = next, i+1
	}
	q, err := d.entries(dict, i, n, q, depth, st)
	if err != nil {
		return nil, 0, err
	}
	return dict, q, nil
}

// blockKey makes a copy of the interned key k of the given class in the
// current block (once per block) and returns it.
func (d *decoder) blockKey(class int, k Value) Value {
	s, ok := k.(String)
	if !ok {
		return k
	}
	b := &d.arena.blk
	if b.keys == nil {
		b.keys = new([maxInterned]Value)
	}
	b.keys[class] = textBlock(b, protoString, []byte(s))
	b.keyIn |= 1 << class
	return b.keys[class]
}

// entrySlice returns an empty slice with room for n entries.
func (d *decoder) entrySlice(n int) []Entry {
	if n == 0 {
		return nil
	}
	return make([]Entry, 0, n)
}

// maxInternLen and maxInterned bound the cache of Dictionary key strings.
const (
	maxInternLen = 32
	maxInterned  = 32
)

// internEntry is one cached Dictionary key: its raw bytes on the wire, its
// decoded value and the number of the first entry with an equal value
// (different bytes can spell the same string: a byte order mark or a NUL
// and what follows it are dropped).
type internEntry struct {
	at    int32 // the raw bytes: the input's n bytes at at
	n     uint8 // (at most maxInternLen)
	class uint8
	value Value
	// The key's KeyWords, for the common case of a key of at most 8 bytes
	// repeated byte for byte (see quickKey), taken when the key is first
	// found again (none until then).
	words KeyWords
}

// raw returns the entry's bytes in b, the input.
func (e *internEntry) raw(b []byte) []byte { return b[e.at : e.at+int32(e.n)] }

// quickKey is key's common case, small enough to inline: the key after
// the last one found, byte for byte as then, with 16 bytes of input at
// off (see MatchKey): its entry, whose encoding is e.words.Size() bytes.
// The caller checked that a key may nest where it is. When it returns
// nil, key decides.
func (d *decoder) quickKey(off int) *internEntry {
	// Entries from internCount on are empty (a decoder starts zeroed, and
	// interned has room for one past the last): their KeyWords match
	// nothing, so nextIntern needs no check against internCount.
	if e := &d.interned[d.nextIntern]; d.MatchKey(&e.words, off) {
		d.nextIntern++
		return e
	}
	return nil
}

// key decodes a Dictionary key. String keys repeat across dictionaries
// (field names), so short ones come from a small per-call cache: one
// allocation for all the "name" keys of an array of records, and no cost
// for a call that decodes a single small record. class is the cache's
// number for the key's value, or -1 when the key did not come from the
// cache; keys of different classes are different.
func (d *decoder) key(off, depth int) (k Value, next, class int, err error) {
	b := d.b
	if depth <= d.maxDepth && len(b)-off >= 8 && b[off] == byte(TypeString) {
		n := int(int32(wire.U32(b[off+4:])))
		end := off + 8 + n
		if n >= 0 && n <= maxInternLen && end+wire.Pad4(n) <= len(b) {
			raw := b[off+8 : end]
			if i := d.nextIntern; i < d.internCount {
				if e := &d.interned[i]; int(e.n) == n && string(e.raw(b)) == string(raw) {
					if e.words.Size() == 0 {
						e.words = keyWordsOf(b[off : end+wire.Pad4(n)])
					}
					d.nextIntern = i + 1
					return e.value, end + wire.Pad4(n), int(e.class), nil
				}
			}
			for i := range d.internCount {
				if e := &d.interned[i]; int(e.n) == n && string(e.raw(b)) == string(raw) {
					if e.words.Size() == 0 {
						e.words = keyWordsOf(b[off : end+wire.Pad4(n)])
					}
					d.nextIntern = i + 1
					return e.value, end + wire.Pad4(n), int(e.class), nil
				}
			}
			v, shared := d.keys.get(raw)
			next := end + wire.Pad4(n)
			if !shared {
				if v, next, err = d.value(off, depth); err != nil {
					return nil, 0, -1, err
				}
				d.keys.put(raw, v)
			}
			if d.internCount == maxInterned || off > math.MaxInt32-64 {
				return v, next, -1, nil // the cache is full, or cannot say where
			}
			c := uint8(d.internCount)
			for i := range d.internCount {
				if e := &d.interned[i]; e.value == v {
					c = e.class
					break
				}
			}
			e := &d.interned[d.internCount]
			e.at, e.n, e.class, e.value = int32(off+8), uint8(n), c, v
			d.internCount++
			d.nextIntern = d.internCount // a new key is likely followed by another new one
			return v, next, int(c), nil
		}
	}
	v, next, err := d.value(off, depth)
	return v, next, -1, err
}
