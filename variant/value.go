package variant

import "strings"

// A Value is one Godot Variant. The Go nil interface is Nil; every other
// value is one of the types of this package:
//
//	Bool, Int, Float, String, StringName, NodePath, RID, Callable, Signal,
//	Vector2, Vector2i, Rect2, Rect2i, Vector3, Vector3i, Transform2D,
//	Vector4, Vector4i, Plane, Quaternion, AABB, Basis, Transform3D,
//	Projection, Color, ObjectID, *Object, *Dictionary, *Array,
//	PackedByteArray, PackedInt32Array, PackedInt64Array, PackedFloat32Array,
//	PackedFloat64Array, PackedStringArray, PackedVector2Array,
//	PackedVector3Array, PackedColorArray, PackedVector4Array,
//	and inside resource files ResourceRef.
//
// Godot 3 types map onto the same Go types: REAL is Float, Quat is
// Quaternion, Transform is Transform3D, PoolIntArray is PackedInt32Array,
// PoolRealArray is PackedFloat32Array, and the other Pool arrays are their
// Packed namesakes.
//
// Real-valued components (vectors, transforms, …) are float64 so that data
// from double-precision engine builds survives; Color is float32 because the
// engine always stores it so.
type Value interface {
	// Type returns the Variant type of the value.
	Type() Type
	isValue()
}

// TypeOf returns the Variant type of v, TypeNil for a nil Value.
func TypeOf(v Value) Type {
	if v == nil {
		return TypeNil
	}
	return v.Type()
}

// Scalars.
type (
	// Bool is a Variant bool.
	Bool bool
	// Int is a Variant int, always 64-bit.
	Int int64
	// Float is a Variant float (Godot 3: real), always 64-bit.
	Float float64
	// String is a Variant String.
	String string
	// StringName is a Godot 4 StringName (&"name").
	StringName string
	// RID is a resource ID. Godot 4 stores its 64-bit id; Godot 3 stores no
	// payload, so it always decodes as RID(0). An id means nothing outside
	// the process that produced it.
	RID uint64
	// ObjectID is an Object sent as its 64-bit instance ID (the engine
	// decodes it as an EncodedObjectAsID). ObjectID(0) encodes as Nil, as a
	// null Object does.
	ObjectID uint64
	// Callable is a Godot 4 Callable. Its content never crosses the wire:
	// every Callable encodes as the bare header and decodes empty.
	Callable struct{}
)

// Signal is a Godot 4 Signal: a signal name on an object instance.
type Signal struct {
	Name   string
	Object uint64 // instance ID
}

// NodePath is a parsed scene tree path: node names, then subnames
// (property path), and whether the path starts at the root.
type NodePath struct {
	Names    []string
	Subnames []string
	Absolute bool
}

// ParseNodePath parses a path the way Godot's NodePath(String) constructor
// does: "/" separates names (empty names are skipped), everything after the
// first ":" is subnames separated by ":", and a leading "/" makes the path
// absolute. An empty subname in the middle of the path makes the engine
// refuse the whole path, and ParseNodePath then returns the empty path and
// false.
func ParseNodePath(s string) (NodePath, bool) {
	var np NodePath
	if s == "" {
		return np, true
	}
	np.Absolute = s[0] == '/'
	names := s
	if i := strings.IndexByte(s, ':'); i >= 0 {
		names = s[:i]
		subs := strings.Split(s[i+1:], ":")
		for j, sub := range subs {
			if sub == "" {
				if j == len(subs)-1 {
					continue // a trailing ':' is allowed
				}
				return NodePath{}, false
			}
			np.Subnames = append(np.Subnames, sub)
		}
	}
	for name := range strings.SplitSeq(names, "/") {
		if name != "" {
			np.Names = append(np.Names, name)
		}
	}
	return np, true
}

// String returns the path in Godot's text form, "/root/a:b".
func (p NodePath) String() string {
	var sb strings.Builder
	if p.Absolute {
		sb.WriteByte('/')
	}
	sb.WriteString(strings.Join(p.Names, "/"))
	if len(p.Subnames) > 0 {
		sb.WriteByte(':')
		sb.WriteString(strings.Join(p.Subnames, ":"))
	}
	return sb.String()
}

// IsEmpty reports whether p is the empty path NodePath("").
func (p NodePath) IsEmpty() bool {
	return len(p.Names) == 0 && len(p.Subnames) == 0 && !p.Absolute
}

