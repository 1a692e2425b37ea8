package enet

// The host's free lists (commands, packet buffers, the datagrams' arena
// chunks and outboxes) let a steady stream allocate nothing, but a burst
// fills them to its peak. Once a second the send loop gives back what a
// list did not use: the entries that stayed free through the whole second
// (the list's low-water mark since the last trim), so that the lists
// follow what is in flight rather than the largest burst ever seen.

// poolTrimInterval is how often, in milliseconds, the free lists give
// back what they did not use.
const poolTrimInterval = 1000

// trimPools gives back, under h.mu, the free entries unused since the
// last trim.
func (h *Host) trimPools() {
	for range h.freeCmdsLow {
		h.freeCmds.pop()
	}
	h.freeCmdsLow = h.freeCmds.len()
	h.trimAcks()
	for c := range h.freeSend {
		s := &h.freeSend[c]
		for range h.freeSendLow[c] {
			s.pop()
		}
		h.freeSendBytes -= h.freeSendLow[c] * (sendClasses[c] + freeSendSlot)
		s.release() // a chunk needed again within the second is one allocation
		h.freeSendLow[c] = s.len()
	}
	for range h.chunksLow {
		h.chunks.pop()
	}
	h.chunksLow = h.chunks.n
	// An outbox (and the spare kept for a flush that starts while another
	// is written) keeps its capacity while the flushes use a quarter of it.
	limit := max(4*h.outboxHigh, minOutboxKept)
	if cap(h.spareOutbox) > limit {
		h.spareOutbox = nil
	}
	if len(h.outbox) == 0 && cap(h.outbox) > limit {
		h.outbox = nil
	}
	h.outboxHigh = 0
}

// minOutboxKept is the capacity, in datagrams, an outbox keeps whatever
// its flushes took.
const minOutboxKept = 256
