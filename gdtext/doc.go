// Package gdtext reads and writes the text form of Godot Variants: the syntax
// of var_to_str / str_to_var in Godot 4 and of var2str / str2var in Godot 3.
// Limits: Parse stops at ParseOptions.MaxDepth (the binary decoder's 1024 by
// default) and reads the references of resource files (ExtResource,
// SubResource) only with ParseOptions.Resources; Format writes at most
// Options.MaxBytes when set.
//
//	Vector2(1, 2.5)                    Vector2( 1, 2.5 )           (Godot 3)
//	{ "a": 1, "b": [1, 2] }            { "a": 1, "b": [ 1, 2 ] }
//	PackedInt32Array(1, 2)             PoolIntArray( 1, 2 )
//	Array[int]([1, 2])                 Quat( 0, 0, 0, 1 )
//	Dictionary[String, int]({ "a": 1 })
//	&"name"  NodePath("/root/a:b")  RID(13)  Object(Node,"name":"x")  inf  nan
//
// Format writes a variant.Value; Parse reads one. Options.Family and
// ParseOptions.Family choose the engine family (Godot 4 by default).
// Format is variant.AppendText, which also gives every value its String
// method (the Godot 4 text); Options.MaxBytes bounds the text, cut with
// "…", for printing values of any size.
//
// # Writing
//
// The text Format writes for family F is read by that family's engine
// (str_to_var in Godot 4.6, str2var in Godot 3.2.3) back to exactly the
// value: var_to_bytes of what the engine reads equals the encoding of the
// value. Unlike the engine's own writer, Format loses nothing:
//
//   - floats have the fewest digits that read back exactly and always look
//     like floats ("1.0", "0.1", "1e+300"); -0.0 stays "-0.0"; components
//     of math types are written as the engine writes them ("Vector2(1,
//     0.5)"). The engine's number reader is not correctly rounded (see
//     below), so where the shortest digits would be misread Format picks,
//     among the texts that read back exactly with a correct reader, one
//     that the engine reads exactly too;
//   - Dictionaries keep their insertion order (the engine sorts the keys);
//   - strings are escaped so that everything stays on one line: \" \\ \b
//     \t \n \f \r, and \uXXXX for the other control characters, DEL, the C1
//     controls and U+2028/U+2029 (with Options.ResourceFormat, nothing from
//     U+0080, which the engines' file readers would misread). Other
//     characters are written as UTF-8,
//     including those outside the Basic Multilingual Plane (Godot 3's
//     reader has no escape for them). Godot 3 strings can hold more than
//     UTF-8 (surrogates, characters above U+10FFFF; see
//     variant.DecodeRuneGodot3): surrogates are written \uXXXX, which
//     str2var keeps as they are, and characters above U+10FFFF as the bytes
//     Godot 3 writes for them, since no escape gives them: the text is
//     then not valid UTF-8, but the engine reads it from those bytes
//     (get_string_from_utf8, File.get_as_text) back to the same string,
//     and so does Parse. Other strings that are not valid UTF-8 cannot be
//     written;
//   - everything is on one line unless Options.Multiline asks for the
//     engine's layout of Dictionaries, one entry a line. The one-line form
//     is that layout with the line breaks turned into spaces.
//
// Types that do not exist in Godot 3 (Vector2i, StringName, Callable,
// PackedInt64Array, typed containers, …) cannot be written for it. Format
// also fails on nesting deeper than 65536 levels (a container holding
// itself), object class names that are not identifiers and invalid
// container element types; it never panics.
//
// # Reading
//
// Parse reads everything the engine writes — including its multi-line
// Dictionaries, inf_neg, Godot 3's "Vector2( 1, 2 )" spacing and "-inf.0",
// the old names the engine still accepts (Quat, Transform, Matrix32,
// PoolIntArray, … in Godot 4), trailing commas in Arrays, Dictionaries and
// Objects, ';' comments — and everything Format writes. Numbers are read
// correctly rounded; an integer outside the 64-bit range is an error, as is
// a number out of range for an integer component (Vector2i, PackedByteArray,
// …). Typed containers keep their element, key and value types (a class
// name or a script Resource("res://…") as well as a builtin type;
// "Variant" means untyped); their elements are not checked against them.
// Object(Class,"name":value,…) gives a *variant.Object with its properties
// in order, and the engine's text of an EncodedObjectAsID,
// Object(EncodedObjectAsID,"object_id":N), gives variant.ObjectID(N). Only
// white space and comments may follow the value. Nesting is limited by
// ParseOptions.MaxDepth. Errors are *SyntaxError, with the byte offset,
// line and column.
//
// Parse also reads Object(Class) without the comma the engine wants after
// the class name. It is stricter than the engine in a few places: the
// engine ignores text after the first value, clamps out-of-range integers,
// truncates or wraps numbers given to integer constructors and drops extra
// numbers in packed vector arrays; Parse reports all of these. It reads
// Resource(…), ExtResource(…) and SubResource(…) values (they name files
// only an engine can load) only with ParseOptions.Resources, as the values
// of resource files (package resource), and no "#rrggbb" colors (the
// engine writes none). ParsePrefix reads a value at the start of a longer
// text.
//
// # What the engines cannot read
//
// The engines' text readers cannot express everything. In these cases Format
// still writes a text that Parse reads back exactly, and the engine reads
// it as described (checked with Godot 4.6 and 3.2.3):
//
//   - ObjectID: written as the engine writes one,
//     Object(EncodedObjectAsID,"object_id":N). The engine creates a new
//     EncodedObjectAsID object holding N, and var_to_bytes then writes that
//     object's own instance ID, not N.
//   - Signal with a name or an object: written Signal(&"name", id); Godot
//     4.6 silently reads it as an empty Signal(). Callable has no content
//     in the model and is always Callable().
//   - RID in Godot 3: str2var has no RID; Format writes RID() (refused by
//     3.2.3) or RID(n) (read by 3.2.3 as the int n).
//   - NaN inside a Godot 3 constructor (Vector2, Color, PoolRealArray, …):
//     str2var has no way to write one; Format writes nan, which 3.2.3
//     refuses. Infinities there are written ±1e999, which 3.2.3 reads as
//     ±inf (with a warning); outside constructors inf is "inf" and -inf is
//     "-1e999" in Godot 3 (3.2.3 reads "-inf" as the int 0).
//   - NaN payloads and signs: every NaN is written "nan" and read as the
//     engine's NaN (0x7ff8000000000000, as a float 0x7fc00000).
//   - NodePath: a path is written NodePath("text") and the engine rebuilds
//     it from that text, so a name or subname that holds '/' or ':', or is
//     empty, cannot be expressed. Format then writes
//     NodePath(["names"…], ["subnames"…], absolute), which only Parse
//     reads.
//   - NUL in strings: written \u0000. Godot 4.6 turns it into U+FFFD;
//     Godot 3.2.3 keeps it.
//   - Doubles the engines' number reader cannot produce. Both families read
//     numbers with the same routine, which keeps at most 18 mantissa digits
//     (leading zeros count), builds them in a double and scales them by
//     powers of ten computed in doubles. It misreads the shortest digits of
//     many doubles with 16 or 17 significant digits (about 8% of random ones
//     between 1 and 1e30, 30–40% between 1e-10 and 1) by a unit in the last
//     place. Format then looks for another text that reads back exactly with
//     both readers (more digits, trailing zeros, another mantissa) and finds
//     one for all but 1–3% of doubles between about 1e-60 and 1e120 (5–40%
//     farther out, where the engine's powers of ten are themselves
//     inexact). For the rest, and for numbers below about 1e-291 that need
//     many digits (subnormals and the smallest normals, which the engine
//     reads as 0), it writes the text the engine misreads least. Values the
//     engine stores as 32-bit floats (components of math types, Color,
//     PackedFloat32Array) are always read exactly. This search makes Format
//     slower for such doubles, up to some hundred microseconds each.
//   - Typed containers: the engine converts or drops elements of the wrong
//     type when it reads them, and makes a container whose class name it
//     does not know untyped. A class-name element type spelled like a
//     builtin type ("Object") reads back as that builtin type.
//
// # Engine quirks met on the way
//
// Godot 4.6 var_to_str writes floats that fit in 32 bits with 32-bit digits
// (2147483648.0 as "2147483600.0"), -0.0 as 0.0, -inf as inf_neg, sorted
// Dictionary keys, PackedByteArray as a list of numbers, every Signal and
// Callable empty, and a line break after every Object(…); it escapes only
// \" and \\ in Strings but uses C escapes (\n, …) in StringNames, NodePaths
// and PackedStringArrays. str_to_var returns null for text it cannot read
// without reporting an error, ignores text after the first value, accepts
// trailing commas in Arrays and Dictionaries but not in constructors,
// refuses Color(1, 2, 3), StringName("a"), Object(Class) without a comma
// and Transform3D(Basis(…), Vector3(…)), reads @"a" as a StringName, a
// PackedByteArray from a base64 string, \U followed by exactly six hex
// digits, and any other escaped character as itself; it clamps integers beyond 64 bits, truncates
// Vector2i(1.5, 2) and wraps Vector2i(4294967297, 2); Array[Variant] is an
// untyped Array.
//
// Godot 3.2.3 str2var returns the text itself, as a String, when it cannot
// read it; it knows no uppercase E in exponents ("1E3" is the int 1), no \U
// escape, no inf_neg and no StringName; it keeps surrogates from \u escapes
// as they are, each a character of its own (Parse does the same for Godot
// 3 text: "\ud83d\ude00" is two characters, encoded ed a0 bd ed b8 80).
// var2str writes such strings as their raw bytes. var2str writes floats with six significant digits of their
// 32-bit rounding (1e300 as inf), -inf as "-inf.0", an RID as nothing,
// sorted Dictionary keys, "[  ]" and "{\n\n}" when empty, and spaces inside
// constructors ("Vector2( 1, 2 )").
package gdtext
