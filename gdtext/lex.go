package gdtext

// The lexer of the text form: tokens, numbers and strings with their escapes.

import (
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdvar/gdvar/variant"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tLBrace
	tRBrace
	tLBracket
	tRBracket
	tLParen
	tRParen
	tColon
	tComma
	tIdent
	tInt
	tFloat
	tString
	tStringName
)

type token struct {
	kind tokKind
	pos  int
	text string // identifier, number text, or the decoded string
}

func (t token) describe() string {
	switch t.kind {
	case tEOF:
		return "end of text"
	case tIdent:
		return "identifier " + t.text
	case tInt, tFloat:
		return "number " + t.text
	case tString:
		return "string"
	case tStringName:
		return "StringName"
	}
	return "'" + string("\x00{}[]():,"[t.kind]) + "'"
}

type parser struct {
	src      string
	pos      int
	g3       bool
	maxDepth int
	peeked   *token
	refs     bool // read resource references (ParseOptions.Resources)
}

func (p *parser) errAt(pos int, msg string) *SyntaxError {
	if pos > len(p.src) {
		pos = len(p.src)
	}
	line := 1 + strings.Count(p.src[:pos], "\n")
	col := pos + 1
	if i := strings.LastIndexByte(p.src[:pos], '\n'); i >= 0 {
		col = pos - i
	}
	return &SyntaxError{Offset: pos, Line: line, Column: col, Msg: msg}
}

func (p *parser) peek() (token, error) {
	if p.peeked == nil {
		t, err := p.lex()
		if err != nil {
			return t, err
		}
		p.peeked = &t
	}
	return *p.peeked, nil
}

func (p *parser) next() (token, error) {
	if p.peeked != nil {
		t := *p.peeked
		p.peeked = nil
		return t, nil
	}
	return p.lex()
}

// expect reads the next token and fails unless it has kind k.
func (p *parser) expect(k tokKind, what string) (token, error) {
	t, err := p.next()
	if err != nil {
		return t, err
	}
	if t.kind != k {
		return t, p.errAt(t.pos, "expected "+what+", found "+t.describe())
	}
	return t, nil
}

func isDigit(c byte) bool  { return c >= '0' && c <= '9' }
func isLetter(c byte) bool { return c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }

// lex reads the next token. White space is every byte up to ' ' (as in the
// engine); ';' starts a comment that runs to the end of the line.
func (p *parser) lex() (token, error) {
	s := p.src
	for p.pos < len(s) {
		c := s[p.pos]
		if c == 0 {
			return token{}, p.errAt(p.pos, "unexpected NUL byte")
		}
		if c <= ' ' {
			p.pos++
			continue
		}
		if c == ';' {
			for p.pos < len(s) && s[p.pos] != '\n' {
				p.pos++
			}
			continue
		}
		break
	}
	start := p.pos
	if p.pos >= len(s) {
		return token{kind: tEOF, pos: start}, nil
	}
	c := s[p.pos]
	if i := strings.IndexByte("{}[]():,", c); i >= 0 {
		p.pos++
		return token{kind: tokKind(i + 1), pos: start}, nil
	}
	switch {
	case c == '"':
		p.pos++
		str, err := p.lexString(start)
		return token{kind: tString, pos: start, text: str}, err
	case (c == '&' || c == '@') && !p.g3:
		if p.pos+1 >= len(s) || s[p.pos+1] != '"' {
			return token{}, p.errAt(start, "expected '\"' after '"+string(c)+"'")
		}
		p.pos += 2
		str, err := p.lexString(start)
		return token{kind: tStringName, pos: start, text: str}, err
	case c == '-' && p.pos+1 < len(s) && isLetter(s[p.pos+1]):
		// Only -inf: an identifier cannot start with '-' otherwise.
		p.pos++
		t := p.lexIdent(start)
		if t.text != "-inf" {
			return token{}, p.errAt(start, "unknown identifier "+t.text)
		}
		return t, nil
	case c == '-' || isDigit(c):
		return p.lexNumber(start)
	case isLetter(c):
		return p.lexIdent(start), nil
	}
	r, _ := utf8.DecodeRuneInString(s[p.pos:])
	if r == utf8.RuneError {
		return token{}, p.errAt(start, "invalid UTF-8")
	}
	return token{}, p.errAt(start, "unexpected character "+strconv.QuoteRune(r))
}

func (p *parser) lexIdent(start int) token {
	s := p.src
	for p.pos < len(s) && (isLetter(s[p.pos]) || isDigit(s[p.pos])) {
		p.pos++
	}
	text := s[start:p.pos]
	// Godot 3's var2str writes -inf as "-inf.0".
	if p.g3 && (text == "inf" || text == "-inf" || text == "nan") && strings.HasPrefix(s[p.pos:], ".0") &&
		(p.pos+2 == len(s) || !isDigit(s[p.pos+2]) && !isLetter(s[p.pos+2])) {
		p.pos += 2
	}
	return token{kind: tIdent, pos: start, text: text}
}

