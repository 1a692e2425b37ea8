package gdjson

import (
	"math"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"github.com/gdvar/gdvar/variant"
)

// Parse reads JSON text in the form o.Form and returns its value, as
// JSON.parse_string (and, for the typed form, JSON.to_native) does.
func Parse(text string, o ParseOptions) (variant.Value, error) {
	if o.MaxDepth == 0 {
		o.MaxDepth = DefaultMaxDepth
	}
	p := &parser{s: text, maxDepth: o.MaxDepth}
	n, err := p.document()
	if err != nil {
		return nil, err
	}
	if o.Form == Typed {
		t := &native{o: o, text: text}
		return t.value(n, 0, nil)
	}
	return plainValue(n), nil
}

// node is a parsed JSON value. Numbers keep their text so that the typed
// form can read integers exactly.
type node struct {
	kind  byte // 'n' null, 't' true, 'f' false, '0' number, '"' string, '[' array, '{' object
	off   int
	text  string // number text or string value
	elems []*node
	keys  []string // object keys, in order; the last of repeated keys wins
}

func (n *node) field(name string) (*node, bool) {
	for i := len(n.keys) - 1; i >= 0; i-- {
		if n.keys[i] == name {
			return n.elems[i], true
		}
	}
	return nil, false
}

type parser struct {
	s        string
	i        int
	maxDepth int
}

func (p *parser) errAt(off int, msg string) error {
	line, col := 1, 1
	for i := 0; i < off && i < len(p.s); i++ {
		if p.s[i] == '\n' {
			line++
			col = 1
		} else {
			col++
		}
	}
	return &Error{Offset: off, Line: line, Column: col, Msg: msg}
}

// skip passes white space: as in the engine, every character up to and
// including the space.
func (p *parser) skip() {
	for p.i < len(p.s) && p.s[p.i] <= ' ' && p.s[p.i] != 0 {
		p.i++
	}
}

func (p *parser) document() (*node, error) {
	p.skip()
	n, err := p.value(0)
	if err != nil {
		return nil, err
	}
	p.skip()
	if p.i < len(p.s) && p.s[p.i] != 0 {
		return nil, p.errAt(p.i, "expected the end of the text")
	}
	return n, nil
}

func (p *parser) value(depth int) (*node, error) {
	if depth > p.maxDepth {
		return nil, p.errAt(p.i, "nested more than "+strconv.Itoa(p.maxDepth)+" levels")
	}
	if p.i >= len(p.s) || p.s[p.i] == 0 {
		return nil, p.errAt(p.i, "expected a value, got the end of the text")
	}
	start := p.i
	switch c := p.s[p.i]; {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return &node{kind: '"', off: start, text: s}, nil
	case c == '-' || c >= '0' && c <= '9':
		return p.number()
	case c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z':
		for p.i < len(p.s) && (p.s[p.i] >= 'a' && p.s[p.i] <= 'z' || p.s[p.i] >= 'A' && p.s[p.i] <= 'Z') {
			p.i++
		}
		switch id := p.s[start:p.i]; id {
		case "null":
			return &node{kind: 'n', off: start}, nil
		case "true":
			return &node{kind: 't', off: start}, nil
		case "false":
			return &node{kind: 'f', off: start}, nil
		default:
			return nil, p.errAt(start, "expected true, false or null, got "+strconv.Quote(id))
		}
	case c == '}' || c == ']' || c == ':' || c == ',':
		return nil, p.errAt(start, "expected a value, got '"+string(c)+"'")
	}
	return nil, p.errAt(start, "unexpected character "+strconv.QuoteRune(rune(p.s[start])))
}

// number reads a number: what the engine's String::to_float takes, a
// sign, digits, a fraction and an exponent.
func (p *parser) number() (*node, error) {
	start := p.i
	if p.s[p.i] == '-' {
		p.i++
	}
	digits := func() int {
		n := 0
		for p.i < len(p.s) && p.s[p.i] >= '0' && p.s[p.i] <= '9' {
			p.i++
			n++
		}
		return n
	}
	n := digits()
	if p.i < len(p.s) && p.s[p.i] == '.' {
		p.i++
		n += digits()
	}
	if n == 0 {
		return nil, p.errAt(start, "invalid number")
	}
	if p.i < len(p.s) && (p.s[p.i] == 'e' || p.s[p.i] == 'E') {
		save := p.i
		p.i++
		if p.i < len(p.s) && (p.s[p.i] == '+' || p.s[p.i] == '-') {
			p.i++
		}
		if digits() == 0 {
			p.i = save // not an exponent after all
		}
	}
	return &node{kind: '0', off: start, text: p.s[start:p.i]}, nil
}

