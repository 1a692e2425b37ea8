package enet

import (
	"time"

	"github.com/gdvar/gdvar/internal/schedpass"
)

// frameReads bounds the batch reads of one frame (up to 1,024 datagrams):
// a flood waits in the socket's buffer for the next frame rather than
// hold back the frame's flush.
const frameReads = 64

// frameSendPasses bounds the passes over the peers a frame makes (each
// up to maxDatagramsPerPass datagrams a peer), so that a peer with a
// large queue cannot keep the loop from reading.
const frameSendPasses = 64

// frameIdleWait is how long a frame host with no peer waits for a
// datagram before it looks at its free lists again (pools.go).
const frameIdleWait = poolTrimInterval * time.Millisecond

// frameLoop is the goroutine of a host that runs frames (Config.Frame),
// which does the work of the read and send loops: each frame, it reads
// what came, gives the events to the handler, services every peer once
// ServiceInterval has passed (resends, pings, timeouts) and flushes what
// is new, then sleeps out the frame. When a frame finds nothing to read
// or send, it waits for a datagram, a wake (what another goroutine
// queued) or the next service tick, so a quiet host answers the first
// datagram at once.
func (h *Host) frameLoop() {
	defer h.wg.Done()
	f := h.frame
	var lastTick time.Time
	var pacer schedpass.Pacer
	for {
		start := time.Now()
		got, failed := h.frameRead(f)
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return
		}
		all := start.Sub(lastTick) >= h.cfg.ServiceInterval
		if all {
			lastTick = start
		}
		h.service(all)
		busy := got > 0 || failed
		for pass := 1; ; pass++ {
			out, chunks := h.takeOutbox()
			busy = busy || len(out) > 0
			more := pass < frameSendPasses && h.anyCapped()
			h.mu.Unlock()
			h.write(out, chunks)
			if !more {
				break
			}
			// A peer had more than a pass's datagrams to send: another
			// pass, as libenet sends all a peer has in one service call.
			h.mu.Lock()
			if h.closed {
				h.mu.Unlock()
				return
			}
			h.serviceTime = h.now()
			h.sendOutgoing(false)
		}
		h.dispatch() // what the service caused (timeouts, disconnections)
		// The loop blocks only in system calls: a pass through the
		// scheduler now and then keeps the runtime's monitor quiet.
		pacer.Tick(start.UnixNano())
		if busy {
			if d := h.cfg.Frame - time.Since(start); d > 0 {
				f.wait(d, false)
			}
			continue
		}
		h.mu.Lock()
		idle := !h.closed && len(h.dirty) == 0 && len(h.outbox) == 0 &&
			(h.handler == nil || h.eventsHead == len(h.events))
		wait := frameIdleWait
		if h.anyPeer() {
			wait = max(h.cfg.ServiceInterval-time.Since(lastTick), 0)
		}
		if idle {
			f.idle.Store(true)
		}
		h.mu.Unlock()
		if idle {
			f.wait(wait, true)
			f.idle.Store(false)
		}
	}
}

// frameRead reads and handles the datagrams that came, up to frameReads
// batches, giving their events to the handler after each batch. failed
// reports a read error (e.g. an ICMP error queued on the socket).
func (h *Host) frameRead(f *frameSocket) (got int, failed bool) {
	for range frameReads {
		n, err := f.read()
		if err != nil {
			return got, true
		}
		if n == 0 {
			return got, false
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return got, false
		}
		h.serviceTime = h.now()
		h.reading = true
		h.handleBatch(f.r, n)
		h.reading = false
		h.mu.Unlock()
		h.dispatch()
		got += n
		if n < readBatch {
			break
		}
	}
	return got, false
}

// anyCapped reports, under h.mu, whether a peer's last pass ended with
// more to send.
func (h *Host) anyCapped() bool {
	for _, p := range h.dirty {
		if p.capped {
			return true
		}
	}
	return false
}

// anyPeer reports, under h.mu, whether a peer slot is in use.
func (h *Host) anyPeer() bool {
	for _, p := range h.peers {
		if p != nil {
			return true
		}
	}
	return false
}
