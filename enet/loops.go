package enet

// A host's goroutines when it does not run in frames (Config.Frame): the
// read loop, which reads datagrams, runs them through the protocol and on
// a UDP socket flushes what they caused, and the send loop, which
// services the peers on its timer and when woken; and the writing of a
// flush's datagrams, which frames share.

import (
	"errors"
	"net"
	"net/netip"
	"os"
	"time"
)

// readLoop reads datagrams and runs them through the protocol: many at a
// time where the system allows (batchReader), else one by one. On a UDP
// socket it also flushes what they caused (acknowledgements, the
// handler's sends) itself, at most once per FlushDelay, its read deadline
// waking it when a flush is due: a received packet and its answers cost
// no wake of another goroutine.
func (h *Host) readLoop(batch *batchReader, buf []byte) {
	defer h.wg.Done()
	var deadline time.Time // the socket's read deadline, as set here
	var pollAt time.Time   // batch: when to read again without waiting (zero: wait for datagrams)
	nap := time.NewTimer(time.Hour)
	nap.Stop()
	for {
		var n int
		var ap netip.AddrPort
		var addr net.Addr
		var err error
		switch {
		case batch != nil && !pollAt.IsZero():
			if d := time.Until(pollAt); d > 0 {
				nap.Reset(d)
				select {
				case <-nap.C:
				case <-h.done:
					return
				}
			}
			pollAt = time.Time{}
			n, err = batch.tryRead()
		case batch != nil:
			n, err = batch.read()
		case h.udp != nil:
			n, ap, err = h.udp.ReadFromUDPAddrPort(buf)
			ap = netip.AddrPortFrom(ap.Addr().Unmap(), ap.Port())
		default:
			n, addr, err = h.conn.ReadFrom(buf)
			if ua, ok := addr.(*net.UDPAddr); ok && err == nil {
				a := ua.AddrPort()
				ap = netip.AddrPortFrom(a.Addr().Unmap(), a.Port())
			}
		}
		if h.udp != nil {
			h.readFlushes.Store(true)
		}
		if err != nil {
			select {
			case <-h.done:
				return
			default:
			}
			switch {
			case isTimeout(err):
				n = 0 // a flush is due
			case errors.Is(err, net.ErrClosed):
				return
			default:
				h.readFlushes.Store(false)
				time.Sleep(time.Millisecond) // e.g. ICMP port unreachable
				continue
			}
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return
		}
		h.serviceTime = h.now()
		h.reading = true
		if batch != nil {
			h.handleBatch(batch, n)
		} else if n > 0 || err == nil {
			h.stats.DatagramsReceived++
			h.stats.BytesReceived += uint64(n)
			h.handleDatagram(buf[:n], ap, addr)
		}
		h.reading = false
		if h.udp == nil {
			wake := len(h.dirty) > 0
			handled := h.handler != nil && h.eventsHead < len(h.events)
			h.mu.Unlock()
			if handled {
				h.dispatch()
				wake = true
			}
			if wake {
				h.wakeSender()
			}
			continue
		}
		due, sends := h.afterRead(batch != nil && n < readBatch)
		switch {
		case batch != nil && n == readBatch:
			pollAt = time.Now() // more may be waiting: read on
		case batch != nil && sends && !due.IsZero():
			// Sends wait for a flush (a relay under load): rather than
			// wake for every datagram meanwhile, read what came once the
			// flush is due, and answer it in that flush.
			pollAt = due
		}
		switch {
		case !due.IsZero() && !due.Equal(deadline):
			deadline = due
			h.udp.SetReadDeadline(due)
		case due.IsZero() && !deadline.IsZero() && !deadline.After(time.Now()):
			deadline = time.Time{}
			h.udp.SetReadDeadline(deadline)
		}
	}
}

