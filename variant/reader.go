package variant

import (
	"bytes"
	"encoding/binary"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdvar/gdvar/wire"
)

// Reader reads the binary Variant format of one input, piece by piece: the
// header word of a value, strings, counts, NodePaths, the type data of
// typed containers, whole values (Value) and values checked without being
// built (Skip). It takes the engine's decisions and reports the engine's
// errors, with absolute byte offsets, exactly as Decode does: Decode is
// built on it, and so are package gdvar's Unmarshal and package inspect,
// which is why they accept and refuse the same bytes.
//
// A Reader keeps the limits of the DecMode that made it (MaxDepth,
// MaxElements, AllowObjects, Classes, Scripts, Strict) and counts the
// elements read so far against MaxElements. It does not check MaxSize
// and does not make Strict's canonical check of the whole input: Decode
// does both. The zero Reader is not usable; get one from DecMode.Reader.
//
// Offsets are byte offsets into the input. A method reading the payload
// of a value takes the offset of the value's header (off, where errors
// point) and the offset of the part it reads (p).
type Reader struct {
	b            []byte
	fam          Family
	ff           FamilyFacts
	types        *[256]Type // the family's type of each type byte
	allowObjects bool
	strict       bool
	zeroCopy     bool
	maxDepth     int
	maxElements  int64
	elements     int64 // counted so far, for MaxElements
	valuesLeft   int64 // DecodeBudget's budget of values, -1 without one
	budget       int64 // elements containers may still reserve room for
	keys         *keyCache
	classes      func(string) bool // DecOptions.Classes
	scripts      func(string) bool // DecOptions.Scripts
}

// Reader returns a Reader of b with the mode's options.
func (m *DecMode) Reader(b []byte) Reader {
	o := &m.opts
	return Reader{b: b, fam: o.Family, ff: o.Family.Facts(), types: idTable(o.Family), allowObjects: o.AllowObjects, strict: o.Strict, zeroCopy: o.ZeroCopy,
		maxDepth: o.MaxDepth, maxElements: int64(o.MaxElements), valuesLeft: -1, budget: int64(len(b) / 8),
		keys: m.keys, classes: o.Classes, scripts: o.Scripts}
}

// Bytes returns the input.
func (r *Reader) Bytes() []byte { return r.b }

// Family returns the engine family the input is read as.
func (r *Reader) Family() Family { return r.fam }

// MaxDepth returns the deepest nesting accepted.
func (r *Reader) MaxDepth() int { return r.maxDepth }

// Elements returns the number of elements counted so far against
// MaxElements.
func (r *Reader) Elements() int64 { return r.elements }

// SetElements sets the element count, to read a part of the input again
// as if for the first time.
func (r *Reader) SetElements(n int64) { r.elements = n }

// Fail returns the *Error of a failure at off in a value of type t.
func (r *Reader) Fail(off int, t Type, sentinel error, code Code, detail string) error {
	return &Error{Op: "decode", Offset: off, Type: t, Family: r.fam, Code: code, Err: sentinel, Detail: detail}
}

// Short returns the error of a fixed-size payload that does not fit: need
// bytes were needed, have were left.
func (r *Reader) Short(off int, t Type, need, have int) error {
	return r.Fail(off, t, ErrTruncated, ErrCodeInvalidData,
		"need "+strconv.Itoa(need)+" bytes, have "+strconv.Itoa(max(have, 0)))
}

// rem is the number of bytes left from p; negative after a PackedByteArray
// whose final padding is missing, as in the engine's arithmetic.
func (r *Reader) rem(p int) int { return len(r.b) - p }

// Take counts n more elements of the value of type t at off against
// MaxElements and, for DecodeBudget, n more values against its budget.
func (r *Reader) Take(off int, t Type, n int64) error {
	if err := r.takeElements(off, t, n); err != nil {
		return err
	}
	if r.valuesLeft >= 0 {
		if n > r.valuesLeft {
			return r.Fail(off, t, ErrTooLarge, ErrCodeOutOfMemory,
				strconv.FormatInt(n, 10)+" values, more than the "+strconv.FormatInt(r.valuesLeft, 10)+" left in the budget")
		}
		r.valuesLeft -= n
	}
	return nil
}

// takeElements counts n more elements against MaxElements only: the
// elements of packed numeric arrays, which hold no more memory than their
// bytes.
func (r *Reader) takeElements(off int, t Type, n int64) error {
	r.elements += n
	if r.maxElements > 0 && r.elements > r.maxElements {
		return r.tooMany(off, t)
	}
	return nil
}

func (r *Reader) tooMany(off int, t Type) error {
	return r.Fail(off, t, ErrTooLarge, ErrCodeOutOfMemory,
		"more than MaxElements ("+strconv.FormatInt(r.maxElements, 10)+") elements")
}

