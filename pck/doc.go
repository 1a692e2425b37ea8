// Package pck reads and writes Godot's resource packs (.pck): the files of
// an exported game, as a whole file or embedded in the executable, in every
// pack format the engines write (format 1: Godot 3; format 2: Godot 4.0 to
// 4.4; format 3: Godot 4.5 and 4.6), plain or encrypted. It refuses later
// formats, and lists the entries of sparse bundles (whose files live
// outside the pack), removals and delta patches without opening them.
// Encrypted entries are decrypted whole in memory; the others stream.
//
// It is modelled on archive/zip. NewReader and Open read a pack's header
// and directory; Reader.Entries lists them with their offsets, sizes, MD5s
// and flags; Reader.OpenEntry streams an entry's bytes. A Reader is an
// fs.FS (and fs.ReadDirFS, fs.StatFS, fs.ReadFileFS) whose names are the
// entries' paths without "res://", so fs.WalkDir, fs.Sub, fs.Glob and
// http.FS work on a pack. Writer builds a pack for a chosen engine version,
// as the engine's exporter lays it out.
//
// Encrypted packs (Godot 4 only) need the game's 256-bit key, the 64 hex
// digits of the export's encryption key (gdfile.ParseKey). A wrong key fails
// with ErrWrongKey from the MD5 that guards each encrypted block, never with
// garbage.
//
// ReadFile and SplitPath open one file of a pack by a reference such as
// "game.pck:res://scenes/main.tscn". Package gdproject reads the
// project.binary an export puts in the pack.
//
// # Hostile packs
//
// A pack may come from anyone. Nothing in one makes the reader allocate or
// read more than the file's size: a count of entries is checked against the
// bytes left for them, each path against the bytes left, each entry's data
// against the end of the file. Entries whose data overlap are refused
// (ErrOverlap), so that extracting every entry writes at most the file's
// size. Paths that could escape a directory (absolute, with "..", a drive
// letter or a backslash) keep their entry in Entries but are left out of
// the file system view (Entry.Name is ""), and Extract refuses them.
//
// See docs/pck.md for the format of each version, pinned to the engine
// sources it was read from.
package pck
