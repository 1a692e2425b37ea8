package variant

// TypeFacts are the engine's facts about the binary layout of one Variant
// type, as every reader and writer of the format asks them.
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
	// Real marks the types whose real components double-precision builds
	// widen to float64 (header flag wire.Flag64).
	Real bool
	// ElemSize is the size in bytes of one element of a packed array of
	// fixed-size elements, at single precision (0 for the other types).
	ElemSize int
	// Comps is the number of real components per element of a packed
	// vector array.
	Comps int
}

// typeFacts holds the facts of every type.
var typeFacts = [TypeCount]TypeFacts{
	TypeBool:               {Size: 4},
	TypeVector2:            {Size: 8, Reals: 2, Real: true},
	TypeVector2i:           {Size: 8, Ints: 2},
	TypeRect2:              {Size: 16, Reals: 4, Real: true},
	TypeRect2i:             {Size: 16, Ints: 4},
	TypeVector3:            {Size: 12, Reals: 3, Real: true},
	TypeVector3i:           {Size: 12, Ints: 3},
	TypeTransform2D:        {Size: 24, Reals: 6, Real: true},
	TypeVector4:            {Size: 16, Reals: 4, Real: true},
	TypeVector4i:           {Size: 16, Ints: 4},
	TypePlane:              {Size: 16, Reals: 4, Real: true},
	TypeQuaternion:         {Size: 16, Reals: 4, Real: true},
	TypeAABB:               {Size: 24, Reals: 6, Real: true},
	TypeBasis:              {Size: 36, Reals: 9, Real: true},
	TypeTransform3D:        {Size: 48, Reals: 12, Real: true},
	TypeProjection:         {Size: 64, Reals: 16, Real: true},
	TypeColor:              {Size: 16},
	TypePackedInt32Array:   {ElemSize: 4},
	TypePackedInt64Array:   {ElemSize: 8},
	TypePackedFloat32Array: {ElemSize: 4},
	TypePackedFloat64Array: {ElemSize: 8},
	TypePackedVector2Array: {ElemSize: 8, Comps: 2, Real: true},
	TypePackedVector3Array: {ElemSize: 12, Comps: 3, Real: true},
	TypePackedColorArray:   {ElemSize: 16},
	TypePackedVector4Array: {ElemSize: 16, Comps: 4, Real: true},
}

// Facts returns the layout facts of type t (zero for TypeUnknown).
func Facts(t Type) TypeFacts {
	if t < TypeCount {
		return typeFacts[t]
	}
	return TypeFacts{}
}
