// Package fastlz is the FastLZ block format as Godot uses it
// (Compression::MODE_FASTLZ): for compressed files and for ENet's
// COMPRESS_FASTLZ.
package fastlz

import (
	"errors"

	"github.com/gdvar/gdvar/internal/growbuf"
)

// FastLZ is the byte-aligned LZ77 format of Ariya Hidayat's FastLZ, which
// Godot bundles (thirdparty/misc/fastlz.c) for COMPRESSION_FASTLZ.
//
// A stream is a sequence of instructions; the top three bits of the first
// byte also carry the level (0 = level 1, 1 = level 2) and are masked off.
//
//	000lllll               literal run: the next lllll+1 bytes (1..32)
//	LLLddddd [n] dddddddd  match: copy LLL+2 bytes (LLL 1..6) from
//	                       ddddd<<8 | dddddddd + 1 bytes back; LLL = 7
//	                       means the length goes on in n (level 1: one
//	                       byte; level 2: bytes while they are 255)
//
// Level 2 adds far matches: a distance byte of 255 with ddddd = 31 is
// followed by a 16-bit big-endian distance, to which 8191 is added.
//
// The engine compresses every block with level 1 below 64 KiB and level 2
// above; it pads blocks shorter than 16 bytes with zeros to 16 bytes. This
// compressor writes level 1, byte for byte as the engine's, whatever the
// size; the decompressor reads both levels.
const (
	lzMaxCopy      = 32
	lzMaxLen       = 264 // 256 + 8
	lzMaxL1Dist    = 8192
	lzMaxL2Dist    = 8191
	lzHashLog      = 13
	lzHashSize     = 1 << lzHashLog
	lzHashMask     = lzHashSize - 1
	lzLevel2Marker = 1 << 5
)

// MinInput is the engine's padding of short blocks: Compression::compress
// pads a block shorter than 16 bytes with zeros to 16 before compressing
// it, so such a block decompresses to 16 bytes.
const MinInput = 16

// ErrInvalid is returned for data that is not a valid FastLZ block.
var ErrInvalid = errors.New("invalid FastLZ data")

func lzHash(b []byte, p int) uint32 {
	v := uint32(b[p]) | uint32(b[p+1])<<8
	v ^= (uint32(b[p+1]) | uint32(b[p+2])<<8) ^ (v >> (16 - lzHashLog))
	return v & lzHashMask
}

// CompressBlock appends the compression of in to dst as the engine's
// Compression::compress writes it: padded to MinInput bytes first.
func CompressBlock(dst, in []byte) []byte {
	if len(in) < MinInput {
		var pad [MinInput]byte
		copy(pad[:], in)
		in = pad[:]
	}
	return Compress(dst, in)
}

