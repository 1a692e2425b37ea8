package gdvar

import (
	"errors"
	"reflect"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/variant"
)

// Sentinel errors for failures that lie not in the bytes but in how they
// meet a Go type. They are the Err of an *Error, so errors.Is(err,
// gdvar.ErrTypeMismatch) works.
var (
	// ErrTypeMismatch: the Variant cannot go into the Go value (a Vector2
	// into a string, a Dictionary whose keys are not strings into a
	// struct, an Array of the wrong length into a Go array, …).
	ErrTypeMismatch = errors.New("type mismatch")
	// ErrOverflow: a number does not fit: an int into a narrower or
	// unsigned Go integer, a float into a float32, a uint64 above the
	// largest Godot int.
	ErrOverflow = errors.New("value out of range")
	// ErrUnknownField: with DecOptions.RejectUnknownFields, a Dictionary
	// key that names no field of the struct.
	ErrUnknownField = errors.New("unknown field")
	// ErrUnsupportedType: the Go type has no Variant form (channels,
	// functions, complex numbers, unsafe pointers), or a cycle of
	// pointers without a container in between.
	ErrUnsupportedType = errors.New("unsupported Go type")
	// ErrInvalidTarget: Unmarshal was not given a non-nil pointer.
	ErrInvalidTarget = errors.New("invalid unmarshal target")
)

// Error describes a failure to marshal or unmarshal a Go value: where in
// the bytes, where in the Go value, and why.
//
// errors.As(err, &ve) with ve a *variant.Error works for every Error, so a
// program can catch the errors of package variant and of this package
// alike: for an Error caused by the bytes it finds the *variant.Error in
// Err; for any other it finds a *variant.Error with the same Op, Offset,
// Type, Err and Detail, Path the Variant path of the item (`[3]["pos"]`),
// GoPath the Go path (this Error's Path) and Code ERR_INVALID_DATA when
// unmarshalling, ERR_INVALID_PARAMETER when marshalling. Either way the
// *variant.Error has the GoPath, and the Variant path in Path.
//
// When the bytes themselves are at fault (truncated, invalid UTF-8, nested
// too deep, a full Object without AllowObjects, …) or a value cannot be
// encoded for the target engine, Err is the *variant.Error that package
// variant reports for the same bytes or value, so errors.Is(err,
// variant.ErrTruncated) and errors.As(err, &variantErr) work, and its Path
// locates the item in Variant terms (`[3]["pos"]`). Otherwise Err is one
// of this package's sentinels, or the error returned by a Marshaler or
// Unmarshaler method.
type Error struct {
	// Op is "marshal" or "unmarshal".
	Op string
	// Offset is the byte offset of the offending item: in the input when
	// unmarshalling, in the output when marshalling.
	Offset int
	// Path locates the item in the Go value, e.g. `player.inventory[2]`:
	// struct fields by their Dictionary key, slice and array elements by
	// index, map entries by key. Empty at the top level.
	Path string
	// Type is the Variant type involved, TypeUnknown when there is none.
	Type variant.Type
	// GoType is the Go type involved, nil when there is none.
	GoType reflect.Type
	// Err is the cause: a *variant.Error, a sentinel such as
	// ErrTypeMismatch, or a method's error.
	Err error
	// Detail says more, e.g. "cannot unmarshal Vector2 into string".
	Detail string

	fam     variant.Family
	wire    bool   // Err is a *variant.Error made by this package
	varPath string // where the item is in the Variant, for As

	// Path segments not yet joined, innermost first: of the Go path and
	// of the Variant path of a wire error.
	goSegs, varSegs []string
}

// Error formats the error on one line, e.g.
// "unmarshal: byte 40, player.inventory[2]: cannot unmarshal Vector2 into string"
// or "unmarshal: byte 12, player.pos (Vector2): data truncated: need 8 bytes, have 4".
func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString(e.Op)
	sb.WriteString(": byte ")
	sb.WriteString(strconv.Itoa(e.Offset))
	if e.Path != "" {
		sb.WriteString(", ")
		sb.WriteString(e.Path)
	}
	if ve, ok := e.Err.(*variant.Error); ok && e.wire {
		if ve.Type != variant.TypeUnknown {
			sb.WriteString(" (")
			sb.WriteString(ve.Family.Name(ve.Type))
			sb.WriteString(")")
		}
		sb.WriteString(": ")
		sb.WriteString(ve.Err.Error())
		if ve.Detail != "" {
			sb.WriteString(": ")
			sb.WriteString(ve.Detail)
		}
		return sb.String()
	}
	sb.WriteString(": ")
	switch {
	case e.Detail == "":
		sb.WriteString(e.Err.Error())
	case isSentinel(e.Err):
		sb.WriteString(e.Detail)
	default:
		sb.WriteString(e.Detail)
		sb.WriteString(": ")
		sb.WriteString(e.Err.Error())
	}
	return sb.String()
}

