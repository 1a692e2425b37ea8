package main

import (
	"bufio"
	"bytes"
	"cmp"
	"encoding/base64"
	"errors"
	"flag"
	"fmt"
	"io"
	"strconv"

	"github.com/gdvar/gdvar/gdfile"
	"github.com/gdvar/gdvar/variant"
)

const decodeUsage = `Usage: gdvar decode [--godot 3|4] [--hex | --base64]
                   [--value | --file | --lines] [--password P | --key HEX]
                   [--allow-objects] [--classes LIST] [--strict]
                   [--to text|json|typed-json] [FILE|-]

Reads encoded Variants from FILE or standard input and prints them in the
family's text form (var_to_str for Godot 4, var2str for Godot 3), one
value a line. The input is either:

  one value    what var_to_bytes and PacketPeer.put_var write (and the
               payload of store_var and StreamPeer.put_var, without their
               length prefix). Bytes after the value are ignored, as the
               engine ignores them; a note on standard error says how many.
  a save file  what FileAccess.store_var writes (Godot 3: File.store_var):
               values each after a 4-byte length, back to back, as they are
               or in the container of open_encrypted (GDEC: give
               --password or --key) or open_compressed (GCPF). Every value
               is printed, in order; the engine family is found out from
               the values unless --godot is given.

Which one it is is found out from the bytes: a container's magic, else one
value when the bytes are exactly one value, else a save file when they
split into store_var values exactly. --value and --file say it instead.

Flags:
  --godot 3|4       engine family that wrote the data (default 4 for a
                    value; found out for a save file)
  --hex             the input is hex text; whitespace is ignored
  --base64          the input is base64 text, as Marshalls.variant_to_base64
                    and raw_to_base64 write it; whitespace is ignored
  --value           the input is one value
  --file            the input is a save file (store_var values)
  --lines           every input line is one value, in hex (or base64 with
                    --base64); one output line per input line: the value,
                    or ERROR and the reason. Exit status 1 if any line failed.
  --password P      the password of an encrypted save file
                    (open_encrypted_with_pass)
  --key HEX         its key instead: 64 hex digits (open_encrypted)
  --allow-objects   accept full Objects (class and properties, as plain data;
                    nothing is instantiated), like bytes_to_var_with_objects
` + classesUsage + `
  --strict          accept only the exact bytes the engine itself writes:
                    refuse what it merely tolerates (trailing bytes, non-zero
                    padding, header bits it does not define, a wider int or
                    float than needed, …)
  --to FORMAT       print values as text (the default), json
                    (JSON.stringify: lossy) or typed-json (JSON.from_native:
                    lossless)

Examples:
  gdvar decode testdata/sample/savegame.bin
  gdvar decode user.sav
  gdvar decode --password "my secret" encrypted.sav
  echo 050000000000803f00000040 | gdvar decode --hex
  echo BQAAAAAAgD8AAABA | gdvar decode --base64
  gdvar decode --godot 3 --lines --hex packets.txt

Errors name the byte offset, the place in the value and the Variant type,
and, when the bytes look like something else, what to try:
  gdvar: decode: byte 12, [1] (Vector2): data truncated: need 8 bytes, have 4
  gdvar: decode: byte 0 (Transform3D): data truncated: need 48 bytes, have 24
  gdvar: hint: this decodes as Godot 3: try --godot 3
`

// decoder holds what decode was asked to do.
type decoder struct {
	fam    variant.Family // --godot
	famSet bool           // --godot was given
	dec    variant.DecOptions
	key    *gdfile.Key
	mode   string // "auto", "value" or "file"
	input  string // "binary", "hex" or "base64"
}

// decoded is what decode found in its input: one value, or a save file.
type decoded struct {
	values   []variant.Value
	fam      variant.Family // the values' family, for their text form
	trailing int            // bytes after one value
	end      int            // where that value ends
	hint     string         // what the input may be instead
}

