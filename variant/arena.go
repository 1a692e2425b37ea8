package variant

import (
	"unsafe"

	"github.com/gdvar/gdvar/internal/textchunk"
)

// Placing an Int, a String or a Vector3 in a Value copies it to the heap:
// one small allocation per value, which dominates the cost of decoding
// large Arrays of records. Past its first arenaAfter elements, a decode
// call takes such values from slabs instead: small arrays of one type,
// allocated as they fill up, from which each value gets its slot. Short
// strings share byte chunks the same way. The values are ordinary Values
// (type switches, reflection and Equal see no difference) and are never
// written to after they are handed out.
//
// The price is retention: a value kept after the rest of a message is
// dropped keeps its slab alive: a few KiB at most.
const (
	arenaAfter = 32   // elements a call decodes before it uses slabs
	slabMin    = 8    // values in a type's first slab
	slabBytes  = 4096 // bytes in a slab, at most (but slabMin values)
)

// slab hands out slots for values of one type. Each new slab is twice the
// size of the last, up to slabBytes.
type slab[T any] struct {
	free []T
	size int
}

func (s *slab[T]) take() *T {
	if len(s.free) == 0 {
		most := max(slabBytes/int(unsafe.Sizeof(*new(T))), slabMin)
		s.size = min(max(2*s.size, slabMin), most)
		s.free = make([]T, s.size)
	}
	p := &s.free[0]
	s.free = s.free[1:]
	return p
}

// ifaceWords is the layout of an interface value: its type word and a
// pointer to the value.
type ifaceWords struct {
	tab  unsafe.Pointer
	data unsafe.Pointer
}

// boxAt returns proto, a Value of some type T, pointing at p, a *T, as
// its data: the Value that converting *p would give, without the copy.
func boxAt(proto Value, p unsafe.Pointer) Value {
	v := proto
	(*ifaceWords)(unsafe.Pointer(&v)).data = p
	return v
}

// put stores x in a slot of s and returns it as a Value; proto is a Value
// of type T.
func put[T any](s *slab[T], proto Value, x T) Value {
	p := s.take()
	*p = x
	return boxAt(proto, unsafe.Pointer(p))
}

// Values of each slab type, whose type words boxAt copies.
var (
	protoInt         Value = Int(0)
	protoFloat       Value = Float(0)
	protoString      Value = String("")
	protoStringName  Value = StringName("")
	protoVector2     Value = Vector2{}
	protoVector2i    Value = Vector2i{}
	protoVector3     Value = Vector3{}
	protoVector3i    Value = Vector3i{}
	protoVector4     Value = Vector4{}
	protoRect2       Value = Rect2{}
	protoQuaternion  Value = Quaternion{}
	protoColor       Value = Color{}
	protoTransform2D Value = Transform2D{}
	protoTransform3D Value = Transform3D{}
)

// arena holds a decode call's slabs.
type arena struct {
	ints        slab[Int]
	floats      slab[Float]
	strs        slab[String]
	names       slab[StringName]
	vector2s    slab[Vector2]
	vector2is   slab[Vector2i]
	vector3s    slab[Vector3]
	vector3is   slab[Vector3i]
	vector4s    slab[Vector4]
	rect2s      slab[Rect2]
	quaternions slab[Quaternion]
	colors      slab[Color]
	transform2s slab[Transform2D]
	transform3s slab[Transform3D]
	dicts1      slab[dictionary1]
	dicts2      slab[dictionary2]
	dicts4      slab[dictionary4]
	text        textchunk.Chunks
}

// slabs reports whether the call has decoded enough elements to use its
// arena. A call that decodes one small message allocates as usual.
func (d *decoder) slabs() bool { return d.elements-d.base >= arenaAfter }

// boxInt returns x as a Value.
func (d *decoder) boxInt(x Int) Value {
	if !d.slabs() || uint64(x) < 256 { // small ints box without allocating
		return x
	}
	return put(&d.arena.ints, protoInt, x)
}

// boxFloat returns x as a Value.
func (d *decoder) boxFloat(x Float) Value {
	if !d.slabs() {
		return x
	}
	return put(&d.arena.floats, protoFloat, x)
}