// handleBatch handles the n datagrams of r's last read, under h.mu.
func (h *Host) handleBatch(r *batchReader, n int) {
	for i := range n {
		b, ap, ok := r.datagram(i)
		h.stats.DatagramsReceived++
		h.stats.BytesReceived += uint64(len(b))
		if !ok {
			h.stats.DatagramsDropped++
			continue
		}
		h.handleDatagram(b, ap, nil)
	}
}

// flushNow reports, under h.mu, whether a peer with something new to
// send would gain nothing from FlushDelay and lose by it:
//   - its last pass ended at maxDatagramsPerPass with more to send
//     (libenet sends all a peer has in one service call);
//   - its reliable window held packets back (the acknowledgements just
//     read may let them go, and a bulk sender's rate is its window per
//     round trip, to which a delay would add);
//   - it has a datagram's worth of packets queued, reliable or not (they
//     fill datagrams without waiting);
//   - it is owed acknowledgements for a quarter of the window or a
//     datagram's worth of them (the other side may be such a sender,
//     waiting for them).
func (h *Host) flushNow() bool {
	for _, p := range h.dirty {
		if p.windowFull || p.capped || p.outgoingSendReliable.len() >= maxPacketCommands || p.outgoing.len() >= maxPacketCommands ||
			p.ackedData >= max(p.windowSize, minWindowSize)/4 ||
			p.acks.n*commandSizes[cmdAcknowledge] >= int(p.mtu)-4 { // 4: the longest header without a checksum
			return true
		}
	}
	return false
}

// dirtySends reports, under h.mu, whether a peer with something new to
// send has packets queued, not only acknowledgements owed. (Like
// flushNow, it looks at each such peer: both run once per read while a
// flush waits, and their cost is a few nanoseconds a peer,
// BenchmarkFlushChecks.)
func (h *Host) dirtySends() bool {
	for _, p := range h.dirty {
		if p.outgoing.len() > 0 || p.outgoingSendReliable.len() > 0 {
			return true
		}
	}
	return false
}

// afterRead is the read loop's work once a read is handled, with h.mu
// held on entry (released on return): it gives the events to the handler
// and flushes what is new when FlushDelay allows, until nothing is left;
// then it returns when a flush is due (zero when none is) and whether
// packets (not only acknowledgements) wait for it, and lets others wake
// the send loop again. drained says the read took all the socket had.
func (h *Host) afterRead(drained bool) (due time.Time, sends bool) {
	for {
		if h.handler != nil && h.eventsHead < len(h.events) && !h.closed {
			h.mu.Unlock()
			h.dispatch()
			h.mu.Lock()
			continue
		}
		if h.closed || len(h.dirty) == 0 && len(h.outbox) == 0 {
			h.readFlushes.Store(false)
			h.mu.Unlock()
			return time.Time{}, false
		}
		now := time.Now()
		if due := h.lastFlush.Add(h.cfg.FlushDelay); h.cfg.FlushDelay > 0 && now.Before(due) && len(h.outbox) == 0 && !h.flushNow() {
			// Packets wait for the flush; so do acknowledgements while
			// more datagrams wait to be read. Acknowledgements alone,
			// with the socket read dry, go now, as libenet acknowledges
			// at each service: a sender's window waits for them.
			if sends = h.dirtySends(); sends || !drained {
				h.readFlushes.Store(false)
				h.mu.Unlock()
				return due, sends
			}
		}
		h.lastFlush = now
		h.serviceTime = h.now()
		h.sendOutgoing(false)
		out, chunks := h.takeOutbox()
		h.mu.Unlock()
		h.write(out, chunks)
		h.mu.Lock()
	}
}

