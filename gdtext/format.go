package gdtext

import (
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdvar/gdvar/variant"
)

// Format returns the text of v for the engine family o.Family.
func Format(v variant.Value, o Options) (string, error) {
	b, err := Append(nil, v, o)
	if err != nil {
		return "", err
	}
	return string(b), nil
}

// Append appends the text of v for the engine family o.Family to dst. On
// error it returns dst unchanged, with an error saying what could not be
// written and where in v it is.
func Append(dst []byte, v variant.Value, o Options) ([]byte, error) {
	f, err := family(o.Family)
	if err != nil {
		return dst, err
	}
	w := writer{buf: dst, g3: f == variant.Godot3, multiline: o.Multiline}
	if err := w.value(v, 0); err != nil {
		return dst, err
	}
	return w.buf, nil
}

// formatError is a value that cannot be written, and where it sits.
type formatError struct {
	segs []string // path segments, innermost first
	msg  string
}

func (e *formatError) Error() string {
	if len(e.segs) == 0 {
		return "gdtext: " + e.msg
	}
	var sb strings.Builder
	if len(e.segs) > maxPathSegs {
		sb.WriteString("…")
	}
	for i := min(len(e.segs), maxPathSegs) - 1; i >= 0; i-- {
		sb.WriteString(e.segs[i])
	}
	return "gdtext: " + e.msg + " (at " + sb.String() + ")"
}

// maxPathSegs is how much of a path an error shows.
const maxPathSegs = 64

// inside adds seg in front of the path of a formatError.
func inside(err error, seg string) error {
	if fe, ok := err.(*formatError); ok && len(fe.segs) <= maxPathSegs {
		fe.segs = append(fe.segs, seg)
	}
	return err
}

func errorf(format string, args ...any) error {
	return &formatError{msg: fmt.Sprintf(format, args...)}
}

type writer struct {
	buf       []byte
	g3        bool
	multiline bool
}

func (w *writer) str(s string) { w.buf = append(w.buf, s...) }

// open writes "Name(" (Godot 4) or "Name( " (Godot 3).
func (w *writer) open(name string) {
	w.buf = append(w.buf, name...)
	w.buf = append(w.buf, '(')
	if w.g3 {
		w.buf = append(w.buf, ' ')
	}
}

// close writes ")" (Godot 4) or " )" (Godot 3).
func (w *writer) close() {
	if w.g3 {
		w.buf = append(w.buf, ' ')
	}
	w.buf = append(w.buf, ')')
}

func (w *writer) sep(i int) {
	if i > 0 {
		w.buf = append(w.buf, ", "...)
	}
}

// reals writes a constructor of real_t arguments.
func (w *writer) reals(name string, xs ...float64) {
	w.open(name)
	for i, x := range xs {
		w.sep(i)
		w.buf = appendReal(w.buf, x, realT, false, w.g3)
	}
	w.close()
}

func (w *writer) ints(name string, xs ...int32) {
	w.open(name)
	for i, x := range xs {
		w.sep(i)
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	}
	w.close()
}

func (w *writer) color(c variant.Color) []float32 { return []float32{c.R, c.G, c.B, c.A} }

func (w *writer) float32s(name string, xs []float32) {
	w.open(name)
	for i, x := range xs {
		w.sep(i)
		w.buf = appendReal(w.buf, float64(x), realFloat, false, w.g3)
	}
	w.close()
}

// typeName is the name of t in the target family.
func (w *writer) typeName(t variant.Type) string {
	if w.g3 {
		return variant.Godot3.Name(t)
	}
	return t.String()
}

