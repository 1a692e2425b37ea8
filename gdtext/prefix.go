package gdtext

import (
	"strings"
	"unicode/utf8"

	"github.com/gdvar/gdvar/variant"
)

// ParsePrefix reads the Variant at the start of text as Parse does, but
// leaves what follows it to the caller, for files that hold values among
// other things (a ConfigFile's "key=value" lines). It returns the value and
// the offset in text where the rest begins (after the value, and after any
// white space that the parser looked past).
func ParsePrefix(text string, o ParseOptions) (variant.Value, int, error) {
	p, err := newParser(text, o)
	if err != nil {
		return nil, 0, err
	}
	t, err := p.next()
	if err != nil {
		return nil, 0, err
	}
	if t.kind == tEOF {
		return nil, 0, p.errAt(t.pos, "no value in the text")
	}
	v, err := p.value(t, 0)
	if err != nil {
		return nil, 0, err
	}
	end := p.pos
	if p.peeked != nil {
		end = p.peeked.pos
	}
	return v, end, nil
}

// ScanKey reads the key of a "key=value" assignment at the start of text
// as the engines' file readers read one (VariantParser's
// parse_tag_assign_eof, for project.godot, ConfigFile and the properties
// of resource files), and returns it with the offset just after its '='.
// Their rules: characters up to ' ' are left out, line breaks too, so a
// key may run over lines; ';' starts a comment to the end of its line,
// after which the key goes on; a string in quotes (read as with
// ParseOptions.File) replaces what was read of the key so far; every
// other byte is one character of the key, bytes from 0x80 being U+0080 to
// U+00FF (the engines do not decode UTF-8 there). At a '[' before any
// character of a key (a section header), ScanKey returns ok false and the
// offset of the '['; at the end of the text without '=', ok false and
// len(text): the engines drop such a key. The key may be empty.
func ScanKey(text string, o ParseOptions) (key string, next int, ok bool, err error) {
	o.File = true
	var k []byte
	for pos := 0; pos < len(text); {
		c := text[pos]
		switch {
		case c == ';':
			j := strings.IndexByte(text[pos:], '\n')
			if j < 0 {
				return "", len(text), false, nil
			}
			pos += j + 1
		case c == '[' && len(k) == 0:
			return "", pos, false, nil
		case c == '"':
			v, n, err := ParsePrefix(text[pos:], o)
			if err != nil {
				if se, isSyntax := err.(*SyntaxError); isSyntax {
					err = (&parser{src: text}).errAt(pos+se.Offset, se.Msg) // placed in text
				}
				return "", pos, false, err
			}
			s, _ := v.(variant.String) // a '"' starts a String
			k = append(k[:0], s...)
			pos += n
		case c == '=':
			return string(k), pos + 1, true, nil
		case c > ' ':
			k = utf8.AppendRune(k, rune(c))
			pos++
		default:
			pos++
		}
	}
	return "", len(text), false, nil
}
