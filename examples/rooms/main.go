// Command rooms is a match server for Godot 4 games: many matches (rooms)
// in one process, on one port, with the admin listener an orchestrator
// expects. A game joins the match NAME with
//
//	WebSocketMultiplayerPeer.create_client("ws://HOST:9082/match-NAME")
//
// (names that do not start with "match-" are refused: close code 4404,
// "unknown room"), scores with rpc_id(1, "score", points) on its Game
// node, and hears the match's totals from the server (Game.totals) after
// each score and when the match ends. A match ends when empty for a while,
// or when the process is stopped: on SIGTERM it drains, telling every
// match its final totals (Game.final) before the players are disconnected
// (close code 1001), and exits 0.
//
// Metrics are served on http://ADMIN/metrics, liveness on /healthz,
// readiness on /readyz (503 while draining). Log records are JSON on
// standard error. See README.md, client4.gd for the game's side, and
// docs/deploy.md for running it on Kubernetes or Agones.
package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/multiplayer/metrics"
	"github.com/gdvar/gdvar/peer"
)

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	os.Exit(run(ctx, os.Args[1:], os.Stderr, nil))
}

// config is what run was told.
type config struct {
	ws, admin    string
	maxPlayers   int
	emptyTimeout time.Duration
	drainTimeout time.Duration
}

// run is the server, until ctx is done; it then drains and returns the
// exit status. When listening is not nil, it receives the WebSocket and
// admin addresses once both listen.
func run(ctx context.Context, args []string, logOut io.Writer, listening chan<- [2]string) int {
	var c config
	fs := flag.NewFlagSet("rooms", flag.ContinueOnError)
	fs.StringVar(&c.ws, "ws", "127.0.0.1:9082", "WebSocket address of the games")
	fs.StringVar(&c.admin, "admin", "127.0.0.1:9100", "address of /metrics, /healthz and /readyz")
	fs.IntVar(&c.maxPlayers, "max-players", 8, "players of one match")
	fs.DurationVar(&c.emptyTimeout, "empty-timeout", 30*time.Second, "end a match empty for this long")
	fs.DurationVar(&c.drainTimeout, "drain-timeout", 10*time.Second, "time the matches get to end on SIGTERM")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	log := slog.New(slog.NewJSONHandler(logOut, nil))
	reg := prometheus.NewRegistry()
	reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
	m := metrics.New(reg)
	rs, err := multiplayer.NewRooms(multiplayer.RoomsOptions{
		Host:         multiplayer.HostOptions{MaxPeers: c.maxPlayers},
		Open:         openMatch,
		Drain:        endMatch,
		OnClose:      func(r *multiplayer.Room) { matches.Delete(r.Host()) },
		EmptyTimeout: c.emptyTimeout,
		DrainTimeout: c.drainTimeout,
		// Web exports are served from elsewhere: accept any origin.
		WebSocket: multiplayer.WebSocketOptions{Peer: peer.Options{WebSocket: peer.WebSocketOptions{Origins: []string{"*"}}}},
		Logger:    log,
		Meter:     m,
	})
	if err != nil {
		log.Error("rooms", "err", err)
		return 2
	}
	m.WatchRooms(rs)
	var lc net.ListenConfig
	adminLn, err := lc.Listen(ctx, "tcp", c.admin)
	if err != nil {
		log.Error("admin listener", "err", err)
		return 1
	}
	admin := metrics.NewServer("", metrics.Admin(reg, rs.Ready))
	go admin.Serve(adminLn)
	defer admin.Close() // after the drain: probes see /readyz turn 503
	wsLn, err := lc.Listen(ctx, "tcp", c.ws)
	if err != nil {
		log.Error("WebSocket listener", "err", err)
		return 1
	}
	log.Info("serving", "ws", "ws://"+wsLn.Addr().String()+"/match-NAME", "admin", "http://"+adminLn.Addr().String())
	if listening != nil {
		listening <- [2]string{wsLn.Addr().String(), adminLn.Addr().String()}
	}
	// Under Agones: Ready now, Health pings until the end, Shutdown once
	// drained.
	ag := newAgones(log)
	health := make(chan struct{})
	healthDone := make(chan struct{})
	go func() { ag.ready(health); close(healthDone) }()
	defer func() { close(health); <-healthDone }()
	// ServeWebSocket drains when ctx is done: Drain (endMatch) for every
	// match, then the players are disconnected.
	if err := rs.ServeWebSocket(ctx, wsLn); err != nil {
		log.Error("serving", "err", err)
		return 1
	}
	ag.shutdown()
	log.Info("stopped")
	return 0
}

// match is the state of one match: the players' scores.
type match struct {
	mu     sync.Mutex
	host   *multiplayer.Host
	scores map[multiplayer.PeerID]int
}

// matches maps each open room to its match.
var matches sync.Map // *multiplayer.Host → *match

// openMatch creates the match a player asks for, or refuses the name.
func openMatch(_ context.Context, name string, o multiplayer.HostOptions) (*multiplayer.Host, error) {
	if !strings.HasPrefix(name, "match-") {
		return nil, multiplayer.ErrRoomUnknown
	}
	mt := &match{scores: map[multiplayer.PeerID]int{}}
	h, err := multiplayer.NewHost(o, gameNode(mt))
	if err != nil {
		return nil, err
	}
	mt.host = h
	matches.Store(h, mt)
	return h, nil
}

// gameNode declares the game's Game node (client4.gd): score is what a
// player calls, totals and final what the server calls.
func gameNode(mt *match) multiplayer.Node {
	return multiplayer.Node{Path: "Game", Methods: []multiplayer.Method{
		{Name: "final", Mode: multiplayer.Authority, Transfer: multiplayer.Reliable},
		{Name: "score", Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable,
			Handler: func(_ context.Context, from multiplayer.PeerID, points int) error {
				if points < 0 || points > 100 {
					return fmt.Errorf("score %d out of range", points)
				}
				mt.mu.Lock()
				mt.scores[from] += points
				totals := mt.totalsLocked()
				mt.mu.Unlock()
				return mt.host.Call(0, "Game", "totals", totals)
			}},
		{Name: "totals", Mode: multiplayer.Authority, Transfer: multiplayer.Reliable},
	}}
}

// totalsLocked is the scores as the game reads them: {peer id: points}.
func (mt *match) totalsLocked() map[int64]int64 {
	out := make(map[int64]int64, len(mt.scores))
	for id, s := range mt.scores {
		out[int64(id)] = int64(s)
	}
	return out
}

// endMatch ends a match when the process drains: every player hears the
// final totals, which go out before the players are disconnected.
func endMatch(ctx context.Context, r *multiplayer.Room) {
	v, ok := matches.LoadAndDelete(r.Host())
	if !ok {
		return
	}
	mt := v.(*match)
	mt.mu.Lock()
	totals := mt.totalsLocked()
	mt.mu.Unlock()
	mt.host.Call(0, "Game", "final", totals)
}