// Reserve returns how many elements a container may reserve room for up
// front: what its count claims (n, already limited to what the bytes left
// could hold), as long as all the reservations of the input stay within
// an eighth of its length. Nested containers each claiming the rest of the
// input would otherwise reserve room quadratic in its size; past the
// budget, containers grow as their elements actually arrive.
func (r *Reader) Reserve(n int64) int {
	c := max(min(n, r.budget), 0)
	r.budget -= c
	return int(c)
}

// QuickHead is Head's common case, small enough to inline: within the
// depth limit, header present, type byte valid. It returns the header word
// and the type; when it reports false, Head decides.
func (r *Reader) QuickHead(off, depth int) (uint32, Type, bool) {
	if depth <= r.maxDepth && off+4 <= len(r.b) {
		h := wire.U32(r.b[off:])
		t := r.types[uint8(h)]
		return h, t, t != TypeUnknown
	}
	return 0, TypeUnknown, false
}

// Head checks the depth of the value at off, nested depth deep, and reads
// its header word and type.
func (r *Reader) Head(off, depth int) (uint32, Type, error) {
	if depth > r.maxDepth {
		return 0, TypeUnknown, r.Fail(off, TypeUnknown, ErrTooDeep, ErrCodeOutOfMemory,
			"more than "+strconv.Itoa(r.maxDepth)+" levels")
	}
	if r.rem(off) < 4 {
		return 0, TypeUnknown, r.Fail(off, TypeUnknown, ErrTruncated, ErrCodeInvalidData, "no room for the header")
	}
	h := wire.U32(r.b[off:])
	t := r.types[uint8(h)]
	if t == TypeUnknown {
		return 0, TypeUnknown, r.Fail(off, TypeUnknown, ErrInvalidType, ErrCodeInvalidData,
			"type byte "+strconv.Itoa(int(uint8(h))))
	}
	return h, t, nil
}

// Wide reports whether a value of type t with header h has
// double-precision components.
func (r *Reader) Wide(h uint32, t Type) bool {
	return h&wire.Flag64 != 0 && r.ff.WideReals && facts(t).Real
}

// KeyWords recognise a short String written exactly as the engine writes
// it (header, length, bytes, zero padding: 12 or 16 bytes), as a
// Dictionary key is looked for, in two word compares (Reader.MatchKey).
// Make them with NewKeyWords; the zero KeyWords match nothing.
type KeyWords struct {
	head, tail  uint64 // the first 8 bytes, the rest (shifted by shift to keep them)
	size, shift uint8  // size 0: no key
}

// NewKeyWords returns the KeyWords of the String s; when s is empty or
// longer than 8 bytes they match nothing, and their Size is 0. The String's header
// (type id 4) is the same in both families.
func NewKeyWords(s string) KeyWords {
	if len(s) > 8 {
		return KeyWords{}
	}
	return keyWordsOf(wire.AppendString(wire.AppendU32(make([]byte, 0, 16), uint32(TypeString)), s))
}

// keyWordsOf returns the KeyWords of the encoded key enc, byte for byte.
func keyWordsOf(enc []byte) KeyWords {
	switch len(enc) {
	case 12:
		return KeyWords{head: wire.U64(enc), tail: uint64(wire.U32(enc[8:])), size: 12, shift: 32}
	case 16:
		return KeyWords{head: wire.U64(enc), tail: wire.U64(enc[8:]), size: 16}
	}
	return KeyWords{}
}

// Size returns the length of the encoded key: 12 or 16, or 0 for
// KeyWords that match nothing.
func (k *KeyWords) Size() int { return int(k.size) }

// MatchKey reports whether the bytes at q are the key of k, byte for
// byte; it needs 16 bytes at q (those after a 12-byte key are not
// compared), and reports false without them.
func (r *Reader) MatchKey(k *KeyWords, q int) bool {
	return k.size != 0 && q+16 <= len(r.b) && wire.U64(r.b[q:]) == k.head && wire.U64(r.b[q+8:])&(^uint64(0)>>k.shift) == k.tail
}

// QuickInt, QuickFloat, QuickBool and QuickVector2 are the common cases
// of reading a value of those types, small enough to inline: written as
// the engine writes it at single precision (its header word is exactly
// the type id, the same in both families) with its payload there. They
// return the value and report whether it was so; otherwise the value's
// own decoding decides.
func (r *Reader) QuickInt(p int) (int64, bool) {
	if p+8 <= len(r.b) && wire.U32(r.b[p:]) == uint32(TypeInt) {
		return int64(int32(wire.U32(r.b[p+4:]))), true
	}
	return 0, false
}

// QuickFloat: see QuickInt.
func (r *Reader) QuickFloat(p int) (float64, bool) {
	if p+8 <= len(r.b) && wire.U32(r.b[p:]) == uint32(TypeFloat) {
		return float64(wire.F32(r.b[p+4:])), true
	}
	return 0, false
}

