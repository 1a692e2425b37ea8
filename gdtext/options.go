package gdtext

import (
	"fmt"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// DefaultMaxDepth is the nesting limit Parse uses when ParseOptions.MaxDepth
// is 0: the binary decoder's (variant.DefaultMaxDepth, the engine's limit),
// counted the same way, so that the text of every value that decodes
// parses.
const DefaultMaxDepth = variant.DefaultMaxDepth

// maxFormatDepth is the largest ParseOptions.MaxDepth, the nesting
// Format follows at most.
const maxFormatDepth = 1 << 16

// Options configures Format and Append. The zero value writes Godot 4 text
// on one line.
type Options struct {
	// Family is the engine family whose str_to_var (Godot 4) or str2var
	// (Godot 3) must read the text; 0 means variant.Godot4.
	Family variant.Family
	// Multiline writes Dictionaries as the engine does, one entry a line
	// ("{\n\"a\": 1,\n\"b\": 2\n}"). By default everything is on one line,
	// "{ \"a\": 1, \"b\": 2 }", which is the engine's text with its line
	// breaks replaced by spaces.
	Multiline bool
	// MaxBytes, when positive, bounds the text: once it grows past
	// MaxBytes bytes, Format keeps the first MaxBytes bytes (fewer when
	// that would split a UTF-8 sequence), appends variant.TextCut ("…")
	// and stops without looking at the rest of the value, so that time and
	// memory are proportional to MaxBytes, not to the value. A cut text is
	// at most MaxBytes+len(variant.TextCut) bytes long and cannot be
	// parsed. 0 means no limit.
	MaxBytes int
	// ResourceFormat, when positive, writes values as resource files of
	// that text format hold them (see variant.TextOptions.ResourceFormat).
	ResourceFormat int
	// Reals32 writes real components that a float32 holds exactly with
	// the digits of that float32 (see variant.TextOptions.Reals32).
	Reals32 bool
}

// ParseOptions configures Parse. The zero value reads Godot 4 text.
type ParseOptions struct {
	// Family is the engine family whose syntax the text follows; 0 means
	// variant.Godot4.
	Family variant.Family
	// MaxDepth is the deepest nesting accepted, counted as
	// variant.DecOptions.MaxDepth counts it: the top-level value is at
	// depth 0 and the elements, keys, values and properties of a container
	// at depth d are at d+1. 0 means DefaultMaxDepth; at most 65536.
	MaxDepth int
	// Resources reads the references of resource files (.tres, .tscn):
	// SubResource("id"), ExtResource("id") and Resource("res://…") (Godot
	// 3: SubResource( 1 ), ExtResource( 2 )) give variant.ResourceRef, and
	// a typed container whose element type is ExtResource("id") keeps that
	// id as its script (variant.ContainerType.Name, Kind Script).
	Resources bool
	// File reads strings as the engines' file readers (ConfigFile,
	// project.godot, resource files) read them, for text that is a
	// file's bytes: invalid UTF-8 and \u escapes of characters from
	// U+0080 become what those readers make of them (Godot 4: U+FFFD or a
	// space; Godot 3: the bytes as Latin-1), where Parse otherwise refuses
	// invalid UTF-8 and reads escapes as str_to_var does.
	File bool
}

func family(f variant.Family) (variant.Family, error) {
	switch f {
	case 0:
		return variant.Godot4, nil
	case variant.Godot3, variant.Godot4:
		return f, nil
	}
	return 0, fmt.Errorf("gdtext: unknown engine family %d (want 3 or 4)", f)
}

// SyntaxError reports text that Parse cannot read, with the place where the
// problem was found.
type SyntaxError struct {
	Offset int    // byte offset in the text, from 0
	Line   int    // line number, from 1
	Column int    // byte offset in the line, from 1
	Msg    string // what is wrong
}

// Error returns "line L, column C: msg".
func (e *SyntaxError) Error() string {
	return "line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Column) + ": " + e.Msg
}
