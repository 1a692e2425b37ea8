package variant

import "strconv"

// Type identifies a Variant type. The numbering is Godot 4's
// (Variant.Type); Godot 3's different numbers are a matter of the wire
// encoding, see Family.
type Type uint8

// The Variant types, numbered as in Godot 4.
const (
	TypeNil Type = iota
	TypeBool
	TypeInt
	TypeFloat
	TypeString
	TypeVector2
	TypeVector2i
	TypeRect2
	TypeRect2i
	TypeVector3
	TypeVector3i
	TypeTransform2D
	TypeVector4
	TypeVector4i
	TypePlane
	TypeQuaternion
	TypeAABB
	TypeBasis
	TypeTransform3D
	TypeProjection
	TypeColor
	TypeStringName
	TypeNodePath
	TypeRID
	TypeObject
	TypeCallable
	TypeSignal
	TypeDictionary
	TypeArray
	TypePackedByteArray
	TypePackedInt32Array
	TypePackedInt64Array
	TypePackedFloat32Array
	TypePackedFloat64Array
	TypePackedStringArray
	TypePackedVector2Array
	TypePackedVector3Array
	TypePackedColorArray
	TypePackedVector4Array

	// TypeCount is the number of Variant types (Godot 4.3+ VARIANT_MAX).
	TypeCount
)

// TypeUnknown stands for a type byte that names no Variant type; it
// appears only in errors.
const TypeUnknown Type = 255

var typeNames4 = [TypeCount]string{
	"Nil", "bool", "int", "float", "String", "Vector2", "Vector2i", "Rect2", "Rect2i",
	"Vector3", "Vector3i", "Transform2D", "Vector4", "Vector4i", "Plane", "Quaternion",
	"AABB", "Basis", "Transform3D", "Projection", "Color", "StringName", "NodePath", "RID",
	"Object", "Callable", "Signal", "Dictionary", "Array", "PackedByteArray",
	"PackedInt32Array", "PackedInt64Array", "PackedFloat32Array", "PackedFloat64Array",
	"PackedStringArray", "PackedVector2Array", "PackedVector3Array", "PackedColorArray",
	"PackedVector4Array",
}

// String returns the Godot 4 name of the type, as GDScript spells it
// ("int", "Vector2", "PackedByteArray").
func (t Type) String() string {
	if t < TypeCount {
		return typeNames4[t]
	}
	return "Type(" + strconv.Itoa(int(t)) + ")"
}

// TypeByName returns the type that GDScript names name in Godot 4
// ("int", "Vector2"), or in Godot 3 when the name exists only there
// ("Quat", "PoolIntArray", "real").
func TypeByName(name string) (Type, bool) {
	for i, n := range typeNames4 {
		if n == name {
			return Type(i), true
		}
	}
	for i, n := range typeNames3 {
		if n == name && n != "" {
			return types3[i], true
		}
	}
	if name == "real" {
		return TypeFloat, true
	}
	return TypeNil, false
}

// Family is an engine family: the major version whose wire numbering and
// rules apply.
type Family uint8

// The engine families.
const (
	Godot4 Family = 4 // Godot 4.0 through 4.6
	Godot3 Family = 3 // Godot 3.0 through 3.6
)

// String returns "Godot 4" or "Godot 3".
func (f Family) String() string { return "Godot " + strconv.Itoa(int(f)) }

// types3 maps Godot 3 type ids to the model's types.
var types3 = [...]Type{
	TypeNil, TypeBool, TypeInt, TypeFloat, TypeString, TypeVector2, TypeRect2, TypeVector3,
	TypeTransform2D, TypePlane, TypeQuaternion, TypeAABB, TypeBasis, TypeTransform3D,
	TypeColor, TypeNodePath, TypeRID, TypeObject, TypeDictionary, TypeArray,
	TypePackedByteArray, TypePackedInt32Array, TypePackedFloat32Array, TypePackedStringArray,
	TypePackedVector2Array, TypePackedVector3Array, TypePackedColorArray,
}

var typeNames3 = [...]string{
	"Nil", "bool", "int", "float", "String", "Vector2", "Rect2", "Vector3", "Transform2D",
	"Plane", "Quat", "AABB", "Basis", "Transform", "Color", "NodePath", "RID", "Object",
	"Dictionary", "Array", "PoolByteArray", "PoolIntArray", "PoolRealArray", "PoolStringArray",
	"PoolVector2Array", "PoolVector3Array", "PoolColorArray",
}

// ids3 maps the model's types to Godot 3 ids; -1 means the type does not
// exist in Godot 3.
var ids3 = func() (m [TypeCount]int8) {
	for i := range m {
		m[i] = -1
	}
	for id, t := range types3 {
		m[t] = int8(id)
	}
	return m
}()

// ID returns the type's id on the wire in family f, and false when the
// type does not exist in that family.
func (t Type) ID(f Family) (uint8, bool) {
	if t >= TypeCount {
		return 0, false
	}
	if f == Godot3 {
		id := ids3[t]
		return uint8(id), id >= 0
	}
	return uint8(t), true
}

// TypeFromID returns the type that id stands for on the wire in family f.
func TypeFromID(f Family, id uint8) (Type, bool) {
	t := idTable(f)[id]
	return t, t != TypeUnknown
}

// typesByID maps every type byte to its type in Godot 4 ([0]) and Godot 3
// ([1]); TypeUnknown for a byte that names no type.
var typesByID = func() (m [2][256]Type) {
	for id := range 256 {
		m[0][id], m[1][id] = TypeUnknown, TypeUnknown
		if Type(id) < TypeCount {
			m[0][id] = Type(id)
		}
		if id < len(types3) {
			m[1][id] = types3[id]
		}
	}
	return m
}()

// idTable returns the type of every type byte in family f.
func idTable(f Family) *[256]Type {
	if f == Godot3 {
		return &typesByID[1]
	}
	return &typesByID[0]
}

// Name returns the name GDScript of family f uses for t: for Godot 3,
// "Quat", "Transform", "PoolIntArray" and so on.
func (f Family) Name(t Type) string {
	if f == Godot3 && t < TypeCount && ids3[t] >= 0 {
		return typeNames3[ids3[t]]
	}
	return t.String()
}
