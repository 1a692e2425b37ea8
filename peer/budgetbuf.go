package peer

import "github.com/gdvar/gdvar/frame"

// budgetedBuf is a buffer whose capacity is reserved from a budget (nil:
// none) before it is allocated, and given back when it is let go: what a
// connection buffers of what it receives is charged to its listener's
// BufferBudget.
type budgetedBuf struct {
	b      []byte
	held   int64 // reserved from budget: cap(b)
	budget *frame.Budget
}

// growTo makes b's capacity at least n, keeping its contents; false, and
// b unchanged, when the budget does not allow it.
func (x *budgetedBuf) growTo(n int) bool {
	if cap(x.b) >= n {
		return true
	}
	if x.budget != nil {
		if !x.budget.Reserve(int64(n - cap(x.b))) {
			return false
		}
		x.held += int64(n - cap(x.b))
	}
	nb := make([]byte, len(x.b), n)
	copy(nb, x.b)
	x.b = nb
	return true
}

// release lets go of b and gives what it held back to the budget.
func (x *budgetedBuf) release() {
	x.b = nil
	if x.held > 0 {
		x.budget.Release(x.held)
		x.held = 0
	}
}