// decodeError is an error of decode with, perhaps, a hint of what the
// input looks like instead.
type decodeError struct {
	err   error
	hint  string
	usage bool // a usage error: exit status 2
}

func (e *decodeError) Error() string { return e.err.Error() }

func (e *decodeError) Unwrap() error { return e.err }

func runDecode(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("decode", flag.ContinueOnError)
	godot := newGodotFlag()
	fs.Var(godot, "godot", "engine family: 3 or 4")
	hexIn := fs.Bool("hex", false, "input is hex text")
	b64In := fs.Bool("base64", false, "input is base64 text")
	asValue := fs.Bool("value", false, "the input is one value")
	asFile := fs.Bool("file", false, "the input is a save file")
	lines := fs.Bool("lines", false, "one hex value per line")
	password := fs.String("password", "", "password of an encrypted file")
	keyHex := fs.String("key", "", "key of an encrypted file, 64 hex digits")
	allow := fs.Bool("allow-objects", false, "accept full objects")
	strict := fs.Bool("strict", false, "accept only canonical encodings")
	classes := fs.String("classes", "", "classes full objects may have: engine or a file")
	to := &formatFlag{"text", []string{"text", "json", "typed-json"}}
	fs.Var(to, "to", "output format: text, json or typed-json")
	name, status, ok := parseFlags(fs, args, stderr)
	if !ok {
		if status == 0 {
			fmt.Fprint(stdout, decodeUsage)
		}
		return status
	}
	bad := func(err error) int {
		usageError(stderr, "decode", err)
		return 2
	}
	d := decoder{fam: godot.family(), famSet: flagSet(fs, "godot"), mode: "auto", input: "binary"}
	switch {
	case *hexIn && *b64In:
		return bad(errors.New("--hex or --base64, not both"))
	case *hexIn:
		d.input = "hex"
	case *b64In:
		d.input = "base64"
	}
	if n := countTrue(*asValue, *asFile, *lines); n > 1 {
		return bad(errors.New("--value, --file or --lines, one at most"))
	}
	switch {
	case *asValue:
		d.mode = "value"
	case *asFile:
		d.mode = "file"
	}
	var err error
	if d.key, err = keyFromFlags(*password, *keyHex, flagSet(fs, "password")); err != nil {
		return bad(err)
	}
	if d.key != nil && (*lines || *asValue) {
		return bad(errors.New("--password and --key read encrypted save files: not with --value or --lines"))
	}
	allowed, err := classList(*classes, d.fam)
	if err != nil {
		return bad(err)
	}
	d.dec = variant.DecOptions{AllowObjects: *allow, Classes: allowed, Strict: *strict}
	if _, err := d.valueMode(d.fam); err != nil {
		return bad(err)
	}
	noteTerminalInput(name, stdin, stderr)
	raw, err := readInput(name, stdin)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar:", err)
		return 1
	}
	out := bufio.NewWriter(stdout)
	defer out.Flush()

	if *lines {
		return d.decodeLines(raw, to.name, out)
	}

	data, err := d.transcode(raw)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar: decode:", err)
		if h := d.textHint(raw); h != "" {
			fmt.Fprintln(stderr, "gdvar: hint:", h)
		}
		return 1
	}
	res, err := d.decode(data)
	if err != nil {
		var de *decodeError
		if errors.As(err, &de) && de.usage {
			return bad(de.err)
		}
		fmt.Fprintln(stderr, "gdvar:", explainObjects(err, "--allow-objects"))
		hint := cmp.Or(fileKindHint(raw), d.textHint(raw))
		if hint == "" && de != nil {
			hint = de.hint
		}
		if hint != "" {
			fmt.Fprintln(stderr, "gdvar: hint:", hint)
		}
		return 1
	}
	textOut := valueCodec{fam: res.fam}
	for _, v := range res.values {
		text, err := textOut.format(v, to.name)
		if err != nil {
			out.Flush()
			fmt.Fprintln(stderr, "gdvar: decode:", err)
			return 1
		}
		fmt.Fprintln(out, text)
	}
	if res.trailing > 0 {
		fmt.Fprintf(stderr, "gdvar: note: the value ends at byte %d; %d trailing bytes ignored\n", res.end, res.trailing)
	}
	if res.hint != "" {
		fmt.Fprintln(stderr, "gdvar: hint:", res.hint)
	}
	return 0
}

