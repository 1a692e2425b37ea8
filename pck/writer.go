package pck

import (
	"bufio"
	"bytes"
	"crypto/md5"
	"encoding/binary"
	"errors"
	"fmt"
	"hash"
	"io"
	"os"

	"github.com/gdvar/gdvar/gdfile"
)

// WriterOptions configure a Writer.
type WriterOptions struct {
	// Engine is the version of the engine that will load the pack (0.0.0:
	// Newest). It picks the pack format (FormatFor), is written in the
	// header (an engine refuses a pack from a newer minor version), and
	// decides whether paths keep "res://" (formats 1 and 2).
	Engine Version
	// Key encrypts the entries created with Create, and the directory when
	// EncryptDirectory is set (Godot 4 only; the engine must be built with
	// the same key).
	Key *gdfile.Key
	// EncryptDirectory encrypts the directory too (needs Key).
	EncryptDirectory bool
	// Alignment aligns every entry's data to a multiple of it; 0 means 16,
	// as the exporter does (PCK_PADDING).
	Alignment int
	// Trailer ends the pack with the trailer by which an engine finds a
	// pack appended to its executable: padding, the u64 size of the pack
	// and "GDPC". Write the executable to w first: the offsets of a format
	// 1 pack found so, and the file base of a pack for Godot 4.0 to 4.2,
	// count from the start of the file, which the Writer takes from w's
	// position when w is an io.Seeker (0 otherwise). Without Trailer, they
	// count from the pack's start, as load_resource_pack with an offset
	// reads them.
	Trailer bool
	// TempDir is where the entries' data waits until Close writes the
	// pack after its directory (os.TempDir() when ""), as the directory's
	// size is known only at the end.
	TempDir string
}

// FileHeader describes an entry to create.
type FileHeader struct {
	// Name is the path in the pack, "res://a/b.txt" or "a/b.txt".
	Name string
	// Encrypt encrypts the entry (needs WriterOptions.Key).
	Encrypt bool
	// Removal writes a removal entry, which removes the path from the
	// packs loaded before; it has no data. It is written for format 3
	// (Godot 4.5 and later) only: which earlier versions read the flag is
	// not pinned down.
	Removal bool
}

// Writer writes a pack, in the style of zip.Writer: Create an entry, write
// its contents, Create the next, and Close. The contents wait in a
// temporary file (except encrypted entries, sealed in memory one at a
// time); Close writes the header, the directory and the data to the
// underlying writer in the engine's layout for the format.
type Writer struct {
	w       io.Writer
	o       WriterOptions
	format  Format
	spool   *os.File      // where the data waits (nil when direct)
	spoolW  *bufio.Writer // buffers the data, to the spool or the output
	pos     int64         // bytes of data written, from the file base
	direct  io.WriteSeeker
	start   int64 // the pack's start in the output (an io.Seeker's position at NewWriter)
	copyBuf []byte
	entries []*Entry
	cur     *entryWriter
	closed  bool
	err     error
}

// NewWriter returns a Writer writing a pack to w.
func NewWriter(w io.Writer, o WriterOptions) (*Writer, error) {
	if o.Engine == (Version{}) {
		o.Engine = Newest
	}
	f, err := FormatFor(o.Engine)
	if err != nil {
		return nil, err
	}
	if o.Alignment == 0 {
		o.Alignment = dataAlign
	}
	if o.Alignment < 0 || o.Alignment > 1<<20 {
		return nil, fmt.Errorf("pck: alignment %d is outside 1..%d", o.Alignment, 1<<20)
	}
	if f == Format1 && o.Key != nil {
		return nil, fmt.Errorf("pck: Godot %v packs cannot be encrypted (Godot 3 has no pack encryption)", o.Engine)
	}
	if o.EncryptDirectory && o.Key == nil {
		return nil, errors.New("pck: EncryptDirectory needs a Key")
	}
	pw := &Writer{w: w, o: o, format: f}
	if ws, ok := w.(io.WriteSeeker); ok {
		if at, err := ws.Seek(0, io.SeekCurrent); err == nil {
			pw.start = at
			// Format 3 puts the directory after the data: a seekable
			// output takes the data directly, and the header's directory
			// offset afterwards.
			if f == Format3 {
				pw.direct = ws
			}
		}
	}
	return pw, nil
}

