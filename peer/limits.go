package peer

import (
	"errors"
	"fmt"
	"net"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdvar/gdvar/frame"
)

// Errors of the server limits (see Options). A read that meets one of
// them returns an error matching it, and the connection is closed at once.
var (
	// ErrIdleTimeout: no byte arrived for Options.IdleTimeout.
	ErrIdleTimeout = errors.New("peer: idle timeout")
	// ErrFrameTimeout: a frame did not arrive whole within
	// Options.FrameTimeout of its first byte.
	ErrFrameTimeout = errors.New("peer: frame not complete in time")
	// ErrWriteTimeout: a write did not finish within
	// Options.WriteTimeout.
	ErrWriteTimeout = errors.New("peer: write timeout")
	// ErrInvalidUTF8: a WebSocket text message is not valid UTF-8, which
	// RFC 6455 requires the receiver to fail the connection for (status
	// 1007).
	ErrInvalidUTF8 = errors.New("peer: websocket text message is not valid UTF-8")
)

// isLimit reports whether err is one of the limits that end a connection.
func isLimit(err error) bool {
	return errors.Is(err, ErrIdleTimeout) || errors.Is(err, ErrFrameTimeout) || errors.Is(err, ErrWriteTimeout) ||
		errors.Is(err, frame.ErrBudget) || errors.Is(err, ErrInvalidUTF8)
}

// readTimer enforces the idle and frame timeouts, and the user's read
// deadline, through the read deadline of the underlying connection, which
// it moves only when it must. Reads of the connection go through read
// (timedConn), which takes one clock reading a read (none for what a
// buffer above it serves) and sets the connection's deadline only when it
// must come earlier, or is about to pass, than the earliest of the three
// that is due; a deadline left behind that passes before any of them is
// due is set again and the read goes on. So the timeouts strike when they
// are due, no earlier, and a busy connection sets its deadline about once
// per timeout rather than on every read.
//
// beginFrame and endFrame are called by the reader (the frame's clock
// starts at the first read of the connection that the frame waits for);
// setUser may be called from any goroutine.
type readTimer struct {
	setDeadline func(time.Time) error // the connection's
	idle, frame time.Duration
	slack       time.Duration // a deadline this close is moved before a read
	// streamFrames: every byte read belongs to the current frame (a
	// stream's frame reader reads no further ahead than its frame);
	// otherwise beginFrame says when a frame has begun.
	streamFrames bool

	// The reader's own.
	// The idle time counts from quiet, set when a read starts after one
	// that returned data (or the first): a read that timed out on the
	// user's deadline and is tried again does not start it afresh.
	quiet    time.Time
	fresh    bool
	inFrame  bool      // part of a frame has arrived
	frameEnd time.Time // when the frame must be whole; zero: its clock has not started
	idleEnd  time.Time // the idle deadline of the read under way

	mu    sync.Mutex
	user  time.Time // the user's deadline; zero: none
	dl    time.Time // the connection's deadline; zero: none
	stale bool      // dl passed early: the connection's deadline must be set again
}

// idleGrace is the least time a read is given when the idle time has
// already run out (while nobody was reading): enough to take what has
// arrived meanwhile.
const idleGrace = 10 * time.Millisecond

// newReadTimer returns nil when there is no timeout to enforce.
func newReadTimer(set func(time.Time) error, idle, frame time.Duration) *readTimer {
	if idle <= 0 && frame <= 0 {
		return nil
	}
	slack := idle
	if frame > 0 && (slack <= 0 || frame < slack) {
		slack = frame
	}
	return &readTimer{setDeadline: set, idle: idle, frame: frame, slack: slack / 8, fresh: true}
}

func (t *readTimer) setUser(d time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.user = d
	if !d.IsZero() && (t.dl.IsZero() || d.Before(t.dl)) {
		t.dl = d // a read under way must end by d; a later d waits for the next read
		return t.setDeadline(d)
	}
	return nil
}

