// Package gdproject reads and writes a Godot project's settings: the
// project.godot text file of a project folder, and the project.binary
// ("ECFG") file that an export puts in the pack instead, for Godot 3 and
// Godot 4, and converts between them. Values are decoded and encoded by
// package variant (binary) and gdtext (text); comments in project.godot
// are not kept, and the engine's own default values are not known here:
// only what the file holds.
//
// project.binary, as ProjectSettings::_load_settings_binary reads it in
// Godot 3.x and 4.x alike (all little-endian):
//
//	"ECFG"  u32 count
//	count × { u32 key length, key (UTF-8, "section/name"),
//	          u32 value length, value (encode_variant, full objects) }
//
// project.godot is a ConfigFile text: "key=value" lines under "[section]"
// headers; a setting "application/config/name" is the key "config/name" of
// section "application", and keys without a "/" (config_version) come
// before the first section. ParseText reads it as the engines do, which
// is looser than lines (see ParseText): a key in quotes is a string (which
// may hold '=', spaces or line breaks), a bare key loses every space and
// control character and reads its other bytes as Latin-1, and an empty key
// sets nothing. Text writes a key bare only when it is printable ASCII
// without '=', quotes, brackets, ';' or '\' (nor a leading '#'), in quotes
// otherwise, and a section name so that the engine of its family reads it
// back, or refuses it.
package gdproject

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
)

// Setting is one project setting.
type Setting struct {
	Key   string // "section/name", or "name" outside any section
	Value variant.Value
}

// Settings are a project's settings, in file order.
type Settings struct {
	// Family is the engine family the values belong to.
	Family   variant.Family
	Settings []Setting
}

// Get returns the value of a setting and whether it is there.
func (s *Settings) Get(key string) (variant.Value, bool) {
	for i := len(s.Settings) - 1; i >= 0; i-- {
		if s.Settings[i].Key == key {
			return s.Settings[i].Value, true
		}
	}
	return nil, false
}

// Magic is the start of a project.binary file.
const Magic = "ECFG"

// ErrFormat reports a file that is not project settings in the expected
// form.
var ErrFormat = errors.New("gdproject: not a valid settings file")

func bad(off int, format string, args ...any) error {
	return fmt.Errorf("%w: at offset %d: %s", ErrFormat, off, fmt.Sprintf(format, args...))
}

// DecodeBinary reads a project.binary file. family 0 finds the family out:
// Godot 4 unless the values only decode as Godot 3's, or config_version is
// below 5.
func DecodeBinary(data []byte, family variant.Family) (*Settings, error) {
	if family == 0 {
		s4, err4 := DecodeBinary(data, variant.Godot4)
		if err4 == nil {
			if v, ok := s4.Get("config_version"); !ok || !isInt(v, 4) {
				return s4, nil
			}
		}
		s3, err3 := DecodeBinary(data, variant.Godot3)
		if err3 == nil {
			return s3, nil
		}
		if err4 == nil {
			return s4, nil
		}
		return nil, err4
	}
	dm, err := variant.DecOptions{Family: family, AllowObjects: true}.DecMode()
	if err != nil {
		return nil, err
	}
	if len(data) < 8 || string(data[:4]) != Magic {
		return nil, bad(0, "no %q header", Magic)
	}
	le := binary.LittleEndian
	count := int(le.Uint32(data[4:]))
	off := 8
	if count > (len(data)-off)/8 {
		return nil, bad(4, "%d settings announced, room for %d", count, (len(data)-off)/8)
	}
	s := &Settings{Family: family, Settings: make([]Setting, 0, count)}
	field := func(what string) ([]byte, error) {
		if len(data)-off < 4 {
			return nil, bad(off, "the file ends before the %s length", what)
		}
		n := int(le.Uint32(data[off:]))
		if n > len(data)-off-4 {
			return nil, bad(off, "%s of %d bytes, %d left", what, n, len(data)-off-4)
		}
		b := data[off+4 : off+4+n]
		off += 4 + n
		return b, nil
	}
	for i := 0; i < count; i++ {
		k, err := field("key")
		if err != nil {
			return nil, err
		}
		at := off
		vb, err := field("value")
		if err != nil {
			return nil, err
		}
		v, _, err := dm.Decode(vb)
		if err != nil {
			return nil, fmt.Errorf("gdproject: setting %q at offset %d: %w", k, at+4, err)
		}
		s.Settings = append(s.Settings, Setting{Key: string(k), Value: v})
	}
	return s, nil
}

func isInt(v variant.Value, n int64) bool {
	x, ok := v.(variant.Int)
	return ok && int64(x) == n
}

