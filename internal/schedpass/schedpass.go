// Package schedpass passes a goroutine that blocks only in system calls
// through Go's scheduler often enough to keep the runtime's monitor quiet,
// and no more often.
//
// Such a goroutine (a frame loop sleeping in ppoll or epoll_wait between
// rounds) never changes its P's schedule tick, and the runtime's monitor
// takes the P back from it once the tick has not moved for 10 ms, then
// watches every 20 µs for a while. A pass through the scheduler
// (runtime.Gosched) moves the tick, but costs a trip through the
// scheduler's search for work, often a hand-off between threads: once a
// round of 1–4 ms it was an eighth to a fifth of a relaying ENet host's
// CPU. A Pacer passes once Every has gone by, at most every other 10 ms
// the monitor waits.
package schedpass

import "runtime"

// Every is the least time between two passes: half the 10 ms after which
// the runtime's monitor takes a P whose schedule tick has not moved.
const Every = 5_000_000 // ns

// Pacer remembers the last pass. Its zero value passes at the first Tick.
// It is not safe for concurrent use: each loop has its own.
type Pacer struct {
	last int64
	done bool
}

// Tick passes the calling goroutine through the scheduler when Every has
// gone by since the last pass (or the clock went back), now being the
// time in nanoseconds; it reports whether it did.
func (p *Pacer) Tick(now int64) bool {
	if d := now - p.last; p.done && d >= 0 && d < Every {
		return false
	}
	p.last, p.done = now, true
	runtime.Gosched()
	return true
}
