// Package textchunk copies many short strings into shared blocks of
// memory, one allocation for many strings, for decoders that produce a
// great number of them.
package textchunk

import "unsafe"

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
	free []byte // the unused part of the current block
	size int
}

// String returns a string holding a copy of raw.
func (c *Chunks) String(raw []byte) string {
	n := len(raw)
	if n == 0 || n > Short {
		return string(raw)
	}
	if len(c.free) < n {
		c.size = min(max(2*c.size, Min), Max)
		c.free = make([]byte, c.size)
	}
	copy(c.free, raw)
	s := unsafe.String(&c.free[0], n)
	c.free = c.free[n:]
	return s
}
