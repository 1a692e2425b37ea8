//go:build linux

package peer

import (
	"errors"
	"net"
	"os"
	"sync"
	"syscall"
	"time"
	"unsafe"

	"github.com/gdvar/gdvar/internal/schedpass"
)

// A pollLoop is one goroutine of a Poller: an epoll instance of its own
// with the connections' sockets (duplicates of their descriptors, which
// Go's own poller does not watch). An eventfd wakes it for what other
// goroutines ask.
type pollLoop struct {
	epfd int
	efd  int
	// Without a frame, epfd as Go's poller watches it: the goroutine
	// parks as any reader does, and an arrival wakes it through Go's
	// poller (cheaper than a blocking system call at high wake rates).
	ep      *os.File
	rc      syscall.RawConn
	tryWait func(uintptr) bool // tryWaitEvents
	ready   int

	mu      sync.Mutex
	conns   []*pollConn // by slot (the epoll events' data)
	free    []int32
	n       int
	reqs    []*pollConn // connections with a close to carry out
	woken   bool        // efd written and not yet read
	inRound bool        // handling a round of events: requests wait for its end
	stopped bool
	rounds  *pollRounds // shared by the Poller's loops
	frame   time.Duration

	// The loop goroutine's own.
	events    []syscall.EpollEvent
	batch     []*pollConn
	scratch   []*pollConn
	sweepBuf  []*pollConn
	rbuf      []byte
	now       int64 // the clock at the start of the round, Unix ns
	pacer     schedpass.Pacer
	nextSweep int64
	armed     int64 // ep's read deadline, set last
	done      chan struct{}
}

const pollSupported = true

// pollRounds is what the loops of a Poller share: while any of them
// handles a round of events, what is written to any connection (a
// message relayed from a client of one loop to a client of another, too)
// waits for the end of a round, so that what a round queued for a
// connection goes out in one write.
type pollRounds struct {
	mu    sync.Mutex
	n     int         // loops in a round
	dirty []*pollConn // connections written to during rounds
}

// wakeSlot is the eventfd's epoll data.
const wakeSlot = -1

// pollReadBuf is the loop's read buffer, shared by its connections: a
// read takes up to this much at once.
const pollReadBuf = 64 << 10

// pollEvents is the most sockets a round takes; more ready are taken by
// the next round, which follows at once.
const pollEvents = 256

// pollSweep is how often the loop checks the connections' timeouts.
const pollSweep = 250 * time.Millisecond

func newPollLoop(rounds *pollRounds, frame time.Duration) (*pollLoop, error) {
	epfd, err := syscall.EpollCreate1(syscall.EPOLL_CLOEXEC)
	if err != nil {
		return nil, os.NewSyscallError("epoll_create1", err)
	}
	efd, _, errno := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if errno != 0 {
		syscall.Close(epfd)
		return nil, os.NewSyscallError("eventfd2", errno)
	}
	lp := &pollLoop{epfd: epfd, efd: int(efd), rounds: rounds, frame: frame, rbuf: make([]byte, pollReadBuf),
		events: make([]syscall.EpollEvent, pollEvents), done: make(chan struct{})}
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN, Fd: wakeSlot}
	if err := syscall.EpollCtl(epfd, syscall.EPOLL_CTL_ADD, lp.efd, &ev); err != nil {
		syscall.Close(epfd)
		syscall.Close(lp.efd)
		return nil, os.NewSyscallError("epoll_ctl", err)
	}
	if frame == 0 {
		if err := syscall.SetNonblock(epfd, true); err != nil {
			syscall.Close(epfd)
			syscall.Close(lp.efd)
			return nil, os.NewSyscallError("fcntl", err)
		}
		lp.tryWait = lp.tryWaitEvents
		lp.ep = os.NewFile(uintptr(epfd), "epoll")
		if lp.rc, err = lp.ep.SyscallConn(); err != nil {
			lp.ep.Close()
			syscall.Close(lp.efd)
			return nil, err
		}
	}
	go lp.run()
	return lp, nil
}

func (lp *pollLoop) count() int {
	lp.mu.Lock()
	defer lp.mu.Unlock()
	return lp.n
}

// wake makes the loop run a round; lp.mu is held.
func (lp *pollLoop) wakeLocked() {
	if lp.woken {
		return
	}
	lp.woken = true
	one := [8]byte{1}
	syscall.Write(lp.efd, one[:])
}

func (lp *pollLoop) stop() {
	lp.mu.Lock()
	if lp.stopped {
		lp.mu.Unlock()
		<-lp.done
		return
	}
	lp.stopped = true
	lp.wakeLocked()
	lp.mu.Unlock()
	<-lp.done
}