// read reads from nc once, under the timeouts, and returns what a
// net.Conn's Read does, or an error matching ErrIdleTimeout or
// ErrFrameTimeout when one of them struck.
func (t *readTimer) read(nc net.Conn, p []byte) (int, error) {
	start := time.Now()
	for now := start; ; now = time.Now() {
		t.arm(now, start)
		n, err := nc.Read(p)
		if n > 0 {
			t.fresh = true
			if t.streamFrames {
				t.inFrame = true
			}
		}
		if n > 0 || err == nil || !isTimeout(err) {
			return n, err
		}
		if err := t.due(err); err != nil {
			return 0, err
		}
		// The deadline left from earlier reads passed before any timeout
		// was due: set it again, and go on reading.
	}
}

// arm sets the connection's deadline for a read starting at now, the
// first try of it at start. The deadline is the earliest of the user's,
// the idle time's and the frame's, or, when that is later, the deadline
// already set, unless that is less than slack ahead.
func (t *readTimer) arm(now, start time.Time) {
	if t.fresh {
		t.quiet, t.fresh = now, false
	}
	var d time.Time // zero: none
	if t.idle > 0 {
		t.idleEnd = t.quiet.Add(t.idle)
		if grace := start.Add(idleGrace); t.idleEnd.Before(grace) {
			t.idleEnd = grace
		}
		d = t.idleEnd
	}
	if t.inFrame && t.frame > 0 {
		if t.frameEnd.IsZero() {
			t.frameEnd = now.Add(t.frame)
		}
		d = earlier(d, t.frameEnd)
	}
	t.mu.Lock()
	d = earlier(d, t.user)
	if t.stale || !d.IsZero() && (t.dl.IsZero() || d.Before(t.dl)) ||
		!t.dl.IsZero() && !t.dl.Equal(d) && t.dl.Sub(now) < t.slack {
		t.dl, t.stale = d, false
		t.setDeadline(d)
	}
	t.mu.Unlock()
}

// earlier returns the earlier of a and b, zero meaning none.
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || !b.IsZero() && b.Before(a) {
		return b
	}
	return a
}

// due tells, after the connection's deadline passed, which deadline is
// due: the user's (err is returned as it is), the frame's
// (ErrFrameTimeout) or the idle time's (ErrIdleTimeout); nil when none is
// (the deadline was an earlier one, left to pass).
func (t *readTimer) due(err error) error {
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case !t.user.IsZero() && !now.Before(t.user):
		return err
	case !t.frameEnd.IsZero() && !now.Before(t.frameEnd):
		return ErrFrameTimeout
	case t.idle > 0 && !now.Before(t.idleEnd):
		return ErrIdleTimeout
	}
	t.stale = true
	return nil
}

// beginFrame records that a frame has begun: its clock starts with the
// next read of the connection, if it needs one.
func (t *readTimer) beginFrame() { t.inFrame = true }

// endFrame records that the frame is whole.
func (t *readTimer) endFrame() { t.inFrame, t.frameEnd = false, time.Time{} }

// timedConn is a net.Conn whose reads are under a readTimer (t; nil:
// none, as during a WebSocket's opening handshake).
type timedConn struct {
	net.Conn
	t *readTimer
}

func (c *timedConn) Read(p []byte) (int, error) {
	if c.t == nil {
		return c.Conn.Read(p)
	}
	return c.t.read(c.Conn, p)
}

// serverLimits are what the connections of one Listener or Upgrader
// share: a count of open connections, overall and per IP address, and a
// memory budget.
type serverLimits struct {
	maxConns int // 0: no limit
	maxPerIP int // 0: no limit
	open     atomic.Int64
	refused  atomic.Int64
	budget   *frame.Budget // nil: none

	mu    sync.Mutex
	perIP map[string]int
}

func newServerLimits(cfg *config) *serverLimits {
	l := &serverLimits{maxConns: cfg.maxConns, maxPerIP: cfg.maxPerIP, perIP: map[string]int{}}
	if cfg.budget > 0 {
		l.budget = frame.NewBudget(cfg.budget)
	}
	return l
}

