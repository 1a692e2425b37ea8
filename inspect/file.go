package inspect

import (
	"encoding/binary"
	"encoding/hex"
	"errors"
	"io"
	"strconv"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

// File dumps a file written with FileAccess.store_var: the container's
// fields (for encrypted and compressed files, which are decrypted with
// Options.Key or decompressed), then every store_var frame of the data,
// its length prefix and its value. A value that does not decode ends the
// dump with a *gdfile.Error wrapping the decoder's *variant.Error, as
// gdfile.Read reports it.
//
// The Dump holds every row: for large files, WriteFile writes them as it
// goes instead.
func File(b []byte, o Options) *Dump {
	d := &Dump{}
	dumpFile(&collector{d: d}, b, o)
	return d
}

// WriteFile writes the dump of File to w row by row, as it goes, in the
// form of Dump.WriteTo: memory stays the same whatever the number of rows.
// The Dump it returns has no Sections, which went to w; err is the first
// error writing to w, which ends the dump.
func WriteFile(w io.Writer, b []byte, o Options) (d *Dump, err error) {
	p := newPrinter(w)
	d = dumpFile(p, b, o)
	return d, p.finish(d.Err)
}

func dumpFile(s sink, b []byte, o Options) *Dump {
	d := s.dump()
	gopts := gdfile.Options{Key: o.Key, MaxSize: o.MaxSize}
	plain, c, err := gdfile.Unwrap(b, gopts)
	title := "file: " + strconv.Itoa(len(b)) + " bytes, " + c.String()
	if c.Format != gdfile.Plain {
		s.section(title)
		w := newWalker(&o)
		w.b, w.emit = b, s.row
		switch c.Format {
		case gdfile.Encrypted:
			w.encryptedHeader(c)
		case gdfile.Compressed:
			w.compressedHeader()
		}
		if err != nil {
			d.Err = err
			return d
		}
		what := "decrypted"
		if c.Format == gdfile.Compressed {
			what = "decompressed"
		}
		title = what + " data: " + strconv.Itoa(len(plain)) + " bytes"
	} else if err != nil {
		d.Err = err
		return d
	}
	nframes, bigEndian, ferr := gdfile.CountFrames(plain, o.Endian)
	fam := o.Godot
	if fam == 0 {
		fam = guessFamily(plain, bigEndian, c, &o)
	}
	d.Family = fam
	title += ", " + plural(int64(nframes), "store_var value")
	if bigEndian {
		title += " (big-endian lengths)"
	}
	title += ", " + fam.String()
	s.section(title)
	order := binary.ByteOrder(binary.LittleEndian)
	if bigEndian {
		order = binary.BigEndian
	}
	w := newWalker(&o)
	w.emit = s.row
	w.indent = 1 // under the frame's row; the nesting depth starts at 0
	if d.Err = w.start(fam, &o); d.Err != nil {
		return d
	}
	i, end := 0, 0
	stop := errors.New("stop")
	var valueErr error
	_, err = gdfile.ScanFrames(plain, bigEndian, func(fr gdfile.Frame) error {
		if s.failed() {
			return stop
		}
		w.read(fr.Payload)
		w.base = fr.Offset + 4
		s.row(Row{Offset: fr.Offset, Size: 4, Raw: plain[fr.Offset : fr.Offset+4],
			Field: "value " + strconv.Itoa(i), Meaning: "length prefix: " + strconv.Itoa(len(fr.Payload)) + " bytes"})
		next, _, _, err := w.value(0, 0, "")
		if err = w.finishPath(err); err != nil {
			valueErr = &gdfile.Error{Where: "value " + strconv.Itoa(i) + ", whose payload starts", Offset: int64(fr.Offset + 4), Err: err}
			return valueErr
		}
		if next < len(fr.Payload) {
			off := fr.Offset + 4 + next
			n := len(fr.Payload) - next
			s.row(Row{Offset: off, Size: n, Raw: plain[off:min(off+n, len(plain))], Depth: 1,
				Field: "trailing bytes", Meaning: strconv.Itoa(n) + " bytes after the value inside its frame, ignored"})
		}
		i++
		end = fr.Offset + 4 + len(fr.Payload)
		return nil
	})
	switch {
	case err == stop:
	case valueErr != nil:
		d.Err = valueErr
	case ferr != nil:
		// The frame that does not fit: show its prefix.
		meaning := "truncated: " + strconv.Itoa(len(plain)-end) + " bytes left"
		if len(plain)-end >= 4 {
			meaning = "length prefix: " + strconv.FormatUint(uint64(order.Uint32(plain[end:])), 10) +
				" bytes; only " + strconv.Itoa(len(plain)-end-4) + " left"
		}
		s.row(Row{Offset: end, Size: 4, Raw: plain[end:min(end+4, len(plain))],
			Field: "value " + strconv.Itoa(i), Meaning: meaning})
		d.Err = ferr
	}
	return d
}

// guessFamily picks the family in which the most values decode, then the
// most fill their frames exactly, as gdfile.Read does. Each decode takes
// from a budget of values, as gdfile.Read's: nothing is kept.
func guessFamily(plain []byte, bigEndian bool, c gdfile.Container, o *Options) variant.Family {
	fams := []variant.Family{variant.Godot4, variant.Godot3}
	if c.Format == gdfile.Encrypted && c.Family == variant.Godot3 {
		fams = []variant.Family{variant.Godot3, variant.Godot4}
	}
	limit := gdfile.Options{MaxSize: o.MaxSize}.ValueLimit()
	best, bestOK, bestExact := fams[0], -1, -1
	for _, fam := range fams {
		dm, err := variant.DecOptions{Family: fam, AllowObjects: o.AllowObjects, MaxDepth: o.MaxDepth}.DecMode()
		if err != nil {
			continue
		}
		ok, exact := 0, 0
		budget := limit
		gdfile.ScanFrames(plain, bigEndian, func(fr gdfile.Frame) error {
			_, n, err := dm.DecodeBudget(fr.Payload, &budget)
			if err != nil {
				return err
			}
			ok++
			if n == len(fr.Payload) {
				exact++
			}
			return nil
		})
		if ok > bestOK || ok == bestOK && exact > bestExact {
			best, bestOK, bestExact = fam, ok, exact
		}
	}
	return best
}

// encryptedHeader records the fields of an encrypted file.
func (w *walker) encryptedHeader(c gdfile.Container) {
	b := w.b
	field := func(off, n int, name, meaning string) {
		if off < len(b) {
			w.row(off, n, 0, name, meaning)
		}
	}
	hexOf := func(off, n int) string { return hex.EncodeToString(b[off:min(off+n, len(b))]) }
	field(0, 4, "magic", `"GDEC": an encrypted file`)
	lenOff, hdr := 20, 44
	if c.Family == variant.Godot3 {
		field(4, 4, "mode", "1: AES-256 (Godot 3 layout, ECB mode)")
		field(8, 16, "md5", "MD5 of the data: "+hexOf(8, 16))
		lenOff, hdr = 24, 32
	} else {
		field(4, 16, "md5", "MD5 of the data: "+hexOf(4, 16))
	}
	if len(b) < lenOff+8 {
		return
	}
	n := binary.LittleEndian.Uint64(b[lenOff:])
	field(lenOff, 8, "length", strconv.FormatUint(n, 10)+" bytes of data")
	mode := "CFB"
	if c.Family == variant.Godot3 {
		mode = "ECB"
	} else {
		field(28, 16, "iv", hexOf(28, 16))
	}
	padded := (n + 15) &^ 15
	if hdr <= len(b) {
		w.row(hdr, int(min(padded, uint64(len(b)-hdr))), 0, "ciphertext",
			strconv.FormatUint(padded, 10)+" bytes of AES-256-"+mode+" (the data and "+strconv.FormatUint(padded-n, 10)+" bytes of zero padding)")
	}
	if end := hdr + int(min(padded, uint64(len(b)))); end < len(b) && uint64(len(b)-hdr) >= padded {
		w.row(end, len(b)-end, 0, "trailing bytes", strconv.Itoa(len(b)-end)+" bytes after the ciphertext, ignored")
	}
}

// compressedHeader records the fields of a compressed file.
func (w *walker) compressedHeader() {
	b := w.b
	if len(b) < 16 {
		w.row(0, 4, 0, "magic", `"GCPF": a compressed file`)
		return
	}
	mode := binary.LittleEndian.Uint32(b[4:])
	bs := binary.LittleEndian.Uint32(b[8:])
	total := binary.LittleEndian.Uint32(b[12:])
	w.row(0, 4, 0, "magic", `"GCPF": a compressed file`)
	w.row(4, 4, 0, "mode", strconv.FormatUint(uint64(mode), 10)+": "+gdfile.Compression(mode).String())
	w.row(8, 4, 0, "block size", strconv.FormatUint(uint64(bs), 10)+" bytes")
	w.row(12, 4, 0, "total", strconv.FormatUint(uint64(total), 10)+" bytes of data")
	if bs == 0 {
		return
	}
	nblocks := int64(total/bs) + 1
	off := int64(16 + 4*nblocks)
	shown := 0
	for i := int64(0); i < nblocks; i++ {
		at := 16 + 4*int(i)
		if at+4 > len(b) {
			return
		}
		csize := int64(binary.LittleEndian.Uint32(b[at:]))
		want := int64(bs)
		if i == nblocks-1 {
			want = int64(total % bs)
		}
		if shown < w.elements {
			w.row(at, 4, 0, "block "+strconv.FormatInt(i, 10)+" size",
				strconv.FormatInt(csize, 10)+" compressed bytes at "+strconv.FormatInt(off, 10)+", "+strconv.FormatInt(want, 10)+" bytes of data")
			shown++
		} else if i == int64(w.elements) {
			w.row(at, int(4*(nblocks-i)), 0, "…", strconv.FormatInt(nblocks-i, 10)+" more block sizes")
		}
		off += csize
	}
	if off <= int64(len(b)) {
		w.row(16+4*int(nblocks), int(off)-16-4*int(nblocks), 0, "blocks", strconv.FormatInt(nblocks, 10)+" compressed blocks")
		if rest := int64(len(b)) - off; rest > 0 {
			meaning := strconv.FormatInt(rest, 10) + " bytes after the blocks, ignored"
			if rest == 4 && string(b[off:]) == "GCPF" {
				meaning = `"GCPF" again, closing the file`
			}
			w.row(int(off), int(rest), 0, "end", meaning)
		}
	}
}
