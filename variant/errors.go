package variant

import (
	"io"
	"strconv"
	"strings"
)

// Sentinel errors. Every error returned by this package is an *Error whose
// Err is one of these, so errors.Is(err, variant.ErrTruncated) works.
var (
	// ErrTruncated: the data ends before the value does. It also matches
	// io.ErrUnexpectedEOF.
	ErrTruncated = &sentinel{"data truncated", io.ErrUnexpectedEOF}
	// ErrInvalidType: the type byte names no Variant type of the family.
	ErrInvalidType = &sentinel{"invalid Variant type", nil}
	// ErrInvalidUTF8: a string is not valid UTF-8.
	ErrInvalidUTF8 = &sentinel{"invalid UTF-8", nil}
	// ErrInvalidData: the data breaks the format in another way (negative
	// count, old-format NodePath, bad container type, …).
	ErrInvalidData = &sentinel{"invalid data", nil}
	// ErrTooDeep: nesting exceeds the depth limit (1024 by default, as the
	// engine).
	ErrTooDeep = &sentinel{"nesting too deep", nil}
	// ErrObjectsNotAllowed: a full Object was met while decoding without
	// AllowObjects, or while encoding without FullObjects, or its class or
	// script is one that DecOptions.Classes or Scripts refuses.
	ErrObjectsNotAllowed = &sentinel{"full objects not allowed", nil}
	// ErrUnsupported: the value cannot be encoded for the target engine
	// (a type it does not have, a typed container too new for it, …).
	ErrUnsupported = &sentinel{"not supported by the target", nil}
	// ErrInvalidValue: the value itself is unfit for encoding (a string that
	// is not valid UTF-8, a script path that is not res://, …).
	ErrInvalidValue = &sentinel{"invalid value", nil}
	// ErrTooLarge: the value exceeds a size or element limit.
	ErrTooLarge = &sentinel{"too large", nil}
	// ErrNonCanonical: in Strict mode, the data is something the engine
	// accepts but never writes.
	ErrNonCanonical = &sentinel{"not the engine's canonical encoding", nil}
)

type sentinel struct {
	msg  string
	also error
}

func (s *sentinel) Error() string { return s.msg }

// Is lets ErrTruncated match io.ErrUnexpectedEOF.
func (s *sentinel) Is(target error) bool { return s.also != nil && target == s.also }

// Code is a Godot Error enum value, the code the engine itself reports for
// the same failure.
type Code int

// The engine error codes that decoding and encoding produce.
const (
	OK                  Code = 0
	ErrCodeUnavailable  Code = 2
	ErrCodeUnauthorized Code = 4
	ErrCodeOutOfMemory  Code = 6
	ErrCodeFileEOF      Code = 18
	ErrCodeInvalidData  Code = 30
	ErrCodeInvalidParam Code = 31
	ErrCodeParseError   Code = 43
)

var codeNames = map[Code]string{
	OK: "OK", ErrCodeUnavailable: "ERR_UNAVAILABLE", ErrCodeUnauthorized: "ERR_UNAUTHORIZED",
	ErrCodeOutOfMemory: "ERR_OUT_OF_MEMORY", ErrCodeFileEOF: "ERR_FILE_EOF",
	ErrCodeInvalidData: "ERR_INVALID_DATA", ErrCodeInvalidParam: "ERR_INVALID_PARAMETER",
	ErrCodeParseError: "ERR_PARSE_ERROR",
}

// String returns the engine's name for the code, "ERR_INVALID_DATA".
func (c Code) String() string {
	if s, ok := codeNames[c]; ok {
		return s
	}
	return "Error(" + strconv.Itoa(int(c)) + ")"
}

// Error describes a failure to decode or encode a Variant: where, in what,
// and why.
//
// Package gdvar's errors are *gdvar.Error, and errors.As finds an *Error in
// each of them too: Op is then "unmarshal" or "marshal", GoPath locates
// the item in the Go value, and Err may be a sentinel of package gdvar
// (gdvar.ErrTypeMismatch, …) or the error of a Marshaler or Unmarshaler.
type Error struct {
	// Op is "decode" or "encode"; "unmarshal" or "marshal" for an error of
	// package gdvar.
	Op string
	// Offset is the byte offset where the offending item starts: in the
	// input when decoding, in the output when encoding.
	Offset int
	// Path locates the item inside the value, e.g. `[3]["pos"]`; empty at
	// the top level.
	Path string
	// GoPath, for an error of package gdvar, locates the item in the Go
	// value, e.g. `player.inventory[2]`, as gdvar.Error.Path does; empty
	// otherwise and at the top level.
	GoPath string
	// Type is the Variant type being decoded or encoded, TypeUnknown when
	// the type byte itself is bad.
	Type Type
	// Family is the engine family of the encoding.
	Family Family
	// Code is the engine's error code for the same failure.
	Code Code
	// Err is the sentinel (ErrTruncated, ErrInvalidData, …), or for an
	// error of package gdvar one of its sentinels or a method's error.
	Err error
	// Detail says more, e.g. "string length 4096 exceeds the 12 bytes left".
	Detail string

	segs []string // path segments, innermost first, not yet in Path
}

