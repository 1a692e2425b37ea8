package variant

import (
	"math"
	"strconv"
)

// A realKind says how a real number is stored on each side: in the value
// model (float64, or float32 for Color and PackedFloat32Array) and in the
// engine (double for float and PackedFloat64Array, float for everything
// built on real_t, Color and PackedFloat32Array in official builds).
type realKind uint8

const (
	realDouble realKind = iota // model float64, engine double (float, PackedFloat64Array)
	realT                      // model float64, engine float (vectors, matrices, …)
	realFloat                  // model float32, engine float (Color, PackedFloat32Array)
)

// modelBits is the bit size of the model's value.
func (k realKind) modelBits() int {
	if k == realFloat {
		return 32
	}
	return 64
}

// appendReal appends the text of f. Scalars (a float Variant, an element of
// an Array) always look like floats ("1.0"); constructor arguments are
// written as the engine writes them ("1"). The digits are the shortest that
// read back as f with a correctly rounded parser (ours) and, whenever some
// such text exists, that also read back as f with the engine's own reader,
// which is not correctly rounded (see engineStrtod).
func appendReal(dst []byte, f float64, k realKind, scalar, g3 bool) []byte {
	switch {
	case f != f:
		return append(dst, "nan"...)
	case math.IsInf(f, 1):
		// Godot 3's str2var knows inf only outside constructors; a too
		// large exponent reads as inf everywhere.
		if g3 && !scalar {
			return append(dst, "1e999"...)
		}
		return append(dst, "inf"...)
	case math.IsInf(f, -1):
		// Godot 3's str2var reads "-inf" as the int 0. Every Godot 4 reads
		// inf_neg, which var_to_str writes; "-inf" only the newer ones.
		if g3 {
			return append(dst, "-1e999"...)
		}
		return append(dst, "inf_neg"...)
	case f == 0:
		if math.Signbit(f) {
			return append(dst, "-0.0"...)
		}
		if scalar {
			return append(dst, "0.0"...)
		}
		return append(dst, '0')
	}
	var digits [32]byte
	d, exp := shortestDigits(digits[:0], f, k.modelBits())
	neg := f < 0
	var tmp [48]byte
	best := layout(tmp[:0], neg, d, exp, preferFixed(exp), scalar)
	if engineReads(best, f, k) {
		return append(dst, best...)
	}
	return append(dst, searchReal(f, k, scalar, neg)...)
}

// preferFixed reports whether a number whose first digit has decimal
// exponent exp is written without an exponent, as the engine decides.
func preferFixed(exp int) bool { return exp >= -4 && exp < 15 }

// shortestDigits returns the shortest decimal digits of |f| that read back
// as f at the given bit size, and the decimal exponent of the first digit.
func shortestDigits(dst []byte, f float64, bits int) ([]byte, int) {
	var tmp [32]byte
	return splitE(dst, strconv.AppendFloat(tmp[:0], math.Abs(f), 'e', -1, bits))
}

// splitE splits strconv's 'e' form "d.ddde±xx" into digits and exponent.
func splitE(dst, e []byte) ([]byte, int) {
	i := 0
	for ; i < len(e) && e[i] != 'e'; i++ {
		if e[i] != '.' {
			dst = append(dst, e[i])
		}
	}
	exp, neg := 0, false
	for _, c := range e[i+1:] {
		switch {
		case c == '-':
			neg = true
		case c >= '0' && c <= '9':
			exp = exp*10 + int(c-'0')
		}
	}
	if neg {
		exp = -exp
	}
	return dst, exp
}

// layout writes the decimal digits d (value 0.d × 10^(exp+1)) in fixed or
// exponent notation. Scalars in fixed notation get a ".0" if they would
// otherwise look like integers.
func layout(dst []byte, neg bool, d []byte, exp int, fixed, scalar bool) []byte {
	if neg {
		dst = append(dst, '-')
	}
	if !fixed {
		dst = append(dst, d[0])
		if len(d) > 1 {
			dst = append(dst, '.')
			dst = append(dst, d[1:]...)
		}
		dst = append(dst, 'e')
		if exp < 0 {
			dst = append(dst, '-')
			exp = -exp
		} else {
			dst = append(dst, '+')
		}
		if exp < 10 {
			dst = append(dst, '0')
		}
		return strconv.AppendInt(dst, int64(exp), 10)
	}
	if exp < 0 {
		dst = append(dst, '0', '.')
		for i := -1; i > exp; i-- {
			dst = append(dst, '0')
		}
		return append(dst, d...)
	}
	if len(d) <= exp+1 {
		dst = append(dst, d...)
		for i := len(d); i <= exp; i++ {
			dst = append(dst, '0')
		}
		if scalar {
			dst = append(dst, '.', '0')
		}
		return dst
	}
	dst = append(dst, d[:exp+1]...)
	dst = append(dst, '.')
	return append(dst, d[exp+1:]...)
}

