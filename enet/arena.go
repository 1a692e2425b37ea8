package enet

// The datagrams of a flush are built one after the other in chunks of
// memory (an arena), each datagram taking the bytes it needs, not an MTU
// each. A flush takes chunks from the host's free list (a new one when
// the list is empty) and gives them back once its datagrams are written:
// a host keeps as many as its largest flushes used, up to
// maxArenaBytes, and gives back those unused for a second (pools.go).

// maxArenaBytes bounds the free chunks a host keeps.
const maxArenaBytes = 256 << 10

// arenaChunk is one chunk of an arena; next links the chunks of one
// outbox, or the free ones.
type arenaChunk struct {
	b    []byte
	next *arenaChunk
}

// arenaList is a stack of chunks.
type arenaList struct {
	head *arenaChunk
	n    int
}

func (l *arenaList) push(c *arenaChunk) {
	c.next = l.head
	l.head = c
	l.n++
}

func (l *arenaList) pop() *arenaChunk {
	c := l.head
	if c != nil {
		l.head = c.next
		c.next = nil
		l.n--
	}
	return c
}

// chunkSize is the size of the host's arena chunks: room for at least
// four of its largest datagrams, and 16 KiB.
func (h *Host) chunkSize() int { return max(16<<10, 4*(h.cfg.MTU+8)) }

// takeOutbox takes the datagrams built so far and the chunks that hold
// their bytes, for write.
func (h *Host) takeOutbox() ([]datagram, *arenaChunk) {
	out, chunks := h.outbox, h.arena
	h.outbox, h.arena = nil, nil
	return out, chunks
}

// datagramBuf returns room for one more datagram in the arena (a
// datagram never exceeds the host's MTU and its header): append to it
// and hand the result to addDatagram.
func (h *Host) datagramBuf() []byte {
	if c := h.arena; c == nil || cap(c.b)-len(c.b) < h.cfg.MTU+8 {
		c = h.chunks.pop()
		if c == nil {
			c = &arenaChunk{b: make([]byte, 0, h.chunkSize())}
		}
		h.chunksLow = min(h.chunksLow, h.chunks.n)
		c.next = h.arena
		h.arena = c
	}
	return h.arena.b[len(h.arena.b):]
}

// addDatagram queues d, whose bytes b were appended to datagramBuf's
// room.
func (h *Host) addDatagram(d datagram, b []byte) {
	if c := h.arena; cap(b) == cap(c.b)-len(c.b) {
		c.b = c.b[:len(c.b)+len(b)]
	} // else b outgrew its room, and append gave it an array of its own
	d.b = b[:len(b):len(b)]
	if h.outbox == nil {
		h.outbox, h.spareOutbox = h.spareOutbox, nil
	}
	h.outbox = append(h.outbox, d)
}

// freeArena gives an outbox's chunks, written, back to the free list,
// under h.mu.
func (h *Host) freeArena(chunks *arenaChunk) {
	for c := chunks; c != nil; {
		next := c.next
		if (h.chunks.n+1)*cap(c.b) <= maxArenaBytes {
			c.b = c.b[:0]
			h.chunks.push(c)
		}
		c = next
	}
}
