package variant

import (
	"encoding/binary"
	"unsafe"

	"github.com/gdvar/gdvar/internal/textchunk"
	"github.com/gdvar/gdvar/wire"
)

// Placing an Int, a String or a Vector3 in a Value copies it to the heap:
// one small allocation per value, which dominates the cost of decoding
// large Arrays of records. Past its first arenaAfter elements, a decode
// call takes such values from a few large allocations instead, from which
// each value gets its slot. The values are ordinary Values (type switches,
// reflection and Equal see no difference) and are never written to after
// they are handed out.
//
// Most of them go to blocks: memory the garbage collector does not scan
// (see block), which holds values without pointers (numbers, vectors,
// colors), short Strings together with their text, and the entries of
// small Dictionaries whose keys and values all live in the same block.
// Scanning a record's Dictionary then costs the collector one pointer
// instead of a dozen. Dictionary headers, longer strings and everything
// else come from slabs of one type each.
//
// The price is retention: a value kept after the rest of its message is
// dropped keeps alive the slab or block it lives in. Each slab or block a
// call allocates is twice the size of the one before, up to slabBytes (16
// KiB) or blockMax (64 KiB), so it is never much larger than what the call
// had already decoded into the ones before: a kept value holds alive at
// most about as much again as its message took, and never more than 64
// KiB. A kept Dictionary also keeps alive the other Dictionaries of its
// slab (16 KiB of them at most) and what those hold: for an Array of
// records of plain values, the blocks of a few hundred neighbouring
// records.
const (
	arenaAfter = 32        // elements a call decodes before it uses slabs
	slabMin    = 8         // values in a type's first slab
	slabBytes  = 16384     // bytes in a slab, at most (but slabMin values)
	blockMin   = 1024 / 8  // words in a call's first block
	blockMax   = 65536 / 8 // words in a block, at most
	blockText  = 128       // bytes of the longest String kept in a block
	missCost   = 4         // see arena.misses
	missLimit  = 16
)

// slab hands out slots for values of one type. Each new slab is twice the
// size of the last, up to slabBytes.
// (The slab and the block keep their place as an index: taking a slot
// writes no pointer, which would cost a write barrier.)
type slab[T any] struct {
	buf  []T
	used int
}

func (s *slab[T]) take() *T {
	if s.used == len(s.buf) {
		most := max(slabBytes/int(unsafe.Sizeof(*new(T))), slabMin)
		s.buf = make([]T, min(max(2*len(s.buf), slabMin), most))
		s.used = 0
	}
	p := &s.buf[s.used]
	s.used++
	return p
}

// block hands out memory the garbage collector never scans: the words of
// a []uint64. A block may hold only values without pointers, and Strings
// and Entries whose pointers lead into the same block or to statics:
// whatever reaches such a value reaches its block, and with it everything
// the value points to, so the collector need not look inside. Pointers
// are written into a block as plain words, without write barriers, which
// memory the collector does not scan does not need.
type block struct {
	buf    []uint64
	used   int     // words of buf handed out
	lo, hi uintptr // the memory of buf
	size   int     // words of the last block allocated

	// Copies, in the current block, of the call's interned key strings
	// (keyIn: which ones are there), so that the keys of a Dictionary
	// whose entries are in the block are in the block too. Allocated
	// when first needed: a call that decodes one small message does not
	// pay for clearing them.
	keys  *[maxInterned]Value
	keyIn uint64
}

// take returns the next n words of the current block, starting a new
// block if they do not fit.
func (b *block) take(n int) unsafe.Pointer {
	if len(b.buf)-b.used < n {
		b.size = min(max(2*b.size, blockMin), blockMax)
		b.buf = make([]uint64, max(b.size, n))
		b.used = 0
		b.lo = uintptr(unsafe.Pointer(unsafe.SliceData(b.buf)))
		b.hi = b.lo + uintptr(8*len(b.buf))
		b.keyIn = 0
	}
	p := unsafe.Pointer(&b.buf[b.used])
	b.used += n
	return p
}

// statics holds the values every call shares, in place of a block: small
// Ints, the two Bools and the empty string. They are never written to
// after init.
var statics struct {
	ints  [256]Int
	bools [2]Bool
	empty String
}

// The memory of statics.
var staticLo, staticHi uintptr