// EncodeBinary writes the settings as project.binary.
func (s *Settings) EncodeBinary() ([]byte, error) {
	em, err := variant.EncOptions{Family: s.family(), FullObjects: true}.EncMode()
	if err != nil {
		return nil, err
	}
	le := binary.LittleEndian
	out := append([]byte(Magic), 0, 0, 0, 0)
	le.PutUint32(out[4:], uint32(len(s.Settings)))
	for _, st := range s.Settings {
		out = le.AppendUint32(out, uint32(len(st.Key)))
		out = append(out, st.Key...)
		v, err := em.Encode(st.Value)
		if err != nil {
			return nil, fmt.Errorf("gdproject: setting %q: %w", st.Key, err)
		}
		out = le.AppendUint32(out, uint32(len(v)))
		out = append(out, v...)
	}
	return out, nil
}

func (s *Settings) family() variant.Family {
	if s.Family == 0 {
		return variant.Godot4
	}
	return s.Family
}

// textHeader is the comment the engine writes at the top of project.godot.
const textHeader = `; Engine configuration file.
; It's best edited using the editor UI and not directly,
; since the parameters that go here are not all obvious.
;
; Format:
;   [section] ; section goes between []
;   param=value ; assign values to parameters

`

// split returns a setting key's section and name.
func split(key string) (section, name string) {
	// A key that starts with '/' stays outside any section: written as
	// the name after it (as the engine writes it), it would read back as
	// another key.
	if i := strings.IndexByte(key, '/'); i > 0 {
		return key[:i], key[i+1:]
	}
	return "", key
}

