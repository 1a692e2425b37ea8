package pck

import (
	"errors"
	"strconv"
	"unicode/utf8"
)

// Sentinel errors. Every error about a pack's bytes is an *Error whose Err
// is one of these (or a gdfile error for encrypted blocks).
var (
	// ErrNotPack: no pack header at the start, in a "pck" section, or in an
	// embedding trailer.
	ErrNotPack = errors.New("not a Godot resource pack")
	// ErrFormat: a pack format or flag the package does not read.
	ErrFormat = errors.New("unsupported pack format")
	// ErrTruncated: a count, size or offset points past the end of the file.
	ErrTruncated = errors.New("pack truncated (data announced past its end)")
	// ErrOverlap: two entries' data overlap.
	ErrOverlap = errors.New("entries overlap")
	// ErrChecksum: an entry's bytes do not match its MD5.
	ErrChecksum = errors.New("MD5 mismatch")
	// ErrNeedKey: the pack or entry is encrypted and no key was given.
	ErrNeedKey = errors.New("encrypted: the key is needed")
	// ErrWrongKey: an encrypted block does not decrypt to its MD5: the key
	// is wrong or the pack damaged. It wraps gdfile.ErrWrongKey.
	ErrWrongKey = errors.New("wrong key, or damaged pack (the decrypted data does not match its MD5)")
	// ErrUnsupported: an entry whose data is not in the pack (a removal, a
	// sparse bundle's file, a delta patch).
	ErrUnsupported = errors.New("entry has no data in the pack")
	// ErrUnsafePath: an entry's path would escape the directory it is
	// extracted to.
	ErrUnsafePath = errors.New("unsafe path")
)

// Error is an error about a pack: where (a byte offset in the file) and
// what was being read.
type Error struct {
	Off    int64  // byte offset in the file, -1 when none
	What   string // what was read: "header", "directory entry 3", an entry's path
	Err    error  // one of the sentinel errors
	Detail string // more about it, or ""
	cause  error  // the underlying error (gdfile's), if any
}

// Error returns "pck: what at offset N: problem (detail)".
func (e *Error) Error() string {
	s := "pck: " + e.What
	if !printable(e.What) {
		s = "pck: " + strconv.Quote(e.What)
	}
	if e.Off >= 0 {
		s += " at offset " + strconv.FormatInt(e.Off, 10)
	}
	s += ": " + e.Err.Error()
	if e.Detail != "" {
		s += " (" + e.Detail + ")"
	}
	return s
}

// Unwrap returns the sentinel error, and the underlying error if any.
func (e *Error) Unwrap() []error {
	if e.cause != nil {
		return []error{e.Err, e.cause}
	}
	return []error{e.Err}
}

func fail(off int64, what string, err error, detail string) error {
	return &Error{Off: off, What: what, Err: err, Detail: detail}
}

// printable reports whether s holds no control characters and is valid
// UTF-8: a path from a pack is quoted in messages otherwise, so that it
// cannot write to a terminal.
func printable(s string) bool {
	for _, r := range s {
		if r < 0x20 || r == 0x7f || (r >= 0x80 && r < 0xa0) || r == utf8.RuneError {
			return false
		}
	}
	return true
}