func init() {
	for i := range statics.ints {
		statics.ints[i] = Int(i)
	}
	statics.bools[1] = true
	staticLo = uintptr(unsafe.Pointer(&statics))
	staticHi = staticLo + unsafe.Sizeof(statics)
}

// within reports whether v needs nothing from the collector beyond
// memory [lo, hi): its data is there, in statics, or absent. (The type
// word of an interface never points into the heap.)
func within(v Value, lo, hi uintptr) bool {
	p := uintptr((*ifaceWords)(unsafe.Pointer(&v)).data)
	return p == 0 || p-lo < hi-lo || p-staticLo < staticHi-staticLo
}

// ifaceWords is the layout of an interface value: its type word and a
// pointer to the value.
type ifaceWords struct {
	tab  unsafe.Pointer
	data unsafe.Pointer
}

// boxAt returns proto, a Value of some type T, pointing at p, a *T, as
// its data: the Value that converting *p would give, without the copy.
func boxAt(proto Value, p unsafe.Pointer) Value {
	v := proto
	(*ifaceWords)(unsafe.Pointer(&v)).data = p
	return v
}

// put stores x in a slot of s and returns it as a Value; proto is a Value
// of type T.
func put[T any](s *slab[T], proto Value, x T) Value {
	p := s.take()
	*p = x
	return boxAt(proto, unsafe.Pointer(p))
}

// putBlock stores x, a value without pointers, in a block and returns it
// as a Value; proto is a Value of type T.
func putBlock[T any](b *block, proto Value, x T) Value {
	p := b.take(int(unsafe.Sizeof(x)+7) / 8)
	*(*T)(p) = x
	return boxAt(proto, p)
}

// textBlock stores a String (or StringName: proto says which) and its
// text raw together in a block and returns it as a Value.
func textBlock(b *block, proto Value, raw []byte) Value {
	n := len(raw)
	if n == 0 {
		return boxAt(proto, unsafe.Pointer(&statics.empty))
	}
	p := b.take(2 + (n+7)/8)
	text := unsafe.Add(p, 16)
	switch {
	case n <= 8 && cap(raw) >= 8: // whole words, read past the end of raw
		*(*uint64)(text) = binary.LittleEndian.Uint64(raw[:8])
	case n <= 16 && cap(raw) >= 16:
		w := (*[2]uint64)(text)
		w[0], w[1] = binary.LittleEndian.Uint64(raw[:8]), binary.LittleEndian.Uint64(raw[8:16])
	default:
		copy(unsafe.Slice((*byte)(text), n), raw)
	}
	w := (*[2]uintptr)(p) // the string header, as words
	w[0], w[1] = uintptr(text), uintptr(n)
	return boxAt(proto, p)
}

// setWords stores the entry {k, v} at e, in a block, as plain words.
func setWords(e *Entry, k, v Value) {
	w := (*[4]uintptr)(unsafe.Pointer(e))
	kw, vw := (*[2]uintptr)(unsafe.Pointer(&k)), (*[2]uintptr)(unsafe.Pointer(&v))
	w[0], w[1], w[2], w[3] = kw[0], kw[1], vw[0], vw[1]
}

// Values of each slab type, whose type words boxAt copies.
var (
	protoBool       Value = Bool(false)
	protoInt        Value = Int(0)
	protoFloat      Value = Float(0)
	protoString     Value = String("")
	protoStringName Value = StringName("")
)

// arena holds a decode call's slabs and blocks.
type arena struct {
	blk     block
	strs    slab[String]
	names   slab[StringName]
	headers slab[Dictionary]
	dicts1  slab[dictionary1]
	dicts2  slab[dictionary2]
	dicts4  slab[dictionary4]
	text    textchunk.Chunks

	// For each interned key class (see decoder.key), a score of the
	// Dictionaries beginning with that key whose entries could not stay
	// in a block (each adds missCost) against those that could (each
	// takes one off): past missLimit, such Dictionaries go straight to
	// ordinary memory.
	misses [maxInterned]uint8
}

// slabs reports whether the call has decoded enough elements to use its
// arena. A call that decodes one small message allocates as usual.
func (d *decoder) slabs() bool { return d.elements-d.base >= arenaAfter }

// boxInt returns x as a Value.
func (d *decoder) boxInt(x Int) Value {
	switch {
	case !d.slabs():
		return x
	case uint64(x) < uint64(len(statics.ints)):
		return boxAt(protoInt, unsafe.Pointer(&statics.ints[x]))
	}
	return putBlock(&d.arena.blk, protoInt, x)
}