func (w *writer) value(v variant.Value, depth int) error {
	if depth > maxFormatDepth {
		return errorf("nesting deeper than %d (a container that contains itself?)", maxFormatDepth)
	}
	if w.g3 && v != nil {
		if _, ok := v.Type().ID(variant.Godot3); !ok {
			return errorf("%v does not exist in Godot 3", v.Type())
		}
	}
	switch v := v.(type) {
	case nil:
		w.str("null")
	case variant.Bool:
		if v {
			w.str("true")
		} else {
			w.str("false")
		}
	case variant.Int:
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	case variant.Float:
		w.buf = appendReal(w.buf, float64(v), realDouble, true, w.g3)
	case variant.String:
		return w.quote(string(v))
	case variant.StringName:
		w.buf = append(w.buf, '&')
		return w.quote(string(v))
	case variant.NodePath:
		return w.nodePath(v)
	case variant.RID:
		if v == 0 {
			w.str("RID()")
		} else {
			w.str("RID(")
			w.buf = strconv.AppendInt(w.buf, int64(v), 10)
			w.str(")")
		}
	case variant.ObjectID:
		w.str("Object(EncodedObjectAsID,\"object_id\":")
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
		w.str(",\"script\":null)")
	case *variant.Object:
		return w.object(v, depth)
	case variant.Callable:
		w.str("Callable()")
	case variant.Signal:
		if v == (variant.Signal{}) {
			w.str("Signal()")
			break
		}
		w.str("Signal(&")
		if err := w.quote(v.Name); err != nil {
			return err
		}
		w.str(", ")
		w.buf = strconv.AppendInt(w.buf, int64(v.Object), 10)
		w.str(")")
	case *variant.Dictionary:
		return w.dictionary(v, depth)
	case *variant.Array:
		return w.array(v, depth)

	case variant.Vector2:
		w.reals("Vector2", v.X, v.Y)
	case variant.Vector2i:
		w.ints("Vector2i", v.X, v.Y)
	case variant.Rect2:
		w.reals("Rect2", v.Position.X, v.Position.Y, v.Size.X, v.Size.Y)
	case variant.Rect2i:
		w.ints("Rect2i", v.Position.X, v.Position.Y, v.Size.X, v.Size.Y)
	case variant.Vector3:
		w.reals("Vector3", v.X, v.Y, v.Z)
	case variant.Vector3i:
		w.ints("Vector3i", v.X, v.Y, v.Z)
	case variant.Transform2D:
		w.reals("Transform2D", v.X.X, v.X.Y, v.Y.X, v.Y.Y, v.Origin.X, v.Origin.Y)
	case variant.Vector4:
		w.reals("Vector4", v.X, v.Y, v.Z, v.W)
	case variant.Vector4i:
		w.ints("Vector4i", v.X, v.Y, v.Z, v.W)
	case variant.Plane:
		w.reals("Plane", v.Normal.X, v.Normal.Y, v.Normal.Z, v.D)
	case variant.Quaternion:
		w.reals(w.typeName(variant.TypeQuaternion), v.X, v.Y, v.Z, v.W)
	case variant.AABB:
		w.reals("AABB", v.Position.X, v.Position.Y, v.Position.Z, v.Size.X, v.Size.Y, v.Size.Z)
	case variant.Basis:
		// The text lists the rows; the model holds the columns.
		w.reals("Basis", basisRows(v)...)
	case variant.Transform3D:
		w.reals(w.typeName(variant.TypeTransform3D), append(basisRows(v.Basis), v.Origin.X, v.Origin.Y, v.Origin.Z)...)
	case variant.Projection:
		w.reals("Projection", v.X.X, v.X.Y, v.X.Z, v.X.W, v.Y.X, v.Y.Y, v.Y.Z, v.Y.W,
			v.Z.X, v.Z.Y, v.Z.Z, v.Z.W, v.W.X, v.W.Y, v.W.Z, v.W.W)
	case variant.Color:
		w.float32s("Color", w.color(v))

	case variant.PackedByteArray:
		w.open(w.typeName(variant.TypePackedByteArray))
		for i, x := range v {
			w.sep(i)
			w.buf = strconv.AppendUint(w.buf, uint64(x), 10)
		}
		w.close()
	case variant.PackedInt32Array:
		w.ints(w.typeName(variant.TypePackedInt32Array), v...)
	case variant.PackedInt64Array:
		w.open("PackedInt64Array")
		for i, x := range v {
			w.sep(i)
			w.buf = strconv.AppendInt(w.buf, x, 10)
		}
		w.close()
	case variant.PackedFloat32Array:
		w.float32s(w.typeName(variant.TypePackedFloat32Array), v)
	case variant.PackedFloat64Array:
		w.open("PackedFloat64Array")
		for i, x := range v {
			w.sep(i)
			w.buf = appendReal(w.buf, x, realDouble, false, w.g3)
		}
		w.close()
	case variant.PackedStringArray:
		w.open(w.typeName(variant.TypePackedStringArray))
		for i, s := range v {
			w.sep(i)
			if err := w.quote(s); err != nil {
				return inside(err, "["+strconv.Itoa(i)+"]")
			}
		}
		w.close()
	case variant.PackedVector2Array:
		w.open(w.typeName(variant.TypePackedVector2Array))
		for i, x := range v {
			w.sep(i)
			w.realList(x.X, x.Y)
		}
		w.close()
	case variant.PackedVector3Array:
		w.open(w.typeName(variant.TypePackedVector3Array))
		for i, x := range v {
			w.sep(i)
			w.realList(x.X, x.Y, x.Z)
		}
		w.close()
	case variant.PackedVector4Array:
		w.open("PackedVector4Array")
		for i, x := range v {
			w.sep(i)
			w.realList(x.X, x.Y, x.Z, x.W)
		}
		w.close()
	case variant.PackedColorArray:
		w.open(w.typeName(variant.TypePackedColorArray))
		for i, c := range v {
			w.sep(i)
			for j, x := range w.color(c) {
				w.sep(j)
				w.buf = appendReal(w.buf, float64(x), realFloat, false, w.g3)
			}
		}
		w.close()
	default:
		return errorf("unknown value type %T", v)
	}
	return nil
}

