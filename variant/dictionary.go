package variant

import (
	"iter"
)

// Dictionary is a Variant Dictionary: key/value pairs in insertion order,
// any Value as key, optionally typed (Godot 4.4+).
//
// Keys are matched as Godot 4 matches them: String and StringName with the
// same text are the same key, Int and Float never are (1 and 1.0 are two
// keys), floats compare by value with NaN equal to NaN, and the element
// types of Arrays and Dictionaries do not count (Array[int]() and Array()
// are one key). Inside an Array or Dictionary key, as in the engine, the
// elements and values compare more strictly: ["a"] and [&"a"] are two
// keys, and a key holding a Float NaN there (such as [NAN]) equals no key,
// not even itself, so each is a new entry and Get never finds it; the
// keys of a Dictionary inside a key still compare as keys. Objects, which
// the engine matches by instance, are matched by class and properties.
// These rules hold in both families: Godot 3.2.3 differs in matching
// Dictionary keys by instance too (two {} are two keys) and in taking
// [NAN] and [NAN] for one key. Setting an existing key replaces its value
// in place, keeping its position and its first key.
//
// Finding a key costs time proportional to the key's size, whatever the
// keys already there: unless there are only a few entries, all with simple
// keys (strings, numbers, vectors), keys are found by a hash of their
// whole content. A key must not be modified while it is in a
// Dictionary (as a Go map key cannot be).
//
// A typed Dictionary (Godot 4.4+) says so through KeyType and ValueType,
// and SetTypes makes one; the zero Dictionary is untyped.
//
// Reading a Dictionary (Get, Len, Entries, All, KeyType, ValueType) from
// several goroutines at once is safe; a Dictionary is not safe for
// concurrent use when one goroutine modifies it.
type Dictionary struct {
	types   *dictTypes // nil when untyped; never modified once set
	entries []Entry
	index   *keyIndex // exactly when needsIndex, or inBlock
}

// dictTypes are a typed Dictionary's key and value types. They sit behind
// a pointer, shared by Dictionaries of the same types, so that the
// Dictionary itself stays small: a decoded message of many small
// Dictionaries is mostly their headers and entries.
type dictTypes struct{ key, value ContainerType }

// KeyType returns the type of the Dictionary's keys; untyped (the zero
// ContainerType) unless the Dictionary is typed.
func (d *Dictionary) KeyType() ContainerType {
	if d == nil || d.types == nil {
		return ContainerType{}
	}
	return d.types.key
}

// ValueType returns the type of the Dictionary's values; untyped (the zero
// ContainerType) unless the Dictionary is typed.
func (d *Dictionary) ValueType() ContainerType {
	if d == nil || d.types == nil {
		return ContainerType{}
	}
	return d.types.value
}

// SetTypes makes the Dictionary typed, with keys of type key and values of
// type value, as the engine's Dictionary[key, value]; with two untyped
// ContainerTypes it makes it untyped. It does not check or convert the
// entries already there: the encoder writes the types as they are.
func (d *Dictionary) SetTypes(key, value ContainerType) {
	d.types = newDictTypes(key, value)
}

// newDictTypes returns the types of a Dictionary typed key, value, or nil
// when both are untyped.
func newDictTypes(key, value ContainerType) *dictTypes {
	if !key.IsTyped() && !value.IsTyped() {
		return nil
	}
	if !key.IsTyped() {
		key = ContainerType{}
	}
	if !value.IsTyped() {
		value = ContainerType{}
	}
	return &dictTypes{key, value}
}

// inBlock, as a Dictionary's index, says that its entries are in a decode
// call's block (see arena.go), memory the garbage collector does not scan:
// they are copied to ordinary memory before any change. Such entries are
// few, with simple keys, and need no index.
var inBlock = new(keyIndex)

// own moves entries that are in a block to ordinary memory.
func (d *Dictionary) own() {
	if d.index == inBlock {
		d.entries = append(make([]Entry, 0, cap(d.entries)), d.entries...)
		d.index = nil
	}
}

// keyIndex finds Dictionary entries by key hash: first maps a hash to the
// last entry with that hash, next links entries with equal hashes (-1 ends
// a chain), and hash holds the hash of every entry's key, which also
// serves hashing the Dictionary itself as part of a key.
type keyIndex struct {
	first map[uint64]int32
	next  []int32
	hash  []uint64
	// unmatchable says that some key is unmatchable (see hashKeyFull),
	// and so is every key holding this Dictionary.
	unmatchable bool
}

// Entry is one key/value pair of a Dictionary.
type Entry struct {
	Key   Value
	Value Value
}

// linearMax is the size up to which lookups scan the entries.
const linearMax = 16

// NewDictionary returns an empty untyped Dictionary with room for n entries.
func NewDictionary(n int) *Dictionary {
	return &Dictionary{entries: make([]Entry, 0, n)}
}

// NewTypedDictionary returns an empty Dictionary typed key, value (see
// SetTypes) with room for n entries.
func NewTypedDictionary(key, value ContainerType, n int) *Dictionary {
	d := NewDictionary(n)
	d.SetTypes(key, value)
	return d
}

// Len returns the number of entries; a nil *Dictionary has none.
func (d *Dictionary) Len() int {
	if d == nil {
		return 0
	}
	return len(d.entries)
}

// Entries returns the entries in order. The slice belongs to the Dictionary:
// read it, don't modify it. (Entries that a decode call placed in its
// blocks, memory the garbage collector does not scan, come as a copy:
// a Value written there by mistake would not keep its memory alive.)
func (d *Dictionary) Entries() []Entry {
	if d == nil {
		return nil
	}
	if d.index == inBlock {
		return append([]Entry(nil), d.entries...)
	}
	return d.entries
}

