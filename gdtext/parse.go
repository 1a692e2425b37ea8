package gdtext

import (
	"encoding/base64"
	"errors"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/gdvar/gdvar/variant"
)

// Parse reads one Variant from text written in the syntax of family
// o.Family: everything the engine's var_to_str (Godot 4) or var2str
// (Godot 3) writes, and everything Format writes. Only white space and
// ';' comments may follow the value. Errors are *SyntaxError.
func Parse(text string, o ParseOptions) (variant.Value, error) {
	p, err := newParser(text, o)
	if err != nil {
		return nil, err
	}
	v, err := p.first()
	if err != nil {
		return nil, err
	}
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	if t.kind != tEOF {
		return nil, p.errAt(t.pos, "unexpected "+t.describe()+" after the value")
	}
	return v, nil
}

func newParser(text string, o ParseOptions) (*parser, error) {
	f, err := family(o.Family)
	if err != nil {
		return nil, err
	}
	if o.MaxDepth < 0 || o.MaxDepth > maxFormatDepth {
		return nil, errors.New("gdtext: ParseOptions.MaxDepth is outside 0..65536")
	}
	p := &parser{src: text, g3: f == variant.Godot3, maxDepth: o.MaxDepth, refs: o.Resources}
	if p.maxDepth == 0 {
		p.maxDepth = DefaultMaxDepth
	}
	return p, nil
}

// first reads the first value of the text.
func (p *parser) first() (variant.Value, error) {
	t, err := p.next()
	if err != nil {
		return nil, err
	}
	if t.kind == tEOF {
		return nil, p.errAt(t.pos, "no value in the text")
	}
	return p.value(t, 0)
}