func (w *writer) realList(xs ...float64) {
	for i, x := range xs {
		w.sep(i)
		w.buf = appendReal(w.buf, x, realT, false, w.g3)
	}
}

// basisRows returns the nine components of b row by row.
func basisRows(b variant.Basis) []float64 {
	return []float64{b.X.X, b.Y.X, b.Z.X, b.X.Y, b.Y.Y, b.Z.Y, b.X.Z, b.Y.Z, b.Z.Z}
}

// quote writes s as a string literal on one line: backslash escapes for
// '"', '\\', \b \t \n \f \r, \uXXXX for the other control characters, DEL,
// the C1 controls and the Unicode line and paragraph separators, and every
// other character as itself (UTF-8).
func (w *writer) quote(s string) error {
	if !utf8.ValidString(s) {
		return errorf("string %q is not valid UTF-8", s)
	}
	w.buf = append(w.buf, '"')
	start := 0
	for i, r := range s {
		var esc string
		switch r {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case '\b':
			esc = `\b`
		case '\t':
			esc = `\t`
		case '\n':
			esc = `\n`
		case '\f':
			esc = `\f`
		case '\r':
			esc = `\r`
		default:
			if r >= 0x20 && r != 0x7f && (r < 0x80 || r >= 0xa0) && r != 0x2028 && r != 0x2029 {
				continue
			}
		}
		w.buf = append(w.buf, s[start:i]...)
		if esc != "" {
			w.buf = append(w.buf, esc...)
		} else {
			const hex = "0123456789abcdef"
			w.buf = append(w.buf, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
		}
		start = i + utf8.RuneLen(r)
	}
	w.buf = append(w.buf, s[start:]...)
	w.buf = append(w.buf, '"')
	return nil
}

// nodePath writes NodePath("text"), or, for a path that the engine's
// NodePath(String) cannot rebuild from its text (a name holding '/' or ':',
// an empty name), the form NodePath(["names"…], ["subnames"…], absolute)
// that only this package reads.
func (w *writer) nodePath(p variant.NodePath) error {
	text := p.String()
	if q, ok := variant.ParseNodePath(text); ok && sameNodePath(p, q) {
		w.str("NodePath(")
		if err := w.quote(text); err != nil {
			return err
		}
		w.str(")")
		return nil
	}
	w.str("NodePath([")
	for i, n := range p.Names {
		w.sep(i)
		if err := w.quote(n); err != nil {
			return err
		}
	}
	w.str("], [")
	for i, n := range p.Subnames {
		w.sep(i)
		if err := w.quote(n); err != nil {
			return err
		}
	}
	if p.Absolute {
		w.str("], true)")
	} else {
		w.str("], false)")
	}
	return nil
}

func sameNodePath(a, b variant.NodePath) bool {
	if a.Absolute != b.Absolute || len(a.Names) != len(b.Names) || len(a.Subnames) != len(b.Subnames) {
		return false
	}
	for i := range a.Names {
		if a.Names[i] != b.Names[i] {
			return false
		}
	}
	for i := range a.Subnames {
		if a.Subnames[i] != b.Subnames[i] {
			return false
		}
	}
	return true
}

// isIdent reports whether s is an identifier of the engine's text form.
func isIdent(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || i > 0 && c >= '0' && c <= '9' {
			continue
		}
		return false
	}
	return true
}