// Error formats the error on one line:
// "decode: byte 12, [3]["pos"] (Vector2): data truncated: need 8 bytes, have 4".
func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString(e.Op)
	sb.WriteString(": byte ")
	sb.WriteString(strconv.Itoa(e.Offset))
	if e.Path != "" {
		sb.WriteString(", ")
		sb.WriteString(e.Path)
	}
	if e.Type != TypeUnknown {
		sb.WriteString(" (")
		sb.WriteString(e.Family.Name(e.Type))
		sb.WriteString(")")
	}
	sb.WriteString(": ")
	sb.WriteString(e.Err.Error())
	if e.Detail != "" {
		sb.WriteString(": ")
		sb.WriteString(e.Detail)
	}
	return sb.String()
}

// Unwrap returns the sentinel (or the cause, see Err).
func (e *Error) Unwrap() error { return e.Err }

// prefixPath adds an outer path segment to an *Error coming up from a
// nested value.
//
// Segments are collected innermost first and joined once, by finishPath,
// when the error leaves the package: building the string level by level
// would cost time and memory quadratic in the nesting depth.
func prefixPath(err error, seg string) error {
	if e, ok := err.(*Error); ok {
		e.segs = append(e.segs, seg)
	}
	return err
}

// finishPath joins the collected path segments into Path.
func finishPath(err error) error {
	if e, ok := err.(*Error); ok && len(e.segs) > 0 {
		var sb strings.Builder
		for i := len(e.segs) - 1; i >= 0; i-- {
			sb.WriteString(e.segs[i])
		}
		sb.WriteString(e.Path)
		e.Path = sb.String()
		e.segs = nil
	}
	return err
}

// IndexSeg renders an Array index as a Variant path segment: [3].
func IndexSeg(i int) string { return "[" + strconv.Itoa(i) + "]" }

// KeyIndexSeg is the path segment of the i-th key of a Dictionary, for an
// error in the key itself: {key 3}.
func KeyIndexSeg(i int) string { return "{key " + strconv.Itoa(i) + "}" }

// KeySeg renders a Dictionary key as a Variant path segment: ["name"] for
// Strings, [&"name"] for StringNames, [42] for ints, [<Vector2>] for other
// types. Error paths of this package, of package gdvar and of package
// inspect are built of these segments.
func KeySeg(k Value) string {
	switch k := k.(type) {
	case String:
		return "[" + strconv.Quote(string(k)) + "]"
	case StringName:
		return "[&" + strconv.Quote(string(k)) + "]"
	case Int:
		return "[" + strconv.FormatInt(int64(k), 10) + "]"
	}
	return typeSeg(TypeOf(k))
}

// typeSeg is the path segment of a Dictionary key of type t that KeySeg
// does not spell out: [<Vector2>].
func typeSeg(t Type) string { return "[<" + t.String() + ">]" }

// Path is a place in a Variant, such as `[3]["pos"]`, built segment by
// segment from the outside in as a walk goes down: adding a segment costs
// one small allocation and nothing is joined until String renders it, so
// deep values cost nothing until a message names the place. The nil *Path
// is the top level.
type Path struct {
	up  *Path
	seg string
}

// Add returns the path of seg inside p.
func (p *Path) Add(seg string) *Path { return &Path{p, seg} }

// Index returns the path of element i of the Array at p.
func (p *Path) Index(i int) *Path { return p.Add(IndexSeg(i)) }

// Key returns the path of the entry with key k of the Dictionary at p.
func (p *Path) Key(k Value) *Path { return p.Add(KeySeg(k)) }

// String renders the path: `[3]["pos"]`, "" at the top level.
func (p *Path) String() string {
	n := 0
	for q := p; q != nil; q = q.up {
		n += len(q.seg)
	}
	b := make([]byte, n)
	for q := p; q != nil; q = q.up {
		n -= len(q.seg)
		copy(b[n:], q.seg)
	}
	return string(b)
}