// Text writes the settings as project.godot: the engine's header comment,
// the keys outside any section, then each section in the order of its
// first key.
func (s *Settings) Text() (string, error) {
	var order []string
	bySection := map[string][]Setting{}
	for _, st := range s.Settings {
		if strings.IndexByte(st.Key, 0) >= 0 {
			// The engines' text readers end a section's name at a NUL
			// (Godot 4) or drop it (Godot 3), and a string at \u0000.
			return "", fmt.Errorf("%w: setting %q holds a NUL", ErrFormat, st.Key)
		}
		sec, _ := split(st.Key)
		if _, ok := bySection[sec]; !ok && sec != "" {
			order = append(order, sec)
		}
		bySection[sec] = append(bySection[sec], st)
	}
	// Values as the engine writes them into the file, which is how
	// resource files hold them too: Strings with their line breaks,
	// nothing from U+0080 escaped (the engine's file reader misreads such
	// escapes). Format 3 is Godot 4's before PackedByteArray took base64,
	// which the engine also reads; Godot 3 has no other.
	format := 3
	if s.family() == variant.Godot3 {
		format = 2
	}
	o := gdtext.Options{Family: s.family(), Multiline: true, ResourceFormat: format}
	var b strings.Builder
	b.WriteString(textHeader)
	write := func(list []Setting) error {
		for _, st := range list {
			_, name := split(st.Key)
			if name == "" {
				// The engine writes it, and its reader drops it.
				return fmt.Errorf("%w: setting %q has no name after its section", ErrFormat, st.Key)
			}
			v, err := gdtext.Format(st.Value, o)
			if err != nil {
				return fmt.Errorf("gdproject: setting %q: %w", st.Key, err)
			}
			k, err := quoteKey(name, o)
			if err != nil {
				return fmt.Errorf("gdproject: setting %q: %w", st.Key, err)
			}
			b.WriteString(k + "=" + v + "\n")
		}
		return nil
	}
	if err := write(bySection[""]); err != nil {
		return "", err
	}
	for _, sec := range order {
		h, ok := sectionHeader(sec, o.Family)
		if !ok {
			return "", fmt.Errorf("%w: section %q cannot be written as text", ErrFormat, sec)
		}
		b.WriteString("\n[" + h + "]\n\n")
		if err := write(bySection[sec]); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// sectionHeader returns what goes between the brackets of section's
// header so that family's engine reads section back (sectionName); false
// when nothing does. Godot 3 reads the name byte by byte, so characters up
// to U+00FF are written as one byte each.
func sectionHeader(section string, family variant.Family) (string, bool) {
	if section == "" || strings.ContainsAny(section, "]\r\n") || strings.TrimFunc(section, func(r rune) bool { return r <= ' ' }) != section {
		return "", false
	}
	if family != variant.Godot3 {
		return section, utf8.ValidString(section) && !strings.HasSuffix(section, "\\")
	}
	b := make([]byte, 0, len(section))
	for _, r := range section {
		if r > 0xFF {
			return "", false
		}
		b = append(b, byte(r))
	}
	return string(b), true
}

// quoteKey quotes a key that the ConfigFile reader would not read back
// bare, as a Godot string written with o, as values are (the engine's
// reader takes a quoted key as a string token, and drops every character
// up to ' ' of a bare one). As the engine's String.property_name_encode,
// it quotes keys with any character outside '!' to '~'.
func quoteKey(k string, o gdtext.Options) (string, error) {
	bare := k != "" && k[0] != '#' && !strings.ContainsAny(k, "=\"[];\\")
	for i := 0; bare && i < len(k); i++ {
		bare = k[i] > ' ' && k[i] < 0x7F
	}
	if !bare {
		return gdtext.Format(variant.String(k), o)
	}
	return k, nil
}

// ParseText reads a project.godot file of family (0: Godot 4, unless
// config_version is below 5), as the engines' ConfigFile reader
// (VariantParser::parse_tag_assign_eof) reads it: not line by line, but
// character by character. Keys are read by gdtext.ScanKey (spaces left
// out, a bare key's bytes as Latin-1, a quoted string replacing what was
// read before it, a key going on after a ';' comment); after a value the
// next key may follow on the same line; a key with no '=' before the end
// of the file, and an empty key, set nothing; an empty section name
// leaves the section as it was. Strings are read as the engines' file
// readers read them (gdtext.ParseOptions.File). Section names are read as
// each engine reads them: Godot 3 byte by byte up to the first ']'
// (without NULs); Godot 4 as UTF-8 up to a NUL, where "\]" is a ']' within
// the name. Checked with Godot 3.2.3 and 4.6 (TestEngine3ReadsKeys,
// TestEngine4ReadsKeys, TestEngine3ReadsFileStrings,
// TestEngine4ReadsFileStrings).
func ParseText(text string, family variant.Family) (*Settings, error) {
	if family == 0 {
		family = variant.Godot4
		if i := strings.Index(text, "config_version="); i >= 0 {
			if v, _, err := gdtext.ParsePrefix(text[i+len("config_version="):], gdtext.ParseOptions{}); err == nil && !isInt(v, 5) {
				family = variant.Godot3
			}
		}
	}
	s := &Settings{Family: family}
	po := gdtext.ParseOptions{Family: family, File: true}
	section := ""
	line := 1
	for pos := 0; pos < len(text); {
		key, n, ok, err := gdtext.ScanKey(text[pos:], po)
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: a quoted key: %w", ErrFormat, line, err)
		}
		line += strings.Count(text[pos:pos+n], "\n")
		pos += n
		if !ok {
			if pos >= len(text) {
				break // a key with no '=' before the end: nothing
			}
			name, m, ok := sectionName(text[pos+1:], family)
			if !ok {
				return nil, fmt.Errorf("%w: line %d: a section header without ']'", ErrFormat, line)
			}
			if name != "" {
				section = name
			}
			line += strings.Count(text[pos:pos+1+m], "\n")
			pos += 1 + m
			continue
		}
		v, m, err := gdtext.ParsePrefix(text[pos:], po)
		if err != nil {
			return nil, fmt.Errorf("gdproject: line %d, key %q: %w", line, key, err)
		}
		if key != "" {
			if section != "" {
				key = section + "/" + key
			}
			s.Settings = append(s.Settings, Setting{Key: key, Value: v})
		}
		line += strings.Count(text[pos:pos+m], "\n")
		pos += m
	}
	return s, nil
}

// sectionName reads a section's name from text, which follows its '[',
// as family's engine does, and returns it with the length of what it
// read, up to and with its ']'; false when no ']' ends it.
func sectionName(text string, family variant.Family) (string, int, bool) {
	var name string
	n := -1
	if family == variant.Godot3 {
		// Godot 3.2: every byte but NUL a character, up to the first ']'.
		j := strings.IndexByte(text, ']')
		if j < 0 {
			return "", 0, false
		}
		b := make([]byte, 0, j)
		for _, c := range []byte(text[:j]) {
			if c != 0 { // a NUL adds nothing to a Godot 3 String
				b = utf8.AppendRune(b, rune(c))
			}
		}
		name, n = string(b), j+1
	} else {
		// Godot 4: UTF-8 up to a NUL, and a ']' right after a backslash
		// (or several) stays in the name, without the backslash before
		// it.
		b := make([]byte, 0, 16)
		escaping := false
		for i := 0; i < len(text); i++ {
			c := text[i]
			switch {
			case c == ']' && !escaping:
				n = i + 1
			case c == ']':
				b = b[:len(b)-1]
				escaping = false
			default:
				escaping = c == '\\'
			}
			if n >= 0 {
				break
			}
			b = append(b, c)
		}
		if n < 0 {
			return "", 0, false
		}
		if i := bytes.IndexByte(b, 0); i >= 0 {
			b = b[:i] // the name is read as a C string
		}
		var u []byte
		for _, r := range string(b) { // U+FFFD for each byte not part of UTF-8
			u = utf8.AppendRune(u, r)
		}
		name = string(u)
	}
	// String.strip_edges: characters up to ' ' off both ends.
	return strings.TrimFunc(name, func(r rune) bool { return r <= ' ' }), n, true
}