// Canonical NaNs: the engine's NaN constant, as a double and as a float.
var (
	nan64 = math.Float64frombits(0x7ff8000000000000)
	nan32 = math.Float32frombits(0x7fc00000)
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

// lexNumber reads -?digits(.digits*)?([eE][+-]?digits)?.
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
	if p.pos < len(s) && (s[p.pos] == 'e' || s[p.pos] == 'E') {
		kind = tFloat
		p.pos++
		if p.pos < len(s) && (s[p.pos] == '+' || s[p.pos] == '-') {
			p.pos++
		}
		if p.pos >= len(s) || !isDigit(s[p.pos]) {
			return token{}, p.errAt(start, "malformed exponent in number")
		}
		for p.pos < len(s) && isDigit(s[p.pos]) {
			p.pos++
		}
	}
	if p.pos < len(s) && isLetter(s[p.pos]) {
		return token{}, p.errAt(start, "malformed number")
	}
	return token{kind: kind, pos: start, text: s[start:p.pos]}, nil
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

// value parses the value that starts with token t, at nesting depth depth.
func (p *parser) value(t token, depth int) (variant.Value, error) {
	if depth > p.maxDepth {
		return nil, p.errAt(t.pos, "nesting deeper than "+strconv.Itoa(p.maxDepth))
	}
	switch t.kind {
	case tLBrace:
		d := variant.NewDictionary(0)
		return d, p.dictBody(d, depth)
	case tLBracket:
		a := variant.NewArray()
		return a, p.arrayBody(a, depth)
	case tString:
		return variant.String(t.text), nil
	case tStringName:
		return variant.StringName(t.text), nil
	case tInt:
		n, err := strconv.ParseInt(t.text, 10, 64)
		if err != nil {
			return nil, p.errAt(t.pos, "integer "+t.text+" out of the 64-bit range")
		}
		return variant.Int(n), nil
	case tFloat:
		return variant.Float(parseFloat64(t.text)), nil
	case tIdent:
		return p.ident(t, depth)
	}
	return nil, p.errAt(t.pos, "expected a value, found "+t.describe())
}

// parseFloat64 reads a number token correctly rounded. A number too large
// for a double is infinite, as in the engine.
func parseFloat64(s string) float64 {
	f, _ := strconv.ParseFloat(s, 64) // the lexer admits only valid syntax
	return f
}

// special returns the value of the identifiers that stand for numbers.
func special(id string) (float64, bool) {
	switch id {
	case "inf":
		return inf, true
	case "-inf", "inf_neg":
		return -inf, true
	case "nan":
		return nan64, true
	}
	return 0, false
}

var inf = func() float64 { f, _ := strconv.ParseFloat("inf", 64); return f }()

func (p *parser) ident(t token, depth int) (variant.Value, error) {
	id := t.text
	switch id {
	case "true":
		return variant.Bool(true), nil
	case "false":
		return variant.Bool(false), nil
	case "null", "nil":
		return nil, nil
	}
	if f, ok := special(id); ok {
		return variant.Float(f), nil
	}
	if p.refs {
		switch id {
		case "SubResource", "ExtResource", "Resource":
			return p.resourceRef(t)
		}
	}
	if p.g3 {
		if c, ok := ctors3[id]; ok {
			return c(p, t, depth)
		}
	} else if c, ok := ctors4[id]; ok {
		return c(p, t, depth)
	}
	if p.g3 {
		if _, ok := ctors4[id]; ok {
			return nil, p.errAt(t.pos, id+" does not exist in Godot 3 text")
		}
	}
	return nil, p.errAt(t.pos, "unknown identifier "+id)
}

// arrayBody parses the elements of an Array after its '['. A trailing comma
// is allowed, as in the engine.
func (p *parser) arrayBody(a *variant.Array, depth int) error {
	for {
		t, err := p.next()
		if err != nil {
			return err
		}
		if t.kind == tRBracket {
			return nil
		}
		v, err := p.value(t, depth+1)
		if err != nil {
			return err
		}
		a.Values = append(a.Values, v)
		t, err = p.next()
		if err != nil {
			return err
		}
		switch t.kind {
		case tRBracket:
			return nil
		case tComma:
		default:
			return p.errAt(t.pos, "expected ',' or ']' in Array, found "+t.describe())
		}
	}
}

// dictBody parses the entries of a Dictionary after its '{'. A repeated
// key keeps its first place and takes the last value, as in the engine.
func (p *parser) dictBody(d *variant.Dictionary, depth int) error {
	for {
		t, err := p.next()
		if err != nil {
			return err
		}
		if t.kind == tRBrace {
			return nil
		}
		k, err := p.value(t, depth+1)
		if err != nil {
			return err
		}
		if _, err := p.expect(tColon, "':' after Dictionary key"); err != nil {
			return err
		}
		t, err = p.next()
		if err != nil {
			return err
		}
		v, err := p.value(t, depth+1)
		if err != nil {
			return err
		}
		d.Set(k, v)
		t, err = p.next()
		if err != nil {
			return err
		}
		switch t.kind {
		case tRBrace:
			return nil
		case tComma:
		default:
			return p.errAt(t.pos, "expected ',' or '}' in Dictionary, found "+t.describe())
		}
	}
}

// A num is one constructor argument.
type num struct {
	pos  int
	kind tokKind // tInt, tFloat, or tIdent for inf, -inf, inf_neg, nan
	text string
}

// args parses "(n, n, …)" of numbers. want is the exact count, or -1 for
// any count that is a multiple of mult.
func (p *parser) args(name string, t token, want, mult int) ([]num, error) {
	if _, err := p.expect(tLParen, "'(' after "+name); err != nil {
		return nil, err
	}
	return p.argList(name, t, want, mult)
}

// argList is args after the '('.
func (p *parser) argList(name string, t token, want, mult int) ([]num, error) {
	var out []num
	for {
		a, err := p.next()
		if err != nil {
			return nil, err
		}
		if a.kind == tRParen && len(out) == 0 {
			break
		}
		switch a.kind {
		case tInt, tFloat:
		case tIdent:
			if _, ok := special(a.text); !ok {
				return nil, p.errAt(a.pos, "expected a number in "+name+", found "+a.describe())
			}
		default:
			return nil, p.errAt(a.pos, "expected a number in "+name+", found "+a.describe())
		}
		out = append(out, num{a.pos, a.kind, a.text})
		a, err = p.next()
		if err != nil {
			return nil, err
		}
		if a.kind == tRParen {
			break
		}
		if a.kind != tComma {
			return nil, p.errAt(a.pos, "expected ',' or ')' in "+name+", found "+a.describe())
		}
	}
	if want >= 0 && len(out) != want {
		return nil, p.errAt(t.pos, name+" takes "+strconv.Itoa(want)+" numbers, found "+strconv.Itoa(len(out)))
	}
	if want < 0 && len(out)%mult != 0 {
		return nil, p.errAt(t.pos, name+" takes a multiple of "+strconv.Itoa(mult)+" numbers, found "+strconv.Itoa(len(out)))
	}
	return out, nil
}

// real converts a constructor argument to a double.
func (p *parser) real(n num) (float64, error) {
	switch n.kind {
	case tIdent:
		f, _ := special(n.text)
		return f, nil
	case tInt:
		if _, err := strconv.ParseInt(n.text, 10, 64); err != nil {
			return 0, p.errAt(n.pos, "integer "+n.text+" out of the 64-bit range")
		}
	}
	return parseFloat64(n.text), nil
}

// float32 converts a constructor argument to a float, rounding the text
// once.
func (p *parser) float32(n num) (float32, error) {
	switch n.kind {
	case tIdent:
		f, _ := special(n.text)
		if f != f {
			return nan32, nil
		}
		return float32(f), nil
	case tInt:
		if _, err := strconv.ParseInt(n.text, 10, 64); err != nil {
			return 0, p.errAt(n.pos, "integer "+n.text+" out of the 64-bit range")
		}
	}
	f, _ := strconv.ParseFloat(n.text, 32)
	return float32(f), nil
}

// integer converts a constructor argument to an integer of bits bits.
func (p *parser) integer(n num, bits int) (int64, error) {
	if n.kind != tInt {
		return 0, p.errAt(n.pos, "expected an integer, found "+n.text)
	}
	v, err := strconv.ParseInt(n.text, 10, bits)
	if err != nil {
		return 0, p.errAt(n.pos, "integer "+n.text+" out of the "+strconv.Itoa(bits)+"-bit range")
	}
	return v, nil
}

// reals parses a constructor of want real_t arguments.
func (p *parser) reals(name string, t token, want int) ([]float64, error) {
	ns, err := p.args(name, t, want, 1)
	if err != nil {
		return nil, err
	}
	out := make([]float64, len(ns))
	for i, n := range ns {
		if out[i], err = p.real(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

func (p *parser) int32s(name string, t token, want, mult int) ([]int32, error) {
	ns, err := p.args(name, t, want, mult)
	if err != nil {
		return nil, err
	}
	out := make([]int32, len(ns))
	for i, n := range ns {
		v, err := p.integer(n, 32)
		if err != nil {
			return nil, err
		}
		out[i] = int32(v)
	}
	return out, nil
}

func (p *parser) float32s(name string, t token, want, mult int) ([]float32, error) {
	ns, err := p.args(name, t, want, mult)
	if err != nil {
		return nil, err
	}
	out := make([]float32, len(ns))
	for i, n := range ns {
		if out[i], err = p.float32(n); err != nil {
			return nil, err
		}
	}
	return out, nil
}

type ctor func(p *parser, t token, depth int) (variant.Value, error)

var ctors4, ctors3 map[string]ctor

func init() {
	bytes := func(p *parser, t token, _ int) (variant.Value, error) { return p.byteArray(t) }
	int32s := func(p *parser, t token, _ int) (variant.Value, error) {
		a, err := p.int32s(t.text, t, -1, 1)
		if err != nil {
			return nil, err
		}
		return variant.PackedInt32Array(a), nil
	}
	float32s := func(p *parser, t token, _ int) (variant.Value, error) {
		a, err := p.float32s(t.text, t, -1, 1)
		if err != nil {
			return nil, err
		}
		return variant.PackedFloat32Array(a), nil
	}
	strs := func(p *parser, t token, _ int) (variant.Value, error) { return p.stringArray(t) }
	vec2s := func(p *parser, t token, _ int) (variant.Value, error) {
		ns, err := p.args(t.text, t, -1, 2)
		if err != nil {
			return nil, err
		}
		out := make(variant.PackedVector2Array, len(ns)/2)
		for i := range out {
			if out[i].X, err = p.real(ns[2*i]); err != nil {
				return nil, err
			}
			if out[i].Y, err = p.real(ns[2*i+1]); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	vec3s := func(p *parser, t token, _ int) (variant.Value, error) {
		a, err := p.reals(t.text, t, -1)
		if err != nil {
			return nil, err
		}
		if len(a)%3 != 0 {
			return nil, p.errAt(t.pos, t.text+" takes a multiple of 3 numbers, found "+strconv.Itoa(len(a)))
		}
		out := make(variant.PackedVector3Array, len(a)/3)
		for i := range out {
			out[i] = variant.Vector3{X: a[3*i], Y: a[3*i+1], Z: a[3*i+2]}
		}
		return out, nil
	}
	colors := func(p *parser, t token, _ int) (variant.Value, error) {
		a, err := p.float32s(t.text, t, -1, 4)
		if err != nil {
			return nil, err
		}
		out := make(variant.PackedColorArray, len(a)/4)
		for i := range out {
			out[i] = variant.Color{R: a[4*i], G: a[4*i+1], B: a[4*i+2], A: a[4*i+3]}
		}
		return out, nil
	}

	common := map[string]ctor{
		"NodePath": (*parser).nodePath, "RID": (*parser).rid, "Object": (*parser).object,
		"PoolByteArray": bytes, "ByteArray": bytes,
		"PoolIntArray": int32s, "IntArray": int32s,
		"PoolRealArray": float32s, "FloatArray": float32s,
		"PoolStringArray": strs, "StringArray": strs,
		"PoolVector2Array": vec2s, "Vector2Array": vec2s,
		"PoolVector3Array": vec3s, "Vector3Array": vec3s,
		"PoolColorArray": colors, "ColorArray": colors,
	}
	ctors3 = common
	ctors4 = map[string]ctor{
		"Signal":     (*parser).signal,
		"Callable":   (*parser).callable,
		"Array":      (*parser).typedArray,
		"Dictionary": (*parser).typedDictionary,

		"PackedByteArray":  bytes,
		"PackedInt32Array": int32s, "PackedIntArray": int32s,
		"PackedInt64Array": func(p *parser, t token, _ int) (variant.Value, error) {
			ns, err := p.args(t.text, t, -1, 1)
			if err != nil {
				return nil, err
			}
			out := make(variant.PackedInt64Array, len(ns))
			for i, n := range ns {
				if out[i], err = p.integer(n, 64); err != nil {
					return nil, err
				}
			}
			return out, nil
		},
		"PackedFloat32Array": float32s, "PackedRealArray": float32s,
		"PackedFloat64Array": func(p *parser, t token, _ int) (variant.Value, error) {
			a, err := p.reals(t.text, t, -1)
			if err != nil {
				return nil, err
			}
			return variant.PackedFloat64Array(a), nil
		},
		"PackedStringArray":  strs,
		"PackedVector2Array": vec2s,
		"PackedVector3Array": vec3s,
		"PackedVector4Array": func(p *parser, t token, _ int) (variant.Value, error) {
			a, err := p.reals(t.text, t, -1)
			if err != nil {
				return nil, err
			}
			if len(a)%4 != 0 {
				return nil, p.errAt(t.pos, t.text+" takes a multiple of 4 numbers, found "+strconv.Itoa(len(a)))
			}
			out := make(variant.PackedVector4Array, len(a)/4)
			for i := range out {
				out[i] = variant.Vector4{X: a[4*i], Y: a[4*i+1], Z: a[4*i+2], W: a[4*i+3]}
			}
			return out, nil
		},
		"PackedColorArray": colors,
	}
	ctors4["PoolVector4Array"] = ctors4["PackedVector4Array"]
	ctors4["Vector4Array"] = ctors4["PackedVector4Array"]
	// The fixed-size math types: each by its name in Godot 3 (where it
	// exists) and in Godot 4, and by the older names both parsers keep.
	for typ := range variant.TypeCount {
		if variant.Facts(typ).Components() == 0 {
			continue
		}
		c := mathCtor(typ)
		if _, ok := typ.ID(variant.Godot3); ok {
			common[variant.Godot3.Name(typ)] = c
		}
		ctors4[typ.String()] = c
	}
	for old, typ := range mathAliases {
		common[old] = mathCtor(typ)
	}
	for k, v := range common {
		ctors4[k] = v
	}
}

// mathAliases are the Godot 2 names of math types that both engines' text
// parsers still accept.
var mathAliases = map[string]variant.Type{
	"Matrix32": variant.TypeTransform2D,
	"Rect3":    variant.TypeAABB,
	"Matrix3":  variant.TypeBasis,
}

// mathCtor parses the constructor of a fixed-size math type: its
// components in wire order (a Basis row by row), reals, int32s or (Color)
// float32s.
func mathCtor(typ variant.Type) ctor {
	f := variant.Facts(typ)
	return func(p *parser, t token, _ int) (variant.Value, error) {
		var c []float64
		switch {
		case f.Reals > 0:
			a, err := p.reals(t.text, t, f.Reals)
			if err != nil {
				return nil, err
			}
			c = a
		case f.Ints > 0:
			a, err := p.int32s(t.text, t, f.Ints, 1)
			if err != nil {
				return nil, err
			}
			for _, x := range a {
				c = append(c, float64(x))
			}
		default:
			a, err := p.float32s(t.text, t, f.Floats, 1)
			if err != nil {
				return nil, err
			}
			for _, x := range a {
				c = append(c, float64(x))
			}
		}
		return variant.MathValue(typ, c), nil
	}
}

// byteArray parses PackedByteArray(…) as a list of bytes or, in Godot 4, a
// base64 string.
func (p *parser) byteArray(t token) (variant.Value, error) {
	if !p.g3 {
		if _, err := p.expect(tLParen, "'(' after "+t.text); err != nil {
			return nil, err
		}
		a, err := p.peek()
		if err != nil {
			return nil, err
		}
		if a.kind == tString {
			p.next()
			b, err := base64.StdEncoding.DecodeString(a.text)
			if err != nil {
				return nil, p.errAt(a.pos, "invalid base64 in "+t.text)
			}
			if _, err := p.expect(tRParen, "')' after the base64 string"); err != nil {
				return nil, err
			}
			return variant.PackedByteArray(b), nil
		}
	} else if _, err := p.expect(tLParen, "'(' after "+t.text); err != nil {
		return nil, err
	}
	ns, err := p.argList(t.text, t, -1, 1)
	if err != nil {
		return nil, err
	}
	out := make(variant.PackedByteArray, len(ns))
	for i, n := range ns {
		v, err := p.integer(n, 64)
		if err != nil {
			return nil, err
		}
		if v < 0 || v > 255 {
			return nil, p.errAt(n.pos, "byte "+n.text+" out of the range 0..255")
		}
		out[i] = byte(v)
	}
	return out, nil
}

// stringList parses "s, s, …" up to close; the opening bracket is read.
func (p *parser) stringList(close tokKind, what string) ([]string, error) {
	out := []string{}
	for {
		t, err := p.next()
		if err != nil {
			return nil, err
		}
		if t.kind == close && len(out) == 0 {
			return out, nil
		}
		if t.kind != tString {
			return nil, p.errAt(t.pos, "expected a string in "+what+", found "+t.describe())
		}
		out = append(out, t.text)
		t, err = p.next()
		if err != nil {
			return nil, err
		}
		if t.kind == close {
			return out, nil
		}
		if t.kind != tComma {
			return nil, p.errAt(t.pos, "expected ',' in "+what+", found "+t.describe())
		}
	}
}

func (p *parser) stringArray(t token) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after "+t.text); err != nil {
		return nil, err
	}
	s, err := p.stringList(tRParen, t.text)
	if err != nil {
		return nil, err
	}
	return variant.PackedStringArray(s), nil
}

// nodePath parses NodePath("text") or this package's
// NodePath(["names"…], ["subnames"…], absolute).
func (p *parser) nodePath(t token, _ int) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after NodePath"); err != nil {
		return nil, err
	}
	a, err := p.next()
	if err != nil {
		return nil, err
	}
	switch a.kind {
	case tString:
		np, ok := variant.ParseNodePath(a.text)
		if !ok {
			return nil, p.errAt(a.pos, "invalid node path (empty subname)")
		}
		if _, err := p.expect(tRParen, "')' after the node path"); err != nil {
			return nil, err
		}
		return np, nil
	case tLBracket:
		var np variant.NodePath
		if np.Names, err = p.stringList(tRBracket, "NodePath names"); err != nil {
			return nil, err
		}
		if _, err := p.expect(tComma, "','"); err != nil {
			return nil, err
		}
		if _, err := p.expect(tLBracket, "'[' before NodePath subnames"); err != nil {
			return nil, err
		}
		if np.Subnames, err = p.stringList(tRBracket, "NodePath subnames"); err != nil {
			return nil, err
		}
		if _, err := p.expect(tComma, "','"); err != nil {
			return nil, err
		}
		b, err := p.expect(tIdent, "true or false")
		if err != nil {
			return nil, err
		}
		switch b.text {
		case "true":
			np.Absolute = true
		case "false":
		default:
			return nil, p.errAt(b.pos, "expected true or false, found "+b.describe())
		}
		if _, err := p.expect(tRParen, "')'"); err != nil {
			return nil, err
		}
		if len(np.Names) == 0 {
			np.Names = nil
		}
		if len(np.Subnames) == 0 {
			np.Subnames = nil
		}
		return np, nil
	}
	return nil, p.errAt(a.pos, "expected a string in NodePath, found "+a.describe())
}

// rid parses RID() or RID(id); the id is written as a signed 64-bit
// integer, as the engine writes it.
func (p *parser) rid(t token, _ int) (variant.Value, error) {
	ns, err := p.args("RID", t, -1, 1)
	if err != nil {
		return nil, err
	}
	switch len(ns) {
	case 0:
		return variant.RID(0), nil
	case 1:
		v, err := p.integer(ns[0], 64)
		if err != nil {
			return nil, err
		}
		return variant.RID(uint64(v)), nil
	}
	return nil, p.errAt(t.pos, "RID takes at most one number")
}

// signal parses Signal() or this package's Signal(&"name", object_id).
func (p *parser) signal(t token, _ int) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after Signal"); err != nil {
		return nil, err
	}
	a, err := p.next()
	if err != nil {
		return nil, err
	}
	if a.kind == tRParen {
		return variant.Signal{}, nil
	}
	if a.kind != tString && a.kind != tStringName {
		return nil, p.errAt(a.pos, "expected the signal name, found "+a.describe())
	}
	if _, err := p.expect(tComma, "',' after the signal name"); err != nil {
		return nil, err
	}
	n, err := p.expect(tInt, "the object ID")
	if err != nil {
		return nil, err
	}
	id, err := p.integer(num{n.pos, n.kind, n.text}, 64)
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, "')'"); err != nil {
		return nil, err
	}
	return variant.Signal{Name: a.text, Object: uint64(id)}, nil
}