// sendLoop builds and writes datagrams: at once for peers with something
// new to send, and on every tick for all peers (resends, pings, timeouts,
// bandwidth throttle).
func (h *Host) sendLoop() {
	defer h.wg.Done()
	t := time.NewTicker(h.cfg.ServiceInterval)
	defer t.Stop()
	delay := time.NewTimer(time.Hour)
	delay.Stop()
	for {
		all := false
		select {
		case <-h.done:
			return
		case <-h.sendWake:
			// At most one flush per FlushDelay: what is queued and owed
			// meanwhile shares datagrams. After a quiet spell the flush
			// is at once, so a lone packet waits for nothing.
			h.mu.Lock()
			wait := h.cfg.FlushDelay - time.Since(h.lastFlush)
			if h.flushNow() {
				wait = 0
			}
			h.mu.Unlock()
			if h.cfg.FlushDelay > 0 && wait > 0 {
				delay.Reset(wait)
			waiting:
				for {
					select {
					case <-h.done:
						return
					case <-delay.C:
						break waiting
					case <-h.flushWake:
						// A peer has a datagram's worth queued meanwhile.
						h.mu.Lock()
						now := h.flushNow()
						h.mu.Unlock()
						if now {
							delay.Stop()
							break waiting
						}
					}
				}
				select {
				case <-h.sendWake:
				default:
				}
			}
			h.mu.Lock()
			h.lastFlush = time.Now()
			h.mu.Unlock()
		case <-t.C:
			all = true
		}
		h.mu.Lock()
		if h.closed {
			h.mu.Unlock()
			return
		}
		h.service(all)
		out, chunks := h.takeOutbox()
		handled := h.handler != nil && h.eventsHead < len(h.events)
		h.mu.Unlock()
		h.write(out, chunks)
		if handled {
			h.dispatch()
		}
	}
}

// service is a pass of the send loop, under h.mu: every peer (all: the
// timer's tick, with the bandwidth throttle and the free lists' trim once
// their intervals have passed) or those with something new to send.
func (h *Host) service(all bool) {
	h.serviceTime = h.now()
	if all && timeDiff(h.serviceTime, h.bwEpoch) >= bandwidthThrottleInterval {
		h.bandwidthThrottle()
	}
	if all && timeDiff(h.serviceTime, h.trimEpoch) >= poolTrimInterval {
		h.trimEpoch = h.serviceTime
		h.trimPools()
	}
	h.sendOutgoing(all)
}

func (h *Host) write(out []datagram, chunks *arenaChunk) {
	var sent, bytes uint64
	if h.frame != nil {
		sent, bytes = h.frame.write(out)
	} else {
		sent, bytes = h.writeConn(out)
	}
	h.mu.Lock()
	h.stats.DatagramsSent += sent
	h.stats.BytesSent += bytes
	clear(out)
	h.outboxHigh = max(h.outboxHigh, len(out))
	if h.outbox == nil {
		h.outbox = out[:0]
	} else if cap(out) > cap(h.spareOutbox) {
		h.spareOutbox = out[:0]
	}
	h.freeArena(chunks)
	h.mu.Unlock()
}

// writeConn writes out's datagrams on h.conn, in batches where it can,
// and reports how many it sent and their bytes.
func (h *Host) writeConn(out []datagram) (sent, bytes uint64) {
	// One datagram goes by sendto: the batch call costs more for one.
	batch := h.batch != nil && len(out) > 1
	if batch {
		sent, bytes = h.batch.write(out)
	}
	for i := range out {
		d := &out[i]
		if d.ua != nil && batch {
			continue // written in the batch
		}
		var err error
		switch {
		case h.udp != nil && d.ap.IsValid():
			_, err = h.udp.WriteToUDPAddrPort(d.b, d.ap)
		case d.addr != nil:
			_, err = h.conn.WriteTo(d.b, d.addr)
		default:
			_, err = h.conn.WriteTo(d.b, net.UDPAddrFromAddrPort(d.ap))
		}
		if err == nil {
			sent++
			bytes += uint64(len(d.b))
		}
	}
	return sent, bytes
}

// isTimeout reports whether a read failed for its deadline: at once for
// the poller's own error (no allocation, on every flush a read loop
// waits for), through net.Error otherwise.
func isTimeout(err error) bool {
	if errors.Is(err, os.ErrDeadlineExceeded) {
		return true
	}
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}
