// Package inspect dumps encoded Godot data field by field: one row per
// field with its offset, raw bytes, type and meaning, nested values
// indented. It reads raw values (var_to_bytes), store_var files of one or
// several values, and encrypted and compressed files. Limits: it reads what
// variant.Reader reads, under Options.MaxSize (16 MiB of data by default);
// WriteValue and WriteFile stream rows, while Value and File keep them all.
//
// It is how to find out why Godot rejects a packet: on malformed input the
// dump shows every field up to the bad one and ends with the error, the
// same verdict, at the same offset and with the same words, as package
// variant's decoder:
//
//	d := inspect.Value(data, inspect.Options{})
//	d.WriteTo(os.Stdout)
//	if d.Err != nil { … }
//
// WriteFile and WriteValue write the rows as they go instead of keeping
// them: their memory does not grow with the number of rows.
//
// The dump walks the bytes with variant.Reader, the reader of the format
// that variant.Decode is built on, rather than decoding a value, so that
// it can show the fields of values that do not decode: every decision and
// every error is the Reader's, the dump only describes the fields.
package inspect

import (
	"bufio"
	"encoding/hex"
	"fmt"
	"io"
	"unicode/utf8"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// Options configures a dump.
type Options struct {
	// Godot is the engine family of the data; 0 means Godot 4 for Value
	// and finding it out for File.
	Godot variant.Family
	// AllowObjects accepts full objects, as the decoder option of the same
	// name.
	AllowObjects bool
	// MaxDepth is the decoder's nesting limit; 0 means 1024.
	MaxDepth int
	// Key decrypts encrypted files.
	Key *gdfile.Key
	// Elements is how many elements of a packed array get a row each
	// before the rest is summed up in one row; 0 means 8, -1 all.
	Elements int
	// Endian is the byte order of store_var length prefixes (File).
	Endian gdfile.Endian
	// MaxSize bounds the data a file holds, after decryption or
	// decompression (File), as gdfile.Options.MaxSize; 0 means
	// gdfile.DefaultMaxSize. Finding out the family decodes the values
	// within gdfile's budget of values for that size, and keeps none.
	MaxSize int
}

// Row is one field of the data.
type Row struct {
	// Offset is where the field starts, from the start of its section's
	// data.
	Offset int
	// Size is the field's size in bytes; Raw holds those of them that are
	// present (fewer when the data ends early).
	Size int
	Raw  []byte
	// Depth is the nesting level: 0 for top-level fields.
	Depth int
	// Field names the field: a Variant type for a value's header (with
	// where it sits, "[3] Vector2"), or what the field holds ("length",
	// "count", "x").
	Field string
	// Meaning says what the bytes mean.
	Meaning string
}

// Section is a run of data with its own offsets: the file itself, then
// its decrypted or decompressed contents.
type Section struct {
	// Title describes the data: "file: 1636 bytes, plain".
	Title string
	Rows  []Row
}

// Dump is the result of a dump.
type Dump struct {
	// Sections hold the rows.
	Sections []Section
	// Err is what is wrong with the data, nil if nothing is: for a value
	// the *variant.Error that variant.Decode gives for the same bytes, for
	// containers a *gdfile.Error.
	Err error
	// Used is the number of bytes of a raw value the decoder uses (Value
	// only): bytes after it are ignored, as the engine ignores them.
	Used int
	// Family is the family the data was read as.
	Family variant.Family
}

func (o *Options) elements() int {
	switch {
	case o.Elements == 0:
		return 8
	case o.Elements < 0:
		return int(^uint(0) >> 1)
	}
	return o.Elements
}

// rawWidth is the number of raw bytes a row shows.
const rawWidth = 8

// WriteTo writes the dump as text: a title line per section, then one line
// per row (offset, raw bytes, field indented by depth, meaning), then the
// error if any.
func (d *Dump) WriteTo(w io.Writer) (int64, error) {
	p := newPrinter(w)
	for _, s := range d.Sections {
		p.section(s.Title)
		for _, r := range s.Rows {
			p.row(r)
		}
	}
	err := p.finish(d.Err)
	return p.n, err
}

// sink takes a dump as it is made: sections, each followed by its rows.
type sink interface {
	dump() *Dump
	section(title string)
	row(r Row)
	failed() bool // stop: the rows go nowhere
}

// collector keeps the dump in memory.
type collector struct{ d *Dump }

func (c *collector) dump() *Dump { return c.d }

func (c *collector) section(title string) {
	c.d.Sections = append(c.d.Sections, Section{Title: title})
}

func (c *collector) row(r Row) {
	s := &c.d.Sections[len(c.d.Sections)-1]
	s.Rows = append(s.Rows, r)
}

func (c *collector) failed() bool { return false }

// printer writes a dump as text as it is made.
type printer struct {
	w        *bufio.Writer
	d        Dump
	n        int64 // bytes written
	sections int
	err      error // the first write error
	line     []byte
}

func newPrinter(w io.Writer) *printer { return &printer{w: bufio.NewWriterSize(w, 64<<10)} }

func (p *printer) dump() *Dump { return &p.d }

func (p *printer) failed() bool { return p.err != nil }

func (p *printer) write(b []byte) {
	if p.err != nil {
		return
	}
	n, err := p.w.Write(b)
	p.n += int64(n)
	p.err = err
}

func (p *printer) section(title string) {
	p.line = p.line[:0]
	if p.sections > 0 {
		p.line = append(p.line, '\n')
	}
	p.sections++
	p.line = append(p.line, title...)
	p.line = append(p.line, "\n\n"...)
	p.line = fmt.Appendf(p.line, "%8s  %-*s  %-34s %s\n", "offset", 3*rawWidth-1, "bytes", "field", "meaning")
	p.write(p.line)
}

func (p *printer) row(r Row) {
	if p.err != nil {
		return
	}
	shown := rawWidth
	if r.Size > rawWidth {
		shown = rawWidth - 1 // and ".." for the rest
	}
	var rb [3 * rawWidth]byte
	raw := rb[:0]
	for j, c := range r.Raw[:min(len(r.Raw), shown)] {
		if j > 0 {
			raw = append(raw, ' ')
		}
		raw = hex.AppendEncode(raw, []byte{c})
	}
	if r.Size > rawWidth {
		raw = append(raw, " .."...)
	}
	p.line = p.line[:0]
	p.line = fmt.Appendf(p.line, "%8d  %-*s  ", r.Offset, 3*rawWidth-1, raw)
	start := len(p.line)
	for range r.Depth {
		p.line = append(p.line, "  "...)
	}
	p.line = append(p.line, r.Field...)
	for n := utf8.RuneCount(p.line[start:]); n < 34; n++ {
		p.line = append(p.line, ' ')
	}
	p.line = append(p.line, ' ')
	p.line = append(p.line, r.Meaning...)
	p.line = append(p.line, '\n')
	p.write(p.line)
}

// finish writes the error line, if any, flushes and returns the first
// write error.
func (p *printer) finish(dataErr error) error {
	if dataErr != nil {
		p.write([]byte("\nerror: " + dataErr.Error() + "\n"))
	}
	if p.err == nil {
		p.err = p.w.Flush()
	}
	return p.err
}
