package gdfile

import (
	"errors"
	"io"
	"strconv"
	"strings"
)

// Sentinel errors. Every error the package returns for bad data is an
// *Error whose Err is one of these, or the *variant.Error of a value that
// does not decode.
var (
	// ErrWrongKey: the MD5 of the decrypted data does not match the one in
	// the file: the password or key is wrong, or the file is damaged.
	ErrWrongKey = errors.New("wrong password or key, or a damaged file (the MD5 of the decrypted data does not match)")
	// ErrNeedKey: the file is encrypted and no key was given.
	ErrNeedKey = errors.New("the file is encrypted: a password or key is needed")
	// ErrTruncated: the file ends before the data it announces. It also
	// matches io.ErrUnexpectedEOF.
	ErrTruncated = &truncated{}
	// ErrCorrupt: a header field or a compressed block is invalid.
	ErrCorrupt = errors.New("corrupt file")
	// ErrTooLarge: a compressed file would decompress to more than
	// Options.MaxSize.
	ErrTooLarge = errors.New("data too large")
	// ErrUnsupported: the container cannot be written (Brotli), or names a
	// compression the package does not know.
	ErrUnsupported = errors.New("unsupported")
	// ErrNotStoreVar: the data is not a sequence of store_var values (a
	// length prefix that does not fit, a value that does not fill its
	// frame in any engine family).
	ErrNotStoreVar = errors.New("not a sequence of store_var values")
)

type truncated struct{}

// Error returns "file truncated".
func (*truncated) Error() string { return "file truncated" }

// Is lets ErrTruncated match io.ErrUnexpectedEOF.
func (*truncated) Is(target error) bool { return target == io.ErrUnexpectedEOF }

// Error describes a failure to read or write a file: where and why.
type Error struct {
	// Where names the part of the file: "encrypted header", "block 3",
	// "value 2", …
	Where string
	// Offset is the byte offset of the offending part: in the file for
	// container fields, in the unwrapped data for store_var frames (for a
	// value that does not decode, where its payload starts: the
	// *variant.Error's offset counts from there).
	Offset int64
	// Err is a sentinel (ErrWrongKey, ErrCorrupt, …) or, for a value
	// that does not decode, its *variant.Error.
	Err error
	// Detail says more, e.g. "block size 0".
	Detail string
}

// Error formats the error on one line: "gdfile: block 3 at byte 120:
// corrupt file: decompresses to 17 bytes, expected 4096", or "gdfile: value
// 2, whose payload starts at byte 1228: decode: byte 12, …".
func (e *Error) Error() string {
	var sb strings.Builder
	sb.WriteString("gdfile: ")
	sb.WriteString(e.Where)
	sb.WriteString(" at byte ")
	sb.WriteString(strconv.FormatInt(e.Offset, 10))
	sb.WriteString(": ")
	sb.WriteString(e.Err.Error())
	if e.Detail != "" {
		sb.WriteString(": ")
		sb.WriteString(e.Detail)
	}
	return sb.String()
}

// Unwrap returns the sentinel or the value's error.
func (e *Error) Unwrap() error { return e.Err }

func fail(where string, off int64, err error, detail string) error {
	return &Error{Where: where, Offset: off, Err: err, Detail: detail}
}
