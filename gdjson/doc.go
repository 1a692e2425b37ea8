// Package gdjson writes and reads Godot values as JSON, in the two forms of
// Godot 4's JSON class. Limits: Godot 4 only (Godot 3's JSON has no typed
// form); the plain form is lossy by nature, and even the typed form keeps only
// the type of a RID, Callable or Signal, as the engine does; Parse stops at
// ParseOptions.MaxDepth (the engine's 1024 by default).
//
// The plain form is what JSON.stringify(value) writes and
// JSON.parse_string reads. It is lossy by nature: JSON has only numbers,
// strings, arrays and objects, so every number reads back as a float,
// Dictionary keys become strings, and the other types (Vector2,
// PackedByteArray, NodePath, …) are written as their str() text
// ("(1.0, 2.0)"), which reads back as a String.
//
// The typed form is JSON.stringify(JSON.from_native(value)), which
// JSON.to_native reads back (Godot 4.4 and later): every value carries its
// type, "i:42" for an int, "f:0.5" for a float, "s:text" for a String,
// "sn:" for a StringName, "np:" for a NodePath, and
// {"type": "Vector2", "args": [1.0, 2.0]} for the others; typed Arrays
// and Dictionaries carry "elem_type", "key_type" and "value_type", full
// objects "props".
//
//	text, err := gdjson.Format(v, gdjson.Options{Form: gdjson.Typed})
//	v, err := gdjson.Parse(text, gdjson.ParseOptions{Form: gdjson.Typed})
//
// Format writes what the engine writes, byte for byte, wherever the
// engine's text holds the value exactly. Where it does not (floats that
// need more than its 14 digits, -0.0, tiny floats), Format writes the
// shortest text that does, which the engine reads too, so that the typed
// form round-trips without loss. The exceptions are the engine's own: a
// RID, Callable or Signal keeps only its type, an object sent as its
// instance ID has no typed form, and a NaN inside a math type or packed
// array is written as null (JSON has no NaN), which Parse reads back as
// NaN and the engine as 0.
//
// Parse reads JSON the way the engine's parser does, including its
// leniency: trailing commas, control characters as white space, \v is
// refused. Numbers of the plain form become floats, as in the engine.
// The components of math types read in the typed form are rounded to
// 32-bit floats, as a single-precision engine stores them, unless
// ParseOptions.Double is set.
package gdjson