// Math types. Components follow GDScript's names.
type (
	// Vector2 is a 2D vector of reals.
	Vector2 struct{ X, Y float64 }
	// Vector2i is a 2D vector of int32.
	Vector2i struct{ X, Y int32 }
	// Rect2 is an axis-aligned rectangle.
	Rect2 struct{ Position, Size Vector2 }
	// Rect2i is an axis-aligned rectangle of integers.
	Rect2i struct{ Position, Size Vector2i }
	// Vector3 is a 3D vector of reals.
	Vector3 struct{ X, Y, Z float64 }
	// Vector3i is a 3D vector of int32.
	Vector3i struct{ X, Y, Z int32 }
	// Transform2D is a 2D affine transform: the X and Y axes and the origin
	// (the columns of the matrix).
	Transform2D struct{ X, Y, Origin Vector2 }
	// Vector4 is a 4D vector of reals.
	Vector4 struct{ X, Y, Z, W float64 }
	// Vector4i is a 4D vector of int32.
	Vector4i struct{ X, Y, Z, W int32 }
	// Plane is a plane in Hessian normal form.
	Plane struct {
		Normal Vector3
		D      float64
	}
	// Quaternion is a rotation (Godot 3: Quat).
	Quaternion struct{ X, Y, Z, W float64 }
	// AABB is an axis-aligned box.
	AABB struct{ Position, Size Vector3 }
	// Basis is a 3x3 matrix given, as in GDScript, by its column vectors
	// X, Y and Z. (The wire stores it row by row.)
	Basis struct{ X, Y, Z Vector3 }
	// Transform3D is a 3D affine transform (Godot 3: Transform).
	Transform3D struct {
		Basis  Basis
		Origin Vector3
	}
	// Projection is a 4x4 matrix given by its column vectors.
	Projection struct{ X, Y, Z, W Vector4 }
	// Color is an RGBA color with float32 components.
	Color struct{ R, G, B, A float32 }
)

// Packed arrays (Godot 3: Pool arrays).
type (
	// PackedByteArray is a PackedByteArray (Godot 3: PoolByteArray).
	PackedByteArray []byte
	// PackedInt32Array is a PackedInt32Array (Godot 3: PoolIntArray).
	PackedInt32Array []int32
	// PackedInt64Array is a Godot 4 PackedInt64Array.
	PackedInt64Array []int64
	// PackedFloat32Array is a PackedFloat32Array (Godot 3: PoolRealArray).
	PackedFloat32Array []float32
	// PackedFloat64Array is a Godot 4 PackedFloat64Array.
	PackedFloat64Array []float64
	// PackedStringArray is a PackedStringArray (Godot 3: PoolStringArray).
	PackedStringArray []string
	// PackedVector2Array is a PackedVector2Array (Godot 3: PoolVector2Array).
	PackedVector2Array []Vector2
	// PackedVector3Array is a PackedVector3Array (Godot 3: PoolVector3Array).
	PackedVector3Array []Vector3
	// PackedColorArray is a PackedColorArray (Godot 3: PoolColorArray).
	PackedColorArray []Color
	// PackedVector4Array is a Godot 4.3+ PackedVector4Array.
	PackedVector4Array []Vector4
)

// Object is an engine object carried in full (full_objects / allow_objects):
// its class name and its stored properties in order, as plain data. Nothing
// is instantiated or run. A nil *Object or one with an empty Class is a null
// Object and encodes as Nil.
type Object struct {
	Class      string
	Properties []Property
}

// Property is one named property of an Object.
type Property struct {
	Name  string
	Value Value
}

// Get returns the value of the first property named name.
func (o *Object) Get(name string) (Value, bool) {
	if o == nil {
		return nil, false
	}
	for _, p := range o.Properties {
		if p.Name == name {
			return p.Value, true
		}
	}
	return nil, false
}

// ContainerKind says how a typed container names its element type.
type ContainerKind uint8

// Container kinds, as on the wire.
const (
	// Untyped: any Variant.
	Untyped ContainerKind = iota
	// Builtin: a Variant type (Array[int]).
	Builtin
	// ClassName: objects of a native class (Array[Node]).
	ClassName
	// Script: objects of a script class, named by its res:// path.
	Script
)

// ContainerType is the element type of a typed Array, or the key or value
// type of a typed Dictionary. The zero value is untyped.
type ContainerType struct {
	Kind    ContainerKind
	Builtin Type   // the element type; TypeObject for ClassName and Script
	Name    string // class name for ClassName, res:// path for Script
}

// Typed returns the container type for elements of the builtin type t.
// Typed(TypeNil) is untyped.
func Typed(t Type) ContainerType {
	if t == TypeNil {
		return ContainerType{}
	}
	return ContainerType{Kind: Builtin, Builtin: t}
}