// QuickBool: see QuickInt.
func (r *Reader) QuickBool(p int) (bool, bool) {
	if p+8 <= len(r.b) && wire.U32(r.b[p:]) == uint32(TypeBool) {
		return wire.U32(r.b[p+4:]) != 0, true
	}
	return false, false
}

// QuickVector2: see QuickInt.
func (r *Reader) QuickVector2(p int) (Vector2, bool) {
	if p+12 <= len(r.b) && wire.U32(r.b[p:]) == uint32(TypeVector2) {
		return Vector2{float64(wire.F32(r.b[p+4:])), float64(wire.F32(r.b[p+8:]))}, true
	}
	return Vector2{}, false
}

// QuickString: see QuickInt; it reports whether a String whose header
// word is exactly its type id is at p. Its text follows at p+4 (QuickStr);
// text that is not PlainText still needs the family's checks.
func (r *Reader) QuickString(p int) bool {
	return p+4 <= len(r.b) && wire.U32(r.b[p:]) == uint32(TypeString)
}

// QuickStr is StrRaw's common case, small enough to inline.
func (r *Reader) QuickStr(p int) ([]byte, int, bool) {
	if p+4 <= len(r.b) {
		n := int(wire.U32(r.b[p:]))
		end := p + 4 + n
		next := end + (-n & 3)
		if n >= 0 && n < 1<<31 && next <= len(r.b) {
			return r.b[p+4 : end], next, true
		}
	}
	return nil, 0, false
}

// StrRaw reads a "str" payload at p (u32 length, bytes, padding) in a
// value of type t and returns its bytes as stored and the offset after it.
func (r *Reader) StrRaw(p int, t Type) ([]byte, int, error) {
	if raw, next, ok := r.QuickStr(p); ok {
		return raw, next, nil
	}
	rem := r.rem(p)
	if rem < 4 {
		return nil, 0, r.Fail(p, t, ErrTruncated, ErrCodeInvalidData, "no room for a string length")
	}
	n := int64(int32(wire.U32(r.b[p:])))
	if n < 0 {
		return nil, 0, r.Fail(p, t, ErrInvalidData, ErrCodeFileEOF, "negative string length "+strconv.FormatInt(n, 10))
	}
	pad := int64(wire.Pad4(int(n)))
	if n+pad > int64(rem-4) {
		return nil, 0, r.Fail(p, t, ErrTruncated, ErrCodeFileEOF,
			"string of "+strconv.FormatInt(n, 10)+" bytes (padded "+strconv.FormatInt(n+pad, 10)+
				") exceeds the "+strconv.Itoa(rem-4)+" bytes left")
	}
	return r.b[p+4 : p+4+int(n)], p + 4 + int(n+pad), nil
}

// Str reads a "str" payload at p and returns the string's value as bytes
// (see Text) and the offset after it.
func (r *Reader) Str(p int, t Type) ([]byte, int, error) {
	raw, next, err := r.StrRaw(p, t)
	if err != nil {
		return nil, 0, err
	}
	s, ok := r.Text(raw)
	if !ok {
		return nil, 0, r.Fail(p, t, ErrInvalidUTF8, ErrCodeInvalidData, "")
	}
	return s, next, nil
}

// Text turns the stored bytes of a string into its value as the engine's
// UTF-8 parser does: a leading byte order mark is dropped, a NUL ends the
// string, malformed UTF-8 is refused (Godot 3 accepts more, see
// DecodeStringGodot3). The result aliases raw unless Godot 3 data needed
// repair.
func (r *Reader) Text(raw []byte) ([]byte, bool) {
	if plainASCII(raw) {
		return raw, true
	}
	return r.textSlow(raw)
}

func (r *Reader) textSlow(raw []byte) ([]byte, bool) {
	if len(raw) >= 3 && raw[0] == 0xEF && raw[1] == 0xBB && raw[2] == 0xBF {
		raw = raw[3:]
	}
	if i := bytes.IndexByte(raw, 0); i >= 0 {
		raw = raw[:i]
	}
	if utf8.Valid(raw) {
		return raw, true
	}
	if r.ff.LooseUTF8 {
		s, ok := DecodeStringGodot3(raw)
		return []byte(s), ok
	}
	return nil, false
}

// PlainText reports whether the stored bytes b of a string are its value
// as they are, the case Text needs no work for: ASCII without NUL. With
// QuickStr, it is Str's fast path for callers that inline it.
func PlainText(b []byte) bool { return plainASCII(b) }

// plainASCII reports whether b holds only ASCII bytes other than NUL.
func plainASCII(b []byte) bool {
	const hi, lo = 0x8080808080808080, 0x0101010101010101
	for len(b) >= 8 {
		w := binary.LittleEndian.Uint64(b)
		if w&hi != 0 || (w-lo)&^w&hi != 0 {
			return false
		}
		b = b[8:]
	}
	for _, c := range b {
		if c == 0 || c >= 0x80 {
			return false
		}
	}
	return true
}