// boxBool returns x as a Value.
func (d *decoder) boxBool(x bool) Value {
	if !d.slabs() {
		return Bool(x)
	}
	return boxAt(protoBool, unsafe.Pointer(&statics.bools[boolInt(x)]))
}

// boxFloat returns x as a Value.
func (d *decoder) boxFloat(x Float) Value {
	if !d.slabs() {
		return x
	}
	return putBlock(&d.arena.blk, protoFloat, x)
}

// boxText returns the text raw (see Reader.Text) as a String, or as a
// StringName when name is set.
func (d *decoder) boxText(raw []byte, name bool) Value {
	if d.slabs() && !d.zeroCopy && len(raw) <= blockText {
		if name {
			return textBlock(&d.arena.blk, protoStringName, raw)
		}
		return textBlock(&d.arena.blk, protoString, raw)
	}
	return d.boxString(d.text(raw), name)
}

// boxString returns s as a String, or as a StringName when name is set.
func (d *decoder) boxString(s string, name bool) Value {
	switch {
	case s == "" || !d.slabs():
		if name {
			return StringName(s)
		}
		return String(s)
	case name:
		return put(&d.arena.names, protoStringName, StringName(s))
	}
	return put(&d.arena.strs, protoString, String(s))
}

// copyText returns raw as a string; short strings share chunks once the
// arena is in use.
func (d *decoder) copyText(raw []byte) string {
	if !d.slabs() {
		return string(raw)
	}
	return d.arena.text.String(raw)
}

// mathValue decodes the fixed-size math value of type t at off, its real
// components wide (float64) or not, into memory from the arena's block once
// the call uses its arena, else from the heap.
func (d *decoder) mathValue(off int, t Type, wide bool) (Value, int, error) {
	f := &typeFacts[t]
	n, size := f.Components(), 4
	if wide {
		size = 8
	}
	p := off + 4
	if rem := d.rem(p); rem < n*size {
		return nil, 0, d.Short(off, t, n*size, rem)
	}
	var m unsafe.Pointer
	if d.slabs() {
		m = d.arena.blk.take(f.words())
	} else {
		m = heapWords(f.words())
	}
	src := d.b[p : p+n*size]
	switch {
	case wide:
		for i := range n {
			*(*float64)(unsafe.Add(m, 8*f.GoIndex(i))) = wire.F64(src[8*i:])
		}
	case f.Reals > 0:
		for i := range n {
			*(*float64)(unsafe.Add(m, 8*f.GoIndex(i))) = float64(wire.F32(src[4*i:]))
		}
	default: // int32 components, or float32 ones copied as bits
		for i := range n {
			*(*uint32)(unsafe.Add(m, 4*f.GoIndex(i))) = wire.U32(src[4*i:])
		}
	}
	return boxAt(f.Proto, m), p + n*size, nil
}

// vector2 returns a Vector2 as a Value.
func (d *decoder) vector2(x, y float64) Value {
	if !d.slabs() {
		return Vector2{x, y}
	}
	return putBlock(&d.arena.blk, typeFacts[TypeVector2].Proto, Vector2{x, y})
}

// A small Dictionary and room for its entries, allocated together.
type (
	dictionary1 struct {
		d Dictionary
		e [1]Entry
	}
	dictionary2 struct {
		d Dictionary
		e [2]Entry
	}
	dictionary4 struct {
		d Dictionary
		e [4]Entry
	}
)

// newDictionary returns an empty Dictionary; for a small record of n
// entries, the Dictionary and room for its entries come in one allocation,
// or from a slab.
func (d *decoder) newDictionary(n int) *Dictionary {
	slabs := d.slabs()
	switch {
	case n == 1:
		var s *dictionary1
		if slabs {
			s = d.arena.dicts1.take()
		} else {
			s = new(dictionary1)
		}
		s.d.entries = s.e[:0]
		return &s.d
	case n == 2:
		var s *dictionary2
		if slabs {
			s = d.arena.dicts2.take()
		} else {
			s = new(dictionary2)
		}
		s.d.entries = s.e[:0]
		return &s.d
	case n == 3 || n == 4:
		var s *dictionary4
		if slabs {
			s = d.arena.dicts4.take()
		} else {
			s = new(dictionary4)
		}
		s.d.entries = s.e[:0:n]
		return &s.d
	}
	return new(Dictionary)
}
