package gdfile

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/md5"
	"crypto/rand"
	"crypto/subtle"
	"encoding/binary"
	"fmt"
	"strconv"

	"github.com/gdvar/gdvar/variant"
)

// Encrypted file layouts, after the 4-byte magic:
//
//	Godot 3:  u32 mode (1 = AES-256)  md5[16]  u64 length  ciphertext (ECB)
//	Godot 4:  md5[16]  u64 length  iv[16]  ciphertext (CFB-128)
//
// The ciphertext is the plaintext padded with zeros to a multiple of 16
// bytes; the MD5 is of the plaintext, length is its size.
const (
	header3   = 4 + 4 + 16 + 8
	header4   = 4 + 16 + 8 + 16
	aesMode3  = 1 // FileAccessEncrypted::MODE_WRITE_AES256
	blockSize = aes.BlockSize
)

func padded(n uint64) uint64 { return (n + blockSize - 1) &^ (blockSize - 1) }

// fits reports whether data holds a whole encrypted file whose length
// field is at lenOff and whose ciphertext starts at hdr.
func fits(data []byte, lenOff, hdr int) bool {
	if len(data) < hdr {
		return false
	}
	n := binary.LittleEndian.Uint64(data[lenOff:])
	return n <= uint64(len(data)) && uint64(len(data)-hdr) >= padded(n)
}

// layout3 reports whether data is laid out as a Godot 3 encrypted file: it
// has the mode word, and does not fit Godot 4's layout better.
func layout3(data []byte) bool {
	if len(data) < 8 || binary.LittleEndian.Uint32(data[4:]) != aesMode3 {
		return false
	}
	return fits(data, 24, header3) || !fits(data, 20, header4)
}

func decrypt(data []byte, o *Options) ([]byte, Container, error) {
	c := Container{Format: Encrypted, Family: variant.Godot4}
	if layout3(data) {
		c.Family = variant.Godot3
	}
	hdr := header4
	if c.Family == variant.Godot3 {
		hdr = header3
	}
	if len(data) < hdr {
		return nil, c, fail("encrypted header", 0, ErrTruncated,
			"the header takes "+strconv.Itoa(hdr)+" bytes, the file has "+strconv.Itoa(len(data)))
	}
	var sum []byte
	var n uint64
	lenOff := 20
	if c.Family == variant.Godot3 {
		lenOff = 24
		sum, n = data[8:24], binary.LittleEndian.Uint64(data[24:])
	} else {
		sum, n = data[4:20], binary.LittleEndian.Uint64(data[20:])
		c.IV = append([]byte(nil), data[28:44]...)
	}
	have := uint64(len(data) - hdr)
	ds := padded(min(n, have+1)) // no overflow: the data must be there
	if n > have || have < ds {
		return nil, c, fail("encrypted data", int64(hdr), ErrTruncated,
			"the header announces "+strconv.FormatUint(n, 10)+" bytes ("+strconv.FormatUint(padded(min(n, 1<<62)), 10)+
				" encrypted), the file has "+strconv.FormatUint(have, 10)+" after the header")
	}
	if n > uint64(o.maxSize()) {
		return nil, c, fail("encrypted header", int64(lenOff), ErrTooLarge, o.sizeDetail("data length", n))
	}
	if o.Key == nil {
		return nil, c, fail("encrypted file", 0, ErrNeedKey, "")
	}
	block, err := aes.NewCipher(o.Key[:])
	if err != nil {
		return nil, c, err
	}
	plain := make([]byte, ds)
	ct := data[hdr : hdr+int(ds)]
	if c.Family == variant.Godot3 {
		for i := 0; i < len(ct); i += blockSize {
			block.Decrypt(plain[i:i+blockSize], ct[i:i+blockSize])
		}
	} else {
		cfb(block, c.IV, plain, ct, false)
	}
	plain = plain[:n]
	got := md5.Sum(plain)
	if subtle.ConstantTimeCompare(got[:], sum) != 1 {
		return nil, c, fail("encrypted file", 0, ErrWrongKey, "")
	}
	return plain, c, nil
}

// cfb runs AES in CFB mode with a full-block feedback (mbedTLS's
// aes_crypt_cfb128, which the engine uses) over whole blocks: each
// keystream block encrypts the previous ciphertext block, the IV first.
func cfb(block cipher.Block, iv, dst, src []byte, encrypting bool) {
	var fb, ks [blockSize]byte
	copy(fb[:], iv)
	for i := 0; i < len(src); i += blockSize {
		block.Encrypt(ks[:], fb[:])
		in := src[i : i+blockSize]
		out := dst[i : i+blockSize]
		if encrypting {
			subtle.XORBytes(out, in, ks[:])
			copy(fb[:], out)
		} else {
			copy(fb[:], in) // in may be out
			subtle.XORBytes(out, in, ks[:])
		}
	}
}

func encrypt(data []byte, c Container, o *Options) ([]byte, error) {
	if o.Key == nil {
		return nil, fail("encrypted file", 0, ErrNeedKey, "")
	}
	fam := c.Family
	if fam == 0 {
		fam = variant.Godot4
	}
	if fam != variant.Godot3 && fam != variant.Godot4 {
		return nil, fmt.Errorf("gdfile: Container.Family %d is neither 3 nor 4", fam)
	}
	block, err := aes.NewCipher(o.Key[:])
	if err != nil {
		return nil, err
	}
	n := uint64(len(data))
	ds := int(padded(n))
	sum := md5.Sum(data)
	hdr := header4
	if fam == variant.Godot3 {
		hdr = header3
	}
	out := make([]byte, hdr+ds)
	copy(out, magicEncrypted)
	body := out[hdr:]
	copy(body, data) // zero padding
	if fam == variant.Godot3 {
		binary.LittleEndian.PutUint32(out[4:], aesMode3)
		copy(out[8:], sum[:])
		binary.LittleEndian.PutUint64(out[24:], n)
		for i := 0; i < ds; i += blockSize {
			block.Encrypt(body[i:i+blockSize], body[i:i+blockSize])
		}
		return out, nil
	}
	iv := c.IV
	if iv == nil {
		iv = make([]byte, blockSize)
		if _, err := rand.Read(iv); err != nil {
			return nil, err
		}
	}
	if len(iv) != blockSize {
		return nil, fmt.Errorf("gdfile: an IV has 16 bytes, got %d", len(iv))
	}
	copy(out[4:], sum[:])
	binary.LittleEndian.PutUint64(out[20:], n)
	copy(out[28:], iv)
	cfb(block, iv, body, body, true)
	return out, nil
}
