package main

import (
	"bytes"
	"unicode"
	"unicode/utf8"

	"github.com/gdvar/gdvar/gdtext"
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
// values, is one var_to_bytes value of either family, for the commands
// that read save files.
func oneValueHint(data []byte) string {
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		dm, err := variant.DecOptions{Family: fam, AllowObjects: true}.DecMode()
		if err != nil {
			continue
		}
		if _, n, err := dm.Decode(data); err == nil && n == len(data) {
			return "this is one value (var_to_bytes, put_var), not a save file of store_var values: " +
				"gdvar convert --godot 3 --to-godot 4 --to binary converts one value"
		}
	}
	return ""
}
