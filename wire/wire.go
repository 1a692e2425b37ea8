// Package wire holds the primitives of Godot's binary Variant encoding: the
// header word, little-endian fixed-size fields, padded strings and bulk
// conversion of packed numeric arrays. Limits: no values and no validation
// beyond bounds; callers (package variant) decide what the bytes mean.
//
// It knows nothing about Variant values; package variant builds the value
// codec on top of it. Every function here is allocation-free unless it
// returns a new slice, and none of them panics on short input: readers
// report how many bytes they consumed or a negative count on failure.
package wire

import (
	"encoding/binary"
	"math"
)

// Header word layout.
const (
	// TypeMask selects the Variant type id from a header word (bits 0..7).
	TypeMask = 0xFF
	// Flag64 marks a 64-bit payload: int64 for INT, float64 for FLOAT and
	// float64 components for the math types of double-precision builds.
	Flag64 = 1 << 16
	// FlagObjectAsID marks an OBJECT encoded as a bare 64-bit instance ID.
	FlagObjectAsID = 1 << 16
	// ArrayTypeShift is the position of a typed Array's element kind
	// (Godot 4.3+), a 2-bit field.
	ArrayTypeShift = 16
	// DictKeyTypeShift and DictValueTypeShift are the positions of a typed
	// Dictionary's key and value kinds (Godot 4.4+), 2-bit fields.
	DictKeyTypeShift   = 16
	DictValueTypeShift = 18
	// KindMask masks one 2-bit container kind field after shifting.
	KindMask = 0b11
	// NodePathNewFormat is bit 31 of a NodePath's first word; decoders
	// refuse NodePaths without it.
	NodePathNewFormat = 0x80000000
	// NodePathAbsolute is bit 0 of a NodePath's flags word.
	NodePathAbsolute = 1
	// NodePathProperty is the obsolete bit 1 of a NodePath's flags word:
	// one extra subname follows the subnames.
	NodePathProperty = 2
	// CountMask clears bit 31 (the never-written "shared" flag) of an
	// Array or Dictionary element count.
	CountMask = 0x7FFFFFFF
)

// Container type kinds (2-bit fields in Array and Dictionary headers).
const (
	KindNone      = 0
	KindBuiltin   = 1
	KindClassName = 2
	KindScript    = 3
)

// Pad4 returns the number of zero bytes that bring n up to a multiple of 4.
func Pad4(n int) int { return (4 - n&3) & 3 }

// AppendU32 appends v as a little-endian 32-bit word.
func AppendU32(b []byte, v uint32) []byte { return binary.LittleEndian.AppendUint32(b, v) }

// AppendU64 appends v as a little-endian 64-bit word.
func AppendU64(b []byte, v uint64) []byte { return binary.LittleEndian.AppendUint64(b, v) }

// AppendF32 appends v as a little-endian IEEE-754 binary32.
func AppendF32(b []byte, v float32) []byte { return AppendU32(b, math.Float32bits(v)) }

// AppendF64 appends v as a little-endian IEEE-754 binary64.
func AppendF64(b []byte, v float64) []byte { return AppendU64(b, math.Float64bits(v)) }

// AppendZeros appends n zero bytes.
func AppendZeros(b []byte, n int) []byte {
	for ; n > 0; n-- {
		b = append(b, 0)
	}
	return b
}

// AppendString appends s in the "str" layout: u32 byte length, the bytes,
// zero padding to a multiple of 4.
func AppendString(b []byte, s string) []byte {
	b = AppendU32(b, uint32(len(s)))
	b = append(b, s...)
	return AppendZeros(b, Pad4(len(s)))
}

// SizeString is the encoded size of s in the "str" layout.
func SizeString(s string) int { return 4 + len(s) + Pad4(len(s)) }

// AppendStringZ appends s as a PackedStringArray element: u32 length
// counting a terminating NUL, the bytes, the NUL, zero padding.
func AppendStringZ(b []byte, s string) []byte {
	n := len(s) + 1
	b = AppendU32(b, uint32(n))
	b = append(b, s...)
	return AppendZeros(b, 1+Pad4(n))
}

// SizeStringZ is the encoded size of s as a PackedStringArray element.
func SizeStringZ(s string) int { n := len(s) + 1; return 4 + n + Pad4(n) }

// U32 reads a little-endian 32-bit word from the first 4 bytes of b.
// The caller guarantees len(b) >= 4.
func U32(b []byte) uint32 { return binary.LittleEndian.Uint32(b) }

// U64 reads a little-endian 64-bit word from the first 8 bytes of b.
// The caller guarantees len(b) >= 8.
func U64(b []byte) uint64 { return binary.LittleEndian.Uint64(b) }

// F32 reads a little-endian binary32 from the first 4 bytes of b.
func F32(b []byte) float32 { return math.Float32frombits(U32(b)) }

// F64 reads a little-endian binary64 from the first 8 bytes of b.
func F64(b []byte) float64 { return math.Float64frombits(U64(b)) }
