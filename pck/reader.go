package pck

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"errors"
	"io"
	"os"
	"path"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdvar/gdvar/gdfile"
)

// Entry is one file in a pack's directory.
type Entry struct {
	// Path is the path as stored (up to its first NUL), "res://" prefix
	// included when the pack has one.
	Path string
	// Name is the path in the pack's file system view: Path without
	// "res://", cleaned; "" when the path is not safe (see ValidName) or the
	// entry is a removal.
	Name string
	// Offset is where the entry's data starts in the file (for an
	// encrypted entry, its sealed block).
	Offset int64
	// Size is the size of the file's contents (decrypted).
	Size int64
	// MD5 is the MD5 of the contents; all zeros when the writer stored
	// none (Godot 3's PCKPacker).
	MD5 [16]byte
	// Flags are the entry's flags (formats 2 and 3).
	Flags FileFlags
}

// HasMD5 reports whether the entry carries an MD5.
func (e *Entry) HasMD5() bool { return e.MD5 != [16]byte{} }

// stored is the size of the entry's bytes in the file.
func (e *Entry) stored() int64 {
	if e.Flags&FileEncrypted != 0 {
		return int64(gdfile.SealedSize(uint64(e.Size)))
	}
	return e.Size
}

// hasData reports whether the entry's data is in the pack.
func (e *Entry) hasData(f Flags) bool {
	return e.Flags&(FileRemoval|FileDelta) == 0 && f&SparseBundle == 0
}

// Options configure reading a pack.
type Options struct {
	// Key decrypts encrypted directories and entries.
	Key *gdfile.Key
	// Offset is where to look for the pack's header, as
	// ProjectSettings.load_resource_pack's offset; 0 also looks for a pack
	// embedded in an executable.
	Offset int64
}

// Reader is an open pack. Its methods may be called from several
// goroutines at once.
type Reader struct {
	// Start is where the pack starts in the file (0 unless embedded).
	Start int64
	// Format is the pack format; Engine the version of the engine that
	// wrote it (the header's); Flags its flags.
	Format Format
	Engine Version
	Flags  Flags
	// FileBase is the absolute offset entry offsets count from (formats 2
	// and 3); DirOffset where the directory starts.
	FileBase, DirOffset int64
	// Entries are the directory, in its order.
	Entries []*Entry

	r    io.ReaderAt
	size int64
	key  *gdfile.Key
	tree map[string]*node // directory name ("." for the root) → its node
}

// ReadCloser is a Reader that owns its file.
type ReadCloser struct {
	Reader
	f *os.File
}

// Close closes the file.
func (rc *ReadCloser) Close() error { return rc.f.Close() }

// Open opens the pack at path: a .pck file, or an executable with a pack
// embedded in it.
func Open(name string, o *Options) (*ReadCloser, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, err
	}
	fi, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	rc := &ReadCloser{f: f}
	if err := rc.init(f, fi.Size(), o); err != nil {
		f.Close()
		return nil, err
	}
	return rc, nil
}

// NewReader reads the pack in r, which holds size bytes.
func NewReader(r io.ReaderAt, size int64, o *Options) (*Reader, error) {
	pr := new(Reader)
	if err := pr.init(r, size, o); err != nil {
		return nil, err
	}
	return pr, nil
}