// searchReal looks for a text near f that both our parser and the engine's
// read back as f. It tries n significant digits for n from the shortest
// count up to 18 (the most the engine keeps): the n-digit rounding of f and
// its neighbours in the last digit and, from 16 digits on, mantissas that
// are themselves doubles, which the engine builds exactly and then scales
// with a single rounding. If no text is exact for the engine it returns,
// among those our parser reads exactly, the one the engine misreads least.
func searchReal(f float64, k realKind, scalar, neg bool) []byte {
	bits := k.modelBits()
	abs := math.Abs(f)
	var buf, d, text, closest []byte
	d, _ = shortestDigits(d, f, bits)
	first := len(d)
	bestDist := uint64(math.MaxUint64)
	var padded []byte
	// try tries the digits c, then c with trailing zeros up to 18 digits
	// (the engine splits those into a different mantissa and power of
	// ten), in the engine's preferred notation and, where both are
	// sensible, in the other one.
	try := func(c []byte, exp int) []byte {
		padded = append(padded[:0], c...)
		for ; len(padded) <= 18; padded = append(padded, '0') {
			for _, fixed := range [2]bool{preferFixed(exp), !preferFixed(exp)} {
				if fixed && !preferFixed(exp) {
					// Fixed notation outside that range only adds
					// digits that are zeros.
					continue
				}
				text = layout(text[:0], neg, padded, exp, fixed, scalar)
				if !ourReads(text, f, bits) {
					continue
				}
				dist := engineDistance(text, f, k)
				if dist == 0 {
					return append([]byte(nil), text...)
				}
				if dist < bestDist {
					bestDist = dist
					closest = append(closest[:0], text...)
				}
			}
		}
		return nil
	}
	for n := max(first, 1); n <= 18; n++ {
		buf = strconv.AppendFloat(buf[:0], abs, 'e', n-1, 64)
		var exp int
		d, exp = splitE(d[:0], buf)
		for _, delta := range [...]int{0, -1, 1, -2, 2, -3, 3} {
			if c, cexp, ok := bump(d, exp, delta); ok {
				if t := try(c, cexp); t != nil {
					return t
				}
			}
		}
		if n < 16 {
			continue
		}
		m, err := strconv.ParseFloat(string(d), 64)
		if err != nil {
			continue
		}
		lo, hi := m, m
		for range 4 {
			for _, c := range [2]float64{lo, hi} {
				ds := strconv.AppendFloat(buf[:0], c, 'f', 0, 64)
				if len(ds) == n {
					if t := try(ds, exp); t != nil {
						return t
					}
				}
			}
			lo, hi = math.Nextafter(lo, 0), math.Nextafter(hi, math.Inf(1))
		}
	}
	return closest
}

// engineDistance is how many units in the last place the engine's reading
// of text is from f, in the precision the engine stores.
func engineDistance(text []byte, f float64, k realKind) uint64 {
	g := engineNumber(text)
	if k == realDouble {
		return ulpDiff(math.Float64bits(g), math.Float64bits(f))
	}
	return ulpDiff(uint64(math.Float32bits(float32(g))), uint64(math.Float32bits(float32(f))))
}

// ulpDiff is the distance between two floats of the same sign given by
// their bits; floats of different signs are as far apart as can be.
func ulpDiff(a, b uint64) uint64 {
	if (a^b)>>63 != 0 && a<<1 != 0 && b<<1 != 0 {
		return math.MaxUint64
	}
	a, b = a&^(1<<63), b&^(1<<63)
	if a > b {
		return a - b
	}
	return b - a
}

// bump adds delta units in the last place to the digit string d (exponent
// exp) and returns the new digits and exponent.
func bump(d []byte, exp, delta int) ([]byte, int, bool) {
	c := append([]byte(nil), d...)
	i := len(c) - 1
	for delta > 0 {
		j := i
		for j >= 0 && c[j] == '9' {
			c[j] = '0'
			j--
		}
		if j < 0 {
			c = append([]byte{'1'}, c[:len(c)-1]...)
			exp++
		} else {
			c[j]++
		}
		delta--
	}
	for delta < 0 {
		j := i
		for j >= 0 && c[j] == '0' {
			c[j] = '9'
			j--
		}
		if j < 0 {
			return nil, 0, false
		}
		c[j]--
		delta++
	}
	if c[0] == '0' {
		return nil, 0, false
	}
	return c, exp, true
}

