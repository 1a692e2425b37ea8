package gdfile

import (
	"bytes"
	"compress/gzip"
	"compress/zlib"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"sync"

	"github.com/andybalholm/brotli"
	"github.com/gdvar/gdvar/internal/fastlz"
	"github.com/gdvar/gdvar/internal/growbuf"
	"github.com/klauspost/compress/zstd"
)

// Compressed file layout:
//
//	"GCPF"  u32 mode  u32 block_size  u32 total
//	u32 compressed_size × (total / block_size + 1)
//	the compressed blocks, one after the other
//	"GCPF"
//
// Every block holds block_size bytes of data except the last, which holds
// total % block_size (possibly none). All words are little-endian.
const compressedHeader = 16

// Bounds of the history a Zstandard frame may ask for: at least
// minZstdWindow, at most the data it can produce (the engine's frames hold
// one block and ask for no more than its size), never above maxZstdWindow.
const (
	minZstdWindow = 1 << 20
	maxZstdWindow = 1 << 27
)

func decompress(data []byte, o *Options) ([]byte, Container, error) {
	c := Container{Format: Compressed}
	if len(data) < compressedHeader {
		return nil, c, fail("compressed header", 0, ErrTruncated,
			"the header takes 16 bytes, the file has "+strconv.Itoa(len(data)))
	}
	mode := binary.LittleEndian.Uint32(data[4:])
	bs := binary.LittleEndian.Uint32(data[8:])
	total := binary.LittleEndian.Uint32(data[12:])
	c.Compression = Compression(mode)
	c.BlockSize = int(bs)
	if mode > uint32(Brotli) {
		return nil, c, fail("compressed header", 4, ErrUnsupported, "compression mode "+strconv.FormatUint(uint64(mode), 10))
	}
	if bs == 0 {
		return nil, c, fail("compressed header", 8, ErrCorrupt, "block size 0")
	}
	limit := o.maxSize()
	if int64(total) > int64(limit) {
		return nil, c, fail("compressed header", 12, ErrTooLarge, o.sizeDetail("total size", uint64(total)))
	}
	if int64(bs) > int64(limit) && total >= bs {
		return nil, c, fail("compressed header", 8, ErrTooLarge, o.sizeDetail("block size", uint64(bs)))
	}
	nblocks := int(total/bs) + 1
	tableEnd := int64(compressedHeader) + 4*int64(nblocks)
	if tableEnd > int64(len(data)) {
		return nil, c, fail("block table", compressedHeader, ErrTruncated,
			strconv.Itoa(nblocks)+" block sizes take "+strconv.FormatInt(4*int64(nblocks), 10)+
				" bytes, the file has "+strconv.Itoa(len(data)-compressedHeader)+" after the header")
	}
	dec := newDecompressor(c.Compression, min(max(min(int64(bs), int64(total)), minZstdWindow), maxZstdWindow))
	dec.most = int(total) + fastlz.MinInput
	defer dec.close()

	out := make([]byte, 0, min(int(total), 8*len(data)))
	off := tableEnd
	var err error
	for i := range nblocks {
		csize := int64(binary.LittleEndian.Uint32(data[compressedHeader+4*i:]))
		where := "block " + strconv.Itoa(i)
		if off+csize > int64(len(data)) {
			return nil, c, fail(where, off, ErrTruncated,
				strconv.FormatInt(csize, 10)+" compressed bytes, the file has "+strconv.FormatInt(int64(len(data))-off, 10)+" left")
		}
		want := int(bs)
		if i == nblocks-1 {
			want = int(total % bs)
		}
		if out, err = dec.block(out, data[off:off+csize], want); err != nil {
			return nil, c, fail(where, off, ErrCorrupt, err.Error())
		}
		off += csize
	}
	return out, c, nil
}

// decompressor decompresses the blocks of one file.
type decompressor struct {
	mode   Compression
	window int64 // the largest Zstandard window accepted
	most   int   // the capacity the output never needs to exceed
	zstd   *zstd.Decoder
	// The readers of the other modes, made at the first block and reset
	// for each next one: a new zlib or gzip reader costs about 40 KB.
	zlib io.ReadCloser
	gzip *gzip.Reader
}

func newDecompressor(mode Compression, window int64) *decompressor {
	return &decompressor{mode: mode, window: window}
}

func (d *decompressor) close() {
	if d.zstd != nil {
		d.zstd.Close()
	}
}

