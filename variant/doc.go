// Package variant is Godot's Variant: a Go value model for every Variant
// type of Godot 4 and Godot 3, and the binary codec behind var_to_bytes and
// bytes_to_var (also the payload of FileAccess.store_var, StreamPeer.put_var
// and PacketPeer.put_var), byte for byte as the engines write and read it. Limits: nesting stops at
// DecOptions.MaxDepth (1024 by default, the engine's limit); MaxSize and
// MaxElements bound an input when set; full Objects are refused unless
// AllowObjects is set, and are then kept as plain data, never instantiated.
//
// # Values
//
// A Value is one of this package's types (Int, Float, String, Vector2,
// *Dictionary, *Array, PackedByteArray, …) or nil for Nil. Godot 3 types
// share the Go types of their Godot 4 successors (Quat is Quaternion,
// PoolIntArray is PackedInt32Array). Dictionaries keep insertion order and
// take any Value as key; typed Arrays and Dictionaries keep their element
// types; full Objects are plain data (class name and ordered properties).
//
// # Printing
//
// Every Value prints itself in the Godot 4 text form that var_to_str writes
// (fmt.Println(dict) prints { "hp": 99.5, "pos": Vector2(1, 2) }): String
// for %v and %s, GoString, which gives the same text, for %#v. String never
// fails; NodePath's String returns the bare path, as Godot's str() does.
// AppendText writes the text for either family and reports what the text
// form cannot express; TextOptions.MaxBytes bounds the text, cutting it
// with TextCut ("…") without formatting the rest of the value. Package
// gdtext reads the text back and documents it.
//
// # Decoding and encoding
//
// Decode and Encode use the defaults: Godot 4, objects only as instance
// IDs, single precision. Other settings go through option structs that
// build immutable, reusable modes:
//
//	dec, err := variant.DecOptions{Family: variant.Godot3, AllowObjects: true}.DecMode()
//	v, n, err := dec.Decode(data)
//
//	enc, err := variant.EncOptions{Version: variant.Version{Major: 4, Minor: 2}}.EncMode()
//	buf, err = enc.Append(buf[:0], v)
//
// The encoder makes the engine's choices (int and float widths, Nil for null
// objects, NUL-terminated PackedStringArray elements, zero padding); the
// decoder refuses what the engine refuses and tolerates what it tolerates,
// and bounds both its recursion (1024 levels, as the engine) and its memory
// (no count in the data reserves more than the remaining bytes could hold).
//
// # Memory
//
// Decoding a large message allocates in blocks: past its first few dozen
// elements, a call places small values (Int, Float, String, vectors, small
// Dictionaries) side by side in blocks of up to 4 KiB instead of one
// allocation each, which makes it several times cheaper. A value kept after
// the rest of its message is dropped may keep its block alive. A DecMode
// also shares recently seen Dictionary key strings between calls. With
// ZeroCopy, strings and packed arrays share the input itself.
//
// # Errors
//
// Every error is an *Error carrying the byte offset, the path inside the
// value, the Variant type, the engine's error code and a sentinel
// (ErrTruncated, ErrInvalidData, ErrObjectsNotAllowed, …) for errors.Is.
package variant