// Count reads the element count of a packed array of type t at p and
// checks that count*size bytes follow; it counts the elements against
// MaxElements. PackedByteArray (size 1) only needs its bytes, not its
// final padding, to be present.
func (r *Reader) Count(off, p int, t Type, size int) (int, error) {
	rem := r.rem(p)
	if rem < 4 {
		return 0, r.Short(off, t, 4, rem)
	}
	n := int64(int32(wire.U32(r.b[p:])))
	if n < 0 {
		return 0, r.Fail(off, t, ErrInvalidData, ErrCodeInvalidData, "negative count "+strconv.FormatInt(n, 10))
	}
	if n*int64(size) > int64(rem-4) {
		return 0, r.Fail(off, t, ErrTruncated, ErrCodeInvalidData,
			strconv.FormatInt(n, 10)+" elements need "+strconv.FormatInt(n*int64(size), 10)+
				" bytes, have "+strconv.Itoa(rem-4))
	}
	if err := r.takeElements(off, t, n); err != nil {
		return 0, err
	}
	return int(n), nil
}

// StringsCount reads the count of a PackedStringArray at p; a negative
// count is an empty array, as the engine reads it. The elements are
// counted against MaxElements.
func (r *Reader) StringsCount(off, p int) (int, error) {
	t := TypePackedStringArray
	if rem := r.rem(p); rem < 4 {
		return 0, r.Short(off, t, 4, rem)
	}
	n := int64(int32(wire.U32(r.b[p:])))
	if n <= 0 {
		return 0, nil
	}
	if err := r.Take(off, t, n); err != nil {
		return 0, err
	}
	return int(n), nil
}

// NodePathHead reads the head of a NodePath payload at p: its number of
// names, its total number of strings (names, then subnames) and its
// absolute flag, as the engine reads them, and returns the offset of the
// first string. The strings are counted against MaxElements.
func (r *Reader) NodePathHead(off, p int) (names, total uint32, absolute bool, q int, err error) {
	t := TypeNodePath
	rem := r.rem(p)
	if rem < 4 {
		return 0, 0, false, 0, r.Short(off, t, 4, rem)
	}
	first := wire.U32(r.b[p:])
	if first&wire.NodePathNewFormat == 0 {
		return 0, 0, false, 0, r.Fail(off, t, ErrInvalidData, ErrCodeInvalidData, "old NodePath format (bit 31 clear)")
	}
	if rem < 12 {
		return 0, 0, false, 0, r.Short(off, t, 12, rem)
	}
	names = first &^ wire.NodePathNewFormat
	flags := wire.U32(r.b[p+8:])
	// The engine adds the counts as uint32 and reads that many strings,
	// names first; the obsolete property flag adds one subname.
	total = names + wire.U32(r.b[p+4:])
	if flags&wire.NodePathProperty != 0 {
		total++
	}
	if err := r.Take(off, t, int64(total)); err != nil {
		return 0, 0, false, 0, err
	}
	return names, total, flags&wire.NodePathAbsolute != 0, p + 12, nil
}

// ObjectID reads the payload of an Object whose header h is at off when
// it is sent as an instance ID (header flag wire.FlagObjectAsID): the ID,
// 0 for a null Object, and the offset after it. asID is false for a full
// Object, which ObjectHead reads.
func (r *Reader) ObjectID(off int, h uint32) (id uint64, next int, asID bool, err error) {
	if h&wire.FlagObjectAsID == 0 {
		return 0, 0, false, nil
	}
	raw, next, err := r.Field(off, off+4, TypeObject, 8)
	if err != nil {
		return 0, 0, true, err
	}
	return wire.U64(raw), next, true, nil
}

// ObjectHead reads the head of a full Object (not one sent as an
// instance ID) at p: its class, checked against AllowObjects and Classes,
// and its property count, counted against MaxElements. An empty class is
// a null Object: n is then 0 and q the offset after it. Otherwise q is the
// offset of the first property.
func (r *Reader) ObjectHead(off, p int) (class []byte, n int, q int, err error) {
	t := TypeObject
	if !r.allowObjects {
		return nil, 0, 0, r.Fail(off, t, ErrObjectsNotAllowed, ErrCodeUnauthorized, "decoding a full Object needs AllowObjects")
	}
	class, q, err = r.Str(p, t)
	if err != nil || len(class) == 0 {
		return class, 0, q, err
	}
	if r.classes != nil && !r.classes(string(class)) {
		return nil, 0, 0, r.Fail(off, t, ErrObjectsNotAllowed, r.ff.ClassRefused,
			"class "+strconv.Quote(string(class))+" cannot be instantiated (DecOptions.Classes)")
	}
	if r.rem(q) < 4 {
		return nil, 0, 0, r.Short(off, t, 4, r.rem(q))
	}
	c := int64(int32(wire.U32(r.b[q:])))
	q += 4
	if c > 0 {
		if err := r.Take(off, t, c); err != nil {
			return nil, 0, 0, err
		}
	}
	return class, int(max(c, 0)), q, nil
}