// IsTyped reports whether c restricts its elements.
func (c ContainerType) IsTyped() bool { return c.Kind != Untyped }

// Array is a Variant Array: an ordered list of Values, optionally typed
// (Godot 4.3+).
type Array struct {
	Elem   ContainerType
	Values []Value
}

// NewArray returns an untyped Array holding values.
func NewArray(values ...Value) *Array { return &Array{Values: values} }

// Len returns the number of elements; a nil *Array has none.
func (a *Array) Len() int {
	if a == nil {
		return 0
	}
	return len(a.Values)
}

func (Bool) Type() Type               { return TypeBool }
func (Int) Type() Type                { return TypeInt }
func (Float) Type() Type              { return TypeFloat }
func (String) Type() Type             { return TypeString }
func (StringName) Type() Type         { return TypeStringName }
func (NodePath) Type() Type           { return TypeNodePath }
func (RID) Type() Type                { return TypeRID }
func (ObjectID) Type() Type           { return TypeObject }
func (*Object) Type() Type            { return TypeObject }
func (Callable) Type() Type           { return TypeCallable }
func (Signal) Type() Type             { return TypeSignal }
func (*Dictionary) Type() Type        { return TypeDictionary }
func (*Array) Type() Type             { return TypeArray }
func (Vector2) Type() Type            { return TypeVector2 }
func (Vector2i) Type() Type           { return TypeVector2i }
func (Rect2) Type() Type              { return TypeRect2 }
func (Rect2i) Type() Type             { return TypeRect2i }
func (Vector3) Type() Type            { return TypeVector3 }
func (Vector3i) Type() Type           { return TypeVector3i }
func (Transform2D) Type() Type        { return TypeTransform2D }
func (Vector4) Type() Type            { return TypeVector4 }
func (Vector4i) Type() Type           { return TypeVector4i }
func (Plane) Type() Type              { return TypePlane }
func (Quaternion) Type() Type         { return TypeQuaternion }
func (AABB) Type() Type               { return TypeAABB }
func (Basis) Type() Type              { return TypeBasis }
func (Transform3D) Type() Type        { return TypeTransform3D }
func (Projection) Type() Type         { return TypeProjection }
func (Color) Type() Type              { return TypeColor }
func (PackedByteArray) Type() Type    { return TypePackedByteArray }
func (PackedInt32Array) Type() Type   { return TypePackedInt32Array }
func (PackedInt64Array) Type() Type   { return TypePackedInt64Array }
func (PackedFloat32Array) Type() Type { return TypePackedFloat32Array }
func (PackedFloat64Array) Type() Type { return TypePackedFloat64Array }
func (PackedStringArray) Type() Type  { return TypePackedStringArray }
func (PackedVector2Array) Type() Type { return TypePackedVector2Array }
func (PackedVector3Array) Type() Type { return TypePackedVector3Array }
func (PackedColorArray) Type() Type   { return TypePackedColorArray }
func (PackedVector4Array) Type() Type { return TypePackedVector4Array }

func (Bool) isValue()               {}
func (Int) isValue()                {}
func (Float) isValue()              {}
func (String) isValue()             {}
func (StringName) isValue()         {}
func (NodePath) isValue()           {}
func (RID) isValue()                {}
func (ObjectID) isValue()           {}
func (*Object) isValue()            {}
func (Callable) isValue()           {}
func (Signal) isValue()             {}
func (*Dictionary) isValue()        {}
func (*Array) isValue()             {}
func (Vector2) isValue()            {}
func (Vector2i) isValue()           {}
func (Rect2) isValue()              {}
func (Rect2i) isValue()             {}
func (Vector3) isValue()            {}
func (Vector3i) isValue()           {}
func (Transform2D) isValue()        {}
func (Vector4) isValue()            {}
func (Vector4i) isValue()           {}
func (Plane) isValue()              {}
func (Quaternion) isValue()         {}
func (AABB) isValue()               {}
func (Basis) isValue()              {}
func (Transform3D) isValue()        {}
func (Projection) isValue()         {}
func (Color) isValue()              {}
func (PackedByteArray) isValue()    {}
func (PackedInt32Array) isValue()   {}
func (PackedInt64Array) isValue()   {}
func (PackedFloat32Array) isValue() {}
func (PackedFloat64Array) isValue() {}
func (PackedStringArray) isValue()  {}
func (PackedVector2Array) isValue() {}
func (PackedVector3Array) isValue() {}
func (PackedColorArray) isValue()   {}
func (PackedVector4Array) isValue() {}