// fileBase is where the data starts in format 3.
func (w *Writer) fileBase3() int64 { return w.align(headerV3) }

func (w *Writer) align(n int64) int64 {
	a := int64(w.o.Alignment)
	return (n + a - 1) / a * a
}

// header3 is the format 3 header, padded to the file base.
func (w *Writer) header3(dirOffset int64) []byte {
	le := binary.LittleEndian
	head := w.headStart()
	flags := RelFileBase
	if w.o.EncryptDirectory {
		flags |= DirEncrypted
	}
	head = le.AppendUint32(head, uint32(flags))
	head = le.AppendUint64(head, uint64(w.fileBase3()))
	head = le.AppendUint64(head, uint64(dirOffset))
	head = append(head, make([]byte, 16*4)...)
	return append(head, make([]byte, w.fileBase3()-int64(len(head)))...)
}

// headStart is the magic, format and engine version.
func (w *Writer) headStart() []byte {
	le := binary.LittleEndian
	var head []byte
	head = le.AppendUint32(head, magic)
	head = le.AppendUint32(head, uint32(w.format))
	head = le.AppendUint32(head, uint32(w.o.Engine.Major))
	head = le.AppendUint32(head, uint32(w.o.Engine.Minor))
	return le.AppendUint32(head, uint32(w.o.Engine.Patch))
}

// Format returns the pack format being written.
func (w *Writer) Format() Format { return w.format }

// Create adds an entry named name and returns the writer of its contents,
// valid until the next Create, CreateHeader or Close. The entry is
// encrypted when the Writer has a Key.
func (w *Writer) Create(name string) (io.Writer, error) {
	return w.CreateHeader(&FileHeader{Name: name, Encrypt: w.o.Key != nil})
}

// CreateHeader adds an entry described by h.
func (w *Writer) CreateHeader(h *FileHeader) (io.Writer, error) {
	if err := w.finish(); err != nil {
		return nil, err
	}
	if w.closed {
		return nil, errors.New("pck: Writer closed")
	}
	name := ValidName(h.Name)
	if name == "" {
		return nil, fmt.Errorf("pck: %q is not a valid pack path: %w", h.Name, ErrUnsafePath)
	}
	if h.Encrypt && w.o.Key == nil {
		return nil, errors.New("pck: an encrypted entry needs WriterOptions.Key")
	}
	if h.Removal && w.format < Format3 {
		return nil, fmt.Errorf("pck: removal entries are written for Godot 4.5 and later, not %v", w.o.Engine)
	}
	if err := w.open(); err != nil {
		return nil, err
	}
	p := name
	if resPrefix(w.o.Engine) {
		p = "res://" + name
	}
	e := &Entry{Path: p, Name: name}
	w.entries = append(w.entries, e)
	if h.Removal {
		// No data; the offset is where the data would be, as PCKPacker
		// writes it.
		e.Flags = FileRemoval
		if err := w.pad(); err != nil {
			return nil, err
		}
		e.Offset = w.pos
		return io.Discard, nil
	}
	if err := w.pad(); err != nil {
		return nil, err
	}
	e.Offset = w.pos
	ew := &entryWriter{w: w, e: e, h: md5.New()}
	if h.Encrypt {
		e.Flags |= FileEncrypted
		ew.buf = new(bytes.Buffer)
	}
	w.cur = ew
	return ew, nil
}