// decodeLines is decode --lines: one value per line, in hex or base64.
func (d *decoder) decodeLines(raw []byte, format string, out io.Writer) int {
	if d.input == "binary" {
		d.input = "hex"
	}
	dm, _ := d.valueMode(d.fam)
	textOut := valueCodec{fam: d.fam}
	failed := false
	for _, line := range splitLines(raw) {
		b, err := d.transcode(line)
		var text string
		if err == nil {
			var v variant.Value
			if v, _, err = dm.Decode(b); err == nil {
				text, err = textOut.format(v, format)
			} else if h := d.familyHint(b); h != "" {
				err = fmt.Errorf("%w (%s)", err, h)
			}
		}
		if err != nil {
			failed = true
			fmt.Fprintln(out, "ERROR", explainObjects(err, "--allow-objects"))
			continue
		}
		fmt.Fprintln(out, text)
	}
	if failed {
		return 1
	}
	return 0
}

// transcode turns the input text into bytes, as --hex or --base64 say.
func (d *decoder) transcode(raw []byte) ([]byte, error) {
	switch d.input {
	case "hex":
		return decodeHex(raw)
	case "base64":
		return decodeBase64(raw)
	}
	return raw, nil
}

// valueMode is the decoding mode for single values of family fam.
func (d *decoder) valueMode(fam variant.Family) (*variant.DecMode, error) {
	o := d.dec
	o.Family = fam
	return o.DecMode()
}

// readFile reads data as a save file; fam 0 finds out the family.
func (d *decoder) readFile(data []byte, fam variant.Family) (*gdfile.File, error) {
	return gdfile.Read(data, gdfile.Options{Key: d.key, Godot: fam, Dec: d.dec})
}

// fileFamily is the family to read save files in: --godot's, or 0 (found
// out) when it was not given.
func (d *decoder) fileFamily() variant.Family {
	if d.famSet {
		return d.fam
	}
	return 0
}

// decode finds out what data is (unless --value or --file say it) and
// decodes it.
func (d *decoder) decode(data []byte) (decoded, error) {
	container := gdfile.Detect(data)
	if len(data) == 0 && d.mode != "file" {
		return decoded{}, errors.New("decode: the input is empty")
	}
	if d.mode == "file" || (d.mode == "auto" && (container != gdfile.Plain || d.key != nil)) {
		return d.decodeFile(data, container)
	}
	dm, _ := d.valueMode(d.fam)
	v, n, verr := dm.Decode(data)
	if verr == nil && n == len(data) {
		return decoded{values: []variant.Value{v}, fam: d.fam, end: n}, nil
	}
	if d.mode == "auto" && len(data) > 0 {
		if f, err := d.readFile(data, d.fileFamily()); err == nil && len(f.Values) > 0 {
			return decoded{values: f.Values, fam: f.Godot, hint: d.fileFamilyHint(data, f)}, nil
		}
	}
	if verr == nil {
		return decoded{values: []variant.Value{v}, fam: d.fam, end: n, trailing: len(data) - n, hint: d.trailingHint(data)}, nil
	}
	if d.mode == "auto" {
		// Bytes that split into store_var values exactly, whose first
		// bad value starts with a valid type, are a save file whose values
		// do not decode: say why, as for --file.
		if frames, _, err := gdfile.SplitFrames(data, gdfile.AutoEndian); err == nil && len(frames) > 0 {
			res, err := d.decodeFile(data, container)
			var ve *variant.Error
			if !errors.As(err, &ve) || ve.Offset > 0 || !errors.Is(ve, variant.ErrInvalidType) {
				return res, err
			}
		}
	}
	return decoded{}, &decodeError{err: verr, hint: d.valueHint(data)}
}