// Why a connection is refused for capacity.
var (
	errTooManyConns = errors.New("peer: too many connections")
	errTooManyFrom  = errors.New("peer: too many connections from this address")
)

// take counts a new connection from ip ("" when unknown), or says why it
// is refused. The address's allowance is checked first, so that one
// address cannot spend the shared capacity: a connection it is refused
// takes no place from the others.
func (l *serverLimits) take(ip string) error {
	if l.maxPerIP > 0 && ip != "" {
		l.mu.Lock()
		if l.perIP[ip] >= l.maxPerIP {
			l.mu.Unlock()
			l.refused.Add(1)
			return errTooManyFrom
		}
		l.perIP[ip]++
		l.mu.Unlock()
	}
	if n := l.open.Add(1); l.maxConns > 0 && n > int64(l.maxConns) {
		l.open.Add(-1)
		l.giveIP(ip)
		l.refused.Add(1)
		return errTooManyConns
	}
	return nil
}

// give returns the place a connection from ip took.
func (l *serverLimits) give(ip string) {
	l.open.Add(-1)
	l.giveIP(ip)
}

func (l *serverLimits) giveIP(ip string) {
	if l.maxPerIP <= 0 || ip == "" {
		return
	}
	l.mu.Lock()
	if l.perIP[ip]--; l.perIP[ip] <= 0 {
		delete(l.perIP, ip)
	}
	l.mu.Unlock()
}

// ipOf returns the IP address of addr ("" when it has none).
func ipOf(addr net.Addr) string {
	switch a := addr.(type) {
	case *net.TCPAddr:
		return a.IP.String()
	case nil:
		return ""
	}
	host, _, err := net.SplitHostPort(addr.String())
	if err != nil {
		return ""
	}
	return host
}

// limitListener refuses the connections beyond the limits as it accepts
// them, before reading anything; the others give their place back when
// closed. A refused connection is passed to tell when set (which answers
// it and closes it), and reset otherwise.
type limitListener struct {
	net.Listener
	lim  *serverLimits
	tell func(nc net.Conn, why error)
}

func (l *limitListener) Accept() (net.Conn, error) {
	for {
		nc, err := l.Listener.Accept()
		if err != nil {
			return nil, err
		}
		ip := ipOf(nc.RemoteAddr())
		if why := l.lim.take(ip); why != nil {
			if l.tell != nil {
				l.tell(nc, why)
			} else {
				reset(nc)
			}
			continue
		}
		return &countedConn{Conn: nc, lim: l.lim, ip: ip}, nil
	}
}

// reset closes nc at once: nothing more to send, no TIME_WAIT.
func reset(nc net.Conn) {
	if tc, ok := nc.(*net.TCPConn); ok {
		tc.SetLinger(0)
	}
	nc.Close()
}

// countedConn gives its place back to the limits once, when closed.
type countedConn struct {
	net.Conn
	lim  *serverLimits
	ip   string
	once sync.Once
}

func (c *countedConn) Close() error {
	err := c.Conn.Close()
	c.once.Do(func() { c.lim.give(c.ip) })
	return err
}

// CloseWrite shuts down the writing side, as a *net.TCPConn does.
func (c *countedConn) CloseWrite() error {
	if cw, ok := c.Conn.(interface{ CloseWrite() error }); ok {
		return cw.CloseWrite()
	}
	return errNoShutdown
}

// limitError adds where a limit struck: the frame (when inFrame) or how
// long the connection was idle.
func limitError(err error, frameOff int64, inFrame bool, idle time.Duration) error {
	var fe *frame.Error
	switch {
	case errors.As(err, &fe):
		return err
	case inFrame:
		return &frame.Error{Offset: frameOff, Size: -1, Err: err}
	case errors.Is(err, ErrIdleTimeout):
		return fmt.Errorf("%w: nothing received for %v", err, idle)
	}
	return err
}
