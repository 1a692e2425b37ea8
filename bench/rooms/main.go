// Command rooms measures multiplayer.Rooms at full scale: a server process
// serving many rooms over WebSocket, as a Go game server runs them, and a
// load generator in another process holding the clients, so that the
// server's CPU time and memory, read from /proc, are its own. Linux only
// (it reads /proc/PID/stat and status).
//
//	rooms serve --addr 127.0.0.1:9200 --stats 127.0.0.1:9201 --clients 10000 --rooms 500
//	rooms load  --addr 127.0.0.1:9200 --stats 127.0.0.1:9201 --clients 10000 --rooms 500 --rate 20
//
// serve runs multiplayer.Rooms (relay on, as the engine's server has it,
// unless --relay=false) with one node, P, whose RPC move(Vector2) counts
// the calls that arrive; its stats listener answers GET /stats with those
// counts and the process's heap, after a garbage collection that returns
// free memory to the system when asked (?gc=1).
//
// load is lean: each client is a real WebSocket connection that joins the
// room /r<i mod rooms> by URL path and does the handshake a Godot 4 client
// does with the room's host (it reads the peer id the host assigns, sends
// SIMPLIFY_PATH for P and waits for the host's CONFIRM_PATH), then hears
// of the other peers of its room (SYS ADD_PEER notices, with relay on), all
// spoken with the multiplayer package's link and packet functions, without
// a multiplayer.Client's per-peer state. Once every client has joined, each
// calls P.move on its room's host rate times a second, for a warm-up and
// then the measured duration, and load prints one line of JSON (or, with
// --row, a Markdown table row):
//
//	connect_s           all clients joined (id, path confirmed), dialers at once
//	peers_s             every client heard of every other of its room
//	scheduled, offered  calls due by the schedule, calls written, per second
//	delivered           calls the server's handler ran, per second
//	cpu_us_per_client_s server CPU (user+sys) per client and second of load
//	cpu_us_per_rpc      server CPU per delivered call
//	rss_*, heap_*       server resident set and heap (plus goroutine stacks)
//	                    growth over the idle server, per client and per room
//	lost                calls written but never counted by the server
//
// run.sh runs the server and the load generator for each configuration
// and prints the table.
package main

