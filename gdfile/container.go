package gdfile

import (
	"bytes"
	"crypto/md5"
	"encoding/hex"
	"fmt"
	"io"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// Format is the kind of container around a file's data.
type Format uint8

// Container formats.
const (
	// Plain: the data as it is (FileAccess.open).
	Plain Format = iota + 1
	// Encrypted: "GDEC", AES-256 (open_encrypted, open_encrypted_with_pass).
	Encrypted
	// Compressed: "GCPF", compressed blocks (open_compressed).
	Compressed
)

var formatNames = [...]string{"", "plain", "encrypted", "compressed"}

// String returns "plain", "encrypted" or "compressed".
func (f Format) String() string {
	if f > 0 && int(f) < len(formatNames) {
		return formatNames[f]
	}
	return "Format(" + strconv.Itoa(int(f)) + ")"
}

// The magic bytes at the start of containers.
var (
	magicEncrypted  = []byte("GDEC")
	magicCompressed = []byte("GCPF")
)

// Detect returns the container format of data by its magic bytes: "GDEC"
// is Encrypted, "GCPF" is Compressed, anything else Plain.
func Detect(data []byte) Format {
	switch {
	case bytes.HasPrefix(data, magicEncrypted):
		return Encrypted
	case bytes.HasPrefix(data, magicCompressed):
		return Compressed
	}
	return Plain
}

// Compression is a compression mode of compressed files, numbered as
// Godot's FileAccess.CompressionMode.
type Compression uint32

// Compression modes.
const (
	FastLZ  Compression = 0 // COMPRESSION_FASTLZ
	Deflate Compression = 1 // COMPRESSION_DEFLATE: a zlib stream
	Zstd    Compression = 2 // COMPRESSION_ZSTD
	Gzip    Compression = 3 // COMPRESSION_GZIP
	Brotli  Compression = 4 // COMPRESSION_BROTLI: Godot 4 reads it, nothing writes it
)

var compressionNames = [...]string{"fastlz", "deflate", "zstd", "gzip", "brotli"}

// String returns the lower-case name of the mode: "fastlz", "deflate",
// "zstd", "gzip" or "brotli".
func (c Compression) String() string {
	if int(c) < len(compressionNames) {
		return compressionNames[c]
	}
	return "Compression(" + strconv.FormatUint(uint64(c), 10) + ")"
}

// ParseCompression returns the mode named name, as String spells it.
func ParseCompression(name string) (Compression, bool) {
	for i, n := range compressionNames {
		if n == name {
			return Compression(i), true
		}
	}
	return 0, false
}

// DefaultBlockSize is the block size of compressed files the engine
// writes.
const DefaultBlockSize = 4096

// DefaultMaxSize is the default largest data a file may hold, after
// decryption or decompression: 16 MiB.
const DefaultMaxSize = 16 << 20

// ValuesPerByte is the default budget of values per byte of MaxSize: 1 in
// 16, a million values for DefaultMaxSize. The smallest store_var value
// takes 8 bytes and an Array element 4, so data of the cheapest shapes
// holds more than that; data of ordinary shapes holds less.
const ValuesPerByte = 16

// Container describes the wrapping of a file: what Unwrap found, what Wrap
// writes.
type Container struct {
	// Format is Plain, Encrypted or Compressed.
	Format Format
	// Family is the layout of an encrypted file: variant.Godot3 (AES-256
	// in ECB mode, after a mode word) or variant.Godot4 (AES-256 in CFB
	// mode with an IV); 0 means Godot4 when writing. Unwrap sets it for
	// encrypted files only: the other containers are the same in both
	// families.
	Family variant.Family
	// IV is the 16-byte initialization vector of a Godot 4 encrypted file.
	// Wrap uses a random one when it is nil, as the engine does.
	IV []byte
	// Compression is the mode of a compressed file.
	Compression Compression
	// BlockSize is the block size of a compressed file, 1 to 2³²-1 as
	// its header holds it; 0 means DefaultBlockSize when writing.
	BlockSize int
}

// String describes the container: "plain", "encrypted (Godot 4, AES-256-CFB)",
// "compressed (zstd, 4096-byte blocks)".
func (c Container) String() string {
	switch c.Format {
	case Encrypted:
		if c.Family == variant.Godot3 {
			return "encrypted (Godot 3, AES-256-ECB)"
		}
		return "encrypted (Godot 4, AES-256-CFB)"
	case Compressed:
		bs := c.BlockSize
		if bs == 0 {
			bs = DefaultBlockSize
		}
		return fmt.Sprintf("compressed (%v, %d-byte blocks)", c.Compression, bs)
	}
	return c.Format.String()
}

// Key is an AES-256 key, the key of FileAccess.open_encrypted.
type Key [32]byte

// PasswordKey returns the key open_encrypted_with_pass derives from
// password: the 32 characters of the lower-case hex MD5 of its UTF-8 bytes.
func PasswordKey(password string) Key {
	sum := md5.Sum([]byte(password))
	var k Key
	hex.Encode(k[:], sum[:])
	return k
}

// ParseKey reads a key written as 64 hex digits.
func ParseKey(s string) (Key, error) {
	var k Key
	b, err := hex.DecodeString(s)
	if err != nil || len(b) != len(k) {
		return k, fmt.Errorf("gdfile: a key is 64 hex digits (32 bytes), got %q", s)
	}
	copy(k[:], b)
	return k, nil
}

// Options configures reading and writing.
type Options struct {
	// Key decrypts and encrypts encrypted files; nil makes them fail with
	// ErrNeedKey. PasswordKey turns a password into one.
	Key *Key
	// MaxSize is the largest data a file may hold, after decryption or
	// decompression; 0 means DefaultMaxSize (16 MiB). More fails with
	// ErrTooLarge before it is decrypted or decompressed.
	MaxSize int
	// MaxValues is the most values Read may decode from a file in all:
	// each store_var value and, through every level, the elements of its
	// Arrays, Dictionaries, objects, NodePaths and PackedStringArrays, as
	// variant.DecMode.DecodeBudget counts them; 0 means MaxSize /
	// ValuesPerByte. More fails with ErrTooLarge before they are
	// allocated.
	MaxValues int
	// Godot is the engine family of the values, for Read and Encode. 0
	// makes Read find it out: the family in which every value fills its
	// frame exactly (Godot 3 for files in Godot 3's encrypted layout, and
	// Godot 4 when both fit), and Encode use Godot 4. It fills Dec.Family
	// and Enc.Family where those are 0.
	Godot variant.Family
	// Dec configures decoding the values (objects, depth, limits).
	Dec variant.DecOptions
	// Enc configures encoding them (target version, precision, full
	// objects).
	Enc variant.EncOptions
	// Endian is the byte order of the store_var length prefixes.
	Endian Endian
	// Progress, when set, is called after each value: by Read with the
	// bytes of the unwrapped data decoded so far and their total, by
	// Encode with the values encoded so far and their number.
	Progress func(done, total int64)
}

// Endian is the byte order of store_var length prefixes.
type Endian uint8

// Byte orders.
const (
	// AutoEndian reads little-endian, or big-endian when only that splits
	// the data into whole values; it writes little-endian.
	AutoEndian Endian = iota
	// LittleEndian is the engine's default.
	LittleEndian
	// BigEndian is FileAccess.big_endian (Godot 3: File.endian_swap).
	BigEndian
)

func (o *Options) maxSize() int {
	if o.MaxSize > 0 {
		return o.MaxSize
	}
	return DefaultMaxSize
}

func (o *Options) maxValues() int64 {
	if o.MaxValues > 0 {
		return int64(o.MaxValues)
	}
	return int64(max(o.maxSize()/ValuesPerByte, 1))
}

// valuesDetail says what the budget of values is and how to raise it.
func (o *Options) valuesDetail() string {
	return "the file holds more than MaxValues (" + strconv.FormatInt(o.maxValues(), 10) +
		") values in all; raise Options.MaxValues (or MaxSize, of which it is a 16th by default)"
}

// sizeDetail says what the size limit is and how to raise it.
func (o *Options) sizeDetail(what string, n uint64) string {
	return what + " " + strconv.FormatUint(n, 10) + " exceeds MaxSize " + strconv.Itoa(o.maxSize()) +
		"; raise Options.MaxSize"
}

// ValueLimit is the budget of values Read decodes from a file under o:
// MaxValues, or its default from MaxSize.
func (o Options) ValueLimit() int64 { return o.maxValues() }

// InputLimit is the largest file Read and Unwrap may accept under o: its
// MaxSize and room for a container's headers, block table and
// incompressible blocks. ReadAll reads no more.
func (o Options) InputLimit() int64 {
	m := int64(o.maxSize())
	return m + m/4 + 4096
}

// ReadAll reads r to its end, as io.ReadAll, but fails with ErrTooLarge,
// having read no more than InputLimit bytes, when r holds more than a file
// may under o.
func ReadAll(r io.Reader, o Options) ([]byte, error) {
	limit := o.InputLimit()
	b, err := io.ReadAll(io.LimitReader(r, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(b)) > limit {
		return nil, fail("file", limit, ErrTooLarge, "more than "+strconv.FormatInt(limit, 10)+
			" bytes, the most a file may take with MaxSize "+strconv.Itoa(o.maxSize())+"; raise Options.MaxSize")
	}
	return b, nil
}

// Unwrap takes data out of its container: it decrypts an encrypted file
// (checking its MD5) and decompresses a compressed one; plain data comes
// back as it is. It also describes the container.
//
// Like the engine, Unwrap ignores bytes after an encrypted file's data and
// after a compressed file's last block. It is stricter than the engine in
// one way: a compressed block must decompress to exactly its size (the
// engine does not check FastLZ blocks and reads zeros instead).
func Unwrap(data []byte, o Options) ([]byte, Container, error) {
	switch Detect(data) {
	case Encrypted:
		return decrypt(data, &o)
	case Compressed:
		return decompress(data, &o)
	}
	if len(data) > o.maxSize() {
		return nil, Container{Format: Plain}, fail("plain file", 0, ErrTooLarge, o.sizeDetail("size", uint64(len(data))))
	}
	return data, Container{Format: Plain}, nil
}

// Wrap puts data into the container c, as the engine writes it. Encrypted
// containers need Options.Key; a Godot 4 one gets a random IV unless c.IV
// is set. Compressed containers use c.Compression, in blocks of
// c.BlockSize bytes; Brotli cannot be written.
func Wrap(data []byte, c Container, o Options) ([]byte, error) {
	switch c.Format {
	case Plain:
		return bytes.Clone(data), nil
	case Encrypted:
		return encrypt(data, c, &o)
	case Compressed:
		return compress(data, c)
	}
	return nil, fmt.Errorf("gdfile: unknown container format %d", c.Format)
}
