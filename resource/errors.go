package resource

import (
	"errors"
	"strconv"
)

// Sentinels for errors.Is; every error of this package is an *Error
// wrapping one of them (or an error of package gdtext, variant or gdfile).
var (
	// ErrNotResource: the data is not a resource file of the form asked
	// for (no RSRC/RSCC magic, no [gd_resource]/[gd_scene] header).
	ErrNotResource = errors.New("not a resource file")
	// ErrTruncated: the data ends inside something.
	ErrTruncated = errors.New("truncated")
	// ErrCorrupt: something is out of range or inconsistent (an index
	// past its table, an unknown type tag, a cycle between
	// sub-resources, a malformed section).
	ErrCorrupt = errors.New("corrupt resource file")
	// ErrUnsupported: the file is of a version or kind not read here.
	ErrUnsupported = errors.New("unsupported resource file")
	// ErrTooLarge: the file is larger than Options allow.
	ErrTooLarge = errors.New("resource file too large")
	// ErrCannotWrite: the model holds something the target form or
	// family cannot hold.
	ErrCannotWrite = errors.New("cannot write")
)

// Error reports where and why a resource file could not be read or
// written.
type Error struct {
	// Offset is the byte offset in the file (for a compressed binary
	// file, in its decompressed data); -1 when not known (writing).
	Offset int64
	// Line is the line number in a text file, from 1; 0 for binary files.
	Line int
	// What names what was being read: "string table", "property
	// \"position\" of sub-resource 2", …
	What string
	// Err is a sentinel above or the underlying error.
	Err error
	// Detail says more.
	Detail string
}

// Error formats the error on one line.
func (e *Error) Error() string {
	s := "resource: "
	if e.Line > 0 {
		s += "line " + strconv.Itoa(e.Line) + ": "
	} else if e.Offset >= 0 {
		s += "byte " + strconv.FormatInt(e.Offset, 10) + ": "
	}
	if e.What != "" {
		s += e.What + ": "
	}
	s += e.Err.Error()
	if e.Detail != "" {
		s += ": " + e.Detail
	}
	return s
}

// Unwrap returns the sentinel or the underlying error.
func (e *Error) Unwrap() error { return e.Err }

func errAt(off int64, what string, err error, detail string) *Error {
	return &Error{Offset: off, What: what, Err: err, Detail: detail}
}
