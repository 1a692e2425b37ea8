// Package textchunk copies many short strings into shared blocks of
// memory, one allocation for many strings, for decoders that produce a
// great number of them.
package textchunk

import (
	"encoding/binary"
	"unsafe"
)

// Sizes of the blocks: the first is Min bytes, each next one twice the
// last, up to Max; strings longer than Short get their own allocation.
const (
	Min   = 256
	Max   = 4096
	Short = 64
)

// Chunks hands out strings copied into shared blocks. A string keeps its
// whole block alive, at most Max bytes. The zero Chunks is ready to use.
type Chunks struct {
	block []byte
	used  int // bytes of block handed out (an index: moving it writes no pointer)
}

// String returns a string holding a copy of raw.
func (c *Chunks) String(raw []byte) string {
	n := len(raw)
	if n == 0 || n > Short {
		return string(raw)
	}
	if len(c.block)-c.used < n {
		c.block = make([]byte, min(max(2*len(c.block), Min), Max))
		c.used = 0
	}
	free := c.block[c.used:]
	if n <= 16 && cap(raw) >= 16 && len(free) >= 16 {
		// Two whole words, read past the end of raw and written past the
		// string into the block's unused bytes: no call to copy.
		r := raw[:16:16]
		binary.LittleEndian.PutUint64(free, binary.LittleEndian.Uint64(r))
		binary.LittleEndian.PutUint64(free[8:], binary.LittleEndian.Uint64(r[8:]))
	} else {
		copy(free, raw)
	}
	c.used += n
	return unsafe.String(&free[0], n)
}
