package variant

import (
	"fmt"
)

// DefaultMaxDepth is the engine's nesting limit (MAX_RECURSION_DEPTH): the
// innermost value may sit at depth 1024, the top-level value being depth 0.
const DefaultMaxDepth = 1024

// maxDepthLimit bounds MaxDepth: deeper nesting would risk the goroutine
// stack for no engine that exists.
const maxDepthLimit = 1 << 16

// DecOptions configures decoding. The zero value decodes Godot 4 data the
// way the engine's bytes_to_var does. Build a DecMode from it once and
// reuse the mode.
type DecOptions struct {
	// Family is the engine family that wrote the data; 0 means Godot4.
	Family Family
	// AllowObjects accepts full Objects (class name and properties), like
	// the engine's allow_objects / bytes_to_var_with_objects. Without it a
	// full Object fails the whole decode with ErrObjectsNotAllowed, as in
	// the engine. Objects sent as instance IDs are always accepted. Even
	// when allowed, an Object is only data: nothing is instantiated or run.
	AllowObjects bool
	// MaxDepth is the deepest nesting accepted; 0 means DefaultMaxDepth
	// (1024, the engine's limit). At most 65536.
	MaxDepth int
	// MaxSize is the largest input accepted, in bytes; 0 means no limit
	// beyond the input itself. Larger input fails with ErrTooLarge before
	// anything is decoded.
	MaxSize int
	// MaxElements is the most elements a value may hold in all: Array
	// elements, Dictionary entries, packed array elements, NodePath names
	// and Object properties, counted through every level; 0 means no limit
	// beyond what the input's size allows. More fails with ErrTooLarge
	// before the container is allocated.
	MaxElements int
	// Strict also refuses what the engine only tolerates, so that only the
	// exact bytes the engine itself writes get through (useful to detect
	// producers that are not Godot): header bits the type does not define,
	// an int or float written wider than needed, bool words other than 0
	// and 1, non-zero or missing padding, a leading byte order mark or a NUL
	// inside a string, PackedStringArray elements without their NUL, a
	// negative PackedStringArray count, bit 31 of a container count, the
	// obsolete NodePath property flag, repeated Dictionary keys, elements
	// and keys that do not fit a typed container, a typed container of
	// type Nil, an object sent as ID 0 or as a full null, a mix of single
	// and double precision, and bytes after the value. Strictly accepted
	// input re-encodes to the identical bytes (with the precision it used
	// and, for objects, FullObjects).
	Strict bool
	// Classes, when set, says which classes a full Object may have: with
	// AllowObjects, an Object of a class it refuses fails with
	// ErrObjectsNotAllowed, as the engine refuses a class its ClassDB
	// cannot instantiate (with ERR_INVALID_DATA in Godot 4 and
	// ERR_UNAVAILABLE in Godot 3). Package classdb has the engines' own
	// lists. nil accepts every class name.
	Classes func(class string) bool
	// Scripts, when set, says which res:// script paths exist (Godot 4):
	// with AllowObjects, a full Object whose "script" property names a
	// path it refuses, or a container typed by such a script, fails with
	// ErrObjectsNotAllowed, as the engine refuses a script that its
	// project does not have. nil accepts every res:// path.
	Scripts func(path string) bool
	// ZeroCopy makes decoded values share the input's memory instead of
	// copying it: PackedByteArray and the packed numeric arrays (when the
	// input's alignment allows) and strings that are valid as they stand.
	// Decoding large packed arrays then costs almost nothing, but the input
	// must stay unmodified for as long as the values are in use.
	ZeroCopy bool
}

// DecMode is an immutable, validated decoding configuration, safe for
// concurrent use.
type DecMode struct {
	opts DecOptions
	keys *keyCache // recent Dictionary keys, shared by the mode's calls
}

func (f Family) valid() bool { return f == Godot3 || f == Godot4 }