func (pr *Reader) init(r io.ReaderAt, size int64, o *Options) error {
	if o == nil {
		o = &Options{}
	}
	pr.r, pr.size, pr.key = r, size, o.Key
	if o.Offset < 0 || o.Offset > size {
		return fail(o.Offset, "header", ErrTruncated, "offset outside the file")
	}
	start, err := findStart(r, size, o.Offset)
	if err != nil {
		return err
	}
	pr.Start = start
	var h [headerV3]byte
	n, _ := r.ReadAt(h[:], start)
	if n < headerV1 {
		return fail(start, "header", ErrTruncated, "the file ends inside the header")
	}
	le := binary.LittleEndian
	pr.Format = Format(le.Uint32(h[4:]))
	pr.Engine = Version{int(le.Uint32(h[8:])), int(le.Uint32(h[12:])), int(le.Uint32(h[16:]))}
	var dir int64
	switch pr.Format {
	case Format0, Format1:
		dir = start + headerV1
	case Format2, Format3:
		need := headerV2
		if pr.Format == Format3 {
			need = headerV3
		}
		if n < need {
			return fail(start, "header", ErrTruncated, "the file ends inside the header")
		}
		pr.Flags = Flags(le.Uint32(h[20:]))
		base := le.Uint64(h[24:])
		if pr.Format == Format3 || pr.Flags&RelFileBase != 0 {
			base += uint64(start)
		} else {
			base += uint64(o.Offset)
		}
		if base > uint64(size) {
			return fail(start+24, "file base", ErrTruncated, strconv.FormatUint(base, 10)+" is past the end")
		}
		pr.FileBase = int64(base)
		if pr.Format == Format2 {
			dir = start + headerV2
		} else {
			d := le.Uint64(h[32:]) + uint64(start)
			if d > uint64(size) || d < uint64(start) {
				return fail(start+32, "directory offset", ErrTruncated, strconv.FormatUint(d, 10)+" is past the end")
			}
			dir = int64(d)
		}
	default:
		return fail(start+4, "header", ErrFormat, "pack format "+strconv.FormatUint(uint64(pr.Format), 10)+
			" (known: 0 and 1 for Godot 3, 2 for 4.0 to 4.4, 3 for 4.5 and 4.6)")
	}
	if unknown := pr.Flags &^ (DirEncrypted | RelFileBase | SparseBundle); unknown != 0 {
		return fail(start+20, "header", ErrFormat, "unknown pack flags "+unknown.String())
	}
	pr.DirOffset = dir
	if err := pr.readDirectory(dir, o.Offset); err != nil {
		return err
	}
	return pr.check()
}

// findStart finds the pack's header as the engine does
// (PackedSourcePCK::try_open_pack): at off; else, when off is 0, in the
// executable's "pck" section (ELF or PE, scanning 8 bytes for the magic);
// else from the trailer at the end of the file (u64 pack size, "GDPC").
func findStart(r io.ReaderAt, size, off int64) (int64, error) {
	if readMagic(r, off) {
		return off, nil
	}
	if off != 0 {
		return 0, fail(off, "header", ErrNotPack, "no magic at the offset")
	}
	if sec, ok := pckSection(r, size); ok {
		for i := int64(0); i < 8; i++ {
			if readMagic(r, sec+i) {
				return sec + i, nil
			}
		}
	}
	if size >= 16 && readMagic(r, size-4) {
		var b [8]byte
		if _, err := r.ReadAt(b[:], size-12); err == nil {
			ds := binary.LittleEndian.Uint64(b[:])
			// The engine seeks to end - 12 - ds.
			if ds <= uint64(size-12) && readMagic(r, size-12-int64(ds)) {
				return size - 12 - int64(ds), nil
			}
		}
	}
	return 0, fail(-1, "header", ErrNotPack, "no \"GDPC\" magic at the start, in a pck section or in a trailer")
}

func readMagic(r io.ReaderAt, at int64) bool {
	var b [4]byte
	if at < 0 {
		return false
	}
	n, _ := r.ReadAt(b[:], at)
	return n == 4 && binary.LittleEndian.Uint32(b[:]) == magic
}

// dirReader reads a directory's fields, from a stream bounded by the bytes
// the file has left.
type dirReader struct {
	scratch [16]byte
	r       *bufio.Reader
	off     int64 // file offset of the next byte, -1 inside an encrypted block
	left    int64 // bytes left to read
	err     error
}

func (d *dirReader) bytes(n int64, what string) []byte {
	if d.err != nil {
		return nil
	}
	if n > d.left {
		d.err = fail(d.off, what, ErrTruncated, strconv.FormatInt(n, 10)+" bytes announced, "+strconv.FormatInt(d.left, 10)+" left")
		return nil
	}
	var b []byte
	if n <= int64(len(d.scratch)) {
		b = d.scratch[:n] // valid until the next read
	} else {
		b = make([]byte, n)
	}
	if _, err := io.ReadFull(d.r, b); err != nil {
		d.err = fail(d.off, what, ErrTruncated, err.Error())
		return nil
	}
	d.left -= n
	if d.off >= 0 {
		d.off += n
	}
	return b
}

func (d *dirReader) u32(what string) uint32 {
	if b := d.bytes(4, what); b != nil {
		return binary.LittleEndian.Uint32(b)
	}
	return 0
}

func (d *dirReader) u64(what string) uint64 {
	if b := d.bytes(8, what); b != nil {
		return binary.LittleEndian.Uint64(b)
	}
	return 0
}

