package enet

// bufStack is a class's free send buffers: a stack kept in chunks of
// bufChunkLen places, each allocated when the stack first needs it, so
// that a growing stack never copies itself (a slice grown by doubling
// leaves its old arrays behind, as much garbage as it holds), and an
// emptied chunk is let go. One emptied chunk is kept (spare), so that a
// stack going up and down across a chunk's edge allocates nothing.
type bufStack struct {
	top   *bufChunk // nil when empty
	spare *bufChunk
	n     int
}

// bufChunkLen fills a chunk's allocation: 40 places and two words, 976
// bytes in the allocator's 1024-byte class.
const bufChunkLen = 40

type bufChunk struct {
	bufs [bufChunkLen][]byte
	n    int
	next *bufChunk // the chunk below
}

func (s *bufStack) len() int { return s.n }

func (s *bufStack) push(b []byte) {
	c := s.top
	if c == nil || c.n == bufChunkLen {
		c, s.spare = s.spare, nil
		if c == nil {
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
		c.next = nil
		s.spare = c
	}
	return b
}

// release lets go of the spare chunk.
func (s *bufStack) release() { s.spare = nil }
