package pck

import (
	"io"
	"io/fs"
	"path"
	"sort"
	"time"
)

// node is a directory of the file system view.
type node struct {
	name  string
	files map[string]*Entry
	dirs  map[string]bool
	list  []fs.DirEntry // sorted, built on first use
}

func buildTree(entries []*Entry) map[string]*node {
	tree := map[string]*node{".": {name: ".", files: map[string]*Entry{}, dirs: map[string]bool{}}}
	var dir func(name string) *node
	dir = func(name string) *node {
		if n := tree[name]; n != nil {
			return n
		}
		n := &node{name: name, files: map[string]*Entry{}, dirs: map[string]bool{}}
		tree[name] = n
		dir(path.Dir(name)).dirs[path.Base(name)] = true
		return n
	}
	for _, e := range entries {
		if e.Name == "" {
			continue
		}
		if tree[e.Name] != nil {
			continue // a directory of that name exists: the file is hidden
		}
		d := dir(path.Dir(e.Name))
		d.files[path.Base(e.Name)] = e // the last one wins, as in the engine
	}
	// A file that later became a directory's name is hidden too.
	for name, n := range tree {
		if name == "." {
			continue
		}
		delete(tree[path.Dir(name)].files, path.Base(name))
		n.name = path.Base(name)
	}
	for _, n := range tree {
		n.entries() // built now, so that readers share them read-only
	}
	return tree
}

func (n *node) entries() []fs.DirEntry {
	if n.list != nil {
		return n.list
	}
	list := make([]fs.DirEntry, 0, len(n.files)+len(n.dirs))
	for name, e := range n.files {
		list = append(list, fs.FileInfoToDirEntry(fileInfo{name: name, e: e}))
	}
	for name := range n.dirs {
		list = append(list, fs.FileInfoToDirEntry(fileInfo{name: name}))
	}
	sort.Slice(list, func(i, j int) bool { return list[i].Name() < list[j].Name() })
	n.list = list
	return list
}

// fileInfo describes an entry (e non-nil) or a directory.
type fileInfo struct {
	name string
	e    *Entry
}

func (fi fileInfo) Name() string { return fi.name }
func (fi fileInfo) Size() int64 {
	if fi.e == nil {
		return 0
	}
	return fi.e.Size
}
func (fi fileInfo) Mode() fs.FileMode {
	if fi.e == nil {
		return fs.ModeDir | 0o555
	}
	return 0o444
}
func (fi fileInfo) ModTime() time.Time { return time.Time{} }
func (fi fileInfo) IsDir() bool        { return fi.e == nil }

// Sys returns the *Entry of a file, nil for a directory.
func (fi fileInfo) Sys() any {
	if fi.e == nil {
		return nil
	}
	return fi.e
}

func (pr *Reader) stat(op, name string) (fileInfo, *node, error) {
	if !fs.ValidPath(name) {
		return fileInfo{}, nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrInvalid}
	}
	if n := pr.tree[name]; n != nil {
		return fileInfo{name: path.Base(name)}, n, nil
	}
	if d := pr.tree[path.Dir(name)]; d != nil {
		if e := d.files[path.Base(name)]; e != nil {
			return fileInfo{name: path.Base(name), e: e}, nil, nil
		}
	}
	return fileInfo{}, nil, &fs.PathError{Op: op, Path: name, Err: fs.ErrNotExist}
}

// Open opens a file or directory of the pack (fs.FS). Names are paths
// without "res://", such as "icon.png" or "scenes/main.tscn"; "." is the
// root. Files are io.ReadSeeker and io.ReaderAt too.
func (pr *Reader) Open(name string) (fs.File, error) {
	fi, n, err := pr.stat("open", name)
	if err != nil {
		return nil, err
	}
	if n != nil {
		return &dirFile{fi: fi, list: n.entries()}, nil
	}
	r, err := pr.OpenEntry(fi.e)
	if err != nil {
		return nil, &fs.PathError{Op: "open", Path: name, Err: err}
	}
	return &file{fi: fi, r: r}, nil
}

// Stat describes a file or directory (fs.StatFS); Sys() of a file's
// FileInfo is its *Entry.
func (pr *Reader) Stat(name string) (fs.FileInfo, error) {
	fi, _, err := pr.stat("stat", name)
	if err != nil {
		return nil, err
	}
	return fi, nil
}

// ReadDir lists a directory, sorted by name (fs.ReadDirFS).
func (pr *Reader) ReadDir(name string) ([]fs.DirEntry, error) {
	_, n, err := pr.stat("readdir", name)
	if err != nil {
		return nil, err
	}
	if n == nil {
		return nil, &fs.PathError{Op: "readdir", Path: name, Err: fs.ErrInvalid}
	}
	return append([]fs.DirEntry(nil), n.entries()...), nil
}

// ReadFile returns a file's contents, checked against its MD5
// (fs.ReadFileFS).
func (pr *Reader) ReadFile(name string) ([]byte, error) {
	fi, n, err := pr.stat("readfile", name)
	if err != nil {
		return nil, err
	}
	if n != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: fs.ErrInvalid}
	}
	b, err := pr.ReadEntry(fi.e)
	if err != nil {
		return nil, &fs.PathError{Op: "readfile", Path: name, Err: err}
	}
	return b, nil
}

type file struct {
	fi fileInfo
	r  io.ReadSeeker
}

func (f *file) Stat() (fs.FileInfo, error) { return f.fi, nil }
func (f *file) Read(b []byte) (int, error) {
	if f.r == nil {
		return 0, fs.ErrClosed
	}
	return f.r.Read(b)
}
func (f *file) Seek(off int64, whence int) (int64, error) {
	if f.r == nil {
		return 0, fs.ErrClosed
	}
	return f.r.Seek(off, whence)
}
func (f *file) ReadAt(b []byte, off int64) (int, error) {
	if f.r == nil {
		return 0, fs.ErrClosed
	}
	return f.r.(io.ReaderAt).ReadAt(b, off)
}
func (f *file) Close() error {
	if f.r == nil {
		return fs.ErrClosed
	}
	f.r = nil
	return nil
}

type dirFile struct {
	fi   fileInfo
	list []fs.DirEntry
	off  int
}

func (d *dirFile) Stat() (fs.FileInfo, error) { return d.fi, nil }
func (d *dirFile) Read([]byte) (int, error) {
	return 0, &fs.PathError{Op: "read", Path: d.fi.name, Err: fs.ErrInvalid}
}
func (d *dirFile) Close() error { return nil }

func (d *dirFile) ReadDir(n int) ([]fs.DirEntry, error) {
	rest := d.list[d.off:]
	if n <= 0 {
		d.off = len(d.list)
		return append([]fs.DirEntry(nil), rest...), nil
	}
	if len(rest) == 0 {
		return nil, io.EOF
	}
	n = min(n, len(rest))
	d.off += n
	return append([]fs.DirEntry(nil), rest[:n]...), nil
}
