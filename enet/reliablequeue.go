package enet

// reliableQueue holds a channel's incoming reliable commands that wait for
// their turn, indexed by sequence number. Every command it holds lies in
// ENet's reliable window ahead of the channel's incomingReliableSeq (less
// than 7 × 4096 numbers), so the low 15 bits of a sequence number name a
// command uniquely: finding, adding and removing one is a fixed number of
// steps, whatever order the commands arrive in. (libenet keeps them in a
// sorted list and walks it for every insertion, which costs time
// quadratic in the count when they arrive in reverse order.)
//
// The index is paged: a directory of 512 page pointers (4 KiB), made when
// the first command waits, and pages of 64 slots, made when the first
// command of their range arrives and freed when their last leaves. Its
// memory is charged to the peer's waiting budget.
type reliableQueue struct {
	pages *[relPages]*relPage
	n     int // commands held
	cost  int // bytes of directory and pages, charged to the budgets
}

const (
	relPageBits = 6
	relPageSize = 1 << relPageBits
	relPages    = 1 << (15 - relPageBits)
	relPageMask = relPageSize - 1

	relDirCost  = relPages * 8
	relPageCost = relPageSize*8 + 64 // the slots, the count and the allocation's rounding
)

type relPage struct {
	cmds [relPageSize]*inCmd
	n    int
}

func relIndex(seq uint16) (page, slot int) {
	i := int(seq & 0x7FFF)
	return i >> relPageBits, i & relPageMask
}

// get returns the command waiting with sequence number seq, or nil.
func (q *reliableQueue) get(seq uint16) *inCmd {
	if q.pages == nil {
		return nil
	}
	pi, si := relIndex(seq)
	pg := q.pages[pi]
	if pg == nil {
		return nil
	}
	if ic := pg.cmds[si]; ic != nil && ic.reliableSeq == seq {
		return ic
	}
	return nil
}

// put adds ic, whose slot must be free (get returned nil and the command
// is in the window); it returns the bytes of index it allocated.
func (q *reliableQueue) put(ic *inCmd) (grew int) {
	if q.pages == nil {
		q.pages = new([relPages]*relPage)
		grew += relDirCost
	}
	pi, si := relIndex(ic.reliableSeq)
	pg := q.pages[pi]
	if pg == nil {
		pg = new(relPage)
		q.pages[pi] = pg
		grew += relPageCost
	}
	pg.cmds[si] = ic
	pg.n++
	q.n++
	q.cost += grew
	return grew
}

// take removes and returns the command with sequence number seq, or nil;
// freed is the bytes of index given back.
func (q *reliableQueue) take(seq uint16) (ic *inCmd, freed int) {
	if q.pages == nil {
		return nil, 0
	}
	pi, si := relIndex(seq)
	pg := q.pages[pi]
	if pg == nil {
		return nil, 0
	}
	ic = pg.cmds[si]
	if ic == nil || ic.reliableSeq != seq {
		return nil, 0
	}
	pg.cmds[si] = nil
	pg.n--
	q.n--
	if pg.n == 0 {
		q.pages[pi] = nil
		freed += relPageCost
	}
	if q.n == 0 {
		q.pages = nil
		freed += relDirCost
	}
	q.cost -= freed
	return ic, freed
}

// each calls f for every command held, in no particular order.
func (q *reliableQueue) each(f func(*inCmd)) {
	if q.pages == nil {
		return
	}
	for _, pg := range q.pages {
		if pg == nil {
			continue
		}
		for _, ic := range pg.cmds {
			if ic != nil {
				f(ic)
			}
		}
	}
}