func (p *parser) callable(t token, _ int) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after Callable"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, "')' after 'Callable('"); err != nil {
		return nil, err
	}
	return variant.Callable{}, nil
}

// object parses Object(Class,"name":value,…). An EncodedObjectAsID with
// only its object_id (and a null script) is an ObjectID.
func (p *parser) object(t token, depth int) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after Object"); err != nil {
		return nil, err
	}
	c, err := p.expect(tIdent, "the object's class name")
	if err != nil {
		return nil, err
	}
	o := &variant.Object{Class: c.text}
	a, err := p.next()
	if err != nil {
		return nil, err
	}
	for a.kind != tRParen {
		if a.kind != tComma {
			return nil, p.errAt(a.pos, "expected ',' or ')' in Object, found "+a.describe())
		}
		if a, err = p.next(); err != nil {
			return nil, err
		}
		if a.kind == tRParen {
			break
		}
		if a.kind != tString {
			return nil, p.errAt(a.pos, "expected a property name string in Object, found "+a.describe())
		}
		if _, err := p.expect(tColon, "':' after the property name"); err != nil {
			return nil, err
		}
		vt, err := p.next()
		if err != nil {
			return nil, err
		}
		v, err := p.value(vt, depth+1)
		if err != nil {
			return nil, err
		}
		o.Properties = append(o.Properties, variant.Property{Name: a.text, Value: v})
		if a, err = p.next(); err != nil {
			return nil, err
		}
	}
	if id, ok := objectID(o); ok {
		return id, nil
	}
	return o, nil
}

