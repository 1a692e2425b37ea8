package variant

import "strings"

// ColorFromString returns the Color that Godot 4 makes of a String where
// a Color is expected (the Color(String) constructor, which also converts
// the Strings of an Array or Dictionary typed Color): an HTML color code
// of 3, 4, 6 or 8 hexadecimal digits, with or without "#" ("#f80",
// "ff8800cc"), or one of the engine's named colors, matched without regard
// to case, spaces, "-", "_", "'" and "." ("Alice Blue", "alice_blue").
// Anything else gives opaque black, Color{0, 0, 0, 1}, and false, as in
// the engine (which logs an error).
func ColorFromString(s string) (Color, bool) {
	if c, ok := htmlColor(s); ok {
		return c, true
	}
	if rgba, ok := namedColors[normalizeColorName(s)]; ok {
		return colorFromRGBA8(rgba), true
	}
	return Color{0, 0, 0, 1}, false
}

// htmlColor parses an HTML color code: "#" (optional) and 3 (RGB), 4
// (RGBA), 6 (RRGGBB) or 8 (RRGGBBAA) hexadecimal digits. The engine
// divides in single precision, as here.
func htmlColor(s string) (Color, bool) {
	s = strings.TrimPrefix(s, "#")
	var d [8]float32
	if len(s) > len(d) {
		return Color{}, false
	}
	for i := range len(s) {
		v, ok := hexDigit(s[i])
		if !ok {
			return Color{}, false
		}
		d[i] = float32(v)
	}
	switch len(s) {
	case 3:
		return Color{d[0] / 15, d[1] / 15, d[2] / 15, 1}, true
	case 4:
		return Color{d[0] / 15, d[1] / 15, d[2] / 15, d[3] / 15}, true
	case 6:
		return Color{(d[0]*16 + d[1]) / 255, (d[2]*16 + d[3]) / 255, (d[4]*16 + d[5]) / 255, 1}, true
	case 8:
		return Color{(d[0]*16 + d[1]) / 255, (d[2]*16 + d[3]) / 255, (d[4]*16 + d[5]) / 255, (d[6]*16 + d[7]) / 255}, true
	}
	return Color{}, false
}

func hexDigit(c byte) (byte, bool) {
	switch {
	case '0' <= c && c <= '9':
		return c - '0', true
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10, true
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

// normalizeColorName drops " -_'." and upper-cases the rest, as the engine
// does before it looks a name up. The only letters outside ASCII whose
// upper case is in ASCII are the dotless i and the long s; any other one
// cannot be part of a name, so the result is "" for them.
func normalizeColorName(s string) string {
	var b strings.Builder
	for _, r := range s {
		switch {
		case r == ' ' || r == '-' || r == '_' || r == '\'' || r == '.':
			continue
		case 'a' <= r && r <= 'z':
			r -= 'a' - 'A'
		case r == 'ı': // U+0131
			r = 'I'
		case r == 'ſ': // U+017F
			r = 'S'
		case r >= 0x80:
			return ""
		}
		b.WriteRune(r)
	}
	return b.String()
}

// colorFromRGBA8 returns the Color of four bytes packed as 0xRRGGBBAA.
func colorFromRGBA8(c uint32) Color {
	return Color{float32(c>>24) / 255, float32(c>>16&0xFF) / 255, float32(c>>8&0xFF) / 255, float32(c&0xFF) / 255}
}