// str reads a string at p.i (on the opening quote) with the engine's
// escapes: \b \t \n \f \r \" \\ \/ and \uXXXX (surrogate pairs joined);
// any other escape is an error, raw characters are taken as they are.
func (p *parser) str() (string, error) {
	start := p.i
	p.i++
	var sb strings.Builder
	for {
		if p.i >= len(p.s) || p.s[p.i] == 0 {
			return "", p.errAt(start, "unterminated string")
		}
		c := p.s[p.i]
		if c == '"' {
			p.i++
			return sb.String(), nil
		}
		if c != '\\' {
			sb.WriteByte(c)
			p.i++
			continue
		}
		esc := p.i
		p.i++
		if p.i >= len(p.s) {
			return "", p.errAt(start, "unterminated string")
		}
		switch e := p.s[p.i]; e {
		case 'b':
			sb.WriteByte('\b')
		case 't':
			sb.WriteByte('\t')
		case 'n':
			sb.WriteByte('\n')
		case 'f':
			sb.WriteByte('\f')
		case 'r':
			sb.WriteByte('\r')
		case '"', '\\', '/':
			sb.WriteByte(e)
		case 'u':
			r, err := p.hex4(esc)
			if err != nil {
				return "", err
			}
			switch {
			case utf16.IsSurrogate(r) && r < 0xDC00:
				if !strings.HasPrefix(p.s[p.i+1:], `\u`) {
					return "", p.errAt(esc, "unpaired lead surrogate in \\u escape")
				}
				p.i += 2
				r2, err := p.hex4(esc)
				if err != nil {
					return "", err
				}
				if r2 < 0xDC00 || r2 > 0xDFFF {
					return "", p.errAt(esc, "unpaired lead surrogate in \\u escape")
				}
				r = utf16.DecodeRune(r, r2)
			case utf16.IsSurrogate(r):
				return "", p.errAt(esc, "unpaired trail surrogate in \\u escape")
			}
			sb.WriteRune(r)
		default:
			return "", p.errAt(esc, "invalid escape sequence \\"+string(rune(e)))
		}
		p.i++
	}
}

// hex4 reads the four hex digits after p.i (which is on the 'u') and leaves
// p.i on the last of them.
func (p *parser) hex4(esc int) (rune, error) {
	if p.i+4 >= len(p.s) {
		return 0, p.errAt(esc, "unterminated string")
	}
	v, err := strconv.ParseUint(p.s[p.i+1:p.i+5], 16, 16)
	if err != nil {
		return 0, p.errAt(esc, "malformed hex constant in string")
	}
	p.i += 4
	return rune(v), nil
}

func (p *parser) array(depth int) (*node, error) {
	n := &node{kind: '[', off: p.i}
	p.i++
	needComma := false
	for {
		p.skip()
		if p.i >= len(p.s) || p.s[p.i] == 0 {
			return nil, p.errAt(p.i, "expected ']'")
		}
		if p.s[p.i] == ']' {
			p.i++
			return n, nil
		}
		if needComma {
			if p.s[p.i] != ',' {
				return nil, p.errAt(p.i, "expected ','")
			}
			p.i++
			needComma = false
			continue
		}
		e, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.elems = append(n.elems, e)
		needComma = true
	}
}

func (p *parser) object(depth int) (*node, error) {
	n := &node{kind: '{', off: p.i}
	p.i++
	needComma := false
	for {
		p.skip()
		if p.i >= len(p.s) || p.s[p.i] == 0 {
			return nil, p.errAt(p.i, "expected '}'")
		}
		if p.s[p.i] == '}' {
			p.i++
			return n, nil
		}
		if needComma {
			if p.s[p.i] != ',' {
				return nil, p.errAt(p.i, "expected '}' or ','")
			}
			p.i++
			needComma = false
			continue
		}
		if p.s[p.i] != '"' {
			return nil, p.errAt(p.i, "expected a key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		p.skip()
		if p.i >= len(p.s) || p.s[p.i] != ':' {
			return nil, p.errAt(p.i, "expected ':'")
		}
		p.i++
		p.skip()
		v, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		n.keys = append(n.keys, k)
		n.elems = append(n.elems, v)
		needComma = true
	}
}

// parseFloat reads a number's text as the engine does: out of range is
// infinity or zero, not an error.
func parseFloat(s string) float64 {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil && !math.IsInf(f, 0) && f != 0 {
		return 0
	}
	return f
}

// plainValue turns parsed JSON into the value JSON.parse_string gives:
// numbers are floats, objects are Dictionaries with String keys.
func plainValue(n *node) variant.Value {
	switch n.kind {
	case 'n':
		return nil
	case 't':
		return variant.Bool(true)
	case 'f':
		return variant.Bool(false)
	case '0':
		return variant.Float(parseFloat(n.text))
	case '"':
		return variant.String(validUTF8(n.text))
	case '[':
		a := &variant.Array{Values: make([]variant.Value, len(n.elems))}
		for i, e := range n.elems {
			a.Values[i] = plainValue(e)
		}
		return a
	}
	d := variant.NewDictionary(len(n.keys))
	for i, k := range n.keys {
		d.Set(variant.String(validUTF8(k)), plainValue(n.elems[i]))
	}
	return d
}

// validUTF8 replaces invalid UTF-8 with U+FFFD, as the engine's reader
// does when it turns the text into a String.
func validUTF8(s string) string {
	if utf8.ValidString(s) {
		return s
	}
	return strings.ToValidUTF8(s, "\uFFFD")
}
