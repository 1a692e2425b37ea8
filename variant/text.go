package variant

import (
	"encoding/base64"
	"fmt"
	"strconv"
	"strings"
	"unicode/utf8"
)

// TextOptions configures AppendText.
type TextOptions struct {
	// Family is the engine family whose str_to_var (Godot 4) or str2var
	// (Godot 3) must read the text; 0 means Godot4.
	Family Family
	// Multiline writes Dictionaries as the engine does, one entry a line.
	// By default everything is on one line.
	Multiline bool
	// MaxBytes, when positive, bounds the text: once it grows past
	// MaxBytes bytes, AppendText keeps the first MaxBytes bytes (fewer
	// when that would split a UTF-8 sequence), appends TextCut and stops
	// without looking at the rest of the value. The work and the memory
	// used are then proportional to MaxBytes, not to the value. A cut text
	// is at most MaxBytes+len(TextCut) bytes long and cannot be parsed.
	MaxBytes int
	// ResourceFormat, when positive, writes values as resource files
	// (.tres, .tscn) of that text format hold them: Strings escape only
	// '"' and '\\' (line breaks and other characters are written as they
	// are, as the engine's resource saver writes them), the other strings
	// (StringName, NodePath, PackedStringArray) escape no character from
	// U+0080 (the engines' file readers misread such \u escapes), a typed
	// container whose element type is a script named by an id rather than
	// a path (no "://") is Array[ExtResource("id")], and from format 4
	// (Godot 4.3+) a PackedByteArray is its base64 string,
	// PackedByteArray("AQID").
	ResourceFormat int
	// Reals32 writes the real components of math types (vectors,
	// transforms, packed vector arrays) that a float32 holds exactly with
	// the digits of that float32, as single-precision engines write them
	// ("0.87758255" rather than "0.8775825500488281"): the text then reads
	// back to the same float32, which is all such an engine, or a
	// single-precision binary resource file, holds.
	Reals32 bool
}

// TextCut marks the end of a text that TextOptions.MaxBytes cut short.
const TextCut = "…"

// maxTextDepth bounds how deeply the text writer follows nested
// containers, so that a value that contains itself fails instead of
// recursing forever.
const maxTextDepth = maxDepthLimit

// AppendText appends the text form of v (what var_to_str writes in Godot 4,
// var2str in Godot 3; see package gdtext for the details) to dst. On error
// it returns dst unchanged and a *TextError saying what the text form
// cannot express and where in v it is.
func AppendText(dst []byte, v Value, o TextOptions) ([]byte, error) {
	f := o.Family
	if f == 0 {
		f = Godot4
	}
	if !f.valid() {
		return dst, &TextError{Msg: "unknown engine family " + strconv.Itoa(int(f)) + " (want 3 or 4)"}
	}
	w := writer{buf: dst, start: len(dst), max: max(o.MaxBytes, 0), g3: f == Godot3, multiline: o.Multiline, resFmt: o.ResourceFormat, reals32: o.Reals32}
	if err := w.value(v, 0); err != nil {
		return dst, err.(*formatError).textError()
	}
	if w.full() {
		return w.buf[:w.end], nil // drop what unwinding wrote after the cut
	}
	return w.buf, nil
}

// appendString appends the Godot 4 text of v for String methods: it never
// fails. What the text form cannot express is written as closely as it
// can be (see the String methods).
func appendString(dst []byte, v Value) []byte {
	w := writer{buf: dst, lenient: true}
	_ = w.value(v, 0)
	return w.buf
}

// text returns the Godot 4 text of v for String methods.
func text(v Value) string { return string(appendString(nil, v)) }

// TextError is a value that the text form cannot express, and where it
// sits.
type TextError struct {
	// Path locates the value inside the value given, e.g. `[3]["pos"]`;
	// empty for the value itself. A long path keeps its innermost part,
	// after "…".
	Path string
	// Msg says what cannot be written.
	Msg string
}

// Error returns "variant: msg (at path)".
func (e *TextError) Error() string {
	if e.Path == "" {
		return "variant: " + e.Msg
	}
	return "variant: " + e.Msg + " (at " + e.Path + ")"
}

