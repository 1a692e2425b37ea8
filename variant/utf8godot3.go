package variant

import "unicode/utf8"

// Godot 3 keeps a String as 32-bit characters and reads and writes them
// with its own UTF-8 routines (String::parse_utf8 and String::utf8 in
// 3.2), which go beyond UTF-8: they take surrogates (U+D800–U+DFFF, also
// when two of them form a CESU-8 pair: they stay two characters) and
// characters above U+10FFFF in 4-, 5- and 6-byte sequences, up to
// 0x7FFFFFFF. The model holds such a string as the bytes Godot 3 writes for
// it, which are not valid UTF-8.

// DecodeRuneGodot3 unpacks the first character of s as Godot 3's UTF-8
// reader does and returns it with its width in bytes. Where that reader
// refuses the bytes (and with them the whole string) it returns
// (utf8.RuneError, 1); for an empty s (utf8.RuneError, 0). Besides UTF-8 it
// accepts surrogates, characters above U+10FFFF in sequences of up to 6
// bytes, and overlong 3- to 6-byte forms unless the bits after the first
// two bytes start with zeros too (it reads e0 80 af as '/' but refuses
// f0 80 80 af). It refuses overlong 2-byte forms (c0, c1), stray
// continuation bytes, fe, ff and cut sequences.
func DecodeRuneGodot3(s string) (rune, int) {
	if s == "" {
		return utf8.RuneError, 0
	}
	c := s[0]
	if c < utf8.RuneSelf {
		return rune(c), 1
	}
	var n int
	switch {
	case c&0xE0 == 0xC0:
		if c&0x1E == 0 {
			return utf8.RuneError, 1 // overlong 2-byte form
		}
		n = 2
	case c&0xF0 == 0xE0:
		n = 3
	case c&0xF8 == 0xF0:
		n = 4
	case c&0xFC == 0xF8:
		n = 5
	case c&0xFE == 0xFC:
		n = 6
	default:
		return utf8.RuneError, 1
	}
	if len(s) < n {
		return utf8.RuneError, 1
	}
	r := rune(0xFF>>(n+1)) & rune(c)
	for i := 1; i < n; i++ {
		b := s[i]
		if b&0xC0 != 0x80 {
			return utf8.RuneError, 1
		}
		// The engine's only overlong check: after two bytes without a
		// bit set, the third must have one among its first payload bits.
		if r == 0 && i == 2 && (b&0x7F)>>(7-n) == 0 {
			return utf8.RuneError, 1
		}
		r = r<<6 | rune(b&0x3F)
	}
	return r, n
}

// AppendRuneGodot3 appends the bytes Godot 3 writes for the character r: its
// UTF-8 encoding, extended to surrogates (3 bytes) and to characters above
// U+10FFFF (4 bytes up to 0x1FFFFF, 5 up to 0x3FFFFFF, 6 beyond). A
// negative r is written as U+FFFD.
func AppendRuneGodot3(p []byte, r rune) []byte {
	switch {
	case r < 0:
		return utf8.AppendRune(p, utf8.RuneError)
	case r < 0x80:
		return append(p, byte(r))
	case r < 0x800:
		return append(p, 0xC0|byte(r>>6), 0x80|byte(r)&0x3F)
	case r < 0x10000:
		return append(p, 0xE0|byte(r>>12), 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	case r < 0x200000:
		return append(p, 0xF0|byte(r>>18), 0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	case r < 0x4000000:
		return append(p, 0xF8|byte(r>>24), 0x80|byte(r>>18)&0x3F, 0x80|byte(r>>12)&0x3F,
			0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
	}
	return append(p, 0xFC|byte(r>>30), 0x80|byte(r>>24)&0x3F, 0x80|byte(r>>18)&0x3F,
		0x80|byte(r>>12)&0x3F, 0x80|byte(r>>6)&0x3F, 0x80|byte(r)&0x3F)
}

// DecodeStringGodot3 returns the string Godot 3 makes of raw (which holds
// no NUL: the engine ends strings there), as the bytes Godot 3 writes for
// it: overlong forms become the shortest, everything else stays as it is.
// It returns false when Godot 3 refuses raw (see DecodeRuneGodot3).
func DecodeStringGodot3(raw []byte) (string, bool) {
	if utf8.Valid(raw) {
		return string(raw), true
	}
	out := make([]byte, 0, len(raw))
	for i := 0; i < len(raw); {
		r, n := DecodeRuneGodot3(string(raw[i:min(i+6, len(raw))]))
		if n <= 1 && r == utf8.RuneError && raw[i] >= utf8.RuneSelf {
			return "", false
		}
		out = AppendRuneGodot3(out, r)
		i += n
	}
	return string(out), true
}

// ValidString reports whether the family's engine can hold s as it is:
// valid UTF-8, or for Godot 3 what its looser parser reads back unchanged
// (surrogates and characters beyond U+10FFFF in the form it writes them,
// see DecodeRuneGodot3).
func (f Family) ValidString(s string) bool {
	return utf8.ValidString(s) || f == Godot3 && heldByGodot3(s)
}

// heldByGodot3 reports whether s, which is not valid UTF-8, is a string
// Godot 3 can hold, in the form it writes (without overlong forms).
func heldByGodot3(s string) bool {
	g3, ok := DecodeStringGodot3([]byte(s))
	return ok && g3 == s
}
