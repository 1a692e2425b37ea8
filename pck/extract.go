package pck

import (
	"crypto/md5"
	"errors"
	"fmt"
	"io"
	"os"
	"path"
)

// ExtractOptions configure Extract.
type ExtractOptions struct {
	// Match selects the entries to extract; nil extracts all.
	Match func(*Entry) bool
	// Overwrite replaces existing files; without it an existing file is
	// an error.
	Overwrite bool
	// Progress, when set, is called after each entry with the bytes
	// written so far and in all.
	Progress func(done, total int64)
}

// Extract writes the pack's files under dir, which it creates if needed,
// each at its Name. Entries whose path is not safe (Name "") are refused
// with ErrUnsafePath before anything is written, and every file is created
// through an os.Root, so that nothing, not even a symbolic link already in
// dir, leads outside it. Each file's bytes are checked against its MD5 as
// they are written; a file that fails is removed and Extract stops with
// ErrChecksum. Removal and delta entries, and entries hidden by a directory
// of the same name, are skipped. Memory stays at one buffer for plain
// entries (an encrypted entry is decrypted in memory).
func (pr *Reader) Extract(dir string, o ExtractOptions) error {
	var todo []*Entry
	var total int64
	for _, e := range pr.Entries {
		if o.Match != nil && !o.Match(e) {
			continue
		}
		if !e.hasData(pr.Flags) {
			continue
		}
		if e.Name == "" {
			return fail(-1, e.Path, ErrUnsafePath, "not extracted: the path could escape the directory")
		}
		if pr.Lookup(e.Name) != e {
			continue // hidden by a directory or a later entry of that name
		}
		todo = append(todo, e)
		total += e.Size
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return err
	}
	defer root.Close()
	buf := make([]byte, 1<<16)
	var done int64
	for _, e := range todo {
		if err := pr.extractOne(root, e, o.Overwrite, buf); err != nil {
			return err
		}
		done += e.Size
		if o.Progress != nil {
			o.Progress(done, total)
		}
	}
	return nil
}

func (pr *Reader) extractOne(root *os.Root, e *Entry, overwrite bool, buf []byte) error {
	if d := path.Dir(e.Name); d != "." {
		if err := root.MkdirAll(d, 0o755); err != nil {
			return err
		}
	}
	flags := os.O_WRONLY | os.O_CREATE | os.O_TRUNC
	if !overwrite {
		flags |= os.O_EXCL
	}
	r, err := pr.OpenEntry(e)
	if err != nil {
		return err
	}
	f, err := root.OpenFile(e.Name, flags, 0o644)
	if err != nil {
		return err
	}
	h := md5.New()
	_, err = io.CopyBuffer(io.MultiWriter(f, h), r, buf)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil && e.HasMD5() && [16]byte(h.Sum(nil)) != e.MD5 {
		err = fail(e.Offset, e.Path, ErrChecksum, "")
	}
	if err != nil {
		root.Remove(e.Name)
		var pe *Error
		if errors.As(err, &pe) {
			return err
		}
		return fmt.Errorf("pck: extracting %s: %w", e.Path, err)
	}
	return nil
}