// CheckScript applies the engine's rule to the "script" property of a
// Godot 4 Object: at is the offset of the property's value, t its type
// and s its text when it is a String. isNil values pass.
func (r *Reader) CheckScript(at int, t Type, s []byte, isNil bool) error {
	if !r.ff.ScriptPaths || isNil {
		return nil
	}
	// Godot 4.3+ names the script by its path and loads it.
	if t != TypeString || !strings.HasPrefix(string(s), "res://") || len(s) == len("res://") {
		return scriptError(r.Fail(at, t, ErrInvalidData, ErrCodeInvalidData,
			"an Object's script must be a res:// path"))
	}
	if r.scripts != nil && !r.scripts(string(s)) {
		return scriptError(r.Fail(at, TypeString, ErrObjectsNotAllowed, ErrCodeInvalidData,
			"no script "+strconv.Quote(string(s))+" (DecOptions.Scripts)"))
	}
	return nil
}

// scriptError places err, an error of an Object's "script" property, at
// the path .script. The path is complete: outer segments added on the way
// up go before it.
func scriptError(err error) error {
	err.(*Error).Path = ".script"
	return err
}

// CheckProperty applies the engine's rules to the property name of a full
// Object, read already, whose value of type t is at at and decodes as nil
// when isNil: the "script" property must name a script (see CheckScript).
func (r *Reader) CheckProperty(name []byte, at int, t Type, isNil bool) error {
	if string(name) != "script" {
		return nil
	}
	var s []byte
	if t == TypeString {
		s, _, _ = r.Str(at+4, t)
	}
	return r.CheckScript(at, t, s, isNil)
}

// encodedObjectAsID is the class the engine decodes objects sent as
// instance IDs into, and the class it names in typed containers of objects
// when objects are not allowed.
const encodedObjectAsID = "EncodedObjectAsID"

// ContainerType reads the type data of kind kind (a 2-bit field of the
// header) of a typed container of type t (Godot 4.3+) at p, and returns
// the offset after it.
func (r *Reader) ContainerType(off, p int, kind uint32, t Type) (ContainerType, int, error) {
	switch kind {
	case wire.KindBuiltin:
		if r.rem(p) < 4 {
			return ContainerType{}, 0, r.Short(off, t, 4, r.rem(p))
		}
		id := int32(wire.U32(r.b[p:]))
		if id < 0 || id >= int32(TypeCount) {
			return ContainerType{}, 0, r.Fail(off, t, ErrInvalidData, ErrCodeInvalidData,
				"element type id "+strconv.Itoa(int(id)))
		}
		if Type(id) == TypeObject && !r.allowObjects && !r.strict {
			// Without objects the engine types the container as the
			// class it decodes objects into.
			return ContainerType{Kind: ClassName, Builtin: TypeObject, Name: encodedObjectAsID}, p + 4, nil
		}
		return Typed(Type(id)), p + 4, nil
	case wire.KindClassName, wire.KindScript:
		raw, next, err := r.Str(p, t)
		if err != nil {
			return ContainerType{}, 0, err
		}
		name := string(raw)
		if kind == wire.KindScript {
			if r.allowObjects && (len(name) <= len("res://") || name[:6] != "res://") {
				return ContainerType{}, 0, r.Fail(off, t, ErrInvalidData, ErrCodeInvalidData,
					"script path "+strconv.Quote(name)+" is not a res:// path")
			}
			if r.allowObjects && r.scripts != nil && !r.scripts(name) {
				return ContainerType{}, 0, r.Fail(off, t, ErrObjectsNotAllowed, ErrCodeInvalidData,
					"no script "+strconv.Quote(name)+" (DecOptions.Scripts)")
			}
			return objectContainerType(Script, name, r.allowObjects), next, nil
		}
		return objectContainerType(ClassName, name, r.allowObjects), next, nil
	}
	return ContainerType{}, p, nil
}

// objectContainerType is the type of a container typed with objects of a
// class (kind ClassName) or script (kind Script) named name, as Godot 4.6
// types it. Without objects the engine names the class EncodedObjectAsID
// whatever the data says; the model keeps the name the data gives (the
// encoder writes EncodedObjectAsID then too), except an empty one:
//
//   - an empty class name, with objects: any Object, Array[Object];
//   - an empty class name or script path, without objects: the engine's
//     Array[EncodedObjectAsID], which the text form can express;
//   - an empty script path with objects is refused before this.
func objectContainerType(kind ContainerKind, name string, allowObjects bool) ContainerType {
	switch {
	case name == "" && allowObjects:
		return Typed(TypeObject)
	case name == "":
		return ContainerType{Kind: ClassName, Builtin: TypeObject, Name: encodedObjectAsID}
	}
	return ContainerType{Kind: kind, Builtin: TypeObject, Name: name}
}