func (w *writer) object(o *variant.Object, depth int) error {
	if o == nil || o.Class == "" {
		w.str("null")
		return nil
	}
	if !isIdent(o.Class) {
		return errorf("object class %q is not an identifier", o.Class)
	}
	w.str("Object(")
	w.str(o.Class)
	w.str(",")
	for i, p := range o.Properties {
		if i > 0 {
			w.str(",")
		}
		if err := w.quote(p.Name); err != nil {
			return inside(err, "."+p.Name)
		}
		w.str(":")
		if err := w.value(p.Value, depth+1); err != nil {
			return inside(err, "."+p.Name)
		}
	}
	w.str(")")
	return nil
}

// containerType writes the element, key or value type of a typed container.
func (w *writer) containerType(c variant.ContainerType) error {
	switch c.Kind {
	case variant.Untyped:
		w.str("Variant")
	case variant.Builtin:
		if c.Builtin == variant.TypeNil || c.Builtin >= variant.TypeCount {
			return errorf("invalid container element type %v", c.Builtin)
		}
		w.str(c.Builtin.String())
	case variant.ClassName:
		if !isIdent(c.Name) {
			return errorf("container class name %q is not an identifier", c.Name)
		}
		w.str(c.Name)
	case variant.Script:
		if c.Name == "" {
			return errorf("container script path is empty")
		}
		w.str("Resource(")
		if err := w.quote(c.Name); err != nil {
			return err
		}
		w.str(")")
	default:
		return errorf("invalid container kind %d", c.Kind)
	}
	return nil
}

func (w *writer) array(a *variant.Array, depth int) error {
	typed := a != nil && a.Elem.IsTyped()
	if typed {
		if w.g3 {
			return errorf("typed Arrays do not exist in Godot 3")
		}
		w.str("Array[")
		if err := w.containerType(a.Elem); err != nil {
			return err
		}
		w.str("](")
	}
	if w.g3 {
		w.str("[ ")
	} else {
		w.str("[")
	}
	var values []variant.Value
	if a != nil {
		values = a.Values
	}
	for i, e := range values {
		w.sep(i)
		if err := w.value(e, depth+1); err != nil {
			return inside(err, "["+strconv.Itoa(i)+"]")
		}
	}
	if w.g3 {
		w.str(" ]")
	} else {
		w.str("]")
	}
	if typed {
		w.str(")")
	}
	return nil
}

func (w *writer) dictionary(d *variant.Dictionary, depth int) error {
	typed := d != nil && (d.KeyType.IsTyped() || d.ValueType.IsTyped())
	if typed {
		if w.g3 {
			return errorf("typed Dictionaries do not exist in Godot 3")
		}
		w.str("Dictionary[")
		if err := w.containerType(d.KeyType); err != nil {
			return err
		}
		w.str(", ")
		if err := w.containerType(d.ValueType); err != nil {
			return err
		}
		w.str("](")
	}
	entries := d.Entries()
	// Line breaks as the engine writes them; on one line, spaces instead.
	nl := " "
	if w.multiline {
		nl = "\n"
	}
	switch {
	case len(entries) > 0:
		w.str("{")
		w.str(nl)
		for i, e := range entries {
			if i > 0 {
				w.str(",")
				w.str(nl)
			}
			if err := w.value(e.Key, depth+1); err != nil {
				return inside(err, "{key "+strconv.Itoa(i)+"}")
			}
			w.str(": ")
			if err := w.value(e.Value, depth+1); err != nil {
				return inside(err, "["+keyPath(e.Key)+"]")
			}
		}
		w.str(nl)
		w.str("}")
	case w.g3:
		w.str("{")
		w.str(nl)
		w.str(nl)
		w.str("}")
	default:
		w.str("{}")
	}
	if typed {
		w.str(")")
	}
	return nil
}

// keyPath shows a Dictionary key in an error path.
func keyPath(k variant.Value) string {
	switch k := k.(type) {
	case variant.String:
		return strconv.Quote(string(k))
	case variant.StringName:
		return "&" + strconv.Quote(string(k))
	case variant.Int:
		return strconv.FormatInt(int64(k), 10)
	}
	return variant.TypeOf(k).String()
}
