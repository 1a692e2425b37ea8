package gdtext

// The lexer of the text form: tokens, numbers and strings with their escapes.

import (
	"bytes"
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
	file     bool // read strings as the engines' file readers do (ParseOptions.File)
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
	if i := strings.IndexAny(s[p.pos:], "\"\\\x00"); i >= 0 && s[p.pos+i] == '"' && utf8.ValidString(s[p.pos:p.pos+i]) &&
		!(p.file && strings.HasPrefix(s[p.pos:], bom)) {
		str := s[p.pos : p.pos+i]
		p.pos += i + 1
		return str, nil
	}
	if p.file {
		return p.lexFileString(start)
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
		r, err := p.escape(start, false)
		if err != nil {
			return "", err
		}
		if p.g3 {
			// Surrogates and characters beyond U+10FFFF stay as they are.
			var tmp [6]byte
			sb.Write(variant.AppendRuneGodot3(tmp[:0], r))
			continue
		}
		r, ok, err := p.joinSurrogates(r, escPos, &lead, &leadPos)
		if err != nil {
			return "", err
		}
		if ok {
			sb.WriteRune(r)
		}
	}
}

// joinSurrogates takes r, the character of an escape at escPos, for Godot
// 4, which joins a UTF-16 pair written as two escapes: a high surrogate
// waits in lead (at leadPos) and ok is false; a low one after it makes
// the character of the pair. A lone surrogate, or an escape beyond
// U+10FFFF, is an error.
func (p *parser) joinSurrogates(r rune, escPos int, lead *rune, leadPos *int) (rune, bool, error) {
	switch {
	case r >= 0xd800 && r < 0xdc00:
		if *lead != 0 {
			return 0, false, p.errAt(*leadPos, "unpaired UTF-16 surrogate in escape")
		}
		*lead, *leadPos = r, escPos
		return 0, false, nil
	case r >= 0xdc00 && r < 0xe000:
		if *lead == 0 {
			return 0, false, p.errAt(escPos, "unpaired UTF-16 surrogate in escape")
		}
		r = 0x10000 + (*lead-0xd800)<<10 + (r - 0xdc00)
		*lead = 0
	case *lead != 0:
		return 0, false, p.errAt(*leadPos, "unpaired UTF-16 surrogate in escape")
	case r > utf8.MaxRune:
		return 0, false, p.errAt(escPos, "escape beyond the last Unicode code point")
	}
	return r, true, nil
}

// escape reads the escape sequence at p.pos (its backslash) of the string
// literal that starts at start and returns the character it stands for,
// leaving p.pos after it. Escapes are the engine's: \b \t \n \f \r,
// \uXXXX, (Godot 4) \UXXXXXX, and a backslash before any other character
// stands for that character (with file, for the byte after it, as the
// engines' file readers take it).
func (p *parser) escape(start int, file bool) (rune, error) {
	s := p.src
	escPos := p.pos
	p.pos++
	if p.pos >= len(s) {
		return 0, p.errAt(start, "unterminated string")
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
				return 0, p.errAt(start, "unterminated string")
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
				return 0, p.errAt(escPos, "malformed hex escape in string")
			}
			r = r<<4 | rune(v)
		}
		p.pos += n
	default:
		if file {
			// The engines' file readers take one byte after the
			// backslash (a character of their stream).
			r = rune(e)
			break
		}
		var n int
		r, n = utf8.DecodeRuneInString(s[p.pos:])
		if r == utf8.RuneError && n <= 1 {
			if p.g3 {
				r, n = variant.DecodeRuneGodot3(s[p.pos:])
			}
			if n <= 1 {
				return 0, p.errAt(p.pos, "invalid UTF-8 in string")
			}
		}
		p.pos += n - 1
	}
	p.pos++
	return r, nil
}

