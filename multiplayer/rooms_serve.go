package multiplayer

import (
	"context"
	"errors"
	"net"
	"net/http"
	"sync"

	"github.com/gdvar/gdvar/peer"
)

// ServeWebSocket serves the rooms to WebSocket clients on ln until ctx
// is done, then drains (Shutdown, bounded by DrainTimeout and
// FlushTimeout) and returns nil; it returns an error when ln fails first.
// Clients join ws://ADDR/NAME. Serving on several listeners, or mounting
// Rooms as a handler in a server of one's own, is fine: Shutdown stops
// them all.
func (rs *Rooms) ServeWebSocket(ctx context.Context, ln net.Listener) error {
	srv := &http.Server{Handler: rs, ReadHeaderTimeout: defaultRoomsHeaderTimeout, IdleTimeout: defaultRoomsHeaderTimeout}
	rs.mu.Lock()
	if rs.draining {
		rs.mu.Unlock()
		ln.Close()
		return ErrDraining
	}
	rs.servers = append(rs.servers, srv)
	rs.mu.Unlock()
	errc := make(chan error, 1)
	go func() { errc <- srv.Serve(ln) }()
	select {
	case err := <-errc:
		if errors.Is(err, http.ErrServerClosed) {
			return nil
		}
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), rs.o.DrainTimeout+rs.o.FlushTimeout)
	defer cancel()
	rs.Shutdown(sctx)
	<-errc
	return nil
}

// Ready reports whether the rooms accept clients: false once Shutdown
// has begun. It is what a readiness probe asks.
func (rs *Rooms) Ready() bool {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return !rs.draining
}

// Shutdown drains the process: it stops accepting (Ready turns false, new
// clients are refused with ErrDraining, the WebSocket servers close their
// listeners), calls RoomsOptions.Drain for every room with a context that
// ends after DrainTimeout (or with ctx), then ends every room as
// Host.Shutdown does: what was queued is sent (within FlushTimeout),
// WebSocket clients get close status 1001 (going away), ENet clients a
// DISCONNECT. It returns once every room has ended, or ctx.Err() when ctx
// ends first.
func (rs *Rooms) Shutdown(ctx context.Context) error {
	rs.mu.Lock()
	if rs.draining {
		rs.mu.Unlock()
		return rs.waitEnded(ctx)
	}
	rs.draining = true
	servers := rs.servers
	var rooms []*Room
	for _, r := range rs.rooms {
		if r.opened() && !r.closing {
			rooms = append(rooms, r)
		}
	}
	rs.mu.Unlock()
	rs.log.Info("multiplayer: draining", "rooms", len(rooms))
	for _, s := range servers {
		// Stops accepting; upgraded connections are not the server's.
		s.Close()
	}
	if rs.o.Drain != nil && len(rooms) > 0 {
		dctx, cancel := context.WithTimeout(ctx, rs.o.DrainTimeout)
		var wg sync.WaitGroup
		for _, r := range rooms {
			wg.Go(func() { rs.o.Drain(dctx, r) })
		}
		done := make(chan struct{})
		go func() { wg.Wait(); close(done) }()
		select {
		case <-done:
		case <-dctx.Done():
			rs.log.Warn("multiplayer: drain deadline passed; disconnecting the rooms still playing")
		}
		cancel()
	}
	fctx, cancel := context.WithTimeout(ctx, rs.o.FlushTimeout)
	defer cancel()
	var wg sync.WaitGroup
	for _, r := range rooms {
		rs.mu.Lock()
		skip := r.closing
		r.closing, r.closedByGo = true, true
		rs.mu.Unlock()
		if !skip {
			wg.Go(func() { r.end(fctx, peer.CloseGoingAway, "server shutting down") })
		}
	}
	wg.Wait()
	return rs.waitEnded(ctx)
}

// waitEnded waits for the clients and rooms in progress to end.
func (rs *Rooms) waitEnded(ctx context.Context) error {
	done := make(chan struct{})
	go func() { rs.wg.Wait(); close(done) }()
	select {
	case <-done:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// RoomsStats is a snapshot of Rooms, for metrics.
type RoomsStats struct {
	Rooms       int   // open rooms
	Peers       int   // clients in them
	QueuedBytes int64 // bytes waiting to be sent, all rooms
	Draining    bool
}

// Stats returns the current state.
func (rs *Rooms) Stats() RoomsStats {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	return RoomsStats{Rooms: len(rs.rooms), Peers: rs.peers, QueuedBytes: rs.budget.Used(), Draining: rs.draining}
}
