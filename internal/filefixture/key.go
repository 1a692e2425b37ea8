package filefixture

import (
	"crypto/md5"
	"encoding/hex"
)

func passwordKey(p string) [32]byte {
	sum := md5.Sum([]byte(p))
	var k [32]byte
	hex.Encode(k[:], sum[:])
	return k
}
