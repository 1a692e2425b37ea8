package gdtext

import "github.com/gdvar/gdvar/variant"

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
