package multiplayer

import (
	"context"
	"sync"
	"time"

	"github.com/gdvar/gdvar/peer"
)

// Shutdown ends the host gracefully, as a server going down should: it
// admits no one more, lets each peer's writer send what was already
// queued for it (until ctx is done), then disconnects every peer the way
// the engine expects (WebSocket: a close frame with status 1001, going
// away; ENet: a DISCONNECT after the queued packets), waits for them to
// leave and stops Serve. It returns ctx.Err() when ctx ended first (what
// was still queued then is lost), nil otherwise. Close is the abrupt form.
func (h *Host) Shutdown(ctx context.Context) error {
	return h.shutdown(ctx, peer.CloseGoingAway, "server shutting down")
}

// shutdown is Shutdown with the close status and reason WebSocket
// clients get.
func (h *Host) shutdown(ctx context.Context, code int, reason string) error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	ps := make([]*hostPeer, 0, len(h.peers))
	for _, p := range h.peers {
		ps = append(ps, p)
	}
	h.mu.Unlock()
	// The writers end once they have sent what is queued.
	for _, p := range ps {
		p.q.close()
	}
	ws := false
	for _, p := range ps {
		select {
		case <-p.q.done:
		case <-ctx.Done():
		}
		if pl, ok := p.link.(*wsPollLink); ok {
			// Its queue is the connection's output.
			for pl.queuedBytes() > 0 && ctx.Err() == nil {
				time.Sleep(5 * time.Millisecond)
			}
		}
		_, isWS := p.link.(wsCloser)
		ws = ws || isWS
	}
	if ws {
		// Godot's WebSocketMultiplayerPeer stops reading packets once the
		// connection is closed, losing those it had received and not yet
		// polled: give the clients a few frames to poll the last ones.
		select {
		case <-time.After(wsCloseDelay):
		case <-ctx.Done():
		}
	}
	var wg sync.WaitGroup
	for _, p := range ps {
		wg.Go(func() { closeLinkWith(p.link, code, reason) })
	}
	wg.Wait()
	// The readers see the end and the peers leave.
	for h.peerCount() > 0 && ctx.Err() == nil {
		time.Sleep(5 * time.Millisecond)
	}
	h.cancel()
	h.wg.Wait()
	return ctx.Err()
}

// wsCloseDelay is how long Shutdown waits, once what was queued for
// WebSocket clients is written, before it closes their connections.
const wsCloseDelay = 250 * time.Millisecond

// wsCloser is a WebSocket Link, which can tell its client why it is
// closed.
type wsCloser interface {
	closeWith(code int, reason string) error
}

// closeLinkWith closes a link, telling a WebSocket client why.
func closeLinkWith(l Link, code int, reason string) error {
	if w, ok := l.(wsCloser); ok {
		return w.closeWith(code, reason)
	}
	return l.Close()
}

func (h *Host) peerCount() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.peers)
}

// HostStats is a snapshot of a Host's state, for metrics.
type HostStats struct {
	// Peers counts the connected clients, admitted or not.
	Peers int
	// QueuedBytes is what waits to be sent to them (each frame counted
	// with 16 bytes of bookkeeping; for a client a peer.Poller writes, its
	// bytes on the wire).
	QueuedBytes int
}

// Stats returns the host's current state.
func (h *Host) Stats() HostStats {
	h.mu.Lock()
	ps := make([]*hostPeer, 0, len(h.peers))
	for _, p := range h.peers {
		ps = append(ps, p)
	}
	h.mu.Unlock()
	s := HostStats{Peers: len(ps)}
	for _, p := range ps {
		if pl, ok := p.link.(*wsPollLink); ok {
			s.QueuedBytes += pl.queuedBytes()
		} else {
			s.QueuedBytes += p.q.queued()
		}
	}
	return s
}
