package enet

// ackList is a peer's acknowledgements waiting to be sent, in chunks of
// ackChunkLen that come from the host's free list and go back to it once
// sent. A burst that leaves every peer owing many acknowledgements at once
// (a join: Godot 3 clients confirm each other's node paths through the
// host) then costs what is owed at that moment, in chunks the next burst
// reuses, where an array per peer grew to its largest burst, left a copy
// at every doubling, and was kept.
type ackList struct {
	head, tail *ackChunk
	n          int // acknowledgements in the list
}

// ackChunk holds a[start:end] of a list; 256 bytes in all.
type ackChunk struct {
	a          [ackChunkLen]ack
	start, end uint8
	next       *ackChunk
}

const ackChunkLen = 40

// ackChunks is the host's free list of chunks, trimmed as the other free
// lists are (pools.go).
type ackChunks struct {
	head   *ackChunk
	n, low int
}

// pushAck appends a to p's acknowledgements.
func (h *Host) pushAck(p *Peer, a ack) {
	l := &p.acks
	if l.tail == nil || int(l.tail.end) == ackChunkLen {
		c := h.freeAcks.head
		if c != nil {
			h.freeAcks.head = c.next
			h.freeAcks.n--
			h.freeAcks.low = min(h.freeAcks.low, h.freeAcks.n)
			c.next = nil
		} else {
			c = new(ackChunk)
		}
		if l.tail == nil {
			l.head = c
		} else {
			l.tail.next = c
		}
		l.tail = c
	}
	l.tail.a[l.tail.end] = a
	l.tail.end++
	l.n++
}

// firstAck is p's oldest acknowledgement; p must owe one.
func (p *Peer) firstAck() ack { return p.acks.head.a[p.acks.head.start] }

// dropAck removes p's oldest acknowledgement; a chunk emptied goes back
// to the free list.
func (h *Host) dropAck(p *Peer) {
	l := &p.acks
	c := l.head
	c.start++
	l.n--
	if c.start == c.end {
		l.head = c.next
		if l.head == nil {
			l.tail = nil
		}
		h.freeAckChunk(c)
	}
}

// clearAcks forgets p's acknowledgements.
func (h *Host) clearAcks(p *Peer) {
	for c := p.acks.head; c != nil; {
		next := c.next
		h.freeAckChunk(c)
		c = next
	}
	p.acks = ackList{}
}

func (h *Host) freeAckChunk(c *ackChunk) {
	c.start, c.end = 0, 0
	c.next = h.freeAcks.head
	h.freeAcks.head = c
	h.freeAcks.n++
}

// trimAcks gives back the chunks unused since the last trim.
func (h *Host) trimAcks() {
	for range h.freeAcks.low {
		c := h.freeAcks.head
		h.freeAcks.head = c.next
		c.next = nil
		h.freeAcks.n--
	}
	h.freeAcks.low = h.freeAcks.n
}