// decodeFile reads data as a save file.
func (d *decoder) decodeFile(data []byte, container gdfile.Format) (decoded, error) {
	if d.key != nil && container != gdfile.Encrypted {
		what := "a compressed file (GCPF)"
		if container == gdfile.Plain {
			what = "not encrypted (no GDEC header)"
		}
		return decoded{}, &decodeError{usage: true, err: fmt.Errorf("--password and --key decrypt encrypted files (GDEC), but the input is %s", what)}
	}
	f, err := d.readFile(data, d.fileFamily())
	if err == nil {
		return decoded{values: f.Values, fam: f.Godot, hint: d.fileFamilyHint(data, f)}, nil
	}
	de := &decodeError{err: err}
	switch {
	case errors.Is(err, gdfile.ErrNeedKey):
		de.err = errors.New("decode: the input is an encrypted file (GDEC): give --password or --key")
	case errors.Is(err, gdfile.ErrWrongKey):
	case d.famSet:
		if _, err := gdfile.Read(data, gdfile.Options{Key: d.key, Godot: otherFamily(d.fam), Dec: d.dec}); err == nil {
			de.hint = fmt.Sprintf("this reads as a %v file: try --godot %d, or leave --godot out", otherFamily(d.fam), otherFamily(d.fam))
		}
	}
	if de.hint == "" && d.mode == "file" && container == gdfile.Plain {
		if dm, _ := d.valueMode(d.fam); dm != nil {
			if _, n, err := dm.Decode(data); err == nil && n == len(data) {
				de.hint = "this is one value, not a save file: try without --file"
			}
		}
	}
	return decoded{}, de
}

// valueHint says what data looks like when it does not decode as one
// value: a container, a save file, a value of the other family.
func (d *decoder) valueHint(data []byte) string {
	switch gdfile.Detect(data) {
	case gdfile.Encrypted:
		return "this looks like an encrypted file (GDEC): try without --value, with --password or --key"
	case gdfile.Compressed:
		return "this looks like a compressed file (GCPF): try without --value"
	}
	if d.mode == "value" {
		if f, err := d.readFile(data, d.fileFamily()); err == nil && len(f.Values) > 0 {
			return fmt.Sprintf("this looks like a save file (%s, store_var): try without --value", plural(len(f.Values), "value"))
		}
	}
	if h := d.familyHint(data); h != "" {
		return h
	}
	if d.famSet {
		if f, err := d.readFile(data, otherFamily(d.fam)); err == nil && len(f.Values) > 0 {
			return fmt.Sprintf("this reads as a %v file: try --godot %d, or leave --godot out", f.Godot, f.Godot)
		}
	}
	return d.cutShortHint(data)
}

// cutShortHint says "this looks like a save file cut short" when data
// splits into store_var values that all decode, up to one whose length
// prefix announces more bytes than are left and whose payload is a value
// cut short (or up to a bad length prefix after at least one value).
func (d *decoder) cutShortHint(data []byte) string {
	frames, _, err := gdfile.SplitFrames(data, gdfile.AutoEndian)
	if err == nil {
		return ""
	}
	whole := 0
	for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
		dm, _ := d.valueMode(fam)
		n := 0
		for _, fr := range frames {
			if _, used, err := dm.Decode(fr.Payload); err != nil || used != len(fr.Payload) {
				break
			}
			n++
		}
		whole = max(whole, n)
	}
	if whole < len(frames) {
		return ""
	}
	next := 0
	if len(frames) > 0 {
		last := frames[len(frames)-1]
		next = last.Offset + 4 + len(last.Payload)
	}
	cut := false
	if next+4 <= len(data) {
		for _, fam := range []variant.Family{variant.Godot4, variant.Godot3} {
			dm, _ := d.valueMode(fam)
			if _, _, err := dm.Decode(data[next+4:]); errors.Is(err, io.ErrUnexpectedEOF) {
				cut = true
			}
		}
	}
	if !cut && whole == 0 {
		return ""
	}
	if whole == 0 {
		return fmt.Sprintf("this looks like a save file (store_var) cut short: %v", err)
	}
	return fmt.Sprintf("this looks like a save file (store_var) cut short after %s: %v", plural(whole, "whole value"), err)
}