// ourReads reports whether the correctly rounded reading of text at the
// given bit size is exactly f.
func ourReads(text []byte, f float64, bits int) bool {
	g, err := strconv.ParseFloat(string(text), bits)
	if err != nil {
		return false
	}
	return math.Float64bits(g) == math.Float64bits(f)
}

// engineReads reports whether the engine, reading text where it expects a
// number of kind k, stores exactly what a correct reading of f stores.
func engineReads(text []byte, f float64, k realKind) bool {
	return engineDistance(text, f, k) == 0
}

// engineNumber is the number the engine's tokenizer makes of text: an int
// when there is no '.' and no exponent, else engineStrtod.
func engineNumber(text []byte) float64 {
	isFloat := false
	for _, c := range text {
		if c == '.' || c == 'e' || c == 'E' {
			isFloat = true
			break
		}
	}
	if !isFloat {
		// Our integer texts are below 1e15: no overflow to care about.
		n, neg := int64(0), false
		for _, c := range text {
			if c == '-' {
				neg = true
			} else {
				n = n*10 + int64(c-'0')
			}
		}
		if neg {
			n = -n
		}
		return float64(n)
	}
	return engineStrtod(text)
}

// powersOf10 are the engine's binary powers of ten, 10^(2^i).
var powersOf10 = [...]float64{10., 100., 1.0e4, 1.0e8, 1.0e16, 1.0e32, 1.0e64, 1.0e128, 1.0e256}

// engineStrtod reproduces the float reader of both engine families
// (built_in_strtod in core/string/ustring.cpp, from Tcl): it keeps at most
// 18 mantissa digits (leading zeros included), builds them in a double and
// scales by powers of ten computed in doubles, so it is not correctly
// rounded. Every operation is rounded to float64 explicitly, as in C.
func engineStrtod(s []byte) float64 {
	p := 0
	neg := false
	if p < len(s) && s[p] == '-' {
		neg = true
		p++
	} else if p < len(s) && s[p] == '+' {
		p++
	}
	start := p
	decPt := -1
	mantSize := 0
	for ; p < len(s); p++ {
		c := s[p]
		if c < '0' || c > '9' {
			if c != '.' || decPt >= 0 {
				break
			}
			decPt = mantSize
		}
		mantSize++
	}
	pExp := p
	p = start
	if decPt < 0 {
		decPt = mantSize
	} else {
		mantSize--
	}
	var fracExp int
	if mantSize > 18 {
		fracExp = decPt - 18
		mantSize = 18
	} else {
		fracExp = decPt - mantSize
	}
	var fraction float64
	if mantSize == 0 {
		fraction = 0
	} else {
		frac1, frac2 := 0, 0
		for ; mantSize > 9; mantSize-- {
			c := s[p]
			p++
			if c == '.' {
				c = s[p]
				p++
			}
			frac1 = 10*frac1 + int(c-'0')
		}
		for ; mantSize > 0; mantSize-- {
			c := s[p]
			p++
			if c == '.' {
				c = s[p]
				p++
			}
			frac2 = 10*frac2 + int(c-'0')
		}
		fraction = float64(float64(1.0e9*float64(frac1)) + float64(frac2))

		exp := 0
		expNeg := false
		p = pExp
		if p < len(s) && (s[p] == 'E' || s[p] == 'e') {
			q := p + 1
			if q < len(s) && s[q] == '-' {
				expNeg = true
				q++
			} else if q < len(s) && s[q] == '+' {
				q++
			}
			if q < len(s) && s[q] >= '0' && s[q] <= '9' {
				for ; q < len(s) && s[q] >= '0' && s[q] <= '9'; q++ {
					if exp < 1<<20 {
						exp = exp*10 + int(s[q]-'0')
					}
				}
			} else {
				exp = 0
				expNeg = false
			}
		}
		if expNeg {
			exp = fracExp - exp
		} else {
			exp = fracExp + exp
		}
		expNeg = exp < 0
		if expNeg {
			exp = -exp
		}
		if exp > 511 {
			exp = 511
		}
		dblExp := 1.0
		for i := 0; exp != 0; exp, i = exp>>1, i+1 {
			if exp&1 != 0 {
				dblExp = float64(dblExp * powersOf10[i])
			}
		}
		if expNeg {
			fraction = float64(fraction / dblExp)
		} else {
			fraction = float64(fraction * dblExp)
		}
	}
	if neg {
		return -fraction
	}
	return fraction
}