import (
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"log"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"runtime"
	"runtime/debug"
	"runtime/pprof"
	"sync/atomic"
	"syscall"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

func main() {
	if len(os.Args) < 2 {
		fmt.Fprintln(os.Stderr, "usage: rooms serve|load [flags], or rooms header (of load --row's table)")
		os.Exit(2)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	var err error
	switch os.Args[1] {
	case "serve":
		err = serveMain(ctx, os.Args[2:])
	case "load":
		err = loadMain(ctx, os.Args[2:])
	case "header":
		fmt.Println(header)
	default:
		err = fmt.Errorf("unknown mode %q: serve or load", os.Args[1])
	}
	if err != nil {
		log.Fatal("rooms: ", err)
	}
}

// The node every room has, and the client's view of it: P.move(Vector2),
// method id 0 (the only one, so first in sorted order).
const (
	nodePath   = "P"
	methodName = "move"
	cacheID    = 1
)

// config is what both sides are told: how many clients in how many rooms.
type config struct {
	addr      string
	statsAddr string
	clients   int
	rooms     int
}

func (c *config) flags(fs *flag.FlagSet) {
	fs.StringVar(&c.addr, "addr", "127.0.0.1:9200", "the WebSocket address")
	fs.StringVar(&c.statsAddr, "stats", "127.0.0.1:9201", "the server's stats address")
	fs.IntVar(&c.clients, "clients", 1000, "clients in all")
	fs.IntVar(&c.rooms, "rooms", 50, "rooms they are spread over (client i joins room i mod rooms)")
}

// perRoom is the most clients a room gets.
func (c *config) perRoom() int { return (c.clients + c.rooms - 1) / c.rooms }

// serverConfig configures serve.
type serverConfig struct {
	config
	relay     bool
	roomQueue int64
	noPoller  bool
}

// stats is what the server's GET /stats answers.
type stats struct {
	PID         int   `json:"pid"`
	Calls       int64 `json:"calls"`
	Rooms       int   `json:"rooms"`
	Peers       int   `json:"peers"`
	QueuedBytes int64 `json:"queued_bytes"`
	Warnings    int64 `json:"warnings"`
	HeapAlloc   int64 `json:"heap_alloc"`
	StackInuse  int64 `json:"stack_inuse"`
	Goroutines  int   `json:"goroutines"`
}

// serve runs the rooms until ctx is done, then drains them; ready, when
// set, receives the two listeners' addresses once they listen.
func serve(ctx context.Context, c serverConfig, ready func(ws, stats net.Addr)) error {
	var calls atomic.Int64
	node := multiplayer.Node{Path: nodePath, Methods: []multiplayer.Method{{
		Name: methodName, Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable,
		Handler: func(context.Context, multiplayer.PeerID, variant.Vector2) { calls.Add(1) },
	}}}
	// Warnings (a peer dropped, a refused packet) are counted and the
	// first few printed: a run with any has not measured what it claims.
	warn := &countingHandler{h: slog.NewTextHandler(os.Stderr, &slog.HandlerOptions{Level: slog.LevelWarn}), n: new(atomic.Int64)}
	per := c.perRoom()
	rs, err := multiplayer.NewRooms(multiplayer.RoomsOptions{
		Host:            multiplayer.HostOptions{MaxPeers: per, MaxPeersPerIP: per, NoRelay: !c.relay},
		Nodes:           []multiplayer.Node{node},
		MaxRooms:        c.rooms,
		RoomBurst:       c.rooms,
		MaxPeers:        c.clients,
		RoomQueuedBytes: c.roomQueue,
		// Every client comes from the loopback address.
		WebSocket: multiplayer.WebSocketOptions{Peer: peer.Options{MaxConnsPerIP: -1}, NoPoller: c.noPoller},
		Logger:    slog.New(warn),
	})
	if err != nil {
		return err
	}
	ln, err := net.Listen("tcp", c.addr)
	if err != nil {
		return err
	}
	sln, err := net.Listen("tcp", c.statsAddr)
	if err != nil {
		ln.Close()
		return err
	}
	mux := http.NewServeMux()
	mux.HandleFunc("GET /stats", func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Query().Get("gc") != "" {
			debug.FreeOSMemory()
		}
		var m runtime.MemStats
		runtime.ReadMemStats(&m)
		s := rs.Stats()
		json.NewEncoder(w).Encode(stats{
			PID: os.Getpid(), Calls: calls.Load(), Rooms: s.Rooms, Peers: s.Peers, QueuedBytes: s.QueuedBytes,
			Warnings: warn.n.Load(), HeapAlloc: int64(m.HeapAlloc), StackInuse: int64(m.StackInuse),
			Goroutines: runtime.NumGoroutine(),
		})
	})
	ssrv := &http.Server{Handler: mux}
	go ssrv.Serve(sln)
	defer ssrv.Close()
	if ready != nil {
		ready(ln.Addr(), sln.Addr())
	}
	return rs.ServeWebSocket(ctx, ln)
}

func serveMain(ctx context.Context, args []string) error {
	var c serverConfig
	fs := flag.NewFlagSet("serve", flag.ExitOnError)
	c.flags(fs)
	fs.BoolVar(&c.relay, "relay", true, "relay between clients (server_relay); false: clients know only the host")
	fs.Int64Var(&c.roomQueue, "room-queue", 0, "RoomsOptions.RoomQueuedBytes (0: the default)")
	fs.BoolVar(&c.noPoller, "no-poller", false, "WebSocketOptions.NoPoller: a reader goroutine per client")
	cpuprofile := fs.String("cpuprofile", "", "write a CPU profile of the server to this file")
	mutexprofile := fs.String("mutexprofile", "", "write a profile of the server's contended locks to this file")
	fs.Parse(args)
	if *mutexprofile != "" {
		runtime.SetMutexProfileFraction(10)
		defer func() {
			if f, err := os.Create(*mutexprofile); err == nil {
				pprof.Lookup("mutex").WriteTo(f, 0)
				f.Close()
			}
		}()
	}
	if *cpuprofile != "" {
		f, err := os.Create(*cpuprofile)
		if err != nil {
			return err
		}
		if err := pprof.StartCPUProfile(f); err != nil {
			return err
		}
		defer func() {
			pprof.StopCPUProfile()
			f.Close()
		}()
	}
	err := serve(ctx, c, func(ws, st net.Addr) { fmt.Println("listening", ws, "stats", st) })
	if errors.Is(err, context.Canceled) {
		return nil
	}
	return err
}

// countingHandler counts the records it is given and passes the first 20
// on.
type countingHandler struct {
	h slog.Handler
	n *atomic.Int64
}

func (c *countingHandler) Enabled(ctx context.Context, l slog.Level) bool {
	return c.h.Enabled(ctx, l)
}

func (c *countingHandler) Handle(ctx context.Context, r slog.Record) error {
	if c.n.Add(1) <= 20 {
		return c.h.Handle(ctx, r)
	}
	return nil
}

func (c *countingHandler) WithAttrs(a []slog.Attr) slog.Handler {
	return &countingHandler{h: c.h.WithAttrs(a), n: c.n}
}

func (c *countingHandler) WithGroup(g string) slog.Handler {
	return &countingHandler{h: c.h.WithGroup(g), n: c.n}
}
