// Package godotcompress provides Godot's ENet compression modes for the
// enet package: NetworkedMultiplayerENet.compression_mode (Godot 3) and
// ENetConnection.compress (Godot 4) select one of none, ENet's range
// coder, FastLZ, zlib and Zstandard, and both ends of a connection must
// use the same. Limits: a datagram's body decompresses into at most what
// a datagram can hold, and a datagram whose body does not is dropped (and
// counted in the enet host's statistics); a Zstandard frame declaring a
// window over 4 KiB is refused; NewZstd allocates about 130 MB once, for
// its decoder, which every datagram then reuses.
//
// Godot compresses the body of each datagram (everything after ENet's
// header) with its Compression class (the compressor callbacks of
// modules/enet, the same in 3.x and 4.x): FastLZ as one level 1 block of
// the body zero-padded to 16 bytes when shorter, Zstandard as one frame
// at level 3, zlib as one zlib stream. A body decompresses into at most
// what the datagram can hold; the padding of a short FastLZ body comes
// out as trailing zeros, which ENet reads as the end of the commands.
//
// The enet package itself has the range coder and zlib built in; this
// package adds FastLZ and Zstandard, which need code outside the standard
// library.
package godotcompress

import (
	"fmt"
	"slices"
	"strings"

	"github.com/gdvar/gdvar/enet"
	"github.com/gdvar/gdvar/internal/fastlz"
	"github.com/klauspost/compress/zstd"
)

// Mode is a compression mode, numbered as Godot's CompressionMode enum
// (NetworkedMultiplayerENet.COMPRESS_* in 3.x, ENetConnection.COMPRESS_*
// in 4.x).
type Mode int

// The modes.
const (
	None       Mode = 0
	RangeCoder Mode = 1
	FastLZ     Mode = 2
	Zlib       Mode = 3
	Zstd       Mode = 4
)

var names = [...]string{"none", "rangecoder", "fastlz", "zlib", "zstd"}

// String returns the mode's name as ParseMode reads it.
func (m Mode) String() string {
	if m >= 0 && int(m) < len(names) {
		return names[m]
	}
	return fmt.Sprintf("Mode(%d)", int(m))
}

// ParseMode reads a mode name: none, rangecoder (or range_coder), fastlz,
// zlib or zstd, in any case.
func ParseMode(s string) (Mode, error) {
	s = strings.ReplaceAll(strings.ToLower(s), "_", "")
	for i, n := range names {
		if s == n {
			return Mode(i), nil
		}
	}
	return 0, fmt.Errorf("godotcompress: unknown compression mode %q (none, rangecoder, fastlz, zlib, zstd)", s)
}

// Configure sets cfg's Compression and Compressor for mode m. Each host
// needs its own Config.Compressor: call Configure once per host.
func Configure(cfg *enet.Config, m Mode) error {
	cfg.Compression, cfg.Compressor = enet.CompressNone, nil
	switch m {
	case None:
	case RangeCoder:
		cfg.Compression = enet.CompressRangeCoder
	case Zlib:
		cfg.Compression = enet.CompressZlib
	case FastLZ:
		cfg.Compressor = NewFastLZ()
	case Zstd:
		z, err := NewZstd()
		if err != nil {
			return err
		}
		cfg.Compressor = z
	default:
		return fmt.Errorf("godotcompress: unknown %v", m)
	}
	return nil
}

type fastLZ struct{}

// NewFastLZ returns Godot's COMPRESS_FASTLZ.
func NewFastLZ() enet.Compressor { return fastLZ{} }

func (fastLZ) Compress(dst, src []byte, limit int) []byte {
	n := len(dst)
	out := fastlz.CompressBlock(dst, src)
	if len(out)-n > limit {
		return nil
	}
	return out
}

func (fastLZ) Decompress(dst, src []byte, limit int) ([]byte, bool) {
	out, err := fastlz.Decompress(dst, src, limit, limit)
	return out, err == nil
}

// zstdLevel is the engine's default Zstandard level
// (compression/zstd_compression_level).
const zstdLevel = 3

type zstdCompressor struct {
	enc *zstd.Encoder
	dec *zstd.Decoder
}

// maxZstdWindow is the largest window a Zstandard frame may declare: a
// datagram body is at most 4 KiB, and the engine's frames, which always
// state their content size, have a window of that size. A larger window
// is refused from the frame's header, so that no block can produce more
// than this much output before the limit is checked.
const maxZstdWindow = 4 << 10

// NewZstd returns Godot's COMPRESS_ZSTD. Its encoder and decoder are made
// once (a new decoder allocates about 130 MB) and reused for every
// datagram.
func NewZstd() (enet.Compressor, error) {
	enc, err := zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1),
		zstd.WithEncoderLevel(zstd.EncoderLevelFromZstd(zstdLevel)))
	if err != nil {
		return nil, err
	}
	dec, err := zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecodeAllCapLimit(true),
		zstd.WithDecoderMaxMemory(maxZstdWindow), zstd.WithDecoderMaxWindow(maxZstdWindow))
	if err != nil {
		return nil, err
	}
	return &zstdCompressor{enc, dec}, nil
}

func (z *zstdCompressor) Compress(dst, src []byte, limit int) []byte {
	n := len(dst)
	out := z.enc.EncodeAll(src, dst)
	if len(out)-n > limit {
		return nil
	}
	return out
}

// Decompress decodes into dst's spare capacity, cut to limit bytes: the
// decoder refuses a frame whose stated size is larger at its header, and
// stops one that does not state it after the block that passes the limit
// (a block is at most maxZstdWindow bytes).
func (z *zstdCompressor) Decompress(dst, src []byte, limit int) ([]byte, bool) {
	n := len(dst)
	dst = slices.Grow(dst, limit)[: n : n+limit]
	out, err := z.dec.DecodeAll(src, dst)
	return out, err == nil && len(out)-n <= limit
}