// view returns the entries, without a copy, for reading only.
func (d *Dictionary) view() []Entry {
	if d == nil {
		return nil
	}
	return d.entries
}

// All iterates over the entries in order.
func (d *Dictionary) All() iter.Seq2[Value, Value] {
	return func(yield func(Value, Value) bool) {
		for _, e := range d.view() {
			if !yield(e.Key, e.Value) {
				return
			}
		}
	}
}

// Get returns the value stored under key.
func (d *Dictionary) Get(key Value) (Value, bool) {
	if d == nil {
		return nil, false
	}
	if i, _, _ := d.find(key); i >= 0 {
		return d.entries[i].Value, true
	}
	return nil, false
}

// Set stores value under key: in place if the key exists, else at the end.
func (d *Dictionary) Set(key, value Value) {
	d.own()
	i, h, unmatchable := d.find(key)
	if i >= 0 {
		d.entries[i].Value = value
		return
	}
	d.entries = append(d.entries, Entry{key, value})
	switch {
	case d.index != nil:
		d.link(h, unmatchable, len(d.entries)-1)
	case len(d.entries) > linearMax || !simpleKey(key):
		d.rebuild(nil)
	}
}

// Delete removes key and reports whether it was there.
func (d *Dictionary) Delete(key Value) bool {
	if d == nil {
		return false
	}
	i, _, _ := d.find(key)
	if i < 0 {
		return false
	}
	d.own()
	d.entries = append(d.entries[:i], d.entries[i+1:]...)
	var hashes []uint64
	if d.index != nil && !d.index.unmatchable {
		// (With an unmatchable key, rebuild hashes the keys again to
		// know whether one is left.)
		hashes = append(d.index.hash[:i:i], d.index.hash[i+1:]...)
	}
	d.index = nil
	if d.needsIndex() {
		d.rebuild(hashes)
	}
	return true
}

// find returns the index of key's entry, or -1, and, when the index is in
// use, the key's hash and whether it is unmatchable (then it is in no
// Dictionary, and no key is compared with it).
func (d *Dictionary) find(key Value) (int, uint64, bool) {
	if d.index == nil || d.index == inBlock {
		// A few entries, all with simple keys: a scan compares each at
		// little cost.
		for i := range d.entries {
			if sameKey(d.entries[i].Key, key) {
				return i, 0, false
			}
		}
		return -1, 0, false
	}
	h, unmatchable := hashKeyFull(key)
	if unmatchable {
		return -1, h, true
	}
	for i, ok := d.index.first[h]; ok && i >= 0; i = d.index.next[i] {
		if sameKey(d.entries[i].Key, key) {
			return int(i), h, false
		}
	}
	return -1, h, false
}

// simpleKey reports whether comparing k with another key costs little:
// it is not a container, an Object, a NodePath or a packed array. A
// Dictionary whose keys are all simple and few needs no index.
func simpleKey(k Value) bool {
	switch k.(type) {
	case String, StringName, Int, Float, Bool, nil:
		return true
	case *Array, *Dictionary, *Object, ObjectID, NodePath:
		return false
	}
	return k.Type() < TypePackedByteArray
}

// needsIndex reports whether the entries need an index: there are more
// than linearMax or one of the keys is not simple.
func (d *Dictionary) needsIndex() bool {
	if len(d.entries) > linearMax {
		return true
	}
	for _, e := range d.entries {
		if !simpleKey(e.Key) {
			return true
		}
	}
	return false
}

// rebuild indexes the entries, whose key hashes are hashes when known
// (nil: hash the keys). Set and Delete keep the index in step, so that
// reading never writes.
func (d *Dictionary) rebuild(hashes []uint64) {
	d.index = &keyIndex{
		first: make(map[uint64]int32, len(d.entries)),
		next:  make([]int32, 0, cap(d.entries)),
		hash:  make([]uint64, 0, cap(d.entries)),
	}
	for i, e := range d.entries {
		if hashes != nil {
			d.link(hashes[i], false, i)
		} else {
			h, unmatchable := hashKeyFull(e.Key)
			d.link(h, unmatchable, i)
		}
	}
}

// link adds entry i, whose key hashes to h, to the index.
func (d *Dictionary) link(h uint64, unmatchable bool, i int) {
	d.index.unmatchable = d.index.unmatchable || unmatchable
	next, ok := d.index.first[h]
	if !ok {
		next = -1
	}
	d.index.next = append(d.index.next, next)
	d.index.hash = append(d.index.hash, h)
	d.index.first[h] = int32(i)
}

// keyHash returns the hash of entry i's key: the one the index holds, if
// there is one.
func (d *Dictionary) keyHash(i int) uint64 {
	if d.index != nil && d.index != inBlock {
		return d.index.hash[i]
	}
	return hashKey(d.entries[i].Key)
}

// hasUnmatchableKey reports whether a key of d is unmatchable (see
// hashKeyFull). Only an indexed Dictionary can have one: the keys of the
// others are simple.
func (d *Dictionary) hasUnmatchableKey() bool {
	return d != nil && d.index != nil && d.index != inBlock && d.index.unmatchable
}

// sameKey reports whether a and b are the same Dictionary key.
func sameKey(a, b Value) bool {
	if keyWork != nil {
		keyWork.Add(1)
	}
	// Fast paths for the common key types.
	switch x := a.(type) {
	case String:
		switch y := b.(type) {
		case String:
			return x == y
		case StringName:
			return string(x) == string(y)
		}
		return false
	case StringName:
		switch y := b.(type) {
		case String:
			return string(x) == string(y)
		case StringName:
			return x == y
		}
		return false
	case Int:
		y, ok := b.(Int)
		return ok && x == y
	}
	return equalIn(a, b, eqKey)
}