// ArrayHead reads the head of an Array whose header h is at off: its
// element type (Godot 4.3+) and its element count, counted against
// MaxElements. q is the offset of the count; the elements follow it.
func (r *Reader) ArrayHead(off int, h uint32) (elem ContainerType, n, q int, err error) {
	t := TypeArray
	q = off + 4
	if kind, _ := r.TypeKinds(h, t); kind != 0 {
		if elem, q, err = r.ContainerType(off, q, kind, t); err != nil {
			return elem, 0, 0, err
		}
	}
	n, err = r.ContainerCount(off, q, t)
	return elem, n, q, err
}

// QuickContainerHead is ArrayHead's and DictHead's common case, small
// enough to inline: an untyped container (header h at off) whose count is
// there and within MaxElements, read without a DecodeBudget. It returns
// the count and its offset q; when it reports false, ArrayHead or
// DictHead decides.
func (r *Reader) QuickContainerHead(off int, h uint32) (n, q int, ok bool) {
	q = off + 4
	// The four bits that can carry a Dictionary's type kinds (an Array's
	// are the first two): when all are clear, TypeKinds reports none.
	if (h&(0xF<<wire.DictKeyTypeShift) == 0 || !r.ff.TypedContainers) && q+4 <= len(r.b) && r.valuesLeft < 0 {
		n = int(wire.U32(r.b[q:]) & wire.CountMask)
		if e := r.elements + int64(n); r.maxElements <= 0 || e <= r.maxElements {
			r.elements = e
			return n, q, true
		}
	}
	return 0, 0, false
}

// DictHead reads the head of a Dictionary whose header h is at off: its
// key and value types (Godot 4.4+) and its entry count, counted against
// MaxElements. q is the offset of the count; the entries follow it.
func (r *Reader) DictHead(off int, h uint32) (key, value ContainerType, n, q int, err error) {
	t := TypeDictionary
	q = off + 4
	if kk, vk := r.TypeKinds(h, t); kk|vk != 0 {
		if key, q, err = r.ContainerType(off, q, kk, t); err != nil {
			return key, value, 0, 0, err
		}
		if value, q, err = r.ContainerType(off, q, vk, t); err != nil {
			return key, value, 0, 0, err
		}
	}
	n, err = r.ContainerCount(off, q, t)
	return key, value, n, q, err
}

// TypeKinds returns the kinds of type data (a 2-bit field each:
// wire.KindBuiltin, wire.KindClassName, wire.KindScript, or 0 for none)
// that the header h of an Array or Dictionary t announces, as ArrayHead
// and DictHead read them: an Array's element type (second is 0), a
// Dictionary's key and value types. Both are 0 for untyped containers and
// for families without typed containers. A Dictionary with either kind
// set carries the type data of both, a kind of 0 taking no bytes.
func (r *Reader) TypeKinds(h uint32, t Type) (first, second uint32) {
	if !r.ff.TypedContainers {
		return 0, 0
	}
	if t == TypeArray {
		return h >> wire.ArrayTypeShift & wire.KindMask, 0
	}
	return h >> wire.DictKeyTypeShift & wire.KindMask, h >> wire.DictValueTypeShift & wire.KindMask
}

// ContainerCount reads the element count of an Array or the entry count
// of a Dictionary (t, whose header is at off) at q, after the type data,
// and counts it against MaxElements. Bit 31, the never-written "shared"
// flag, is ignored, as the engine ignores it.
func (r *Reader) ContainerCount(off, q int, t Type) (int, error) {
	if q+4 > len(r.b) {
		return 0, r.Short(off, t, 4, r.rem(q))
	}
	n := int(wire.U32(r.b[q:]) & wire.CountMask)
	return n, r.Take(off, t, int64(n))
}

// Field returns the size bytes at p of the value of type t whose header is
// at off, and the offset after them; when fewer are left, the error of a
// payload that does not fit (see Short). It reads the fixed-size parts
// that have no reader of their own: an RID, a Signal's object, an Object
// sent as an instance ID.
func (r *Reader) Field(off, p int, t Type, size int) ([]byte, int, error) {
	if rem := r.rem(p); rem < size {
		return nil, 0, r.Short(off, t, size, rem)
	}
	return r.b[p : p+size], p + size, nil
}

// Skip checks the Variant at off, nested depth deep, exactly as Value
// would decode it, without building it. It returns the offset after it,
// its type, and whether it decodes as nil (Nil, a null Object).
func (r *Reader) Skip(off, depth int) (next int, t Type, isNil bool, err error) {
	next, t, isNil, err = r.skip(off, depth)
	return next, t, isNil, finishPath(err)
}