// DecMode validates the options and returns a mode built from them.
func (o DecOptions) DecMode() (*DecMode, error) {
	if o.Family == 0 {
		o.Family = Godot4
	}
	if !o.Family.valid() {
		return nil, fmt.Errorf("variant: DecOptions.Family %d is neither 3 nor 4", o.Family)
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxDepth < 0 || o.MaxDepth > maxDepthLimit {
		return nil, fmt.Errorf("variant: DecOptions.MaxDepth %d is outside 1..%d", o.MaxDepth, maxDepthLimit)
	}
	if o.MaxSize < 0 {
		return nil, fmt.Errorf("variant: DecOptions.MaxSize %d is negative", o.MaxSize)
	}
	if o.MaxElements < 0 {
		return nil, fmt.Errorf("variant: DecOptions.MaxElements %d is negative", o.MaxElements)
	}
	return &DecMode{opts: o, keys: new(keyCache)}, nil
}

// Options returns the mode's options, with defaults filled in.
func (m *DecMode) Options() DecOptions { return m.opts }

// Precision is the size of the real-valued components of math types.
type Precision uint8

// Precisions.
const (
	// Single writes float32 components, as official engine builds
	// (real_t=float) do.
	Single Precision = iota
	// Double writes float64 components with the 64-bit header flag, as
	// engines built with precision=double do.
	Double
)

// String returns "single" or "double".
func (p Precision) String() string {
	if p == Double {
		return "double"
	}
	return "single"
}

// Version is an engine version, major and minor.
type Version struct {
	Major, Minor int
}

// Newest versions of each family this package knows.
var (
	Godot4Newest = Version{4, 6}
	Godot3Newest = Version{3, 6}
)

// String returns "4.6".
func (v Version) String() string { return fmt.Sprintf("%d.%d", v.Major, v.Minor) }

// atLeast reports whether v is major.minor or newer.
func (v Version) atLeast(major, minor int) bool {
	return v.Major > major || (v.Major == major && v.Minor >= minor)
}

// EncOptions configures encoding. The zero value encodes for Godot 4.6 with
// single precision and without full objects, exactly like the official
// engine's var_to_bytes.
type EncOptions struct {
	// Family is the engine family to write for; 0 means Godot4, or
	// Version.Major when Version is set.
	Family Family
	// Version is the oldest engine version that must read the data; the
	// zero value means the family's newest. Encoding fails with
	// ErrUnsupported for what that version cannot read: PackedVector4Array
	// before 4.3, typed Arrays before 4.3, typed Dictionaries before 4.4,
	// and double-precision Vector4/Projection before 4.2 and Quaternion
	// before 4.3.
	Version Version
	// Precision of real-valued math components; Double matches engines
	// built with precision=double. Godot 3 has only Single.
	Precision Precision
	// FullObjects writes *Object values in full (class name and
	// properties), like var_to_bytes_with_objects. Without it encoding an
	// *Object fails with ErrObjectsNotAllowed; ObjectID values are always
	// written as instance IDs.
	FullObjects bool
	// MaxDepth is the deepest nesting written; 0 means DefaultMaxDepth
	// (1024, the engine's limit). A value nested deeper, or one that
	// contains itself, fails with ErrTooDeep.
	MaxDepth int
}

// EncMode is an immutable, validated encoding configuration, safe for
// concurrent use.
type EncMode struct {
	opts EncOptions
}

// EncMode validates the options and returns a mode built from them.
func (o EncOptions) EncMode() (*EncMode, error) {
	if o.Family == 0 {
		o.Family = Family(o.Version.Major)
		if o.Family == 0 {
			o.Family = Godot4
		}
	}
	if !o.Family.valid() {
		return nil, fmt.Errorf("variant: EncOptions.Family %d is neither 3 nor 4", o.Family)
	}
	if o.Version == (Version{}) {
		o.Version = Godot4Newest
		if o.Family == Godot3 {
			o.Version = Godot3Newest
		}
	}
	if o.Version.Major != int(o.Family) || o.Version.Minor < 0 {
		return nil, fmt.Errorf("variant: EncOptions.Version %v does not belong to %v", o.Version, o.Family)
	}
	if o.Precision > Double {
		return nil, fmt.Errorf("variant: EncOptions.Precision %d is unknown", o.Precision)
	}
	if o.Precision == Double && o.Family == Godot3 {
		return nil, fmt.Errorf("variant: Godot 3 has no double-precision encoding")
	}
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	if o.MaxDepth < 0 || o.MaxDepth > maxDepthLimit {
		return nil, fmt.Errorf("variant: EncOptions.MaxDepth %d is outside 1..%d", o.MaxDepth, maxDepthLimit)
	}
	return &EncMode{opts: o}, nil
}

// Options returns the mode's options, with defaults filled in.
func (m *EncMode) Options() EncOptions { return m.opts }

var (
	defaultDecMode, _ = DecOptions{}.DecMode()
	defaultEncMode, _ = EncOptions{}.EncMode()
)

// Decode decodes the first Variant in b as Godot 4's bytes_to_var does
// (objects only as instance IDs) and returns it with the number of bytes it
// used. Bytes after the value are ignored, as the engine ignores them.
func Decode(b []byte) (Value, int, error) { return defaultDecMode.Decode(b) }

// Encode returns the Godot 4 encoding of v, byte for byte what
// var_to_bytes writes in an official (single-precision) engine build.
func Encode(v Value) ([]byte, error) { return defaultEncMode.Encode(v) }

// Append appends the Godot 4 encoding of v to dst; on error it returns dst
// unchanged.
func Append(dst []byte, v Value) ([]byte, error) { return defaultEncMode.Append(dst, v) }