// open prepares where the data goes, on the first entry.
func (w *Writer) open() error {
	if w.spoolW != nil {
		return nil
	}
	if w.direct != nil {
		// The header, with the directory offset to fill in at Close.
		if _, err := w.direct.Write(w.header3(0)); err != nil {
			w.err = err
			return err
		}
		w.spoolW = bufio.NewWriterSize(w.direct, 1<<16)
		return nil
	}
	f, err := os.CreateTemp(w.o.TempDir, "gdvar-pck-*")
	if err != nil {
		return err
	}
	os.Remove(f.Name()) // gone once closed, where the system allows it
	w.spool, w.spoolW = f, bufio.NewWriterSize(f, 1<<16)
	return nil
}

// pad aligns the data's end.
func (w *Writer) pad() error {
	a := int64(w.o.Alignment)
	if n := (a - w.pos%a) % a; n > 0 {
		return w.write(make([]byte, n))
	}
	return nil
}

func (w *Writer) write(b []byte) error {
	if w.err != nil {
		return w.err
	}
	n, err := w.spoolW.Write(b)
	w.pos += int64(n)
	w.err = err
	return err
}

type entryWriter struct {
	w   *Writer
	e   *Entry
	h   hash.Hash
	buf *bytes.Buffer // plaintext of an encrypted entry
}

func (ew *entryWriter) Write(b []byte) (int, error) {
	if ew.w.cur != ew {
		return 0, errors.New("pck: write to an entry after the next Create or Close")
	}
	ew.h.Write(b)
	ew.e.Size += int64(len(b))
	if ew.buf != nil {
		return ew.buf.Write(b)
	}
	if err := ew.w.write(b); err != nil {
		return 0, err
	}
	return len(b), nil
}

// ReadFrom copies r into the entry through one buffer for the whole
// Writer, so that io.Copy allocates nothing per entry.
func (ew *entryWriter) ReadFrom(r io.Reader) (int64, error) {
	if ew.w.copyBuf == nil {
		ew.w.copyBuf = make([]byte, 1<<16)
	}
	var n int64
	for {
		m, err := r.Read(ew.w.copyBuf)
		if m > 0 {
			if _, werr := ew.Write(ew.w.copyBuf[:m]); werr != nil {
				return n, werr
			}
			n += int64(m)
		}
		if err == io.EOF {
			return n, nil
		}
		if err != nil {
			return n, err
		}
	}
}

// finish ends the current entry.
func (w *Writer) finish() error {
	ew := w.cur
	if ew == nil {
		return w.err
	}
	w.cur = nil
	copy(ew.e.MD5[:], ew.h.Sum(nil))
	if ew.buf != nil {
		sealed, err := gdfile.AppendSealed(nil, ew.buf.Bytes(), *w.o.Key, nil)
		if err != nil {
			w.err = err
			return err
		}
		return w.write(sealed)
	}
	return w.err
}

// directory returns the directory's entries, encoded.
func (w *Writer) directory() []byte {
	var d []byte
	le := binary.LittleEndian
	for _, e := range w.entries {
		n := len(e.Path)
		padded := (n + 4) &^ 3 // at least one NUL, to a multiple of 4 (the exporter's layout)
		d = le.AppendUint32(d, uint32(padded))
		d = append(d, e.Path...)
		d = append(d, make([]byte, padded-n)...)
		d = le.AppendUint64(d, uint64(e.Offset))
		d = le.AppendUint64(d, uint64(e.Size))
		d = append(d, e.MD5[:]...)
		if w.format >= Format2 {
			d = le.AppendUint32(d, uint32(e.Flags))
		}
	}
	return d
}

