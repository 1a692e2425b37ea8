// Package inspect dumps encoded Godot data field by field: one row per
// field with its offset, raw bytes, type and meaning, nested values
// indented. It reads raw values (var_to_bytes), store_var files of one or
// several values, and encrypted and compressed files.
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
// The dump walks the bytes itself rather than decoding a value, so that it
// can show the fields of values that do not decode.
package inspect

import (
	"encoding/hex"
	"fmt"
	"io"
	"strings"

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
	// MaxSize bounds the data a container unwraps to (File); 0 means
	// gdfile.DefaultMaxSize.
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
	var sb strings.Builder
	for i, s := range d.Sections {
		if i > 0 {
			sb.WriteByte('\n')
		}
		sb.WriteString(s.Title)
		sb.WriteString("\n\n")
		fmt.Fprintf(&sb, "%8s  %-*s  %-34s %s\n", "offset", 3*rawWidth-1, "bytes", "field", "meaning")
		for _, r := range s.Rows {
			shown := rawWidth
			if r.Size > rawWidth {
				shown = rawWidth - 1 // and ".." for the rest
			}
			raw := hex.EncodeToString(r.Raw[:min(len(r.Raw), shown)])
			var rb strings.Builder
			for j := 0; j < len(raw); j += 2 {
				if j > 0 {
					rb.WriteByte(' ')
				}
				rb.WriteString(raw[j : j+2])
			}
			if r.Size > rawWidth {
				rb.WriteString(" ..")
			}
			field := strings.Repeat("  ", r.Depth) + r.Field
			fmt.Fprintf(&sb, "%8d  %-*s  %-34s %s\n", r.Offset, 3*rawWidth-1, rb.String(), field, r.Meaning)
		}
	}
	if d.Err != nil {
		sb.WriteString("\nerror: ")
		sb.WriteString(d.Err.Error())
		sb.WriteByte('\n')
	}
	n, err := io.WriteString(w, sb.String())
	return int64(n), err
}
