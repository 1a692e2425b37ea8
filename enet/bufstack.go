package enet

// bufStack is a class's free send buffers: a stack kept in chunks of
// bufChunkLen places, each allocated when the stack first needs it, so
// that a growing stack never copies itself (a slice grown by doubling
// leaves its old arrays behind, as much garbage as it holds). Emptied
// chunks are kept (spare) until release, so that a stack going up and
// down allocates nothing once it has reached its height.
type bufStack struct {
	top   *bufChunk // nil when empty
	spare *bufChunk // emptied chunks, linked
	n     int
}

// bufChunkLen fills a chunk's allocation: 40 places and two words, 976
// bytes in the allocator's 1024-byte class.
const bufChunkLen = 40

type bufChunk struct {
	bufs [bufChunkLen][]byte
	n    int
	next *bufChunk // the chunk below, or the next spare one
}

func (s *bufStack) len() int { return s.n }

func (s *bufStack) push(b []byte) {
	c := s.top
	if c == nil || c.n == bufChunkLen {
		c = s.spare
		if c != nil {
			s.spare = c.next
		} else {
			c = new(bufChunk)
		}
		c.next = s.top
		s.top = c
	}
	c.bufs[c.n] = b
	c.n++
	s.n++
}

// pop returns the last buffer pushed, or nil.
func (s *bufStack) pop() []byte {
	c := s.top
	if c == nil {
		return nil
	}
	c.n--
	b := c.bufs[c.n]
	c.bufs[c.n] = nil
	s.n--
	if c.n == 0 {
		s.top = c.next
		c.next = s.spare
		s.spare = c
	}
	return b
}

// release lets go of the spare chunks.
func (s *bufStack) release() { s.spare = nil }
