package pck

import (
	"debug/elf"
	"debug/pe"
	"io"
)

// pckSection returns the file offset of an executable's "pck" section, the
// section Godot 4's exporter embeds a pack in for ELF and PE executables
// (OS::get_embedded_pck_offset). Executables that are neither, or have no
// such section, give false.
func pckSection(r io.ReaderAt, size int64) (off int64, ok bool) {
	defer func() {
		// The standard library's parsers are not meant for hostile input
		// in every version: a panic there only means "no section".
		if recover() != nil {
			off, ok = 0, false
		}
	}()
	var m [4]byte
	if n, _ := r.ReadAt(m[:], 0); n < 4 {
		return 0, false
	}
	sr := io.NewSectionReader(r, 0, size)
	switch {
	case string(m[:]) == "\x7fELF":
		f, err := elf.NewFile(sr)
		if err != nil {
			return 0, false
		}
		if s := f.Section("pck"); s != nil && s.Offset < uint64(size) {
			return int64(s.Offset), true
		}
	case string(m[:2]) == "MZ":
		f, err := pe.NewFile(sr)
		if err != nil {
			return 0, false
		}
		if s := f.Section("pck"); s != nil && int64(s.Offset) < size {
			return int64(s.Offset), true
		}
	}
	return 0, false
}