// formatError is a value that cannot be written, and where it sits, while
// the writer unwinds.
type formatError struct {
	segs []string // path segments, innermost first
	msg  string
}

func (e *formatError) Error() string { return e.textError().Error() }

func (e *formatError) textError() *TextError {
	var sb strings.Builder
	if len(e.segs) > maxPathSegs {
		sb.WriteString("…")
	}
	for i := min(len(e.segs), maxPathSegs) - 1; i >= 0; i-- {
		sb.WriteString(e.segs[i])
	}
	return &TextError{Path: sb.String(), Msg: e.msg}
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
	start     int  // length of buf before the text
	max       int  // TextOptions.MaxBytes; 0: no limit
	cut       bool // the text reached max: it ends at end, with TextCut
	end       int
	g3        bool
	multiline bool
	lenient   bool // never fail: write what cannot be expressed as best it can
	resFmt    int  // TextOptions.ResourceFormat
	reals32   bool // TextOptions.Reals32
}

// full reports whether the text has reached its limit. The first time it
// has, full cuts it there and appends TextCut.
func (w *writer) full() bool {
	if w.cut {
		return true
	}
	if w.max == 0 || len(w.buf)-w.start <= w.max {
		return false
	}
	n := w.start + w.max
	for n > w.start && !utf8.RuneStart(w.buf[n]) {
		n--
	}
	w.buf = append(w.buf[:n], TextCut...)
	w.cut, w.end = true, len(w.buf)
	return true
}

// room clips s to what the limit leaves room for, plus a few bytes so that
// full sees the text go past the limit with a whole character.
func (w *writer) room(s string) string {
	if w.max > 0 {
		if n := w.max - (len(w.buf) - w.start) + utf8.UTFMax; len(s) > n {
			return s[:max(n, 0)]
		}
	}
	return s
}

func (w *writer) str(s string) { w.buf = append(w.buf, w.room(s)...) }

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

// sep writes the ", " before element i, and reports false instead when the
// text is full: the caller then stops.
func (w *writer) sep(i int) bool {
	if w.full() {
		return false
	}
	if i > 0 {
		w.buf = append(w.buf, ", "...)
	}
	return true
}

func (w *writer) ints(name string, xs ...int32) {
	w.open(name)
	for i, x := range xs {
		if !w.sep(i) {
			break
		}
		w.buf = strconv.AppendInt(w.buf, int64(x), 10)
	}
	w.close()
}

func (w *writer) color(c Color) []float32 { return []float32{c.R, c.G, c.B, c.A} }

func (w *writer) float32s(name string, xs []float32) {
	w.open(name)
	for i, x := range xs {
		if !w.sep(i) {
			break
		}
		w.buf = appendReal(w.buf, float64(x), realFloat, false, w.g3)
	}
	w.close()
}

// typeName is the name of t in the target family.
func (w *writer) typeName(t Type) string {
	if w.g3 {
		return Godot3.Name(t)
	}
	return t.String()
}

func (w *writer) value(v Value, depth int) error {
	if w.full() {
		return nil
	}
	if depth > maxTextDepth {
		if w.lenient {
			w.str(TextCut)
			return nil
		}
		return errorf("nesting deeper than %d (a container that contains itself?)", maxTextDepth)
	}
	if w.g3 && v != nil {
		if _, ok := v.Type().ID(Godot3); !ok {
			return errorf("%v does not exist in Godot 3", v.Type())
		}
	}
	switch v := v.(type) {
	case *Object:
		return w.object(v, depth)
	case *Dictionary:
		return w.dictionary(v, depth)
	case *Array:
		return w.array(v, depth)
	case ResourceRef:
		return w.resourceRef(v)
	}
	return w.leaf(v)
}

