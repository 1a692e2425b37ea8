package gdjson

import (
	"strconv"
	"strings"
)

// Form is one of the two JSON forms of values.
type Form uint8

// The JSON forms.
const (
	// Plain is JSON.stringify(value) / JSON.parse_string(text): lossy.
	Plain Form = iota
	// Typed is JSON.stringify(JSON.from_native(value)) /
	// JSON.to_native(JSON.parse_string(text)): every value with its type.
	Typed
)

// String returns "json" or "typed-json", the names the gdvar command uses.
func (f Form) String() string {
	if f == Typed {
		return "typed-json"
	}
	return "json"
}

// Options configures Format and Append. The zero value writes the plain
// form as JSON.stringify(value) does: on one line, Dictionary keys sorted.
type Options struct {
	// Form is Plain or Typed.
	Form Form
	// Indent indents nested values by this string, one entry a line, as
	// JSON.stringify's indent argument does.
	Indent string
	// KeepOrder writes Dictionary entries (and the fields of the typed
	// form) in their order instead of sorting the keys, as
	// JSON.stringify(value, indent, false) does.
	KeepOrder bool
	// FullObjects writes full objects (*variant.Object) in the typed form,
	// like JSON.from_native(value, true); without it they are an error.
	FullObjects bool
}

// DefaultMaxDepth is the nesting limit of Parse, the engine's.
const DefaultMaxDepth = 1024

// ParseOptions configures Parse. The zero value reads the plain form as
// JSON.parse_string does.
type ParseOptions struct {
	// Form is Plain or Typed.
	Form Form
	// AllowObjects accepts full objects and object-typed containers in the
	// typed form, like JSON.to_native(json, true). They are only data:
	// nothing is instantiated.
	AllowObjects bool
	// Double keeps the components of math types (Vector2, Transform3D,
	// PackedVector3Array, …) as 64-bit floats, as an engine built with
	// precision=double does; by default they are rounded to 32 bits.
	Double bool
	// MaxDepth is the deepest nesting accepted; 0 means DefaultMaxDepth.
	MaxDepth int
}

// Error reports JSON that Parse cannot read, or a value that Format cannot
// write: where and why.
type Error struct {
	// Offset is the byte offset in the text (-1 when the error is about a
	// value, not about text); Line and Column (from 1) locate it too.
	Offset, Line, Column int
	// Path locates the value in the typed form or in the value being
	// written: `[3]["pos"]`, `.args[1]`.
	Path string
	// Msg says what is wrong.
	Msg string
}

// Error formats the error on one line: "line 1, column 9: expected ':'" or
// `[2]["pos"]: a full object needs FullObjects`.
func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("gdjson: ")
	if e.Offset >= 0 {
		sb.WriteString("line ")
		sb.WriteString(strconv.Itoa(e.Line))
		sb.WriteString(", column ")
		sb.WriteString(strconv.Itoa(e.Column))
		if e.Path != "" {
			sb.WriteString(", ")
		}
	}
	sb.WriteString(e.Path)
	if e.Offset >= 0 || e.Path != "" {
		sb.WriteString(": ")
	}
	sb.WriteString(e.Msg)
	return sb.String()
}
