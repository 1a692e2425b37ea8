package enet

// The host's free lists (commands, packet buffers, the datagram arena)
// let a steady stream allocate nothing, but a burst fills them to its
// peak. Once a second the send loop gives back what a list did not use:
// the entries that stayed free through the whole second (the list's
// low-water mark since the last trim), so that the lists follow what is
// in flight rather than the largest burst ever seen.

// poolTrimInterval is how often, in milliseconds, the free lists give
// back what they did not use.
const poolTrimInterval = 1000

// trimPools gives back, under h.mu, the free entries unused since the
// last trim, and the spare arena if no flush took it.
func (h *Host) trimPools() {
	for range h.freeCmdsLow {
		h.freeCmds.pop()
	}
	h.freeCmdsLow = h.freeCmds.len()
	for c := range h.freeSend {
		l := h.freeSend[c]
		if n := h.freeSendLow[c]; n > 0 {
			keep := len(l) - n
			clear(l[keep:])
			l = shrink(l[:keep])
			h.freeSendBytes -= n * (sendClasses[c] + freeSendSlot)
			h.freeSend[c] = l
		}
		h.freeSendLow[c] = len(l)
	}
	if !h.spareTaken {
		h.spare = nil
	}
	h.spareTaken = false
}

// shrink returns l in a backing array of its size once it uses less than
// half of its own, nil when empty.
func shrink[T any](l []T) []T {
	switch {
	case len(l) == 0:
		return nil
	case cap(l) > 2*len(l)+8:
		return append(make([]T, 0, len(l)), l...)
	}
	return l
}
