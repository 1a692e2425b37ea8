package pck

import (
	"io/fs"
	"strings"
)

// SplitPath splits a reference to a file inside a pack, "game.pck:res://a/b"
// (or "game.pck:a/b"), into the pack's path and the file's; ok is false
// when s has no ":res://" and no ":" after which a pack path could end.
// A Windows drive letter ("C:\game.pck:res://a") is not taken for the
// separator.
func SplitPath(s string) (pack, name string, ok bool) {
	if i := strings.LastIndex(s, ":res://"); i > 0 {
		return s[:i], s[i+1:], true
	}
	i := strings.LastIndexByte(s, ':')
	if i <= 1 { // none, or a drive letter
		return "", "", false
	}
	return s[:i], s[i+1:], true
}

// ReadFile returns the contents of the file name ("res://a/b" or "a/b") in
// the pack (or executable) at packPath, checked against its MD5.
func ReadFile(packPath, name string, o *Options) ([]byte, error) {
	r, err := Open(packPath, o)
	if err != nil {
		return nil, err
	}
	defer r.Close()
	e := r.Lookup(name)
	if e == nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: fs.ErrNotExist}
	}
	return r.ReadEntry(e)
}
