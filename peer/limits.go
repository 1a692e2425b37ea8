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

// readTimer combines the user's read deadline with the idle and frame
// timeouts into the deadline of the underlying connection. arm is called
// before each read of the underlying connection, received when data has
// arrived, endFrame when the frame is whole.
// setUser may be called from any goroutine; the others from the reader.
type readTimer struct {
	set         func(time.Time) error
	idle, frame time.Duration

	mu       sync.Mutex
	user     time.Time // the user's deadline; zero: none
	limit    time.Time // the idle or frame deadline last armed
	frameEnd time.Time // zero between frames
	// The idle time counts from quiet, set when a read starts after one
	// that returned data (or the first): a read that timed out on the
	// user's deadline and is tried again does not start it afresh.
	quiet time.Time
	fresh bool
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
	return &readTimer{set: set, idle: idle, frame: frame, fresh: true}
}

func (t *readTimer) setUser(d time.Time) error {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.user = d
	return t.apply()
}

// apply sets the earlier of the user's and the limit's deadline; mu is
// held.
func (t *readTimer) apply() error {
	d := t.limit
	if !t.user.IsZero() && (d.IsZero() || t.user.Before(d)) {
		d = t.user
	}
	return t.set(d)
}

// arm sets the deadline of the next read of the underlying connection.
func (t *readTimer) arm() {
	t.mu.Lock()
	defer t.mu.Unlock()
	t.limit = time.Time{}
	if t.idle > 0 {
		now := time.Now()
		if t.fresh {
			t.quiet, t.fresh = now, false
		}
		t.limit = t.quiet.Add(t.idle)
		if grace := now.Add(idleGrace); t.limit.Before(grace) {
			t.limit = grace
		}
	}
	if !t.frameEnd.IsZero() && (t.limit.IsZero() || t.frameEnd.Before(t.limit)) {
		t.limit = t.frameEnd
	}
	t.apply()
}

// active records that the peer showed signs of life (a WebSocket ping):
// the idle time starts again with the next read.
func (t *readTimer) active() {
	t.mu.Lock()
	t.fresh = true
	t.mu.Unlock()
}

// received records that data of a frame arrived: the idle time starts
// again with the next read, and the frame's time starts if this is its
// first byte.
func (t *readTimer) received() {
	t.mu.Lock()
	t.fresh = true
	if t.frame > 0 && t.frameEnd.IsZero() {
		t.frameEnd = time.Now().Add(t.frame)
	}
	t.mu.Unlock()
}

func (t *readTimer) endFrame() {
	t.mu.Lock()
	t.frameEnd = time.Time{}
	t.mu.Unlock()
}

// cause tells a timeout of the user's deadline (returned as it is) from
// one of the limits (ErrFrameTimeout or ErrIdleTimeout).
func (t *readTimer) cause(err error) error {
	if t == nil || !isTimeout(err) {
		return err
	}
	now := time.Now()
	t.mu.Lock()
	defer t.mu.Unlock()
	switch {
	case !t.user.IsZero() && !now.Before(t.user):
		return err
	case !t.frameEnd.IsZero() && !now.Before(t.frameEnd):
		return ErrFrameTimeout
	case !t.limit.IsZero() && !now.Before(t.limit):
		return ErrIdleTimeout
	}
	return err
}

// timedReader reads from a net.Conn under a readTimer; every byte that
// arrives belongs to the current frame (frame.Reader reads no further
// ahead than the frame it is in).
type timedReader struct {
	nc net.Conn
	t  *readTimer
}

func (r *timedReader) Read(p []byte) (int, error) {
	r.t.arm()
	n, err := r.nc.Read(p)
	if n > 0 {
		r.t.received()
	}
	if err != nil {
		err = r.t.cause(err)
	}
	return n, err
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