// Close finishes the last entry and writes the pack (or, for a format 3
// pack written directly, its directory and the header's directory offset).
// It does not close the underlying writer.
func (w *Writer) Close() error {
	if w.closed {
		return errors.New("pck: Writer closed")
	}
	if err := w.finish(); err != nil {
		return err
	}
	w.closed = true
	if w.spool != nil {
		defer w.spool.Close()
	}
	if err := w.open(); err != nil {
		return err
	}
	if err := w.spoolW.Flush(); err != nil {
		return err
	}
	le := binary.LittleEndian
	dir := le.AppendUint32(nil, uint32(len(w.entries)))
	body := w.directory()
	flags := Flags(0)
	if w.o.EncryptDirectory {
		flags |= DirEncrypted
		sealed, err := gdfile.AppendSealed(dir, body, *w.o.Key, nil)
		if err != nil {
			return err
		}
		dir = sealed
	} else {
		dir = append(dir, body...)
	}
	if w.format == Format3 {
		fileBase := w.fileBase3()
		dirOffset := fileBase + w.align(w.pos)
		tail := append(make([]byte, dirOffset-fileBase-w.pos), dir...)
		if w.direct != nil {
			if _, err := w.direct.Write(tail); err != nil {
				return err
			}
			if _, err := w.direct.Seek(w.start+24+8, io.SeekStart); err != nil {
				return err
			}
			if _, err := w.direct.Write(le.AppendUint64(nil, uint64(dirOffset))); err != nil {
				return err
			}
			if _, err := w.direct.Seek(w.start+dirOffset+int64(len(dir)), io.SeekStart); err != nil {
				return err
			}
			return w.trailer(w.direct, dirOffset+int64(len(dir)))
		}
		return w.copyOut(w.header3(dirOffset), tail)
	}
	head := w.headStart()
	var fileBase int64
	if w.format == Format1 {
		// Offsets are absolute: the data follows the header and directory.
		fileBase = w.align(int64(headerV1 + len(dir)))
		for _, e := range w.entries {
			if e.Flags&FileRemoval == 0 {
				e.Offset += fileBase
				if w.o.Trailer {
					// Found by its trailer, the pack is read with a load
					// offset of 0: its offsets count from the file's start.
					e.Offset += w.start
				}
			}
		}
		dir = le.AppendUint32(nil, uint32(len(w.entries)))
		dir = append(dir, w.directory()...)
		head = append(head, make([]byte, 16*4)...)
	} else {
		// From 4.3 the file base counts from the pack's start, so that
		// the pack can be embedded as it is. Before, it is absolute: a
		// pack with a trailer (embedded) starts it at w's position.
		fileBase = w.align(int64(headerV2 + len(dir)))
		base := fileBase
		if relFileBase(w.o.Engine) {
			flags |= RelFileBase
		} else if w.o.Trailer {
			base += w.start
		}
		head = le.AppendUint32(head, uint32(flags))
		head = le.AppendUint64(head, uint64(base))
		head = append(head, make([]byte, 16*4)...)
	}
	head = append(head, dir...)
	head = append(head, make([]byte, fileBase-int64(len(head)))...)
	return w.copyOut(head, nil)
}

// copyOut writes head, the spooled data and tail to the output.
func (w *Writer) copyOut(head, tail []byte) error {
	out := bufio.NewWriterSize(w.w, 1<<16)
	out.Write(head)
	if w.spool != nil {
		if _, err := w.spool.Seek(0, io.SeekStart); err != nil {
			return err
		}
		if _, err := io.Copy(out, io.LimitReader(w.spool, w.pos)); err != nil {
			return err
		}
	}
	out.Write(tail)
	if err := w.trailer(out, int64(len(head))+w.pos+int64(len(tail))); err != nil {
		return err
	}
	return out.Flush()
}

// trailer writes the embedding trailer after a pack of size bytes, when
// asked to: zeros up to a multiple of 8 (counting the 12 bytes that
// follow), the pack's size with them, and the magic.
func (w *Writer) trailer(out io.Writer, size int64) error {
	if !w.o.Trailer {
		return nil
	}
	pad := (8 - (size+12)%8) % 8
	b := make([]byte, pad, pad+12)
	b = binary.LittleEndian.AppendUint64(b, uint64(size+pad))
	b = binary.LittleEndian.AppendUint32(b, magic)
	_, err := out.Write(b)
	return err
}
