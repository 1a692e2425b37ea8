package enet

import (
	"bytes"
	"compress/flate"
	"compress/zlib"
	"io"
)

// NewCompressor returns the compressor of a built-in mode, nil for
// CompressNone. A compressor keeps its buffers between datagrams: give
// each host its own.
func NewCompressor(c Compression) Compressor {
	switch c {
	case CompressRangeCoder:
		return new(RangeCoder)
	case CompressZlib:
		return new(zlibCompressor)
	}
	return nil
}

// zlibCompressor is Godot's COMPRESS_ZLIB: one zlib stream per body. Its
// writer and reader are made once and reset for each datagram (a new
// flate writer allocates about 800 KB, a reader about 44 KB).
type zlibCompressor struct {
	w   *zlib.Writer
	out bytes.Buffer
	r   io.ReadCloser
	in  bytes.Reader
}

func (z *zlibCompressor) Compress(dst, src []byte, limit int) []byte {
	z.out.Reset()
	if z.w == nil {
		z.w, _ = zlib.NewWriterLevel(&z.out, flate.DefaultCompression)
	} else {
		z.w.Reset(&z.out)
	}
	z.w.Write(src)
	z.w.Close()
	if z.out.Len() > limit {
		return nil
	}
	return append(dst, z.out.Bytes()...)
}

// Decompress inflates src into dst, reading never more than limit+1
// bytes from the inflater: a body that would inflate further is refused
// once that much has come out.
func (z *zlibCompressor) Decompress(dst, src []byte, limit int) ([]byte, bool) {
	z.in.Reset(src)
	var err error
	if z.r == nil {
		z.r, err = zlib.NewReader(&z.in)
	} else {
		err = z.r.(zlib.Resetter).Reset(&z.in, nil)
	}
	if err != nil {
		return dst, false
	}
	start := len(dst)
	if cap(dst)-start < limit+1 {
		dst = append(dst[:cap(dst)], make([]byte, start+limit+1-cap(dst))...)[:start]
	}
	buf := dst[start : start+limit+1]
	n := 0
	for n < len(buf) {
		m, err := z.r.Read(buf[n:])
		n += m
		if err == io.EOF {
			return dst[:start+n], true
		}
		if err != nil {
			return dst, false
		}
	}
	return dst, false // more than limit
}
