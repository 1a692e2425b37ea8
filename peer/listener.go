package peer

import (
	"context"
	"errors"
	"net"
	"sync"
	"time"
)

// Listener accepts connections from Godot peers: TCP (ListenTCP) or
// WebSocket (ListenWebSocket). Its methods may be called from any
// goroutine.
type Listener struct {
	addr      net.Addr
	stop      func() error
	conns     chan *Conn
	done      chan struct{} // closed by Close
	failed    chan struct{} // closed when accepting fails for good
	err       error         // why, once failed is closed
	closeOnce sync.Once
	closeErr  error
	lim       *serverLimits
}

func newListener(addr net.Addr, stop func() error, lim *serverLimits) *Listener {
	return &Listener{
		addr:   addr,
		stop:   stop,
		lim:    lim,
		conns:  make(chan *Conn),
		done:   make(chan struct{}),
		failed: make(chan struct{}),
	}
}

// Addr returns the address the listener listens on, with the port it
// picked when asked for port 0.
func (l *Listener) Addr() net.Addr { return l.addr }

// Conns returns the number of connections open now: accepted and not yet
// closed, including WebSocket handshakes in progress.
func (l *Listener) Conns() int { return int(l.lim.open.Load()) }

// Refused returns the number of connections closed as soon as they were
// accepted because Options.MaxConns were open, or Options.MaxConnsPerIP
// from their address. A WebSocket listener answers them with an HTTP 503
// that says which (at most 64 at once, 4 per address; under a flood of
// more, the rest are reset); a TCP listener resets them.
func (l *Listener) Refused() int64 { return l.lim.refused.Load() }

// BufferedBytes returns the memory the connections' frame buffers hold
// now, counted against Options.BufferBudget (0 without a budget).
func (l *Listener) BufferedBytes() int64 {
	if l.lim.budget == nil {
		return 0
	}
	return l.lim.budget.Used()
}

// Accept waits for the next connection. It returns ctx.Err() when ctx is
// done first, and an error matching net.ErrClosed once the listener is
// closed.
func (l *Listener) Accept(ctx context.Context) (*Conn, error) {
	select {
	case c := <-l.conns:
		return c, nil
	case <-ctx.Done():
		return nil, ctx.Err()
	case <-l.done:
		return nil, &net.OpError{Op: "accept", Net: l.addr.Network(), Addr: l.addr, Err: net.ErrClosed}
	case <-l.failed:
		return nil, l.err
	}
}

// Close stops listening. Connections already accepted stay open; one that
// was established but not yet returned by Accept is closed.
func (l *Listener) Close() error {
	l.closeOnce.Do(func() {
		close(l.done)
		l.closeErr = l.stop()
	})
	return l.closeErr
}

// offer hands c to Accept, or closes it when the listener is closed.
func (l *Listener) offer(c *Conn) {
	select {
	case l.conns <- c:
	case <-l.done:
		c.tr.close()
	}
}

// acceptLoop runs accept until the listener is closed or fails for good.
// Temporary failures (too many open files, …) are retried with a growing
// pause, as net/http does.
func (l *Listener) acceptLoop(accept func() (*Conn, error)) {
	var pause time.Duration
	for {
		c, err := accept()
		if err != nil {
			select {
			case <-l.done:
				return
			default:
			}
			var ne net.Error
			if errors.As(err, &ne) && !errors.Is(err, net.ErrClosed) {
				pause = min(max(2*pause, 5*time.Millisecond), time.Second)
				select {
				case <-time.After(pause):
					continue
				case <-l.done:
					return
				}
			}
			l.err = err
			close(l.failed)
			return
		}
		pause = 0
		l.offer(c)
	}
}