func (pr *Reader) readDirectory(dir, loadOffset int64) error {
	d := &dirReader{r: bufio.NewReader(io.NewSectionReader(pr.r, dir, pr.size-dir)), off: dir, left: pr.size - dir}
	count := int64(d.u32("file count"))
	if d.err != nil {
		return d.err
	}
	entrySize := int64(4 + 8 + 8 + 16)
	if pr.Format >= Format2 {
		entrySize += 4
	}
	if pr.Flags&DirEncrypted != 0 {
		if pr.key == nil {
			return fail(d.off, "directory", ErrNeedKey, "the directory is encrypted")
		}
		head := d.bytes(gdfile.SealedHeader, "encrypted directory header")
		if head == nil {
			return d.err
		}
		head = append([]byte(nil), head...)
		n := gdfile.SealedLength(head)
		rest := gdfile.SealedSize(n) - gdfile.SealedHeader
		if n > uint64(d.left) || rest > uint64(d.left) {
			return fail(d.off-gdfile.SealedHeader, "encrypted directory", ErrTruncated,
				strconv.FormatUint(n, 10)+" bytes announced, "+strconv.FormatInt(d.left, 10)+" left")
		}
		at := d.off - gdfile.SealedHeader
		body := d.bytes(int64(rest), "encrypted directory")
		if body == nil {
			return d.err
		}
		plain, err := gdfile.OpenSealed(append(head, body...), *pr.key)
		if err != nil {
			return sealedErr(at, "encrypted directory", err)
		}
		d = &dirReader{r: bufio.NewReader(bytes.NewReader(plain)), off: -1, left: int64(len(plain))}
	}
	if count > d.left/entrySize {
		return fail(pr.DirOffset, "file count", ErrTruncated,
			strconv.FormatInt(count, 10)+" entries announced, room for "+strconv.FormatInt(d.left/entrySize, 10))
	}
	pr.Entries = make([]*Entry, 0, count)
	for i := int64(0); i < count; i++ {
		what := func() string { return "directory entry " + strconv.FormatInt(i, 10) }
		sl := int64(d.u32("path length"))
		p := d.bytes(sl, "path")
		e := &Entry{}
		if j := bytes.IndexByte(p, 0); j >= 0 {
			p = p[:j]
		}
		e.Path = string(p)
		ofs := d.u64("offset")
		size := d.u64("size")
		copy(e.MD5[:], d.bytes(16, "md5"))
		if pr.Format >= Format2 {
			e.Flags = FileFlags(d.u32("flags"))
		}
		if d.err != nil {
			var pe *Error
			if errors.As(d.err, &pe) {
				pe.What = what() + " " + pe.What
			}
			return d.err
		}
		var abs uint64
		if pr.Format <= Format1 {
			abs = ofs + uint64(loadOffset)
		} else {
			abs = ofs + uint64(pr.FileBase)
		}
		if abs < ofs || size > uint64(pr.size) || abs > uint64(pr.size) {
			if e.hasData(pr.Flags) {
				return fail(pr.DirOffset, what()+" ("+e.Path+")", ErrTruncated, "its data lies past the end of the file")
			}
			abs, size = 0, 0
		}
		e.Offset, e.Size = int64(abs), int64(size)
		if e.hasData(pr.Flags) && e.Offset+e.stored() > pr.size {
			return fail(e.Offset, what()+" ("+e.Path+")", ErrTruncated,
				strconv.FormatInt(e.stored(), 10)+" bytes announced, the file has "+strconv.FormatInt(pr.size-e.Offset, 10)+" after its offset")
		}
		if e.Flags&FileRemoval == 0 {
			e.Name = ValidName(e.Path)
		}
		pr.Entries = append(pr.Entries, e)
	}
	return nil
}

func sealedErr(at int64, what string, err error) error {
	switch {
	case errors.Is(err, gdfile.ErrWrongKey):
		return &Error{Off: at, What: what, Err: ErrWrongKey, cause: err}
	case errors.Is(err, gdfile.ErrTruncated):
		return &Error{Off: at, What: what, Err: ErrTruncated, cause: err}
	}
	return &Error{Off: at, What: what, Err: ErrFormat, cause: err}
}