func objectID(o *variant.Object) (variant.ObjectID, bool) {
	if o.Class != "EncodedObjectAsID" {
		return 0, false
	}
	var id variant.ObjectID
	seen := false
	for _, pr := range o.Properties {
		switch {
		case pr.Name == "object_id" && !seen:
			n, ok := pr.Value.(variant.Int)
			if !ok {
				return 0, false
			}
			id, seen = variant.ObjectID(n), true
		case pr.Name == "script" && pr.Value == nil:
		default:
			return 0, false
		}
	}
	return id, seen
}

// elemType parses the element, key or value type of a typed container:
// a builtin type name, Variant (untyped), a class name, or a script as
// Resource("res://…").
func (p *parser) elemType() (variant.ContainerType, error) {
	t, err := p.expect(tIdent, "a type name")
	if err != nil {
		return variant.ContainerType{}, err
	}
	switch t.text {
	case "Variant", "Nil":
		return variant.ContainerType{}, nil
	case "Resource", "ExtResource", "SubResource":
		if p.refs && t.text == "ExtResource" {
			r, err := p.resourceRef(t)
			if err != nil {
				return variant.ContainerType{}, err
			}
			return variant.ContainerType{Kind: variant.Script, Builtin: variant.TypeObject, Name: r.(variant.ResourceRef).ID}, nil
		}
		if n, err := p.peek(); err == nil && n.kind == tLParen {
			p.next()
			paths, err := p.stringList(tRParen, t.text)
			if err != nil {
				return variant.ContainerType{}, err
			}
			for _, s := range paths {
				if s != "" && !strings.HasPrefix(s, "uid://") {
					return variant.ContainerType{Kind: variant.Script, Builtin: variant.TypeObject, Name: s}, nil
				}
			}
			return variant.ContainerType{}, p.errAt(t.pos, "expected a res:// path in "+t.text)
		}
	}
	for ty := variant.TypeBool; ty < variant.TypeCount; ty++ {
		if ty.String() == t.text {
			return variant.Typed(ty), nil
		}
	}
	return variant.ContainerType{Kind: variant.ClassName, Builtin: variant.TypeObject, Name: t.text}, nil
}

