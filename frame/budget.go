package frame

import (
	"errors"
	"strconv"
	"sync/atomic"
)

// ErrBudget: a Reader needed more memory for a frame than its Budget had
// left.
var ErrBudget = errors.New("frame memory budget exhausted")

// A Budget is an allowance of buffer memory shared by several Readers: the
// connections of one server, for instance, so that clients that send large
// frames slowly cannot together hold more than the budget. A Reader with a
// Budget reserves each growth of its buffer before it allocates it, as the
// frame's bytes arrive, and returns the memory when it drops the buffer
// (when the next frame starts, or on Release).
//
// A Budget is safe for concurrent use.
type Budget struct {
	limit int64
	used  atomic.Int64
}

// NewBudget returns a budget of limit bytes. It panics if limit is not
// positive.
func NewBudget(limit int64) *Budget {
	if limit <= 0 {
		panic("frame: NewBudget: limit " + strconv.FormatInt(limit, 10) + " is not positive")
	}
	return &Budget{limit: limit}
}

// Limit returns the budget's size in bytes.
func (b *Budget) Limit() int64 { return b.limit }

// Used returns the bytes reserved now.
func (b *Budget) Used() int64 { return b.used.Load() }

// Reserve takes n bytes from the budget, or nothing and reports false if
// fewer than n are left.
func (b *Budget) Reserve(n int64) bool {
	for {
		u := b.used.Load()
		if u+n > b.limit {
			return false
		}
		if b.used.CompareAndSwap(u, u+n) {
			return true
		}
	}
}

// Release returns n bytes taken with Reserve. Returning more than was
// taken is a programming error, and panics.
func (b *Budget) Release(n int64) {
	if b.used.Add(-n) < 0 {
		panic("frame: Budget.Release: more released than reserved")
	}
}