// run is the loop: wait for events, handle them, write what the handlers
// wrote, check the timeouts now and then.
func (lp *pollLoop) run() {
	defer close(lp.done)
	lp.now = time.Now().UnixNano()
	lp.nextSweep = lp.now + int64(pollSweep)
	busy, more := false, false
	for {
		var n int
		var err error
		if lp.frame > 0 && busy {
			// Once a frame while there is work: what arrives meanwhile
			// waits in the sockets and is all handled in the next round
			// (at once when this one could not take every socket ready).
			if d := time.Duration(lp.now + int64(lp.frame) - time.Now().UnixNano()); d > 0 && !more {
				lp.sleep(d)
			}
			n, err = syscall.EpollWait(lp.epfd, lp.events, 0)
			if err != nil {
				n, err = 0, nil
			}
		} else if lp.rc != nil {
			if lp.armed != lp.nextSweep {
				lp.armed = lp.nextSweep
				lp.ep.SetReadDeadline(time.Unix(0, lp.nextSweep))
			}
			err = lp.rc.Read(lp.tryWait)
			n = lp.ready
			if errors.Is(err, os.ErrDeadlineExceeded) {
				err = nil
			}
		} else {
			// With a frame: parked in the kernel until something arrives
			// or the next sweep is due. The sockets are in no poller of
			// Go's, so what arrives while the loop sleeps out a busy
			// frame wakes nothing.
			ms := max((lp.nextSweep-time.Now().UnixNano()+int64(time.Millisecond)-1)/int64(time.Millisecond), 0)
			n, err = syscall.EpollWait(lp.epfd, lp.events, int(ms))
			if err == syscall.EINTR {
				n, err = 0, nil
			}
			if err != nil {
				err = os.NewSyscallError("epoll_wait", err)
			}
		}
		lp.now = time.Now().UnixNano()
		if err != nil {
			lp.shutdown(err)
			return
		}
		lp.mu.Lock()
		if lp.stopped {
			lp.mu.Unlock()
			lp.shutdown(net.ErrClosed)
			return
		}
		lp.inRound = true
		lp.rounds.mu.Lock()
		lp.rounds.n++
		lp.rounds.mu.Unlock()
		lp.batch = lp.batch[:0]
		for _, ev := range lp.events[:n] {
			var c *pollConn
			if ev.Fd != wakeSlot && int(ev.Fd) < len(lp.conns) {
				c = lp.conns[ev.Fd]
			}
			lp.batch = append(lp.batch, c)
		}
		lp.mu.Unlock()
		for i, ev := range lp.events[:n] {
			if ev.Fd == wakeSlot {
				var b [8]byte
				syscall.Read(lp.efd, b[:])
				lp.mu.Lock()
				lp.woken = false
				lp.mu.Unlock()
				continue
			}
			c := lp.batch[i]
			if c == nil || c.finished {
				continue
			}
			if ev.Events&syscall.EPOLLOUT != 0 {
				c.wmu.Lock()
				c.flushLocked()
				c.wmu.Unlock()
			}
			if ev.Events&(syscall.EPOLLIN|syscall.EPOLLHUP|syscall.EPOLLERR|syscall.EPOLLRDHUP) != 0 {
				c.readable()
			}
		}
		clear(lp.batch)
		lp.endRound()
		if lp.now >= lp.nextSweep {
			lp.sweep()
			lp.nextSweep = lp.now + int64(pollSweep)
		}
		busy, more = n > 0, n == len(lp.events)
		if lp.frame > 0 {
			// The loop blocks only in system calls: a pass through the
			// scheduler now and then keeps the runtime's monitor quiet.
			lp.pacer.Tick(lp.now)
		}
	}
}

// sleep sleeps out a busy frame in the kernel, outside Go's scheduler,
// for d or until the loop is woken (the eventfd, which the next
// epoll_wait then reports).
func (lp *pollLoop) sleep(d time.Duration) {
	fd := struct {
		fd              int32
		events, revents int16
	}{fd: int32(lp.efd), events: 0x1} // struct pollfd, POLLIN
	ts := syscall.NsecToTimespec(int64(d))
	syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fd)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
}

// tryWaitEvents takes the events ready (lp.ready of them) without waiting;
// false when there are none. It is bound once (lp.tryWait), so that a
// wait allocates nothing.
func (lp *pollLoop) tryWaitEvents(uintptr) bool {
	n, err := syscall.EpollWait(lp.epfd, lp.events, 0)
	if err != nil {
		n = 0
	}
	lp.ready = n
	return n > 0
}

// endRound carries out the close requests and writes what the round's
// handlers wrote, one write per connection.
func (lp *pollLoop) endRound() {
	rs := lp.rounds
	for {
		lp.mu.Lock()
		reqs := lp.reqs
		lp.reqs = nil
		if len(reqs) == 0 {
			lp.inRound = false
		}
		lp.mu.Unlock()
		for _, c := range reqs {
			c.request()
		}
		rs.mu.Lock()
		dirty := rs.dirty
		if len(dirty) == 0 && len(reqs) == 0 {
			rs.n--
			rs.mu.Unlock()
			return
		}
		rs.dirty = lp.scratch[:0]
		rs.mu.Unlock()
		for _, c := range dirty {
			c.wmu.Lock()
			c.dirty = false
			c.flushLocked()
			c.wmu.Unlock()
		}
		clear(dirty)
		lp.scratch = dirty[:0]
		if len(reqs) == 0 {
			lp.mu.Lock()
			lp.inRound = true // requests made while writing
			lp.mu.Unlock()
		}
	}
}

