package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"

	"github.com/gdvar/gdvar/gdfile"
)

// writeOptions says which existing files a write may replace.
type writeOptions struct {
	// force replaces an existing output file.
	force bool
	// backup, when replacing a file, first keeps a copy of it as
	// NAME.bak (--in-place).
	backup bool
}

// errExists: the output exists and may not be replaced.
var errExists = errors.New("exists")

// wrapWriter, when set (by tests), wraps the writer of the temporary file
// to simulate failures such as a full disk.
var wrapWriter func(io.Writer) io.Writer

// writeFileSafely writes data to path without ever leaving a damaged file
// behind: into a temporary file of the same directory, synced, then
// renamed over path, so that path holds either its old bytes or all the
// new ones. A replaced file keeps its permissions (a new one gets 0644).
// An existing path is refused unless o.force or o.backup; with o.backup
// its old content is first kept as path+".bak" (which must not exist
// unless o.force). A symbolic link is followed: the file it names is
// replaced.
func writeFileSafely(path string, data []byte, o writeOptions) error {
	mode := fs.FileMode(0o644)
	if real, err := filepath.EvalSymlinks(path); err == nil {
		path = real
	}
	fi, err := os.Stat(path)
	switch {
	case err == nil && !fi.Mode().IsRegular():
		return fmt.Errorf("%s is not a regular file", path)
	case err == nil && !o.force && !o.backup:
		return fmt.Errorf("%s %w (--force replaces it)", path, errExists)
	case err == nil:
		mode = fi.Mode().Perm()
		if o.backup {
			if err := backupFile(path, fi, o.force); err != nil {
				return err
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return replaceFile(path, mode, func(w io.Writer) error {
		_, err := w.Write(data)
		return err
	})
}

// backupFile keeps the content of path as path+".bak", written as safely.
func backupFile(path string, fi fs.FileInfo, force bool) error {
	bak := path + ".bak"
	if _, err := os.Lstat(bak); err == nil && !force {
		return fmt.Errorf("the backup %s %w (--force replaces it)", bak, errExists)
	}
	src, err := os.Open(path)
	if err != nil {
		return err
	}
	defer src.Close()
	return replaceFile(bak, fi.Mode().Perm(), func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	})
}

// replaceFile writes a temporary file next to path with write, syncs it
// and renames it to path; on any failure it removes the temporary file
// and leaves path as it was.
func replaceFile(path string, mode fs.FileMode, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := os.CreateTemp(dir, "."+base+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			tmp.Close()
			os.Remove(tmp.Name())
		}
	}()
	var w io.Writer = tmp
	if wrapWriter != nil {
		w = wrapWriter(w)
	}
	if err = write(w); err != nil {
		return fmt.Errorf("writing %s: %w (it is unchanged)", path, err)
	}
	if err = tmp.Chmod(mode); err != nil {
		return err
	}
	if err = tmp.Sync(); err != nil {
		return fmt.Errorf("writing %s: %w (it is unchanged)", path, err)
	}
	if err = tmp.Close(); err != nil {
		return fmt.Errorf("writing %s: %w (it is unchanged)", path, err)
	}
	if err = os.Rename(tmp.Name(), path); err != nil {
		return err
	}
	// The rename itself lasts once the directory is synced.
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
	return nil
}

// readFileBounded reads a whole input file, or standard input for "-", as
// gdfile.ReadAll: no more than a file may hold with gdfile.Options o. A
// regular file too large is refused from its size, unread.
func readFileBounded(name string, stdin io.Reader, o gdfile.Options) ([]byte, error) {
	if name == "-" {
		b, err := gdfile.ReadAll(stdin, o)
		if err != nil {
			return nil, fmt.Errorf("standard input: %w", err)
		}
		return b, nil
	}
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	if fi, err := f.Stat(); err == nil && fi.Mode().IsRegular() && fi.Size() > o.InputLimit() {
		return nil, fmt.Errorf("%s: %d bytes, more than the %d a file may take with a maximum size of %d (--max-size raises it)",
			name, fi.Size(), o.InputLimit(), maxSizeOf(o))
	}
	b, err := gdfile.ReadAll(f, o)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	return b, nil
}

func maxSizeOf(o gdfile.Options) int {
	if o.MaxSize > 0 {
		return o.MaxSize
	}
	return gdfile.DefaultMaxSize
}

// inputLimit bounds the input of the commands that read one value (decode,
// encode, convert): what a file may take with gdfile's default maximum
// size (about 20 MiB).
var inputLimit = gdfile.Options{}