// boxString returns s as a String, or as a StringName when name is set.
func (d *decoder) boxString(s string, name bool) Value {
	switch {
	case s == "" || !d.slabs():
		if name {
			return StringName(s)
		}
		return String(s)
	case name:
		return put(&d.arena.names, protoStringName, StringName(s))
	}
	return put(&d.arena.strs, protoString, String(s))
}

// copyText returns raw as a string; short strings share chunks once the
// arena is in use.
func (d *decoder) copyText(raw []byte) string {
	if !d.slabs() {
		return string(raw)
	}
	return d.arena.text.String(raw)
}

// mathValue builds a fixed-size math value from its components in wire
// order.
func (d *decoder) mathValue(t Type, c *[16]float64) Value {
	if !d.slabs() {
		return MathValue(t, c[:])
	}
	a := &d.arena
	switch t {
	case TypeVector2:
		return put(&a.vector2s, protoVector2, Vector2{c[0], c[1]})
	case TypeRect2:
		return put(&a.rect2s, protoRect2, Rect2{Vector2{c[0], c[1]}, Vector2{c[2], c[3]}})
	case TypeVector3:
		return put(&a.vector3s, protoVector3, Vector3{c[0], c[1], c[2]})
	case TypeTransform2D:
		return put(&a.transform2s, protoTransform2D, Transform2D{Vector2{c[0], c[1]}, Vector2{c[2], c[3]}, Vector2{c[4], c[5]}})
	case TypeVector4:
		return put(&a.vector4s, protoVector4, Vector4{c[0], c[1], c[2], c[3]})
	case TypeQuaternion:
		return put(&a.quaternions, protoQuaternion, Quaternion{c[0], c[1], c[2], c[3]})
	case TypeTransform3D:
		return put(&a.transform3s, protoTransform3D, Transform3D{BasisFromRows(c[0:9]), Vector3{c[9], c[10], c[11]}})
	}
	return MathValue(t, c[:])
}

// intVector returns a Vector2i or Vector3i from its components.
func (d *decoder) intVector(t Type, c *[4]int32) Value {
	slabs := d.slabs()
	switch {
	case t == TypeVector2i && slabs:
		return put(&d.arena.vector2is, protoVector2i, Vector2i{c[0], c[1]})
	case t == TypeVector2i:
		return Vector2i{c[0], c[1]}
	case t == TypeVector3i && slabs:
		return put(&d.arena.vector3is, protoVector3i, Vector3i{c[0], c[1], c[2]})
	case t == TypeVector3i:
		return Vector3i{c[0], c[1], c[2]}
	case t == TypeRect2i:
		return Rect2i{Vector2i{c[0], c[1]}, Vector2i{c[2], c[3]}}
	}
	return Vector4i{c[0], c[1], c[2], c[3]}
}

// color returns a Color as a Value.
func (d *decoder) color(c Color) Value {
	if !d.slabs() {
		return c
	}
	return put(&d.arena.colors, protoColor, c)
}

// A small Dictionary and room for its entries, allocated together.
type (
	dictionary1 struct {
		d Dictionary
		e [1]Entry
	}
	dictionary2 struct {
		d Dictionary
		e [2]Entry
	}
	dictionary4 struct {
		d Dictionary
		e [4]Entry
	}
)

// newDictionary returns an empty Dictionary; for a small record of n
// entries, the Dictionary and room for its entries come in one allocation,
// or from a slab.
func (d *decoder) newDictionary(n int) *Dictionary {
	slabs := d.slabs()
	switch {
	case n == 1:
		var s *dictionary1
		if slabs {
			s = d.arena.dicts1.take()
		} else {
			s = new(dictionary1)
		}
		s.d.entries = s.e[:0]
		return &s.d
	case n == 2:
		var s *dictionary2
		if slabs {
			s = d.arena.dicts2.take()
		} else {
			s = new(dictionary2)
		}
		s.d.entries = s.e[:0]
		return &s.d
	case n == 3 || n == 4:
		var s *dictionary4
		if slabs {
			s = d.arena.dicts4.take()
		} else {
			s = new(dictionary4)
		}
		s.d.entries = s.e[:0:n]
		return &s.d
	}
	return new(Dictionary)
}