// lexNumber reads a number as the engines' tokenizer does:
// -?digits(.digits*)?(e[+-]?digits*)?, where Godot 4 also takes 'E' for
// 'e' (Godot 3.2 does not: "1E3" is the int 1 followed by E3). An
// exponent without digits counts as none ("1e" and "1e+" are 1.0), and
// the number ends at the first character that cannot continue it ("1x"
// is 1 followed by x, "1.5.5" 1.5 followed by .5).
func (p *parser) lexNumber(start int) (token, error) {
	s := p.src
	if s[p.pos] == '-' {
		p.pos++
	}
	if p.pos >= len(s) || !isDigit(s[p.pos]) {
		return token{}, p.errAt(start, "expected a digit after '-'")
	}
	for p.pos < len(s) && isDigit(s[p.pos]) {
		p.pos++
	}
	kind := tInt
	if p.pos < len(s) && s[p.pos] == '.' {
		kind = tFloat
		p.pos++
		for p.pos < len(s) && isDigit(s[p.pos]) {
			p.pos++
		}
	}
	end := p.pos // of the text the value is read from
	if p.pos < len(s) && (s[p.pos] == 'e' || s[p.pos] == 'E' && !p.g3) {
		kind = tFloat
		p.pos++
		if p.pos < len(s) && (s[p.pos] == '+' || s[p.pos] == '-') {
			p.pos++
		}
		if p.pos < len(s) && isDigit(s[p.pos]) {
			for p.pos < len(s) && isDigit(s[p.pos]) {
				p.pos++
			}
			end = p.pos
		}
	}
	return token{kind: kind, pos: start, text: s[start:end]}, nil
}

// lexString reads a string literal after its opening quote. Escapes are the
// engine's: \b \t \n \f \r, \uXXXX, (Godot 4) \UXXXXXX, and a backslash
// before any other character stands for that character. Godot 4 joins
// UTF-16 surrogate pairs written as two escapes; a lone surrogate is an
// error. Godot 3 keeps every surrogate escape as a character of its own, as
// str2var does, and reads the characters beyond UTF-8 that its strings may
// hold (see variant.DecodeRuneGodot3) from the text's bytes.
func (p *parser) lexString(start int) (string, error) {
	s := p.src
	// Fast path: no escapes.
	if i := strings.IndexAny(s[p.pos:], "\"\\\x00"); i >= 0 && s[p.pos+i] == '"' && utf8.ValidString(s[p.pos:p.pos+i]) {
		str := s[p.pos : p.pos+i]
		p.pos += i + 1
		return str, nil
	}
	var sb strings.Builder
	var lead rune // pending high surrogate (Godot 4)
	leadPos := 0
	for {
		if p.pos >= len(s) {
			return "", p.errAt(start, "unterminated string")
		}
		c := s[p.pos]
		switch {
		case c == '"':
			p.pos++
			if lead != 0 {
				return "", p.errAt(leadPos, "unpaired UTF-16 surrogate in escape")
			}
			return sb.String(), nil
		case c == 0:
			return "", p.errAt(p.pos, "NUL byte in string")
		case c != '\\':
			if lead != 0 {
				return "", p.errAt(leadPos, "unpaired UTF-16 surrogate in escape")
			}
			r, n := utf8.DecodeRuneInString(s[p.pos:])
			if r == utf8.RuneError && n <= 1 {
				if !p.g3 {
					return "", p.errAt(p.pos, "invalid UTF-8 in string")
				}
				if r, n = variant.DecodeRuneGodot3(s[p.pos:]); n <= 1 {
					return "", p.errAt(p.pos, "invalid UTF-8 in string (even for Godot 3)")
				}
				var tmp [6]byte
				sb.Write(variant.AppendRuneGodot3(tmp[:0], r)) // overlong forms as Godot 3 writes them
				p.pos += n
				continue
			}
			sb.WriteString(s[p.pos : p.pos+n])
			p.pos += n
			continue
		}
		escPos := p.pos
		p.pos++
		if p.pos >= len(s) {
			return "", p.errAt(start, "unterminated string")
		}
		var r rune
		switch e := s[p.pos]; e {
		case 'b':
			r = '\b'
		case 't':
			r = '\t'
		case 'n':
			r = '\n'
		case 'f':
			r = '\f'
		case 'r':
			r = '\r'
		case 'u', 'U':
			n := 4
			if e == 'U' {
				if p.g3 {
					r = 'U'
					break
				}
				n = 6
			}
			for j := 1; j <= n; j++ {
				if p.pos+j >= len(s) {
					return "", p.errAt(start, "unterminated string")
				}
				h := s[p.pos+j]
				var v byte
				switch {
				case isDigit(h):
					v = h - '0'
				case h >= 'a' && h <= 'f':
					v = h - 'a' + 10
				case h >= 'A' && h <= 'F':
					v = h - 'A' + 10
				default:
					return "", p.errAt(escPos, "malformed hex escape in string")
				}
				r = r<<4 | rune(v)
			}
			p.pos += n
		default:
			var n int
			r, n = utf8.DecodeRuneInString(s[p.pos:])
			if r == utf8.RuneError && n <= 1 {
				if p.g3 {
					r, n = variant.DecodeRuneGodot3(s[p.pos:])
				}
				if n <= 1 {
					return "", p.errAt(p.pos, "invalid UTF-8 in string")
				}
			}
			p.pos += n - 1
		}
		p.pos++
		switch {
		case p.g3:
			// Surrogates and characters beyond U+10FFFF stay as they are.
			var tmp [6]byte
			sb.Write(variant.AppendRuneGodot3(tmp[:0], r))
			continue
		case r >= 0xd800 && r < 0xdc00:
			if lead != 0 {
				return "", p.errAt(leadPos, "unpaired UTF-16 surrogate in escape")
			}
			lead, leadPos = r, escPos
			continue
		case r >= 0xdc00 && r < 0xe000:
			if lead == 0 {
				return "", p.errAt(escPos, "unpaired UTF-16 surrogate in escape")
			}
			r = 0x10000 + (lead-0xd800)<<10 + (r - 0xdc00)
			lead = 0
		case lead != 0:
			return "", p.errAt(leadPos, "unpaired UTF-16 surrogate in escape")
		case r > utf8.MaxRune:
			return "", p.errAt(escPos, "escape beyond the last Unicode code point")
		}
		sb.WriteRune(r)
	}
}