// typedArray parses Array[Type]([…]).
func (p *parser) typedArray(t token, depth int) (variant.Value, error) {
	if _, err := p.expect(tLBracket, "'[' after Array"); err != nil {
		return nil, err
	}
	et, err := p.elemType()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRBracket, "']' after the element type"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tLParen, "'('"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tLBracket, "'['"); err != nil {
		return nil, err
	}
	a := &variant.Array{Elem: et}
	if err := p.arrayBody(a, depth); err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, "')'"); err != nil {
		return nil, err
	}
	return a, nil
}

// typedDictionary parses Dictionary[Key, Value]({…}).
func (p *parser) typedDictionary(t token, depth int) (variant.Value, error) {
	if _, err := p.expect(tLBracket, "'[' after Dictionary"); err != nil {
		return nil, err
	}
	kt, err := p.elemType()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tComma, "',' after the key type"); err != nil {
		return nil, err
	}
	vt, err := p.elemType()
	if err != nil {
		return nil, err
	}
	if _, err := p.expect(tRBracket, "']' after the value type"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tLParen, "'('"); err != nil {
		return nil, err
	}
	if _, err := p.expect(tLBrace, "'{'"); err != nil {
		return nil, err
	}
	d := variant.NewTypedDictionary(kt, vt, 0)
	if err := p.dictBody(d, depth); err != nil {
		return nil, err
	}
	if _, err := p.expect(tRParen, "')'"); err != nil {
		return nil, err
	}
	return d, nil
}

// resourceRef parses the argument of SubResource(…), ExtResource(…) or
// Resource(…): a string, or in Godot 3 text a number.
func (p *parser) resourceRef(t token) (variant.Value, error) {
	if _, err := p.expect(tLParen, "'(' after "+t.text); err != nil {
		return nil, err
	}
	a, err := p.next()
	if err != nil {
		return nil, err
	}
	if a.kind != tString && a.kind != tInt {
		return nil, p.errAt(a.pos, "expected an id in "+t.text+", found "+a.describe())
	}
	r := variant.ResourceRef{ID: a.text}
	switch t.text {
	case "SubResource":
		r.Kind = variant.RefSub
	case "ExtResource":
		r.Kind = variant.RefExt
	default:
		r = variant.ResourceRef{Kind: variant.RefPath, Path: a.text}
	}
	if _, err := p.expect(tRParen, "')' after the id"); err != nil {
		return nil, err
	}
	return r, nil
}