// trailingHint says "this decodes exactly as Godot 3" when data decodes
// as one value with bytes left over, and as one value of the other family
// without.
func (d *decoder) trailingHint(data []byte) string {
	other := otherFamily(d.fam)
	dm, err := d.valueMode(other)
	if err != nil {
		return ""
	}
	if _, n, err := dm.Decode(data); err == nil && n == len(data) {
		return fmt.Sprintf("this decodes exactly as %v, without trailing bytes: try --godot %d", other, other)
	}
	return ""
}

// fileFamilyHint says "this reads exactly as a Godot 3 file" when --godot
// named the other family for a file that gdfile finds out to be of this
// one (every value fills its frame there) and reads as other values.
func (d *decoder) fileFamilyHint(data []byte, f *gdfile.File) string {
	if !d.famSet {
		return ""
	}
	g, err := gdfile.Read(data, gdfile.Options{Key: d.key, Dec: d.dec})
	if err != nil || g.Godot == f.Godot || len(g.Values) != len(f.Values) {
		return ""
	}
	same := true
	for i := range g.Values {
		same = same && variant.Equal(g.Values[i], f.Values[i])
	}
	if same {
		return ""
	}
	return fmt.Sprintf("this file reads exactly as %v (every value fills its store_var frame): try --godot %d, or leave --godot out", g.Godot, g.Godot)
}

// familyHint says "this decodes as Godot 3" when data is one value of the
// family --godot did not name.
func (d *decoder) familyHint(data []byte) string {
	other := otherFamily(d.fam)
	dm, err := d.valueMode(other)
	if err != nil {
		return ""
	}
	if _, _, err := dm.Decode(data); err == nil {
		return fmt.Sprintf("this decodes as %v: try --godot %d", other, other)
	}
	return ""
}

// textHint says what the input looks like when it is text decode was not
// told about: hex, base64, or a value in Godot's text form.
func (d *decoder) textHint(raw []byte) string {
	if d.input != "hex" && looksLikeHex(raw) {
		if d.input == "base64" {
			return "this looks like hex text: try --hex instead of --base64"
		}
		return "this looks like hex text: try --hex"
	}
	if d.input != "base64" && d.decodesAs(raw, decodeBase64) {
		if d.input == "hex" {
			return "this looks like base64 text: try --base64 instead of --hex"
		}
		return "this looks like base64 text: try --base64"
	}
	if d.input == "binary" {
		return textInputHint(raw, d.fam, true, true)
	}
	return ""
}

// decodesAs reports whether raw, turned into bytes by transcode, is a
// value or a save file.
func (d *decoder) decodesAs(raw []byte, transcode func([]byte) ([]byte, error)) bool {
	b, err := transcode(raw)
	if err != nil {
		return false
	}
	for _, fam := range []variant.Family{d.fam, otherFamily(d.fam)} {
		if dm, err := d.valueMode(fam); err == nil {
			if _, _, err := dm.Decode(b); err == nil {
				return true
			}
		}
	}
	if gdfile.Detect(b) != gdfile.Plain {
		return true
	}
	f, err := d.readFile(b, 0)
	return err == nil && len(f.Values) > 0
}

func otherFamily(fam variant.Family) variant.Family {
	if fam == variant.Godot3 {
		return variant.Godot4
	}
	return variant.Godot3
}

func countTrue(bs ...bool) int {
	n := 0
	for _, b := range bs {
		if b {
			n++
		}
	}
	return n
}