// sweep enforces the timeouts: idle, frame, write, and the close
// handshake's.
func (lp *pollLoop) sweep() {
	lp.mu.Lock()
	cs := append(lp.sweepBuf[:0], lp.conns...)
	lp.mu.Unlock()
	for _, c := range cs {
		if c != nil && !c.finished {
			c.checkTimeouts()
		}
	}
	clear(cs)
	lp.sweepBuf = cs[:0]
	lp.mu.Lock()
	lp.inRound = true
	lp.mu.Unlock()
	lp.rounds.mu.Lock()
	lp.rounds.n++
	lp.rounds.mu.Unlock()
	lp.endRound()
}

// shutdown ends every connection: the Poller is closed.
func (lp *pollLoop) shutdown(err error) {
	lp.mu.Lock()
	cs := append([]*pollConn(nil), lp.conns...)
	lp.stopped = true
	lp.mu.Unlock()
	for _, c := range cs {
		if c != nil {
			c.end(err)
			c.finish()
		}
	}
	if lp.ep != nil {
		lp.ep.Close()
	} else {
		syscall.Close(lp.epfd)
	}
	syscall.Close(lp.efd)
}

// take makes c a connection of the loop.
func (lp *pollLoop) take(c *Conn, h PollHandler, o PollOptions) error {
	t, ok := c.tr.(*wsTransport)
	if !ok {
		if _, polled := c.tr.(*pollConn); polled {
			return ErrPolled
		}
		return ErrNotPollable
	}
	if t.nc == nil || t.tcp == nil {
		return ErrNotPollable
	}
	var fd int
	var derr error
	rc, err := t.tcp.SyscallConn()
	if err != nil {
		return err
	}
	if err := rc.Control(func(s uintptr) {
		var r uintptr
		var errno syscall.Errno
		r, _, errno = syscall.Syscall(syscall.SYS_FCNTL, s, syscall.F_DUPFD_CLOEXEC, 0)
		if errno != 0 {
			derr = os.NewSyscallError("fcntl", errno)
		}
		fd = int(r)
	}); err != nil {
		return err
	}
	if derr != nil {
		return derr
	}
	pc := &pollConn{lp: lp, c: c, h: h, fd: fd, laddr: t.ws.LocalAddr(), raddr: t.ws.RemoteAddr(),
		maxPending: o.MaxPending, wtimeout: c.wtimeout, closeTimeout: c.cfg.closeTimeout}
	if pc.maxPending <= 0 {
		pc.maxPending = DefaultMaxPending
	}
	pc.written, _ = h.(PollWriteHandler)
	pc.parser = wsParser{maxSize: t.maxSize, msg: budgetedBuf{budget: t.budget}}
	pc.in.budget = t.budget
	pc.idle, pc.frameTO = c.cfg.timeouts(true)
	if o.IdleTimeout > 0 && (pc.idle <= 0 || o.IdleTimeout < pc.idle) {
		pc.idle = o.IdleTimeout
	}
	if cc, ok := t.nc.(*countedConn); ok {
		pc.counted = cc
	}
	syscall.SetNonblock(fd, true)
	// The original descriptor leaves Go's poller and is closed; the
	// duplicate is the connection's from now on.
	t.tcp.Close()
	pc.lastRead = time.Now().UnixNano()

	lp.mu.Lock()
	if lp.stopped {
		lp.mu.Unlock()
		syscall.Close(fd)
		if pc.counted != nil {
			pc.counted.Close()
		}
		return net.ErrClosed
	}
	if len(lp.free) > 0 {
		pc.slot = lp.free[len(lp.free)-1]
		lp.free = lp.free[:len(lp.free)-1]
	} else {
		pc.slot = int32(len(lp.conns))
		lp.conns = append(lp.conns, nil)
	}
	lp.conns[pc.slot] = pc
	lp.n++
	c.tr = pc
	lp.mu.Unlock()
	ev := syscall.EpollEvent{Events: syscall.EPOLLIN | syscall.EPOLLRDHUP, Fd: pc.slot}
	if err := syscall.EpollCtl(lp.epfd, syscall.EPOLL_CTL_ADD, fd, &ev); err != nil {
		// Never watched: finished here, so that nothing later (a Close)
		// touches the descriptor.
		lp.mu.Lock()
		lp.conns[pc.slot] = nil
		lp.free = append(lp.free, pc.slot)
		lp.n--
		lp.mu.Unlock()
		pc.ended, pc.finished = true, true
		pc.wmu.Lock()
		syscall.Close(fd)
		pc.fd, pc.werr = -1, net.ErrClosed
		pc.wmu.Unlock()
		pc.giveBack()
		return os.NewSyscallError("epoll_ctl", err)
	}
	return nil
}
