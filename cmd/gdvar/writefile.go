package main

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"

	"github.com/gdvar/gdvar/gdfile"
)

// writeOptions says which existing files a write may replace.
type writeOptions struct {
	// force replaces an existing output file.
	force bool
	// backup, when replacing a file, first keeps a copy of it as
	// NAME.bak (--in-place).
	backup bool
	// from, when fromFile, is the permissions of the file the data comes
	// from: the written file gets none that it lacks.
	from     fs.FileMode
	fromFile bool
}

// errExists: the output exists and may not be replaced.
var errExists = errors.New("exists")

// wrapWriter, when set (by tests), wraps the writer of the temporary file
// to simulate failures such as a full disk.
var wrapWriter func(io.Writer) io.Writer

// writeFileSafely writes data to path without ever leaving a damaged file
// behind: into a temporary file of the same directory, synced, then
// renamed over path, so that path holds either its old bytes or all the
// new ones. The file never gets a permission that o.from lacks: a
// replaced file keeps its own permissions less those, and a new one is
// created with 0666 less those, less the umask (as a shell's redirection
// would create it). So the plaintext of a 0600 encrypted save stays 0600,
// whatever the umask and whatever file it replaces.
// An existing path is refused unless o.force or o.backup; with o.backup
// its old content is first kept as path+".bak" (which must not exist
// unless o.force). A symbolic link is followed: the file it names is
// replaced.
func writeFileSafely(path string, data []byte, o writeOptions) error {
	limit := fs.FileMode(0o777)
	if o.fromFile {
		limit = o.from.Perm()
	}
	mode, create := 0o666&limit, true
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
		mode, create = fi.Mode().Perm()&limit, false
		if o.backup {
			if err := backupFile(path, fi, o.force); err != nil {
				return err
			}
		}
	case !errors.Is(err, fs.ErrNotExist):
		return err
	}
	return replaceFile(path, mode, create, func(w io.Writer) error {
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
	return replaceFile(bak, fi.Mode().Perm(), false, func(w io.Writer) error {
		_, err := io.Copy(w, src)
		return err
	})
}

// replaceFile writes a temporary file next to path with write, syncs it
// and renames it to path; on any failure it removes the temporary file
// and leaves path as it was. The file gets permissions mode; with create,
// less the umask, as a new file (the temporary file is created with them,
// and the system takes the umask off).
func replaceFile(path string, mode fs.FileMode, create bool, write func(io.Writer) error) (err error) {
	dir, base := filepath.Split(path)
	if dir == "" {
		dir = "."
	}
	tmp, err := createTemp(dir, "."+base+".", ".tmp", mode)
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
	if !create {
		if err = tmp.Chmod(mode); err != nil {
			return err
		}
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

// inputMode returns, for writeOptions, the permissions of the input file
// name and whether it is a file (not standard input, "-"). An input that
// cannot be looked at gives 0600: nothing wider than the user's own.
func inputMode(name string) (fs.FileMode, bool) {
	if name == "-" {
		return 0, false
	}
	fi, err := os.Stat(name)
	if err != nil {
		return 0o600, true
	}
	return fi.Mode().Perm(), true
}

// createTemp creates a new file in dir named prefix, a random number and
// suffix, as os.CreateTemp does, but with permissions perm less the umask
// (os.CreateTemp's are 0600).
func createTemp(dir, prefix, suffix string, perm fs.FileMode) (*os.File, error) {
	for range 10000 {
		name := filepath.Join(dir, prefix+strconv.FormatUint(uint64(rand.Uint32()), 10)+suffix)
		f, err := os.OpenFile(name, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		return f, err
	}
	return nil, fmt.Errorf("creating a temporary file in %s: too many tries", dir)
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
	if fi, err := f.Stat(); err == nil && fi.IsDir() {
		return nil, fmt.Errorf("%s is a directory, not a file", name)
	} else if err == nil && fi.Mode().IsRegular() && fi.Size() > o.InputLimit() {
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
