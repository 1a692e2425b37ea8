package variant

// TypeFacts are the engine's facts about the binary layout of one Variant
// type, as every reader and writer of the format asks them, and for a
// fixed-size math type how its Go type holds its components. Every layer
// (decoder, encoder, text and JSON forms, the Go mapping, inspect) builds
// and reads math values from these facts: adding such a type takes its row
// here, its Go type (value.go, stringer.go), its ids (type.go) and its
// str() form (package gdjson).
type TypeFacts struct {
	// Size is the payload size in bytes of a fixed-size type at single
	// precision (0 for the other types). RID, whose size depends on the
	// family, is not fixed here.
	Size int
	// Reals is the number of real components of a fixed-size math type,
	// in wire order.
	Reals int
	// Ints is the number of int32 components of an integer vector type.
	Ints int
	// Floats is the number of float32 components of a type that double
	// precision does not widen (Color).
	Floats int
	// Real marks the types whose real components double-precision builds
	// widen to float64 (header flag wire.Flag64).
	Real bool
	// ElemSize is the size in bytes of one element of a packed array of
	// fixed-size elements, at single precision (0 for the other types).
	ElemSize int
	// Comps is the number of components per element of a packed array
	// of vectors (real components, see Real) or of Colors (float32).
	Comps int
	// Proto is the zero value of the Go type of a fixed-size math type
	// (one with Reals, Ints or Floats), nil for the other types. That
	// struct holds exactly the type's components, as float64 (Reals),
	// int32 (Ints) or float32 (Floats), in the order of its fields; an
	// init check refuses any other layout.
	Proto Value
	// order lists, for a math type whose Go struct does not hold its
	// components in wire order, the index in the struct of each wire
	// component (see GoIndex); empty for the others. A string, so that
	// the table cannot be changed through the facts it hands out.
	order string
}

// typeFacts holds the facts of every type.
var typeFacts = [TypeCount]TypeFacts{
	TypeBool:               {Size: 4},
	TypeVector2:            {Size: 8, Reals: 2, Real: true, Proto: Vector2{}},
	TypeVector2i:           {Size: 8, Ints: 2, Proto: Vector2i{}},
	TypeRect2:              {Size: 16, Reals: 4, Real: true, Proto: Rect2{}},
	TypeRect2i:             {Size: 16, Ints: 4, Proto: Rect2i{}},
	TypeVector3:            {Size: 12, Reals: 3, Real: true, Proto: Vector3{}},
	TypeVector3i:           {Size: 12, Ints: 3, Proto: Vector3i{}},
	TypeTransform2D:        {Size: 24, Reals: 6, Real: true, Proto: Transform2D{}},
	TypeVector4:            {Size: 16, Reals: 4, Real: true, Proto: Vector4{}},
	TypeVector4i:           {Size: 16, Ints: 4, Proto: Vector4i{}},
	TypePlane:              {Size: 16, Reals: 4, Real: true, Proto: Plane{}},
	TypeQuaternion:         {Size: 16, Reals: 4, Real: true, Proto: Quaternion{}},
	TypeAABB:               {Size: 24, Reals: 6, Real: true, Proto: AABB{}},
	TypeBasis:              {Size: 36, Reals: 9, Real: true, Proto: Basis{}, order: basisWireOrder},
	TypeTransform3D:        {Size: 48, Reals: 12, Real: true, Proto: Transform3D{}, order: basisWireOrder + "\x09\x0a\x0b"},
	TypeProjection:         {Size: 64, Reals: 16, Real: true, Proto: Projection{}},
	TypeColor:              {Size: 16, Floats: 4, Proto: Color{}},
	TypePackedInt32Array:   {ElemSize: 4},
	TypePackedInt64Array:   {ElemSize: 8},
	TypePackedFloat32Array: {ElemSize: 4},
	TypePackedFloat64Array: {ElemSize: 8},
	TypePackedVector2Array: {ElemSize: 8, Comps: 2, Real: true},
	TypePackedVector3Array: {ElemSize: 12, Comps: 3, Real: true},
	TypePackedColorArray:   {ElemSize: 16, Comps: 4},
	TypePackedVector4Array: {ElemSize: 16, Comps: 4, Real: true},
}

