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
// before the first section. As the engine reads it, a key in quotes is a
// string (which may hold '=', spaces or line breaks), a bare key loses
// every space and control character, and an empty key sets nothing. Text
// writes a key bare only when it is printable ASCII without '=', quotes,
// brackets, ';' or '\' (nor a leading '#'), in quotes otherwise.
package gdproject

import (
	"encoding/binary"
	"errors"
	"fmt"
	"strings"

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
	if i := strings.IndexByte(key, '/'); i >= 0 {
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
		sec, _ := split(st.Key)
		if _, ok := bySection[sec]; !ok && sec != "" {
			order = append(order, sec)
		}
		bySection[sec] = append(bySection[sec], st)
	}
	o := gdtext.Options{Family: s.family(), Multiline: true}
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
			k, err := quoteKey(name, o.Family)
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
		if strings.ContainsAny(sec, "]\r\n") || strings.TrimSpace(sec) != sec {
			return "", fmt.Errorf("%w: section %q cannot be written as text", ErrFormat, sec)
		}
		b.WriteString("\n[" + sec + "]\n\n")
		if err := write(bySection[sec]); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// quoteKey quotes a key that the ConfigFile reader would not read back
// bare, as a Godot string (the engine's reader takes a quoted key as a
// string token, and drops every character up to ' ' of a bare one). As
// the engine's String.property_name_encode, it quotes keys with any
// character outside '!' to '~'.
func quoteKey(k string, family variant.Family) (string, error) {
	bare := k != "" && k[0] != '#' && !strings.ContainsAny(k, "=\"[];\\")
	for i := 0; bare && i < len(k); i++ {
		bare = k[i] > ' ' && k[i] < 0x7F
	}
	if !bare {
		return gdtext.Format(variant.String(k), gdtext.Options{Family: family})
	}
	return k, nil
}

// ParseText reads a project.godot file of family (0: Godot 4, unless
// config_version is below 5).
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
	po := gdtext.ParseOptions{Family: family}
	section := ""
	pos, line := 0, 1
	for pos < len(text) {
		end := strings.IndexByte(text[pos:], '\n')
		if end < 0 {
			end = len(text) - pos
		}
		l := strings.TrimSpace(text[pos : pos+end])
		switch {
		case l == "" || l[0] == ';' || l[0] == '#':
			pos += end + 1
			line++
			continue
		case l[0] == '[':
			j := strings.IndexByte(l, ']')
			if j < 0 {
				return nil, fmt.Errorf("%w: line %d: a section header without ']'", ErrFormat, line)
			}
			section = l[1:j]
			pos += end + 1
			line++
			continue
		}
		var key string
		var start int // where the value begins
		if l[0] == '"' {
			// A quoted key is a Godot string, which may hold '=' and
			// line breaks; '=' follows it.
			q := pos + strings.IndexByte(text[pos:pos+end], '"')
			kv, n, err := gdtext.ParsePrefix(text[q:], po)
			k, isString := kv.(variant.String)
			if err != nil || !isString {
				return nil, fmt.Errorf("%w: line %d: a quoted key that is not a string", ErrFormat, line)
			}
			after := q + n
			for after < len(text) && (text[after] == ' ' || text[after] == '\t') {
				after++
			}
			if after >= len(text) || text[after] != '=' {
				return nil, fmt.Errorf("%w: line %d: no '=' after the key %q", ErrFormat, line, string(k))
			}
			key, start = string(k), after+1
		} else {
			eq := strings.IndexByte(text[pos:pos+end], '=')
			if eq < 0 {
				return nil, fmt.Errorf("%w: line %d: neither a section nor key=value", ErrFormat, line)
			}
			// The engine's reader leaves out every character up to ' '
			// of a bare key, between its words too; other bytes stay as
			// they are.
			k := make([]byte, 0, eq)
			for _, c := range []byte(text[pos : pos+eq]) {
				if c > ' ' {
					k = append(k, c)
				}
			}
			key, start = string(k), pos+eq+1
		}
		v, n, err := gdtext.ParsePrefix(text[start:], po)
		if err != nil {
			return nil, fmt.Errorf("gdproject: line %d, key %q: %w", line, key, err)
		}
		// The engine sets nothing for an empty key (its value is read and
		// dropped).
		if key != "" {
			if section != "" {
				key = section + "/" + key
			}
			s.Settings = append(s.Settings, Setting{Key: key, Value: v})
		}
		consumed := text[pos : start+n]
		line += strings.Count(consumed, "\n")
		pos = start + n
		// The rest of the line may hold only a comment.
		rest := text[pos:]
		if j := strings.IndexByte(rest, '\n'); j >= 0 {
			rest = rest[:j]
		}
		if r := strings.TrimSpace(rest); r != "" && r[0] != ';' {
			return nil, fmt.Errorf("%w: line %d: %q after the value of %q", ErrFormat, line, r, key)
		}
		pos += len(rest)
	}
	return s, nil
}
