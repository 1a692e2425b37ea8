package variant

// ResourceTag is the type tag of a value inside a binary resource file
// (.res, .scn: core/io/resource_format_binary.cpp). The numbering is its
// own, not var_to_bytes': it must stay stable when Variant types are
// added, and ints and floats have a narrow and a wide tag.
type ResourceTag uint32

// The tags of binary resource files, the same in Godot 3 and 4 (Godot 3
// knows those up to ResTagDouble).
const (
	ResTagNil                ResourceTag = 1
	ResTagBool               ResourceTag = 2
	ResTagInt                ResourceTag = 3 // int32
	ResTagFloat              ResourceTag = 4 // a real (float32 unless the file's reals are double)
	ResTagString             ResourceTag = 5
	ResTagVector2            ResourceTag = 10
	ResTagRect2              ResourceTag = 11
	ResTagVector3            ResourceTag = 12
	ResTagPlane              ResourceTag = 13
	ResTagQuaternion         ResourceTag = 14
	ResTagAABB               ResourceTag = 15
	ResTagBasis              ResourceTag = 16
	ResTagTransform3D        ResourceTag = 17
	ResTagTransform2D        ResourceTag = 18
	ResTagColor              ResourceTag = 20
	ResTagImage              ResourceTag = 21 // Godot 2 images, read by no current engine
	ResTagNodePath           ResourceTag = 22
	ResTagRID                ResourceTag = 23
	ResTagObject             ResourceTag = 24
	ResTagInputEvent         ResourceTag = 25 // never written
	ResTagDictionary         ResourceTag = 26
	ResTagArray              ResourceTag = 30
	ResTagPackedByteArray    ResourceTag = 31
	ResTagPackedInt32Array   ResourceTag = 32
	ResTagPackedFloat32Array ResourceTag = 33 // Godot 3: PoolRealArray, of reals
	ResTagPackedStringArray  ResourceTag = 34
	ResTagPackedVector3Array ResourceTag = 35
	ResTagPackedColorArray   ResourceTag = 36
	ResTagPackedVector2Array ResourceTag = 37
	ResTagInt64              ResourceTag = 40
	ResTagDouble             ResourceTag = 41
	ResTagCallable           ResourceTag = 42 // Godot 4 from here on
	ResTagSignal             ResourceTag = 43
	ResTagStringName         ResourceTag = 44
	ResTagVector2i           ResourceTag = 45
	ResTagRect2i             ResourceTag = 46
	ResTagVector3i           ResourceTag = 47
	ResTagPackedInt64Array   ResourceTag = 48
	ResTagPackedFloat64Array ResourceTag = 49
	ResTagVector4            ResourceTag = 50
	ResTagVector4i           ResourceTag = 51
	ResTagProjection         ResourceTag = 52
	ResTagPackedVector4Array ResourceTag = 53 // resource format version 6 (Godot 4.3+)
)

// resTags maps each type to its tag (the narrow one for int and float).
var resTags = [TypeCount]ResourceTag{
	TypeNil: ResTagNil, TypeBool: ResTagBool, TypeInt: ResTagInt, TypeFloat: ResTagFloat,
	TypeString: ResTagString, TypeVector2: ResTagVector2, TypeVector2i: ResTagVector2i,
	TypeRect2: ResTagRect2, TypeRect2i: ResTagRect2i, TypeVector3: ResTagVector3,
	TypeVector3i: ResTagVector3i, TypeTransform2D: ResTagTransform2D, TypeVector4: ResTagVector4,
	TypeVector4i: ResTagVector4i, TypePlane: ResTagPlane, TypeQuaternion: ResTagQuaternion,
	TypeAABB: ResTagAABB, TypeBasis: ResTagBasis, TypeTransform3D: ResTagTransform3D,
	TypeProjection: ResTagProjection, TypeColor: ResTagColor, TypeStringName: ResTagStringName,
	TypeNodePath: ResTagNodePath, TypeRID: ResTagRID, TypeObject: ResTagObject,
	TypeCallable: ResTagCallable, TypeSignal: ResTagSignal, TypeDictionary: ResTagDictionary,
	TypeArray: ResTagArray, TypePackedByteArray: ResTagPackedByteArray,
	TypePackedInt32Array: ResTagPackedInt32Array, TypePackedInt64Array: ResTagPackedInt64Array,
	TypePackedFloat32Array: ResTagPackedFloat32Array, TypePackedFloat64Array: ResTagPackedFloat64Array,
	TypePackedStringArray: ResTagPackedStringArray, TypePackedVector2Array: ResTagPackedVector2Array,
	TypePackedVector3Array: ResTagPackedVector3Array, TypePackedColorArray: ResTagPackedColorArray,
	TypePackedVector4Array: ResTagPackedVector4Array,
}

// ResourceTag returns the tag of t in binary resource files, the narrow
// one (ResTagInt, ResTagFloat) for int and float; 0 for an invalid type.
func (t Type) ResourceTag() ResourceTag {
	if t >= TypeCount {
		return 0
	}
	return resTags[t]
}

// TypeFromResourceTag returns the type a tag of a binary resource file
// stands for (ResTagInt64 is int, ResTagDouble float), and false for a tag
// no engine reads (ResTagImage, ResTagInputEvent, unknown numbers).
func TypeFromResourceTag(tag ResourceTag) (Type, bool) {
	switch tag {
	case ResTagInt64:
		return TypeInt, true
	case ResTagDouble:
		return TypeFloat, true
	case 0:
		return TypeNil, false
	}
	for t, g := range resTags {
		if g == tag {
			return Type(t), true
		}
	}
	return TypeNil, false
}