// splitLines splits input into lines without their line endings; a final
// line ending does not start another line.
func splitLines(data []byte) [][]byte {
	if len(data) == 0 {
		return nil
	}
	data = bytes.TrimSuffix(data, []byte("\n"))
	lines := bytes.Split(data, []byte("\n"))
	for i, l := range lines {
		lines[i] = bytes.TrimSuffix(l, []byte("\r"))
	}
	return lines
}

// isSpace reports the whitespace hex and base64 input may hold.
func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// looksLikeHex reports whether text is hex digits and whitespace only,
// enough for one value (4 bytes) and of even length.
func looksLikeHex(text []byte) bool {
	n := 0
	for _, c := range text {
		switch {
		case isSpace(c):
		case c >= '0' && c <= '9', c >= 'a' && c <= 'f', c >= 'A' && c <= 'F':
			n++
		default:
			return false
		}
	}
	return n >= 8 && n%2 == 0
}

// decodeHex decodes hex text, ignoring whitespace; errors name the
// position of the offending character.
func decodeHex(text []byte) ([]byte, error) {
	out := make([]byte, 0, len(text)/2)
	var hi byte
	half := false
	for i, c := range text {
		var v byte
		switch {
		case isSpace(c):
			continue
		case c >= '0' && c <= '9':
			v = c - '0'
		case c >= 'a' && c <= 'f':
			v = c - 'a' + 10
		case c >= 'A' && c <= 'F':
			v = c - 'A' + 10
		default:
			return nil, fmt.Errorf("hex input: character %s at position %d is not a hex digit", strconv.QuoteRune(rune(c)), i)
		}
		if half {
			out = append(out, hi<<4|v)
		} else {
			hi = v
		}
		half = !half
	}
	if half {
		return nil, errors.New("hex input: odd number of hex digits")
	}
	if len(out) == 0 {
		return nil, errors.New("hex input: empty")
	}
	return out, nil
}

// decodeBase64 decodes base64 text as Marshalls.variant_to_base64 and
// raw_to_base64 write it (the standard alphabet, padded, one line). It is
// more lenient than Marshalls.base64_to_variant: whitespace anywhere and
// missing padding are accepted, and so is the URL-safe alphabet ("-" and
// "_" for "+" and "/"). Errors name the position of the offending
// character.
func decodeBase64(text []byte) ([]byte, error) {
	clean := make([]byte, 0, len(text))
	url, std := false, false
	padAt := -1
	for i, c := range text {
		switch {
		case isSpace(c):
			continue
		case c == '=':
			if padAt < 0 {
				padAt = i
			}
		case padAt >= 0:
			return nil, fmt.Errorf("base64 input: character %s at position %d follows the padding", strconv.QuoteRune(rune(c)), i)
		case c >= 'A' && c <= 'Z', c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '+' || c == '/':
			std = true
		case c == '-' || c == '_':
			url = true
		default:
			return nil, fmt.Errorf("base64 input: character %s at position %d is not base64", strconv.QuoteRune(rune(c)), i)
		}
		if c != '=' {
			clean = append(clean, c)
		}
	}
	if url && std {
		return nil, errors.New("base64 input: mixes the standard (+/) and URL-safe (-_) alphabets")
	}
	enc := base64.RawStdEncoding
	if url {
		enc = base64.RawURLEncoding
	}
	out := make([]byte, enc.DecodedLen(len(clean)))
	n, err := enc.Decode(out, clean)
	if err != nil {
		return nil, fmt.Errorf("base64 input: cut short: %d characters are not a whole number of bytes", len(clean))
	}
	if n == 0 {
		return nil, errors.New("base64 input: empty")
	}
	return out[:n], nil
}

// base64Text is how encode --base64 writes bytes: as variant_to_base64
// and raw_to_base64 do, standard alphabet, padded, on one line.
func base64Text(b []byte) string { return base64.StdEncoding.EncodeToString(b) }
