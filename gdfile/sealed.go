package gdfile

import (
	"crypto/aes"
	"crypto/md5"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"strconv"
)

// SealedHeader is the size of the header of a sealed block: md5[16], u64
// length, iv[16].
const SealedHeader = 16 + 8 + 16

// SealedSize returns the size of the sealed block holding n bytes of
// plaintext: the header and the ciphertext, n rounded up to 16 bytes.
func SealedSize(n uint64) uint64 { return SealedHeader + padded(n) }

// SealedLength returns the plaintext length a sealed block's header
// announces; header must hold at least SealedHeader bytes.
func SealedLength(header []byte) uint64 { return binary.LittleEndian.Uint64(header[16:]) }

// OpenSealed decrypts a sealed block: Godot 4's encrypted layout without
// the "GDEC" magic (md5[16], u64 length, iv[16], AES-256-CFB ciphertext),
// which FileAccessEncrypted reads when opened on another file without its
// magic, as resource packs store their encrypted directory and files.
// block must hold the whole block (SealedSize of the length); bytes after
// it are ignored. A wrong key or damaged data fails with ErrWrongKey.
func OpenSealed(block []byte, key Key) ([]byte, error) {
	if len(block) < SealedHeader {
		return nil, fail("sealed header", 0, ErrTruncated,
			"the header takes "+strconv.Itoa(SealedHeader)+" bytes, the data has "+strconv.Itoa(len(block)))
	}
	n := SealedLength(block)
	have := uint64(len(block) - SealedHeader)
	if n > have || padded(n) > have {
		return nil, fail("sealed data", SealedHeader, ErrTruncated,
			"the header announces "+strconv.FormatUint(n, 10)+" bytes, the data has "+strconv.FormatUint(have, 10)+" after the header")
	}
	b, err := aes.NewCipher(key[:])
	if err != nil {
		return nil, err
	}
	ds := padded(n)
	plain := make([]byte, ds)
	cfb(b, block[24:40], plain, block[SealedHeader:SealedHeader+ds], false)
	plain = plain[:n]
	got := md5.Sum(plain)
	if subtle.ConstantTimeCompare(got[:], block[:16]) != 1 {
		return nil, fail("sealed data", 0, ErrWrongKey, "")
	}
	return plain, nil
}

// AppendSealed appends the sealed block of plain to dst (see OpenSealed),
// encrypted with key and iv, or a random IV when iv is nil.
func AppendSealed(dst, plain []byte, key Key, iv []byte) ([]byte, error) {
	if iv == nil {
		iv = make([]byte, blockSize)
		if _, err := rand.Read(iv); err != nil {
			return dst, err
		}
	}
	if len(iv) != blockSize {
		return dst, fmt.Errorf("gdfile: an IV has 16 bytes, got %d", len(iv))
	}
	b, err := aes.NewCipher(key[:])
	if err != nil {
		return dst, err
	}
	n := uint64(len(plain))
	sum := md5.Sum(plain)
	at := len(dst)
	dst = append(dst, sum[:]...)
	dst = binary.LittleEndian.AppendUint64(dst, n)
	dst = append(dst, iv...)
	dst = append(dst, plain...)
	dst = append(dst, make([]byte, padded(n)-n)...)
	body := dst[at+SealedHeader:]
	cfb(b, iv, body, body, true)
	return dst, nil
}