// lexFileString reads a string literal after its opening quote as the
// engines' file readers (ConfigFile, project.godot, resource files) do
// (ParseOptions.File): each byte of the file is a character, each escape
// another, and the characters are then taken as the bytes of UTF-8 text.
// Godot 4 makes a space of a character beyond U+00FF or a NUL, and
// U+FFFD of each byte that is not part of UTF-8, so "\u00e9" is U+FFFD
// and "\u4e2d" a space. Godot 3 keeps the low byte of each character and
// parses the bytes with its own UTF-8 parser (parseUTF8Godot3); where that
// fails, characters stay as they were, each byte of the file one from
// U+0000 to U+00FF ("\xff" is U+00FF). Both drop a byte order mark that
// starts the string. Checked with Godot 3.2.3 and 4.6 (gdproject's
// TestEngine3ReadsFileStrings and TestEngine4ReadsFileStrings;
// TestFileStrings holds what they read).
func (p *parser) lexFileString(start int) (string, error) {
	s := p.src
	var chars []rune
	var lead rune // pending high surrogate (Godot 4)
	leadPos := 0
	for {
		if p.pos >= len(s) {
			return "", p.errAt(start, "unterminated string")
		}
		c := s[p.pos]
		if c == 0 {
			return "", p.errAt(p.pos, "NUL byte in string")
		}
		if c != '\\' {
			if lead != 0 {
				return "", p.errAt(leadPos, "unpaired UTF-16 surrogate in escape")
			}
			p.pos++
			if c == '"' {
				return fileText(chars, p.g3), nil
			}
			chars = append(chars, rune(c))
			continue
		}
		escPos := p.pos
		r, err := p.escape(start, true)
		if err != nil {
			return "", err
		}
		if !p.g3 {
			var ok bool
			if r, ok, err = p.joinSurrogates(r, escPos, &lead, &leadPos); err != nil {
				return "", err
			}
			if !ok {
				continue
			}
		}
		chars = append(chars, r)
	}
}

// bom is UTF-8's byte order mark.
const bom = "\xef\xbb\xbf"

// fileText is the string a file reader of family g3 or Godot 4 makes of
// the characters of a string literal (lexFileString).
func fileText(chars []rune, g3 bool) string {
	b := make([]byte, len(chars))
	for i, c := range chars {
		switch {
		case g3:
			b[i] = byte(c)
		case c == 0 || c > 0xff:
			b[i] = ' '
		default:
			b[i] = byte(c)
		}
	}
	if !g3 {
		out := make([]byte, 0, len(b))
		i := 0
		if bytes.HasPrefix(b, []byte(bom)) {
			i = len(bom)
		}
		for i < len(b) {
			r, n := utf8.DecodeRune(b[i:])
			if r == utf8.RuneError && n <= 1 {
				out = utf8.AppendRune(out, utf8.RuneError)
			} else {
				out = append(out, b[i:i+n]...)
			}
			i += n
		}
		return string(out)
	}
	var out []byte
	for _, c := range parseUTF8Godot3(chars, b) {
		out = variant.AppendRuneGodot3(out, c)
	}
	return string(out)
}

// parseUTF8Godot3 is what Godot 3.2's String::parse_utf8 leaves in a
// String holding chars when it parses b, their low bytes: it reads b up
// to a NUL, without a leading byte order mark, in two passes. The first
// counts the characters from the lead bytes alone; when a lead byte is
// not one, a 2-byte form is overlong or the last sequence is cut, it
// fails and leaves chars as they were. Otherwise the String is cut to that
// count, and the second pass decodes into it, checking the continuation
// bytes (and some overlong forms, see variant.DecodeRuneGodot3): where it
// fails, the rest of the cut String keeps its old characters.
func parseUTF8Godot3(chars []rune, b []byte) []rune {
	if i := bytes.IndexByte(b, 0); i >= 0 {
		b = b[:i]
	}
	b = bytes.TrimPrefix(b, []byte(bom))
	seqLen := func(c byte) int {
		switch {
		case c&0x80 == 0:
			return 1
		case c&0xE0 == 0xC0:
			return 2
		case c&0xF0 == 0xE0:
			return 3
		case c&0xF8 == 0xF0:
			return 4
		case c&0xFC == 0xF8:
			return 5
		case c&0xFE == 0xFC:
			return 6
		}
		return 0
	}
	size := 0
	for i := 0; i < len(b); {
		n := seqLen(b[i])
		if n == 0 || n == 2 && b[i]&0x1E == 0 || i+n > len(b) {
			return chars
		}
		size++
		i += n
	}
	out := make([]rune, size)
	copy(out, chars)
	for i, k := 0, 0; i < len(b); k++ {
		n := seqLen(b[i])
		r, m := variant.DecodeRuneGodot3(string(b[i : i+n]))
		if m != n {
			break
		}
		out[k] = r
		i += n
	}
	return out
}