func (r *Reader) skip(off, depth int) (int, Type, bool, error) {
	h, t, err := r.Head(off, depth)
	if err != nil {
		return 0, t, false, err
	}
	p := off + 4
	rem := r.rem(p)
	size := facts(t).Size
	if r.Wide(h, t) {
		size *= 2
	}
	if t == TypeRID {
		size = r.ff.RIDSize
	}
	if size > 0 {
		if rem < size {
			return 0, t, false, r.Short(off, t, size, rem)
		}
		return p + size, t, false, nil
	}
	switch t {
	case TypeNil:
		return p, t, true, nil
	case TypeInt, TypeFloat:
		size := 4
		if h&wire.Flag64 != 0 {
			size = 8
		}
		if rem < size {
			return 0, t, false, r.Short(off, t, size, rem)
		}
		return p + size, t, false, nil
	case TypeString, TypeStringName:
		_, next, err := r.Str(p, t)
		return next, t, false, err
	case TypeNodePath:
		_, total, _, q, err := r.NodePathHead(off, p)
		if err != nil {
			return 0, t, false, err
		}
		for range total {
			if _, q, err = r.Str(q, t); err != nil {
				return 0, t, false, err
			}
		}
		return q, t, false, nil
	case TypeRID, TypeCallable: // Godot 3's RID has no payload
		return p, t, false, nil
	case TypeObject:
		return r.skipObject(off, p, h, depth)
	case TypeSignal:
		_, next, err := r.Str(p, t)
		if err != nil {
			return 0, t, false, err
		}
		if r.rem(next) < 8 {
			return 0, t, false, r.Short(off, t, 8, r.rem(next))
		}
		return next + 8, t, false, nil
	case TypeDictionary:
		_, _, n, q, err := r.DictHead(off, h)
		if err != nil {
			return 0, t, false, err
		}
		q += 4
		for i := range n {
			keyOff := q
			next, _, _, err := r.skip(q, depth+1)
			if err != nil {
				return 0, t, false, prefixPath(err, KeyIndexSeg(i))
			}
			if q, _, _, err = r.skip(next, depth+1); err != nil {
				return 0, t, false, prefixPath(err, r.KeySegAt(keyOff, depth+1))
			}
		}
		return q, t, false, nil
	case TypeArray:
		_, n, q, err := r.ArrayHead(off, h)
		if err != nil {
			return 0, t, false, err
		}
		q += 4
		for i := range n {
			if q, _, _, err = r.skip(q, depth+1); err != nil {
				return 0, t, false, prefixPath(err, IndexSeg(i))
			}
		}
		return q, t, false, nil
	case TypePackedByteArray:
		n, err := r.Count(off, p, t, 1)
		if err != nil {
			return 0, t, false, err
		}
		return p + 4 + n + wire.Pad4(n), t, false, nil
	case TypePackedStringArray:
		n, err := r.StringsCount(off, p)
		if err != nil {
			return 0, t, false, err
		}
		q := p + 4
		for i := range n {
			if _, q, err = r.Str(q, t); err != nil {
				return 0, t, false, prefixPath(err, IndexSeg(i))
			}
		}
		return q, t, false, nil
	}
	if size := r.ElemSize(h, t); size > 0 {
		n, err := r.Count(off, p, t, size)
		return p + 4 + n*size, t, false, err
	}
	return 0, t, false, r.Fail(off, t, ErrInvalidType, ErrCodeInvalidData, "")
}

// ElemSize is the size in bytes of one element of a packed array of type
// t with header h (0 for the types that are not packed arrays of
// fixed-size elements).
func (r *Reader) ElemSize(h uint32, t Type) int {
	f := facts(t)
	if r.Wide(h, t) {
		return 2 * f.ElemSize
	}
	return f.ElemSize
}

func (r *Reader) skipObject(off, p int, h uint32, depth int) (int, Type, bool, error) {
	t := TypeObject
	if id, next, asID, err := r.ObjectID(off, h); asID {
		return next, t, id == 0, err
	}
	class, n, q, err := r.ObjectHead(off, p)
	if err != nil {
		return 0, t, false, err
	}
	if len(class) == 0 {
		return q, t, true, nil
	}
	for range n {
		name, at, err := r.Str(q, t)
		if err != nil {
			return 0, t, false, err
		}
		next, vt, isNil, err := r.skip(at, depth+1)
		if err != nil {
			return 0, t, false, prefixPath(err, "."+string(name))
		}
		if err := r.CheckProperty(name, at, vt, isNil); err != nil {
			return 0, t, false, err
		}
		q = next
	}
	return q, t, false, nil
}

// Value decodes the Variant at off, nested depth deep, as Decode decodes
// it as part of the whole input, and returns it with the offset after it.
// Unlike Decode's count, that offset is not limited to the input's length
// (a PackedByteArray may end without its final padding).
func (r *Reader) Value(off, depth int) (Value, int, error) {
	d := decoder{Reader: *r, base: r.elements}
	v, next, err := d.value(off, depth)
	r.elements, r.budget = d.elements, d.budget
	return v, next, finishPath(err)
}

