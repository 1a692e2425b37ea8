package main

import (
	"bytes"
	"errors"
	"fmt"
	"syscall"
	"unicode"
	"unicode/utf8"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/pck"
	"github.com/gdvar/gdvar/variant"
)

// What an input that did not read as expected looks like instead, for
// the hints of every command that reads Godot's bytes (decode, migrate,
// inspect).

// looksLikeText reports whether raw is text a person wrote or a program
// printed (UTF-8, at most 1 % control characters other than white space),
// rather than Godot's binary format, whose headers hold NUL bytes.
func looksLikeText(raw []byte) bool {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || !utf8.Valid(raw) {
		return false
	}
	control := 0
	for _, r := range string(raw) {
		if unicode.IsControl(r) && !unicode.IsSpace(r) {
			control++
		}
	}
	return control*100 <= len(raw)
}

// textInputHint says what raw bytes that are text are: a value in Godot's
// text form (for gdvar encode), or other text; withHex says the command
// reads hex with --hex (and base64 with --base64 when withBase64).
func textInputHint(raw []byte, fam variant.Family, withHex, withBase64 bool) string {
	if !looksLikeText(raw) {
		return ""
	}
	if _, err := gdtext.Parse(string(raw), gdtext.ParseOptions{Family: fam}); err == nil {
		return "this is a value in Godot's text form: gdvar encode turns text into bytes"
	}
	h := "this is text, not Godot's binary format (what var_to_bytes, store_var and put_var write)"
	switch {
	case withHex && withBase64:
		h += "; for hex or base64 text give --hex or --base64"
	case withHex:
		h += "; for hex text give --hex"
	}
	return h
}

// oneValueHint says that data, which does not split into store_var
// values, is one var_to_bytes value, for gdvar migrate, which reads save
// files of family from and writes family to: a value of family from
// converts with gdvar convert, and one of family to needs nothing.
func oneValueHint(data []byte, from, to variant.Family) string {
	for _, fam := range []variant.Family{from, to} {
		dm, err := variant.DecOptions{Family: fam, AllowObjects: true}.DecMode()
		if err != nil {
			continue
		}
		if _, n, err := dm.Decode(data); err != nil || n != len(data) {
			continue
		}
		if fam == to {
			return fmt.Sprintf("this is one %v value (var_to_bytes, put_var) already, not a save file of store_var values: "+
				"there is nothing to migrate (gdvar decode prints it)", to)
		}
		return fmt.Sprintf("this is one %v value (var_to_bytes, put_var), not a save file of store_var values: "+
			"gdvar convert --godot %d --to-godot %d --to binary converts one value", from, from, to)
	}
	return ""
}

// godotFileKinds are the magic numbers of Godot's other binary files,
// which the commands that read Variants do not read, and what to say of
// each.
var godotFileKinds = []struct{ magic, what string }{
	{"GDPC", "a resource pack (.pck): gdvar pck list shows its files, gdvar pck extract writes them out"},
	{"RSRC", "a binary resource or scene (.res, .scn): gdvar res dump prints it"},
	{"RSCC", "a compressed binary resource or scene (.res, .scn): gdvar res dump prints it"},
	{"ECFG", "a project.binary (the settings an export puts in its pack): package gdproject reads it"},
	{"GST2", "a Godot 4 texture (.ctex), which gdvar does not read"},
	{"GDST", "a Godot 3 texture (.stex), which gdvar does not read"},
	{"GDSC", "a compiled GDScript, which gdvar does not read"},
}

// fileKindHint says which other kind of Godot file data is, when it is
// one: a resource pack (or an executable with one embedded), a binary
// resource, a texture, a project.binary, a text scene or project.godot.
// It says nothing of Variants, save files and other text.
func fileKindHint(data []byte) string {
	for _, k := range godotFileKinds {
		if bytes.HasPrefix(data, []byte(k.magic)) {
			return "this is " + k.what
		}
	}
	if _, err := pck.NewReader(bytes.NewReader(data), int64(len(data)), nil); err == nil || errors.Is(err, pck.ErrNeedKey) {
		return "this is an executable with a resource pack embedded: gdvar pck list shows its files, gdvar pck extract writes them out"
	}
	text := bytes.TrimLeft(data, "\ufeff \t\r\n")
	switch {
	case bytes.HasPrefix(text, []byte("[gd_scene")), bytes.HasPrefix(text, []byte("[gd_resource")):
		return "this is a text scene or resource (.tscn, .tres): gdvar res dump prints it " +
			"(gdvar encode reads one value in Godot's text form)"
	case bytes.HasPrefix(text, []byte("; Engine configuration file")), bytes.Contains(text, []byte("\nconfig_version=")):
		return "this is a project.godot: package gdproject reads it"
	}
	return ""
}