// Compress appends the level 1 FastLZ compression of in to dst.
func Compress(dst, in []byte) []byte {
	n := len(in)
	if n < 4 {
		if n == 0 {
			return dst
		}
		dst = append(dst, byte(n-1))
		return append(dst, in...)
	}
	var htab [lzHashSize]int32 // positions; all start at 0
	ipBound := n - 2
	ipLimit := n - 12 - 1

	out := append(dst, lzMaxCopy-1, in[0], in[1])
	copied := 2 // literals since the last run marker
	ip := 2
	for ip < ipLimit {
		anchor := ip
		h := lzHash(in, ip)
		ref := int(htab[h])
		htab[h] = int32(anchor)
		dist := anchor - ref
		if dist == 0 || dist >= lzMaxL1Dist || in[ref] != in[ip] || in[ref+1] != in[ip+1] || in[ref+2] != in[ip+2] {
			// A literal byte.
			out = append(out, in[anchor])
			ip = anchor + 1
			copied++
			if copied == lzMaxCopy {
				copied = 0
				out = append(out, lzMaxCopy-1)
			}
			continue
		}
		// A match of at least three bytes: extend it.
		ip = anchor + 3
		ref += 3
		dist--
		if dist == 0 {
			// A run of the previous byte.
			x := in[ip-1]
			for ip < ipBound {
				r := in[ref]
				ref++
				if r != x {
					break
				}
				ip++
			}
		} else {
			// Eight unchecked steps (the loop guard keeps them in range),
			// then bounded ones; each step moves past the compared byte.
			matched := true
			for k := 0; k < 8; k++ {
				r, c := in[ref], in[ip]
				ref++
				ip++
				if r != c {
					matched = false
					break
				}
			}
			if matched {
				for ip < ipBound {
					r, c := in[ref], in[ip]
					ref++
					ip++
					if r != c {
						break
					}
				}
			}
		}
		// Close the literal run, or drop its unused marker.
		if copied > 0 {
			out[len(out)-copied-1] = byte(copied - 1)
		} else {
			out = out[:len(out)-1]
		}
		copied = 0

		ip -= 3
		l := ip - anchor // the match length minus 2
		for l > lzMaxLen-2 {
			out = append(out, 7<<5+byte(dist>>8), lzMaxLen-2-7-2, byte(dist))
			l -= lzMaxLen - 2
		}
		if l < 7 {
			out = append(out, byte(l<<5)+byte(dist>>8), byte(dist))
		} else {
			out = append(out, 7<<5+byte(dist>>8), byte(l-7), byte(dist))
		}
		htab[lzHash(in, ip)] = int32(ip)
		ip++
		htab[lzHash(in, ip)] = int32(ip)
		ip++
		out = append(out, lzMaxCopy-1) // the next literal run's marker
	}
	for ip < n {
		out = append(out, in[ip])
		ip++
		copied++
		if copied == lzMaxCopy {
			copied = 0
			out = append(out, lzMaxCopy-1)
		}
	}
	if copied > 0 {
		out[len(out)-copied-1] = byte(copied - 1)
	} else {
		out = out[:len(out)-1]
	}
	return out
}

// Decompress decompresses in (level 1 or 2) into at most limit bytes
// appended to dst, checking every instruction against both buffers. It
// fails where the engine's decompressor gives up. dst grows to at most
// most bytes ahead of need.
func Decompress(dst, in []byte, limit, most int) ([]byte, error) {
	if len(in) == 0 {
		return dst, ErrInvalid
	}
	level := in[0]>>5 + 1
	if level > 2 {
		return dst, ErrInvalid
	}
	// A byte of input gives at most 255 of output (a long level 2 match).
	base := len(dst)
	out := growbuf.Grow(dst, min(limit, lzMaxRatio*len(in)+lzMaxRatio), most)
	n := len(in)
	ip := 1
	ctrl := int(in[0] & 31)
	for {
		if ctrl >= 32 {
			l := ctrl>>5 - 1
			ofs := (ctrl & 31) << 8
			ref := len(out) - ofs - 1
			if level == 1 {
				if l == 6 {
					if ip > n-2 {
						return out, ErrInvalid
					}
					l += int(in[ip])
					ip++
				}
				if ip >= n {
					return out, ErrInvalid
				}
				ref -= int(in[ip])
				ip++
			} else {
				if l == 6 {
					for {
						if ip > n-2 {
							return out, ErrInvalid
						}
						c := in[ip]
						ip++
						l += int(c)
						if c != 255 {
							break
						}
					}
				}
				if ip >= n {
					return out, ErrInvalid
				}
				c := in[ip]
				ip++
				ref -= int(c)
				if c == 255 && ofs == 31<<8 {
					if ip >= n-2 {
						return out, ErrInvalid
					}
					ofs = int(in[ip])<<8 | int(in[ip+1])
					ip += 2
					ref = len(out) - ofs - lzMaxL2Dist - 1
				}
			}
			l += 3
			if len(out)-base+l > limit || ref < base {
				return out, ErrInvalid
			}
			for i := range l { // may overlap: byte by byte
				out = append(out, out[ref+i])
			}
		} else {
			ctrl++
			if len(out)-base+ctrl > limit || ip+ctrl > n {
				return out, ErrInvalid
			}
			out = append(out, in[ip:ip+ctrl]...)
			ip += ctrl
		}
		if level == 1 && ip > n-2 || level == 2 && ip >= n {
			break
		}
		ctrl = int(in[ip])
		ip++
	}
	return out, nil
}

// lzMaxRatio bounds the output of a byte of FastLZ input.
const lzMaxRatio = 256