// Reread decodes again the Variant at off, nested depth deep, a value
// read already (by Skip, say): its elements are not counted twice against
// MaxElements.
func (r *Reader) Reread(off, depth int) (Value, int, error) {
	d := decoder{Reader: *r, base: r.elements}
	d.maxElements = 0
	v, next, err := d.value(off, depth)
	r.budget = d.budget
	return v, next, finishPath(err)
}

// KeySegAt renders the Dictionary key at off, nested depth deep (a key
// read already), as a Variant path segment, for errors; see KeySeg.
//
// Only the keys KeySeg spells out (String, StringName, int) are decoded
// again; the others are checked without being built, so that rendering a
// large key takes no memory.
func (r *Reader) KeySegAt(off, depth int) string {
	c := *r
	c.maxElements, c.valuesLeft = 0, -1 // read already: counted once
	_, t, isNil, err := c.skip(off, depth)
	switch {
	case err != nil:
		return "[?]"
	case isNil:
		return KeySeg(nil)
	case t != TypeString && t != TypeStringName && t != TypeInt:
		return typeSeg(t)
	}
	k, _, err := r.Reread(off, depth)
	if err != nil {
		return "[?]"
	}
	return KeySeg(k)
}

// Int reads the payload of an int whose header h is at off: 32 bits, or
// 64 with wire.Flag64.
func (r *Reader) Int(off int, h uint32) (int64, int, error) {
	if p := off + 4; h&wire.Flag64 == 0 && p+4 <= len(r.b) {
		return int64(int32(wire.U32(r.b[p:]))), p + 4, nil
	}
	return r.intSlow(off, h)
}

func (r *Reader) intSlow(off int, h uint32) (int64, int, error) {
	x, next, err := r.payload(off, h, TypeInt)
	if h&wire.Flag64 == 0 {
		return int64(int32(x)), next, err
	}
	return int64(x), next, err
}

// payload reads the payload of an int or float whose header h is at off:
// 4 bytes, or 8 with wire.Flag64.
func (r *Reader) payload(off int, h uint32, t Type) (uint64, int, error) {
	p := off + 4
	size := 4
	if h&wire.Flag64 != 0 {
		size = 8
	}
	if rem := r.rem(p); rem < size {
		return 0, 0, r.Short(off, t, size, rem)
	}
	if size == 8 {
		return wire.U64(r.b[p:]), p + 8, nil
	}
	return uint64(wire.U32(r.b[p:])), p + 4, nil
}

// Float reads the payload of a float whose header h is at off: a
// binary32, or a binary64 with wire.Flag64.
func (r *Reader) Float(off int, h uint32) (float64, int, error) {
	if p := off + 4; h&wire.Flag64 == 0 && p+4 <= len(r.b) {
		return float64(wire.F32(r.b[p:])), p + 4, nil
	}
	return r.floatSlow(off, h)
}

func (r *Reader) floatSlow(off int, h uint32) (float64, int, error) {
	x, next, err := r.payload(off, h, TypeFloat)
	if h&wire.Flag64 == 0 {
		return float64(math.Float32frombits(uint32(x))), next, err
	}
	return math.Float64frombits(x), next, err
}

// Bool reads the payload of a bool whose header is at off.
func (r *Reader) Bool(off int) (bool, int, error) {
	p := off + 4
	if rem := r.rem(p); rem < 4 {
		return false, 0, r.Short(off, TypeBool, 4, rem)
	}
	return wire.U32(r.b[p:]) != 0, p + 4, nil
}

// Reals reads the len(dst) real components of the value of type t whose
// header h is at off: float64 in double precision (see Wide), else
// float32. It returns the offset after them.
func (r *Reader) Reals(off int, h uint32, t Type, dst []float64) (int, error) {
	p := off + 4
	if r.Wide(h, t) {
		if rem := r.rem(p); rem < 8*len(dst) {
			return 0, r.Short(off, t, 8*len(dst), rem)
		}
		src := r.b[p : p+8*len(dst)]
		for i := range dst {
			dst[i] = wire.F64(src[8*i:])
		}
		return p + 8*len(dst), nil
	}
	if rem := r.rem(p); rem < 4*len(dst) {
		return 0, r.Short(off, t, 4*len(dst), rem)
	}
	src := r.b[p : p+4*len(dst)]
	for i := range dst {
		dst[i] = float64(wire.F32(src[4*i:]))
	}
	return p + 4*len(dst), nil
}

// Words reads the len(dst) 32-bit components of the value of type t at off
// (the int32 components of an integer vector, the float32 bits of a
// Color) and returns the offset after them.
func (r *Reader) Words(off int, t Type, dst []uint32) (int, error) {
	p := off + 4
	if rem := r.rem(p); rem < 4*len(dst) {
		return 0, r.Short(off, t, 4*len(dst), rem)
	}
	src := r.b[p : p+4*len(dst)]
	for i := range dst {
		dst[i] = wire.U32(src[4*i:])
	}
	return p + 4*len(dst), nil
}
