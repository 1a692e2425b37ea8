package gdjson

import (
	"math"
	"strconv"
	"strings"
)

// The engine's number printing, as Godot 4.6 does it (String::num,
// String::num_real and JSON's own float rule), reproduced digit for digit.

// maxDecimals is the engine's MAX_DECIMALS: the most decimals String::num
// writes.
const maxDecimals = 32

// num is String::num(x, decimals): printf("%.<decimals>f"), then trailing
// zeros removed, keeping one after the point. A negative decimals means
// 14 significant digits for numbers above 10 and 14 decimals otherwise;
// when that is still negative, printf's default of 6 decimals.
func num(x float64, decimals int) string {
	if math.IsNaN(x) {
		return "nan"
	}
	if math.IsInf(x, 0) {
		if x < 0 {
			return "-inf"
		}
		return "inf"
	}
	if decimals < 0 {
		decimals = 14
		if a := math.Abs(x); a > 10 {
			decimals -= int(math.Floor(math.Log10(a)))
		}
	}
	decimals = min(decimals, maxDecimals)
	if decimals < 0 {
		decimals = 6 // "%lf"
	}
	s := strconv.FormatFloat(x, 'f', decimals, 64)
	if strings.IndexByte(s, '.') >= 0 {
		s = strings.TrimRight(s, "0")
		if strings.HasSuffix(s, ".") {
			s += "0"
		}
	}
	return s
}

// truncInt64 converts as the engine's (int64_t) cast does on its web build:
// truncation, saturating out of range (NaN gives 0).
func truncInt64(x float64) int64 {
	switch {
	case x != x:
		return 0
	case x >= 9223372036854775807:
		return math.MaxInt64
	case x <= -9223372036854775808:
		return math.MinInt64
	}
	return int64(x)
}

// numReal is String::num_real(double x, trailing): how the engine prints a
// float Variant (str(), the "f:" strings of JSON.from_native, Dictionary
// keys). Integral values print as integers, with ".0" when trailing; others
// with 14 significant digits (14 decimals below 10).
func numReal(x float64, trailing bool) string {
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return num(x, 0)
	}
	if i := truncInt64(x); float64(i) == x {
		s := strconv.FormatInt(i, 10)
		if trailing {
			s += ".0"
		}
		return s
	}
	decimals := 14
	if a := math.Abs(x); a > 10 {
		decimals -= int(math.Floor(math.Log10(a)))
	}
	return num(x, decimals)
}

// numReal32 is String::num_real(float x, trailing), for the components of
// math types in single-precision builds: 6 decimals below 10, 6
// significant digits above.
func numReal32(x32 float32, trailing bool) string {
	x := float64(x32)
	if math.IsNaN(x) || math.IsInf(x, 0) {
		return num(x, 0)
	}
	if i := truncInt64(x); float32(i) == x32 {
		s := strconv.FormatInt(i, 10)
		if trailing {
			s += ".0"
		}
		return s
	}
	decimals := 6
	if a := float32(math.Abs(x)); a > 10 {
		decimals -= int(math.Floor(float64(float32(math.Log10(float64(a))))))
	}
	return num(x, decimals)
}

// jsonFloat is how JSON.stringify writes a float: "0.0" for zero (either
// sign), 14 significant digits otherwise, 1e99999 for infinities; NaN has
// no JSON form (the engine writes null).
func jsonFloat(x float64) (string, bool) {
	switch {
	case x != x:
		return "null", false
	case math.IsInf(x, 1):
		return "1e99999", true
	case math.IsInf(x, -1):
		return "-1e99999", true
	case x == 0:
		return "0.0", true
	}
	precision := max(1, 14-int(math.Floor(math.Log10(math.Abs(x)))))
	return num(x, precision), true
}

// exactFloat returns text that reads back as x at the given size (32 or 64
// bits): the engine's text when that is exact and short enough for the
// engine's own reader, the shortest exact decimal otherwise. Zero keeps its
// sign; infinities are 1e99999 and -1e99999, NaN is "nan" (callers decide
// how to write it).
func exactFloat(engine string, x float64, bits int) string {
	if x != x {
		return "nan"
	}
	if math.IsInf(x, 0) {
		if x < 0 {
			return "-1e99999"
		}
		return "1e99999"
	}
	if x == 0 {
		if math.Signbit(x) {
			return "-0.0"
		}
		return "0.0"
	}
	if readsBack(engine, x, bits) && (digits(engine) <= 17 || integral(engine, x)) {
		return engine
	}
	s := strconv.FormatFloat(x, 'g', -1, bits)
	if !strings.ContainsAny(s, ".e") {
		s += ".0"
	}
	return s
}

// integral reports whether s is the integer x followed by ".0", as the
// engine writes integral floats up to 2^63 (and reads them back).
func integral(s string, x float64) bool {
	if math.Abs(x) >= 1<<63 || x != math.Trunc(x) {
		return false
	}
	return s == strconv.FormatInt(int64(x), 10)+".0"
}

// nan is the engine's NaN: the quiet NaN with no payload.
var nan = math.Float64frombits(0x7FF8000000000000)

// readsBack reports whether s parses to exactly x at the given size.
func readsBack(s string, x float64, bits int) bool {
	f, err := strconv.ParseFloat(s, 64)
	if err != nil {
		return false
	}
	if bits == 32 {
		return float32(f) == float32(x)
	}
	return f == x
}

// digits counts the digits of a decimal number's mantissa, leading zeros
// included (the engine's reader counts them against its 18-digit budget)
// and trailing zeros excluded.
func digits(s string) int {
	n, trailingZeros := 0, 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == 'e' || c == 'E' {
			break
		}
		if c < '0' || c > '9' {
			continue
		}
		n++
		if c == '0' {
			trailingZeros++
		} else {
			trailingZeros = 0
		}
	}
	return n - trailingZeros
}
