package variant

import "fmt"

// Every Value prints itself in the Godot 4 text form (what var_to_str
// writes, see package gdtext): fmt's %v and %s use String, %#v uses
// GoString, which gives the same text. String never fails: where the text
// form cannot express a value, it writes the closest text instead (the
// surrogates of Godot 3 strings as \uXXXX, their characters above U+10FFFF
// and bytes that are not UTF-8 as U+FFFD, a class name or container type as
// it is, "…" for nesting deeper than 65536 levels); Parse may refuse such
// a text. To choose the family, bound
// the length or see such errors, use AppendText or package gdtext.
//
// NodePath is the exception: its String method returns the path itself
// ("/root/a:b"), as Godot's str() does; its GoString gives the text form
// NodePath("/root/a:b"). PackedByteArray formats as bytes with %x and %X.

// String returns the Godot 4 text form of the value.
func (v Bool) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Int) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Float) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v String) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v StringName) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v RID) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v ObjectID) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v *Object) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Callable) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Signal) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v *Dictionary) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v *Array) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Vector2) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Vector2i) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Rect2) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Rect2i) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Vector3) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Vector3i) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Transform2D) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Vector4) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Vector4i) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Plane) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Quaternion) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v AABB) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Basis) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Transform3D) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Projection) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v Color) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedByteArray) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedInt32Array) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedInt64Array) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedFloat32Array) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedFloat64Array) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedStringArray) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedVector2Array) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedVector3Array) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedColorArray) String() string { return text(v) }

// String returns the Godot 4 text form of the value.
func (v PackedVector4Array) String() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Bool) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Int) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Float) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v String) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v StringName) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v RID) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v ObjectID) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v *Object) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Callable) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Signal) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v *Dictionary) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v *Array) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Vector2) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Vector2i) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Rect2) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Rect2i) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Vector3) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Vector3i) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Transform2D) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Vector4) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Vector4i) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Plane) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Quaternion) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v AABB) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Basis) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Transform3D) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Projection) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v Color) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedByteArray) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedInt32Array) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedInt64Array) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedFloat32Array) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedFloat64Array) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedStringArray) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedVector2Array) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedVector3Array) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedColorArray) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v PackedVector4Array) GoString() string { return text(v) }

// GoString returns the Godot 4 text form of the value, for %#v.
func (v NodePath) GoString() string { return text(v) }

// Format prints the bytes for the verbs %x and %X (and other verbs that
// apply to byte slices, such as %d), and the text form for %v, %s and %q.
func (v PackedByteArray) Format(f fmt.State, verb rune) {
	switch verb {
	case 'v', 's':
		fmt.Fprintf(f, fmt.FormatString(f, 's'), text(v))
	case 'q':
		fmt.Fprintf(f, fmt.FormatString(f, 'q'), text(v))
	default:
		fmt.Fprintf(f, fmt.FormatString(f, verb), []byte(v))
	}
}
