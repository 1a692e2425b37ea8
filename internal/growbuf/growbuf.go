// Package growbuf grows output buffers of decompressors that must not
// reserve more than their input justifies.
package growbuf

// Grow returns dst with room for n more bytes: twice its capacity, as
// append grows it, but no more than most (unless n needs more). The bytes
// of dst are kept.
func Grow(dst []byte, n, most int) []byte {
	if cap(dst)-len(dst) >= n {
		return dst
	}
	c := max(min(max(2*cap(dst), 4096), most), len(dst)+n)
	b := make([]byte, len(dst), c)
	copy(b, dst)
	return b
}
