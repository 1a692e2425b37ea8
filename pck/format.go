package pck

import (
	"fmt"
	"strconv"
	"strings"
)

// The facts of the format, in one place. See docs/pck.md for the engine
// sources they come from.
const (
	magic = 0x43504447 // "GDPC", little-endian

	// headerV1 is magic, format, major, minor, patch and 16 reserved u32.
	headerV1 = 4 + 4 + 12 + 16*4
	// headerV2 adds the pack flags and the u64 file base.
	headerV2 = 4 + 4 + 12 + 4 + 8 + 16*4
	// headerV3 adds the u64 directory offset.
	headerV3 = 4 + 4 + 12 + 4 + 8 + 8 + 16*4

	// dataAlign is the padding the exporter (PCK_PADDING) puts between
	// files, before the file base and, in format 3, before the directory.
	dataAlign = 16
)

// Format is a pack format version, the u32 after the magic.
type Format uint32

// The pack formats the engines write.
const (
	Format0 Format = 0 // older engines: read as format 1, whose layout it shares
	Format1 Format = 1 // Godot 3.x
	Format2 Format = 2 // Godot 4.0 to 4.4
	Format3 Format = 3 // Godot 4.5 and 4.6
)

// Flags are a pack's flags (formats 2 and 3).
type Flags uint32

// Pack flags.
const (
	DirEncrypted Flags = 1 << 0 // the directory is encrypted
	RelFileBase  Flags = 1 << 1 // the file base counts from the pack's start (always, in format 3)
	SparseBundle Flags = 1 << 2 // the files are beside the pack, not in it
)

// String names the flags, "dir-encrypted,rel-filebase"; "" for none.
func (f Flags) String() string {
	return flagString(uint32(f), []string{"dir-encrypted", "rel-filebase", "sparse-bundle"})
}

// FileFlags are an entry's flags (formats 2 and 3).
type FileFlags uint32

// Entry flags.
const (
	FileEncrypted FileFlags = 1 << 0 // the data is a sealed (encrypted) block
	FileRemoval   FileFlags = 1 << 1 // the entry removes the path from earlier packs
	FileDelta     FileFlags = 1 << 2 // the data is a delta patch of the path in an earlier pack
)

// String names the flags, "encrypted"; "" for none.
func (f FileFlags) String() string {
	return flagString(uint32(f), []string{"encrypted", "removal", "delta"})
}

func flagString(f uint32, names []string) string {
	var parts []string
	for i, n := range names {
		if f&(1<<i) != 0 {
			parts = append(parts, n)
			f &^= 1 << i
		}
	}
	if f != 0 {
		parts = append(parts, "0x"+strconv.FormatUint(uint64(f), 16))
	}
	return strings.Join(parts, ",")
}

// Version is an engine version, as a pack's header names the engine that
// wrote it.
type Version struct{ Major, Minor, Patch int }

// String returns "major.minor.patch".
func (v Version) String() string { return fmt.Sprintf("%d.%d.%d", v.Major, v.Minor, v.Patch) }

// ParseVersion reads "4.6", "4.6.1", or a family alone: "3" is 3.0.0 and
// "4" 4.5.0, the oldest version that reads the family's newest format, so
// that the pack loads in every engine that could (an engine refuses a pack
// whose header names a newer minor version than its own).
func ParseVersion(s string) (Version, error) {
	var v Version
	parts := strings.Split(s, ".")
	if len(parts) > 3 {
		return v, fmt.Errorf("pck: engine version %q is not MAJOR[.MINOR[.PATCH]]", s)
	}
	for i, p := range parts {
		n, err := strconv.Atoi(p)
		if err != nil || n < 0 || n > 1000 {
			return v, fmt.Errorf("pck: engine version %q is not MAJOR[.MINOR[.PATCH]]", s)
		}
		switch i {
		case 0:
			v.Major = n
		case 1:
			v.Minor = n
		case 2:
			v.Patch = n
		}
	}
	if len(parts) == 1 && v.Major == 4 {
		v.Minor = 5
	}
	return v, nil
}

// Newest is the newest engine version the package writes for by default.
var Newest = Version{4, 6, 0}

// FormatFor returns the pack format the engine version writes and reads:
// 3.x format 1, 4.0 to 4.4 format 2, 4.5 and 4.6 format 3.
func FormatFor(v Version) (Format, error) {
	switch {
	case v.Major == 3:
		return Format1, nil
	case v.Major == 4 && v.Minor <= 4:
		return Format2, nil
	case v.Major == 4 && v.Minor <= 6:
		return Format3, nil
	}
	return 0, fmt.Errorf("pck: no known pack format for Godot %v (3.x and 4.0 to 4.6 are known)", v)
}

// resPrefix reports whether the engine's writers store paths with
// "res://" (3.x and 4.0 to 4.3; from 4.4 they trim it). Readers accept
// both.
func resPrefix(v Version) bool { return v.Major < 4 || v.Major == 4 && v.Minor < 4 }

// relFileBase reports whether the engine knows the RelFileBase flag
// (4.3 and later).
func relFileBase(v Version) bool { return v.Major > 4 || v.Major == 4 && v.Minor >= 3 }