// leaf writes v, which is not a container. Containers recurse through
// value, whose stack frame stays small, so that deep nesting keeps the
// stack small.
func (w *writer) leaf(v Value) error {
	switch v := v.(type) {
	case nil:
		w.str("null")
	case Bool:
		if v {
			w.str("true")
		} else {
			w.str("false")
		}
	case Int:
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
	case Float:
		w.buf = appendReal(w.buf, float64(v), realDouble, true, w.g3)
	case String:
		if w.resFmt > 0 {
			return w.quoteMultiline(string(v))
		}
		return w.quote(string(v))
	case StringName:
		w.buf = append(w.buf, '&')
		return w.quote(string(v))
	case NodePath:
		return w.nodePath(v)
	case RID:
		if v == 0 {
			w.str("RID()")
		} else {
			w.str("RID(")
			w.buf = strconv.AppendInt(w.buf, int64(v), 10)
			w.str(")")
		}
	case ObjectID:
		w.str("Object(EncodedObjectAsID,\"object_id\":")
		w.buf = strconv.AppendInt(w.buf, int64(v), 10)
		w.str(",\"script\":null)")
	case Callable:
		w.str("Callable()")
	case Signal:
		if v == (Signal{}) {
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
	case PackedByteArray:
		if w.resFmt >= 4 && !w.g3 {
			w.str("PackedByteArray(\"")
			w.str(base64.StdEncoding.EncodeToString(v))
			w.str("\")")
			return nil
		}
		w.open(w.typeName(TypePackedByteArray))
		for i, x := range v {
			if !w.sep(i) {
				break
			}
			w.buf = strconv.AppendUint(w.buf, uint64(x), 10)
		}
		w.close()
	case PackedInt32Array:
		w.ints(w.typeName(TypePackedInt32Array), v...)
	case PackedInt64Array:
		w.open("PackedInt64Array")
		for i, x := range v {
			if !w.sep(i) {
				break
			}
			w.buf = strconv.AppendInt(w.buf, x, 10)
		}
		w.close()
	case PackedFloat32Array:
		w.float32s(w.typeName(TypePackedFloat32Array), v)
	case PackedFloat64Array:
		w.open("PackedFloat64Array")
		for i, x := range v {
			if !w.sep(i) {
				break
			}
			w.buf = appendReal(w.buf, x, realDouble, false, w.g3)
		}
		w.close()
	case PackedStringArray:
		w.open(w.typeName(TypePackedStringArray))
		for i, s := range v {
			if !w.sep(i) {
				break
			}
			if err := w.quote(s); err != nil {
				return inside(err, "["+strconv.Itoa(i)+"]")
			}
		}
		w.close()
	case PackedVector2Array:
		w.open(w.typeName(TypePackedVector2Array))
		for i, x := range v {
			if !w.sep(i) {
				break
			}
			w.realList(x.X, x.Y)
		}
		w.close()
	case PackedVector3Array:
		w.open(w.typeName(TypePackedVector3Array))
		for i, x := range v {
			if !w.sep(i) {
				break
			}
			w.realList(x.X, x.Y, x.Z)
		}
		w.close()
	case PackedVector4Array:
		w.open("PackedVector4Array")
		for i, x := range v {
			if !w.sep(i) {
				break
			}
			w.realList(x.X, x.Y, x.Z, x.W)
		}
		w.close()
	case PackedColorArray:
		w.open(w.typeName(TypePackedColorArray))
		for i, c := range v {
			if !w.sep(i) {
				break
			}
			for j, x := range w.color(c) {
				if !w.sep(j) {
					break
				}
				w.buf = appendReal(w.buf, float64(x), realFloat, false, w.g3)
			}
		}
		w.close()
	default:
		if _, f, _ := mathData(v); f != nil {
			w.math(v, f)
			return nil
		}
		if w.lenient {
			w.str("null")
			return nil
		}
		return errorf("unknown value type %T", v)
	}
	return nil
}

func (w *writer) realList(xs ...float64) {
	for i, x := range xs {
		if !w.sep(i) {
			break
		}
		w.appendRealT(x)
	}
}

// math writes a fixed-size math value, whose type has the facts f: its
// constructor with its components in wire order (a Basis row by row).
// appendRealT appends a real component of a math type.
func (w *writer) appendRealT(x float64) {
	if w.reals32 && float64(float32(x)) == x {
		w.buf = appendReal(w.buf, x, realFloat, false, w.g3)
		return
	}
	w.buf = appendReal(w.buf, x, realT, false, w.g3)
}

func (w *writer) math(v Value, f *TypeFacts) {
	var buf [16]float64
	w.open(w.typeName(v.Type()))
	for i, x := range AppendComponents(buf[:0], v) {
		if !w.sep(i) {
			break
		}
		switch {
		case f.Reals > 0:
			w.appendRealT(x)
		case f.Ints > 0:
			w.buf = strconv.AppendInt(w.buf, int64(x), 10)
		default:
			w.buf = appendReal(w.buf, x, realFloat, false, w.g3)
		}
	}
	w.close()
}

// quote writes s as a string literal on one line: backslash escapes for
// '"', '\\', \b \t \n \f \r, \uXXXX for the other control characters, DEL,
// the C1 controls and the Unicode line and paragraph separators, and every
// other character as itself (UTF-8).
//
// Godot 3 strings may hold more than UTF-8 (see DecodeRuneGodot3):
// surrogates are written as \uXXXX escapes, which str2var turns back into
// the same characters, and characters above U+10FFFF, which no escape of
// str2var can give, as the bytes Godot 3 writes for them; the engine reads
// those back from the text's bytes (File.get_as_text,
// PoolByteArray.get_string_from_utf8, …), and so does the parser of package
// gdtext. String methods (lenient) write them as U+FFFD, and any byte that
// is not part of a character as U+FFFD.
// quoteMultiline writes a String as resource files hold it
// (String::c_escape_multiline): only '"' and '\\' are escaped, and NUL,
// which the file cannot hold, as \u0000.
func (w *writer) quoteMultiline(s string) error {
	if w.g3 && !Godot3.ValidString(s) {
		return errorf("string %q is not one Godot 3 can hold", s)
	} else if !w.g3 && !utf8.ValidString(s) {
		return errorf("string %q is not valid UTF-8", s)
	}
	w.buf = append(w.buf, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		var esc string
		switch s[i] {
		case '"':
			esc = `\"`
		case '\\':
			esc = `\\`
		case 0:
			esc = `\u0000`
		default:
			continue
		}
		w.str(s[start:i])
		w.str(esc)
		start = i + 1
	}
	w.str(s[start:])
	w.buf = append(w.buf, '"')
	return nil
}

func (w *writer) quote(s string) error {
	if !w.lenient {
		if w.g3 && !Godot3.ValidString(s) {
			return errorf("string %q is not one Godot 3 can hold", s)
		} else if !w.g3 && !utf8.ValidString(s) {
			return errorf("string %q is not valid UTF-8", s)
		}
	}
	w.buf = append(w.buf, '"')
	start := 0
	for i := 0; i < len(s); {
		r, n := rune(s[i]), 1
		if r >= utf8.RuneSelf {
			r, n = utf8.DecodeRuneInString(s[i:])
		}
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
		case utf8.RuneError:
			if n > 1 {
				i += n // U+FFFD itself
				continue
			}
			// Not UTF-8: a character only Godot 3 has, or (lenient) a
			// stray byte.
			if r, n = DecodeRuneGodot3(s[i:]); n <= 1 {
				r, n, esc = utf8.RuneError, 1, "\uFFFD"
			} else if r > utf8.MaxRune || w.resFmt > 0 {
				// Beyond U+10FFFF no escape gives it; in a file, the
				// reader takes a surrogate's \u escape for another
				// character and its bytes for the surrogate.
				if w.g3 && !w.lenient {
					i += n // written as it is
					continue
				}
				esc = "\uFFFD"
			}
		default:
			// Outside resource files, C1 controls and the Unicode line
			// separators are escaped too; in them, as the engines'
			// String::c_escape, every character from U+0080 is written as
			// it is: their file readers turn \u escapes of such
			// characters into other ones (Godot 4.6 reads \u0085 as
			// U+FFFD and \u2028 as a space).
			if r >= 0x20 && r != 0x7f && (r < 0x80 || r >= 0xa0 && r != 0x2028 && r != 0x2029 || w.resFmt > 0) {
				i += n
				if w.max > 0 && i-start > w.max {
					// A long run without escapes: stop early when full.
					w.str(s[start:i])
					start = i
					if w.full() {
						return nil
					}
				}
				continue
			}
		}
		w.str(s[start:i])
		if esc != "" {
			w.buf = append(w.buf, esc...)
		} else {
			const hex = "0123456789abcdef"
			w.buf = append(w.buf, '\\', 'u', hex[r>>12&15], hex[r>>8&15], hex[r>>4&15], hex[r&15])
		}
		i += n
		start = i
		if w.full() {
			return nil
		}
	}
	w.str(s[start:])
	w.buf = append(w.buf, '"')
	return nil
}