// block decompresses one block that must give exactly want bytes, and
// appends them to dst.
func (d *decompressor) block(dst, src []byte, want int) ([]byte, error) {
	if d.mode == FastLZ {
		// The engine compresses short blocks padded to 16 bytes and keeps
		// the first want bytes of what comes out.
		start := len(dst)
		out, err := fastlz.Decompress(dst, src, max(want, fastlz.MinInput), d.most)
		if err != nil {
			return dst, err
		}
		if n := len(out) - start; n < want || want >= fastlz.MinInput && n != want {
			return dst, errors.New("decompresses to " + strconv.Itoa(n) + " bytes, expected " + strconv.Itoa(want))
		}
		return out[:start+want], nil
	}
	var r io.Reader
	var err error
	switch d.mode {
	case Deflate:
		if d.zlib == nil {
			d.zlib, err = zlib.NewReader(bytes.NewReader(src))
		} else {
			err = d.zlib.(zlib.Resetter).Reset(bytes.NewReader(src), nil)
		}
		r = d.zlib
	case Gzip:
		if d.gzip == nil {
			d.gzip, err = gzip.NewReader(bytes.NewReader(src))
		} else {
			err = d.gzip.Reset(bytes.NewReader(src))
		}
		if err == nil {
			d.gzip.Multistream(false)
			r = d.gzip
		}
	case Zstd:
		if d.zstd == nil {
			d.zstd, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
				zstd.WithDecoderMaxWindow(uint64(d.window)), zstd.WithDecoderMaxMemory(uint64(d.window)))
		}
		if err == nil {
			err = d.zstd.Reset(bytes.NewReader(src))
			r = d.zstd
		}
	case Brotli:
		r = brotli.NewReader(bytes.NewReader(src))
	}
	if err != nil {
		return dst, err
	}
	// The data grows dst as it comes out: a block that claims more than it
	// holds costs nothing beyond what it does hold.
	end := len(dst) + want
	for len(dst) < end {
		dst = growbuf.Grow(dst, min(end-len(dst), 64<<10), d.most)
		n, err := r.Read(dst[len(dst):min(cap(dst), end)])
		dst = dst[:len(dst)+n]
		if err == io.EOF {
			break
		}
		if err != nil {
			return dst, err
		}
	}
	if len(dst) < end {
		return dst, errors.New("decompresses to " + strconv.Itoa(want-(end-len(dst))) + " bytes, expected " + strconv.Itoa(want))
	}
	// The stream must end right there (which also makes zlib and gzip
	// check their checksums).
	var one [1]byte
	switch n, err := io.ReadFull(r, one[:]); {
	case n > 0:
		return dst, errors.New("decompresses to more than the expected " + strconv.Itoa(want) + " bytes")
	case err != io.EOF && err != io.ErrUnexpectedEOF:
		return dst, err
	}
	return dst, nil
}

// zstdEncoder is the Zstandard encoder shared by every Wrap: EncodeAll is
// safe for concurrent use, and an encoder is costly to set up. Empty
// blocks become empty frames, as libzstd writes them.
var zstdEncoder = sync.OnceValues(func() (*zstd.Encoder, error) {
	return zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1), zstd.WithZeroFrames(true),
		zstd.WithEncoderLevel(zstd.SpeedDefault), zstd.WithWindowSize(1<<20))
})

// zlibWriters and gzipWriters hold the writers compress made, for the
// next.
var (
	zlibWriters = sync.Pool{New: func() any { return zlib.NewWriter(io.Discard) }}
	gzipWriters = sync.Pool{New: func() any { return gzip.NewWriter(io.Discard) }}
)

// putWriter returns w to its pool, pointing at no output of the caller's.
func putWriter(p *sync.Pool, w interface{ Reset(io.Writer) }) {
	w.Reset(io.Discard)
	p.Put(w)
}

func compress(data []byte, c Container) ([]byte, error) {
	bs := c.BlockSize
	if bs == 0 {
		bs = DefaultBlockSize
	}
	if bs < 0 || int64(bs) > 1<<32-1 {
		return nil, errors.New("gdfile: BlockSize " + strconv.Itoa(bs) + " does not fit the header's 32 bits")
	}
	if int64(len(data)) > 1<<32-1 {
		return nil, fail("compressed file", 0, ErrTooLarge, "a compressed file holds less than 4 GiB")
	}
	var comp func(dst, src []byte) ([]byte, error)
	switch c.Compression {
	case FastLZ:
		comp = func(dst, src []byte) ([]byte, error) {
			return fastlz.CompressBlock(dst, src), nil
		}
	// A zlib or gzip writer costs about 1 MB to set up: one, from a pool
	// shared by every Wrap, serves every block, reset for each.
	case Deflate:
		w := zlibWriters.Get().(*zlib.Writer)
		defer putWriter(&zlibWriters, w)
		comp = func(dst, src []byte) ([]byte, error) {
			buf := bytes.NewBuffer(dst)
			w.Reset(buf)
			w.Write(src)
			err := w.Close()
			return buf.Bytes(), err
		}
	case Gzip:
		w := gzipWriters.Get().(*gzip.Writer)
		defer putWriter(&gzipWriters, w)
		comp = func(dst, src []byte) ([]byte, error) {
			buf := bytes.NewBuffer(dst)
			w.Reset(buf)
			w.OS = 3 // Unix, as the engine's zlib writes
			w.Write(src)
			err := w.Close()
			return buf.Bytes(), err
		}
	case Zstd:
		enc, err := zstdEncoder()
		if err != nil {
			return nil, err
		}
		comp = func(dst, src []byte) ([]byte, error) { return enc.EncodeAll(src, dst), nil }
	case Brotli:
		return nil, fail("compressed file", 0, ErrUnsupported, "Brotli is read-only: the engine cannot write it either")
	default:
		return nil, fail("compressed file", 0, ErrUnsupported, "compression mode "+strconv.FormatUint(uint64(c.Compression), 10))
	}

	nblocks := len(data)/bs + 1
	out := make([]byte, compressedHeader+4*nblocks, compressedHeader+4*nblocks+len(data)/2+64)
	copy(out, magicCompressed)
	binary.LittleEndian.PutUint32(out[4:], uint32(c.Compression))
	binary.LittleEndian.PutUint32(out[8:], uint32(bs))
	binary.LittleEndian.PutUint32(out[12:], uint32(len(data)))
	for i := range nblocks {
		block := data[i*bs : min((i+1)*bs, len(data))]
		start := len(out)
		var err error
		if out, err = comp(out, block); err != nil {
			return nil, err
		}
		binary.LittleEndian.PutUint32(out[compressedHeader+4*i:], uint32(len(out)-start))
	}
	return append(out, magicCompressed...), nil
}