// basisWireOrder is the order of a Basis's components on the wire, row by row,
// as indexes into its Go struct, which holds the columns X, Y and Z.
const basisWireOrder = "\x00\x03\x06\x01\x04\x07\x02\x05\x08"

// Facts returns the layout facts of type t (zero for TypeUnknown).
func Facts(t Type) TypeFacts { return *facts(t) }

// noFacts are the facts of TypeUnknown.
var noFacts TypeFacts

// facts returns the row of t without copying it, for the hot paths. The
// rows are never written to.
func facts(t Type) *TypeFacts {
	if t < TypeCount {
		return &typeFacts[t]
	}
	return &noFacts
}

// A Feature is a part of the format that engines read only from some
// version on. Encoders ask Version.Reads before writing it.
type Feature struct {
	// Name names the feature in errors: "typed Array",
	// "double-precision Quaternion".
	Name string
	// Since is the first engine version that reads it.
	Since Version
}

// The features of the format that not every Godot 4 version reads, besides
// the types themselves (TypeFeature) and their double-precision forms
// (WideFeature). Godot 3 reads none of them.
var (
	TypedArrays       = Feature{"typed Array", Version{4, 3}}
	TypedDictionaries = Feature{"typed Dictionary", Version{4, 4}}
)

// typeSince is the first Godot 4 version that reads a type, where it is
// not 4.0, and wideSince the first that reads its double-precision form.
var (
	typeSince = map[Type]Version{TypePackedVector4Array: {4, 3}}
	wideSince = map[Type]Version{TypeVector4: {4, 2}, TypeProjection: {4, 2}, TypeQuaternion: {4, 3}}
)

// TypeFeature is the feature of type t itself, for Godot 4 (Godot 3's
// types are those TypeFromID knows).
func TypeFeature(t Type) Feature {
	if v, ok := typeSince[t]; ok {
		return Feature{t.String(), v}
	}
	return Feature{t.String(), Version{4, 0}}
}

// WideFeature is the feature of the double-precision form of type t (see
// TypeFacts.Real).
func WideFeature(t Type) Feature {
	if v, ok := wideSince[t]; ok {
		return Feature{"double-precision " + t.String(), v}
	}
	return Feature{"double-precision " + t.String(), Version{4, 0}}
}

// Reads reports whether an engine of version v reads f.
func (v Version) Reads(f Feature) bool { return v.atLeast(f.Since.Major, f.Since.Minor) }

// Missing describes f as missing from versions before f.Since:
// "typed Array cannot be read before Godot 4.3".
func (f Feature) Missing() string {
	return f.Name + " cannot be read before Godot " + f.Since.String()
}

// FamilyFacts are the engine facts that tell the two families apart,
// besides their type ids (Type.ID, TypeFromID) and type names
// (Family.Name).
type FamilyFacts struct {
	// NativeIDs: the type ids on the wire are this package's Type values.
	NativeIDs bool
	// RIDSize is the payload size of an RID; Godot 3 writes none.
	RIDSize int
	// WideReals: the 64-bit header flag widens the real components of
	// math types (Godot 3 ignores it).
	WideReals bool
	// TypedContainers: Array and Dictionary headers carry element types
	// (written by Godot 4.3+ and 4.4+, see TypedArrays).
	TypedContainers bool
	// LooseUTF8: strings are read with Godot 3's looser UTF-8 parser (see
	// DecodeStringGodot3) instead of refusing malformed UTF-8.
	LooseUTF8 bool
	// EmptyPathRelative: the absolute flag of an empty NodePath is dropped.
	EmptyPathRelative bool
	// ScriptPaths: an Object's "script" property is the res:// path of a
	// script the engine loads.
	ScriptPaths bool
	// ClassRefused is the engine's error code for a full Object of a
	// class it cannot instantiate.
	ClassRefused Code
}

var (
	godot4Facts = FamilyFacts{NativeIDs: true, RIDSize: 8, WideReals: true, TypedContainers: true,
		ScriptPaths: true, ClassRefused: ErrCodeInvalidData}
	godot3Facts = FamilyFacts{LooseUTF8: true, EmptyPathRelative: true, ClassRefused: ErrCodeUnavailable}
)

// Facts returns the facts of the family (Godot 4's for a family that is
// not Godot3).
func (f Family) Facts() FamilyFacts {
	if f == Godot3 {
		return godot3Facts
	}
	return godot4Facts
}