// nodePath writes NodePath("text"), or, for a path that the engine's
// NodePath(String) cannot rebuild from its text (a name holding '/' or ':',
// an empty name), the form NodePath(["names"…], ["subnames"…], absolute)
// that only this package reads.
func (w *writer) nodePath(p NodePath) error {
	text := p.String()
	if q, ok := ParseNodePath(text); ok && sameNodePath(p, q) {
		w.str("NodePath(")
		if err := w.quote(text); err != nil {
			return err
		}
		w.str(")")
		return nil
	}
	w.str("NodePath([")
	for i, n := range p.Names {
		if !w.sep(i) {
			break
		}
		if err := w.quote(n); err != nil {
			return err
		}
	}
	w.str("], [")
	for i, n := range p.Subnames {
		if !w.sep(i) {
			break
		}
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

func sameNodePath(a, b NodePath) bool {
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

func (w *writer) object(o *Object, depth int) error {
	if o == nil || o.Class == "" {
		w.str("null")
		return nil
	}
	if !isIdent(o.Class) && !w.lenient {
		return errorf("object class %q is not an identifier", o.Class)
	}
	w.str("Object(")
	w.str(o.Class)
	w.str(",")
	for i, p := range o.Properties {
		if w.full() {
			break
		}
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
func (w *writer) containerType(c ContainerType) error {
	switch c.Kind {
	case Untyped:
		w.str("Variant")
	case Builtin:
		if (c.Builtin == TypeNil || c.Builtin >= TypeCount) && !w.lenient {
			return errorf("invalid container element type %v", c.Builtin)
		}
		w.str(c.Builtin.String())
	case ClassName:
		if !isIdent(c.Name) && !w.lenient {
			return errorf("container class name %q is not an identifier", c.Name)
		}
		w.str(c.Name)
	case Script:
		if c.Name == "" && !w.lenient {
			return errorf("container script path is empty")
		}
		if w.resFmt > 0 && !strings.Contains(c.Name, "://") {
			w.str("ExtResource(")
		} else {
			w.str("Resource(")
		}
		if err := w.quote(c.Name); err != nil {
			return err
		}
		w.str(")")
	default:
		if w.lenient {
			w.str("Variant")
			break
		}
		return errorf("invalid container kind %d", c.Kind)
	}
	return nil
}

func (w *writer) array(a *Array, depth int) error {
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
	var values []Value
	if a != nil {
		values = a.Values
	}
	for i, e := range values {
		if !w.sep(i) {
			break
		}
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

func (w *writer) dictionary(d *Dictionary, depth int) error {
	typed := d != nil && (d.KeyType().IsTyped() || d.ValueType().IsTyped())
	if typed {
		if w.g3 {
			return errorf("typed Dictionaries do not exist in Godot 3")
		}
		w.str("Dictionary[")
		if err := w.containerType(d.KeyType()); err != nil {
			return err
		}
		w.str(", ")
		if err := w.containerType(d.ValueType()); err != nil {
			return err
		}
		w.str("](")
	}
	entries := d.view()
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
			if w.full() {
				break
			}
			if i > 0 {
				w.str(",")
				w.str(nl)
			}
			if err := w.value(e.Key, depth+1); err != nil {
				return inside(err, KeyIndexSeg(i))
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
func keyPath(k Value) string {
	switch k := k.(type) {
	case String:
		return strconv.Quote(string(k))
	case StringName:
		return "&" + strconv.Quote(string(k))
	case Int:
		return strconv.FormatInt(int64(k), 10)
	}
	return TypeOf(k).String()
}