// notPackHint says what a file that is not a resource pack is, for the
// pck commands: a save file, one value, another kind of Godot file, or
// text.
func notPackHint(data []byte) string {
	if h := fileKindHint(data); h != "" {
		return h
	}
	switch gdfile.Detect(data) {
	case gdfile.Encrypted:
		return "this is an encrypted save file (GDEC): gdvar decode --password P (or --key HEX) reads it"
	case gdfile.Compressed:
		return "this is a compressed save file (GCPF): gdvar decode reads it"
	}
	if looksLikeText(data) {
		return "this is text, not a resource pack"
	}
	if f, err := gdfile.Read(data, gdfile.Options{}); err == nil && len(f.Values) > 0 {
		return "this is a save file (store_var values): gdvar decode reads it"
	}
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		if dm, err := (variant.DecOptions{Family: fam, AllowObjects: true}).DecMode(); err == nil {
			if _, n, err := dm.Decode(data); err == nil && n == len(data) {
				return "this is one value (var_to_bytes, put_var): gdvar decode reads it"
			}
		}
	}
	return ""
}

// binaryInputHint says what input that should be text (for encode, or
// convert --from text or json) is when it is binary: another kind of Godot
// file, a save file, or Godot's binary format.
func binaryInputHint(data []byte) string {
	if h := fileKindHint(data); h != "" {
		return h
	}
	if looksLikeText(data) {
		return ""
	}
	switch gdfile.Detect(data) {
	case gdfile.Encrypted:
		return "this is an encrypted save file (GDEC), not text: gdvar decode --password P (or --key HEX) prints its values as text"
	case gdfile.Compressed:
		return "this is a compressed save file (GCPF), not text: gdvar decode prints its values as text"
	}
	return "this is binary, not text: gdvar decode prints Godot's binary format (var_to_bytes, store_var) as text"
}

// convertHint says what input that does not decode as one value is, for
// convert, which reads one value: another kind of Godot file, a save file
// (which decode reads), or text.
func convertHint(data []byte, hexIn bool, fam variant.Family) string {
	if h := fileKindHint(data); h != "" {
		return h
	}
	switch gdfile.Detect(data) {
	case gdfile.Encrypted:
		return "this is an encrypted save file (GDEC); convert reads one value: gdvar decode --password P --to FORMAT converts a save file's values"
	case gdfile.Compressed:
		return "this is a compressed save file (GCPF); convert reads one value: gdvar decode --to FORMAT converts a save file's values"
	}
	if f, err := gdfile.Read(data, gdfile.Options{Godot: fam}); err == nil && len(f.Values) > 1 {
		return "this is a save file of several store_var values; convert reads one value: gdvar decode --to FORMAT converts a save file's values"
	}
	return textInputHint(data, fam, !hexIn, false)
}

// listenHint says what to do when a server cannot listen: another program
// has the port, or the address is not this machine's; flags names the
// flags that choose the address.
func listenHint(err error, flags string) string {
	switch {
	case errors.Is(err, syscall.EADDRINUSE):
		return "another program (another gdvar serve or host, the game itself) listens on that port: stop it, or choose another port with " + flags
	case errors.Is(err, syscall.EADDRNOTAVAIL):
		return "that address is not one of this machine's: 0.0.0.0:PORT listens on every interface, 127.0.0.1:PORT on this machine only"
	case errors.Is(err, syscall.EACCES):
		return "ports below 1024 need privileges: choose a port of 1024 or more with " + flags
	}
	return ""
}

// didYouMean suggests the command that name is a typo of: one letter
// missing, extra, changed or two letters swapped.
func didYouMean(name string) string {
	for cmd := range commands {
		if closeTypo(name, cmd) {
			return fmt.Sprintf(" (did you mean %q?)", cmd)
		}
	}
	return ""
}

// closeTypo reports whether a and b differ by one edit: a letter inserted,
// deleted or changed, or two neighbours swapped.
func closeTypo(a, b string) bool {
	if a == b {
		return false
	}
	if len(a) > len(b) {
		a, b = b, a
	}
	if len(b)-len(a) > 1 {
		return false
	}
	i := 0
	for i < len(a) && a[i] == b[i] {
		i++
	}
	if len(a) == len(b) {
		return a[i+1:] == b[i+1:] ||
			i+1 < len(a) && a[i] == b[i+1] && a[i+1] == b[i] && a[i+2:] == b[i+2:]
	}
	return a[i:] == b[i+1:]
}