// Unwrap returns the cause.
func (e *Error) Unwrap() error { return e.Err }

// As sets target, a **variant.Error, to the *variant.Error describing e
// (see Error) when e's cause is not one already; errors.As then finds it.
func (e *Error) As(target any) bool {
	t, ok := target.(**variant.Error)
	if !ok || e.wire {
		return false
	}
	if _, isVariant := e.Err.(*variant.Error); isVariant {
		return false // a Marshaler's *variant.Error: Unwrap finds it
	}
	code := variant.ErrCodeInvalidData
	if e.Op == "marshal" {
		code = variant.ErrCodeInvalidParam
	}
	detail := e.Detail
	if detail == "" && e.Err == nil {
		detail = e.Error()
	}
	*t = &variant.Error{Op: e.Op, Offset: e.Offset, Path: e.varPath, GoPath: e.Path, Type: e.Type,
		Family: e.fam, Code: code, Err: e.Err, Detail: detail}
	return true
}

func isSentinel(err error) bool {
	switch err {
	case ErrTypeMismatch, ErrOverflow, ErrUnknownField, ErrUnsupportedType, ErrInvalidTarget, nil:
		return true
	}
	return false
}

// typeName names a Variant type as the family's GDScript does.
func typeName(fam variant.Family, t variant.Type) string {
	if fam == 0 {
		fam = variant.Godot4
	}
	return fam.Name(t)
}

// wireError wraps a *variant.Error of op ("marshal" or "unmarshal").
func wireError(op string, ve *variant.Error) *Error {
	return &Error{Op: op, Offset: ve.Offset, Type: ve.Type, Err: ve, fam: ve.Family, wire: true}
}

// prefix adds outer path segments to an error coming up from a nested
// value: goSeg to the Go path, varSeg to the Variant path of a wire error.
//
// The segments are collected innermost first and joined once, by finish:
// building the paths level by level would cost time and memory quadratic
// in the nesting depth.
func prefix(err error, goSeg, varSeg string) error {
	err = asError(err)
	if e, ok := err.(*Error); ok {
		e.goSegs = append(e.goSegs, goSeg)
		e.varSegs = append(e.varSegs, varSeg)
	}
	return err
}

// joinPath puts segs, innermost first, in front of path.
func joinPath(segs []string, path string) string {
	if len(segs) == 0 {
		return path
	}
	var sb strings.Builder
	for i := len(segs) - 1; i >= 0; i-- {
		sb.WriteString(segs[i])
	}
	sb.WriteString(path)
	return sb.String()
}

// finish tidies an error before it leaves the package: the collected path
// segments are joined, and the Go path loses its leading dot.
func finish(err error) error {
	err = asError(err)
	if e, ok := err.(*Error); ok {
		e.Path = strings.TrimPrefix(joinPath(e.goSegs, e.Path), ".")
		if ve, ok := e.Err.(*variant.Error); ok && e.wire {
			ve.Path = joinPath(e.varSegs, ve.Path)
			ve.GoPath = e.Path
		} else {
			e.varPath = joinPath(e.varSegs, "")
		}
		e.goSegs, e.varSegs = nil, nil
	}
	return err
}

// goKeySeg renders a Go map key as a Go path segment: ["sword"], [3].
func goKeySeg(k reflect.Value) string {
	switch k.Kind() {
	case reflect.String:
		return "[" + strconv.Quote(k.String()) + "]"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return "[" + strconv.FormatInt(k.Int(), 10) + "]"
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "[" + strconv.FormatUint(k.Uint(), 10) + "]"
	case reflect.Bool:
		return "[" + strconv.FormatBool(k.Bool()) + "]"
	}
	return "[<" + k.Type().String() + ">]"
}
