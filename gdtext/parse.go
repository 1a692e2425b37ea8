package gdtext

import (
	"errors"
	"math"
	"strconv"

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
	p := &parser{src: text, g3: f == variant.Godot3, maxDepth: o.MaxDepth, refs: o.Resources, file: o.File}
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
