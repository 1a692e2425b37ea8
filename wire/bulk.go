package wire

import (
	"encoding/binary"
	"math"
	"unsafe"
)

// nativeLittle reports whether this machine stores integers little-endian,
// in which case packed arrays convert with a single memory copy.
var nativeLittle = func() bool {
	x := uint16(1)
	return *(*byte)(unsafe.Pointer(&x)) == 1
}()

// bytesOf views a slice of fixed-size numbers as its bytes.
func bytesOf[T int32 | int64 | float32 | float64](s []T) []byte {
	if len(s) == 0 {
		return nil
	}
	return unsafe.Slice((*byte)(unsafe.Pointer(&s[0])), len(s)*int(unsafe.Sizeof(s[0])))
}

// AppendInt32s appends s as consecutive little-endian 32-bit words.
func AppendInt32s(b []byte, s []int32) []byte {
	if nativeLittle {
		return append(b, bytesOf(s)...)
	}
	for _, v := range s {
		b = AppendU32(b, uint32(v))
	}
	return b
}

// AppendInt64s appends s as consecutive little-endian 64-bit words.
func AppendInt64s(b []byte, s []int64) []byte {
	if nativeLittle {
		return append(b, bytesOf(s)...)
	}
	for _, v := range s {
		b = AppendU64(b, uint64(v))
	}
	return b
}

// AppendFloat32s appends s as consecutive little-endian binary32 values.
func AppendFloat32s(b []byte, s []float32) []byte {
	if nativeLittle {
		return append(b, bytesOf(s)...)
	}
	for _, v := range s {
		b = AppendF32(b, v)
	}
	return b
}

// AppendFloat64s appends s as consecutive little-endian binary64 values.
func AppendFloat64s(b []byte, s []float64) []byte {
	if nativeLittle {
		return append(b, bytesOf(s)...)
	}
	for _, v := range s {
		b = AppendF64(b, v)
	}
	return b
}

// Int32s fills dst from the little-endian words in src, which holds at
// least 4*len(dst) bytes.
func Int32s(dst []int32, src []byte) {
	if nativeLittle {
		copy(bytesOf(dst), src)
		return
	}
	for i := range dst {
		dst[i] = int32(binary.LittleEndian.Uint32(src[4*i:]))
	}
}

// Int64s fills dst from the little-endian words in src, which holds at
// least 8*len(dst) bytes.
func Int64s(dst []int64, src []byte) {
	if nativeLittle {
		copy(bytesOf(dst), src)
		return
	}
	for i := range dst {
		dst[i] = int64(binary.LittleEndian.Uint64(src[8*i:]))
	}
}

// Float32s fills dst from the little-endian binary32 values in src, which
// holds at least 4*len(dst) bytes.
func Float32s(dst []float32, src []byte) {
	if nativeLittle {
		copy(bytesOf(dst), src)
		return
	}
	for i := range dst {
		dst[i] = math.Float32frombits(binary.LittleEndian.Uint32(src[4*i:]))
	}
}

// Float64s fills dst from the little-endian binary64 values in src, which
// holds at least 8*len(dst) bytes.
func Float64s(dst []float64, src []byte) {
	if nativeLittle {
		copy(bytesOf(dst), src)
		return
	}
	for i := range dst {
		dst[i] = math.Float64frombits(binary.LittleEndian.Uint64(src[8*i:]))
	}
}
