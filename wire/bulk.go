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

// Number is a fixed-size number type of a packed array.
type Number interface {
	int32 | int64 | float32 | float64
}

// Copy returns the n little-endian numbers at the start of src (which
// holds at least n of them) as a new slice. On little-endian machines it
// costs one allocation and one memory copy, without clearing the memory
// first.
func Copy[T Number](src []byte, n int) []T {
	size := int(unsafe.Sizeof(T(0)))
	if n == 0 {
		return []T{}
	}
	if nativeLittle {
		b := append([]byte(nil), src[:n*size]...)
		if s, ok := view[T](b, n); ok {
			return s
		}
	}
	dst := make([]T, n)
	fill(dst, src)
	return dst
}

// Alias returns the n little-endian numbers at the start of src as a slice
// that shares src's memory, and false when this machine's byte order or
// src's alignment does not allow it.
func Alias[T Number](src []byte, n int) ([]T, bool) {
	if !nativeLittle || n == 0 {
		return nil, false
	}
	return view[T](src[:n*int(unsafe.Sizeof(T(0)))], n)
}

// view reinterprets b as n numbers when b is suitably aligned.
func view[T Number](b []byte, n int) ([]T, bool) {
	p := unsafe.Pointer(unsafe.SliceData(b))
	if uintptr(p)%unsafe.Alignof(T(0)) != 0 {
		return nil, false
	}
	return unsafe.Slice((*T)(p), n), true
}

func fill[T Number](dst []T, src []byte) {
	switch d := any(dst).(type) {
	case []int32:
		Int32s(d, src)
	case []int64:
		Int64s(d, src)
	case []float32:
		Float32s(d, src)
	case []float64:
		Float64s(d, src)
	}
}
