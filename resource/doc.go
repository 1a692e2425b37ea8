// Package resource reads, writes and converts Godot's resource files:
// the text forms .tres and .tscn (ResourceFormatText) and the binary forms
// .res and .scn (ResourceFormatBinary: RSRC, or RSCC when compressed), of
// Godot 3.x and 4.x. It reads files to a File without loading anything
// (no external resource, script or class is looked up), so it cannot know
// class defaults: it writes the properties a file holds, no more.
//
// A File is a resource's type, its properties in order, the resources
// defined inside it (sub-resources) and those of other files it refers to
// (external resources, with their uids in Godot 4), and for a PackedScene
// the scene: its nodes, connections and editable instances. Values are
// package variant's, with references to other resources as
// variant.ResourceRef.
//
// ReadBinary and ReadText read the two forms, Read either; File.EncodeBinary
// and File.EncodeText write them; Diff compares two files' resources.
// Reading a file and writing it back in the same form gives the engine's
// bytes for the files Godot 3.2.3 and 4.6 write (for compressed files, the
// data inside; the binary form's string table is kept for that, see
// BinaryInfo.Strings), and converting a binary file to text gives the
// engine's own text. Converting keeps every resource, property and value;
// what only one form records (the binary header, the text's format and
// load_steps) takes the defaults of the target family. The command gdvar
// res dumps and converts files; docs/resources.md describes the formats.
//
// Limits: Godot 4 binary files do not say whether an Array or Dictionary
// was typed (the engine retypes them from the class's or script's property
// on load), so a typed container read from binary is untyped. Text files
// written here keep Dictionaries in their order, where the engine sorts
// them. Godot 4.6's unique-id paths (parent_id_path=… of nodes inside
// editable instances) are read and written but not checked against the
// engine. The first binary format (Godot 2) and its images are not read.
//
// Hostile input is an ordinary error: every error is an *Error with the
// byte offset (binary) or line (text) and a sentinel (ErrCorrupt,
// ErrTruncated, ErrTooLarge, …). Indices into the string table, the
// resource tables and a scene's tables are checked, references to
// sub-resources not yet defined (every cycle has one) are refused, counts
// are checked against the bytes left before anything is allocated,
// resources may not overlap, and a compressed file's declared size is
// checked against Options.MaxSize before it is inflated: reading costs
// time and memory proportional to the file's size.
package resource