// check refuses overlapping entries and builds the file system view.
func (pr *Reader) check() error {
	data := make([]*Entry, 0, len(pr.Entries))
	for _, e := range pr.Entries {
		if e.hasData(pr.Flags) && e.stored() > 0 {
			data = append(data, e)
		}
	}
	sort.Slice(data, func(i, j int) bool { return data[i].Offset < data[j].Offset })
	for i := 1; i < len(data); i++ {
		a, b := data[i-1], data[i]
		if b.Offset < a.Offset+a.stored() {
			return fail(b.Offset, b.Path, ErrOverlap, "its data overlaps that of "+a.Path)
		}
	}
	pr.tree = buildTree(pr.Entries)
	return nil
}

// ValidName returns the file system name of a pack path: without "res://"
// and cleaned, or "" when it is not a safe relative path (empty, absolute,
// with "..", a drive letter, a backslash, a colon, NUL or invalid UTF-8).
// Godot itself resolves "a/../b" to "b"; such paths are refused all the
// same, as an exporter never writes them.
func ValidName(p string) string {
	p = strings.TrimPrefix(p, "res://")
	if p == "" || !utf8.ValidString(p) || strings.ContainsAny(p, "\\:\x00") {
		return ""
	}
	for _, part := range strings.Split(p, "/") {
		if part == ".." {
			return ""
		}
	}
	c := path.Clean(p)
	if strings.HasPrefix(c, "/") || c == "." {
		return ""
	}
	return c
}

// Lookup returns the entry of a path, written "res://a/b", "a/b" or
// "/a/b"; the last entry of that path when several have it, as the engine
// keeps the last; nil when there is none (or it was removed).
func (pr *Reader) Lookup(p string) *Entry {
	name := ValidName(strings.TrimPrefix(p, "/"))
	if name == "" {
		return nil
	}
	if n := pr.tree[path.Dir(name)]; n != nil {
		return n.files[path.Base(name)]
	}
	return nil
}

// OpenEntry returns a reader of an entry's contents. For an encrypted
// entry it decrypts the whole entry first and checks its MD5 (ErrWrongKey);
// otherwise the bytes stream from the file, unchecked (see Verify).
func (pr *Reader) OpenEntry(e *Entry) (io.ReadSeeker, error) {
	if !e.hasData(pr.Flags) {
		return nil, fail(-1, e.Path, ErrUnsupported, "flags "+e.Flags.String()+", pack flags "+pr.Flags.String())
	}
	if e.Flags&FileEncrypted == 0 {
		return io.NewSectionReader(pr.r, e.Offset, e.Size), nil
	}
	if pr.key == nil {
		return nil, fail(e.Offset, e.Path, ErrNeedKey, "")
	}
	block := make([]byte, e.stored())
	if _, err := pr.r.ReadAt(block, e.Offset); err != nil {
		return nil, fail(e.Offset, e.Path, ErrTruncated, err.Error())
	}
	plain, err := gdfile.OpenSealed(block, *pr.key)
	if err != nil {
		return nil, sealedErr(e.Offset, e.Path, err)
	}
	if int64(len(plain)) != e.Size {
		return nil, fail(e.Offset, e.Path, ErrFormat, "the directory says "+strconv.FormatInt(e.Size, 10)+
			" bytes, the encrypted block holds "+strconv.Itoa(len(plain)))
	}
	return bytes.NewReader(plain), nil
}

// ReadEntry returns an entry's contents, checked against its MD5.
func (pr *Reader) ReadEntry(e *Entry) ([]byte, error) {
	r, err := pr.OpenEntry(e)
	if err != nil {
		return nil, err
	}
	b := make([]byte, e.Size)
	if _, err := io.ReadFull(r, b); err != nil {
		return nil, fail(e.Offset, e.Path, ErrTruncated, err.Error())
	}
	if e.HasMD5() && md5.Sum(b) != e.MD5 {
		return nil, fail(e.Offset, e.Path, ErrChecksum, "")
	}
	return b, nil
}

// Verify checks an entry: that it can be read (decrypted) and that its
// bytes match its MD5 (ErrChecksum). An entry without an MD5 passes when it
// can be read.
func (pr *Reader) Verify(e *Entry) error {
	r, err := pr.OpenEntry(e)
	if err != nil {
		return err
	}
	h := md5.New()
	if _, err := io.Copy(h, r); err != nil {
		return fail(e.Offset, e.Path, ErrTruncated, err.Error())
	}
	if e.HasMD5() && !bytes.Equal(h.Sum(nil), e.MD5[:]) {
		return fail(e.Offset, e.Path, ErrChecksum, "")
	}
	return nil
}
