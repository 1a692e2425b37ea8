package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log/slog"
	"net"
	"os"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/collectors"

	"github.com/gdvar/gdvar/enet"
	"github.com/gdvar/gdvar/enet/godotcompress"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/internal/loglimit"
	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/multiplayer/metrics"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

const hostUsage = `Usage: gdvar host [--ws ADDR] [--enet ADDR] [--godot 3|4] [--project DIR] [--rpc NODEPATH:METHOD,…]… [flags]

A multiplayer host (peer id 1) that Godot games join with
WebSocketMultiplayerPeer (Godot 4: create_client; Godot 3: WebSocketClient
as the network_peer) or over ENet (Godot 4: ENetMultiplayerPeer; Godot 3:
NetworkedMultiplayerENet; create_client). It relays between clients as the engine's server does
(server_relay), so several games can play through it, and prints every packet
it sees, one line each:

  1480974997 -> 1 REMOTE_CALL Lobby.hello("Ada", Vector2(1.5, -2))
  1480974997 -> 2093 (relay) REMOTE_CALL Main/Player.move(Vector2(3, 4))
  [match7] 2093 -> 1 RAW 0a141e
  2093 -> 1 SPAWN "P1" by Main/Spawner scene 0 net #1 sync #2 state(Vector2(10, 20), 100)
  2093 -> 1 SYNC t=7 P1#2(Vector2(12, 20)) Main/World/Sync(Vector2(0, 4))
  2093 -> 1 DELTA P1#2[1]("moved")

SPAWN, DESPAWN, SYNC and DELTA (MultiplayerSpawner and
MultiplayerSynchronizer, Godot 4) show the spawned node's name, the
spawner's path, net and sync ids (named after the node they were spawned
with) or the synchronizer's path, the values in Godot's text form (in the
SceneReplicationConfig's order) and, for DELTA, the indices of the changed
on-change properties. With --project, the scenes' spawners and
synchronizers name the synchronizers and properties too:

  2093 -> 1 SPAWN "P1" by Main/Spawner scene 0 res://player.tscn net #1 sync #2 state(position=Vector2(10, 20), hp=100)
  2093 -> 1 SYNC t=7 P1/ServerSync#2(position=Vector2(12, 20)) Main/World/Sync(position=Vector2(0, 4))
  2093 -> 1 DELTA P1/ServerSync#2(label="moved")

It serves many rooms at once: a WebSocket client of ws://HOST:PORT/NAME
joins the room NAME (letters, digits, "-_.~"), created on its first join;
ws://HOST:PORT/ is a room too, the one ENet clients join. Rooms are
independent (their own peer ids and relay); a room ends once empty for
--empty-timeout. Lines of a named room start with [NAME].

Godot 4 names RPC methods by number: the host knows their names from
--project (the @rpc functions of the scripts each scene attaches, and the
autoloads) or --rpc, and prints #N otherwise. Godot 3 sends names. Calls to
the host itself are checked against the declared modes and then dropped
(nothing runs them). Connections, disconnections and refused packets are
reported on standard error.

Ctrl-C (SIGINT) or SIGTERM drains: no new clients (/readyz answers 503),
what is queued is sent, then clients are disconnected as the engine expects
(WebSocket close 1001, ENet DISCONNECT), and gdvar host exits 0.

What clients send cannot make the output grow much faster than their
traffic: the text they control is cut (--max-text), and repeated or
refused packets are printed at a bounded rate (--log-rate).

Flags:
  --ws ADDR          listen for WebSocket clients (default 127.0.0.1:9082
                     unless only --enet is given; PORT or :PORT mean
                     127.0.0.1, 0.0.0.0:PORT every interface)
  --enet ADDR        listen for ENet clients on UDP ADDR (as --ws); they
                     join the room of ws://HOST:PORT/
  --compress MODE    ENet compression, as the games' compression_mode
                     (Godot 3) or ENetConnection.compress (Godot 4): none,
                     rangecoder, fastlz, zlib or zstd (default none)
  --godot 3|4        engine family of the games (default 4)
  --project DIR      read RPC declarations (and, Godot 4, spawners and
                     synchronizers) from the Godot project in DIR
  --rpc SPEC         declare a node's RPC methods: NODEPATH:METHOD,METHOD,…
                     (all of them: their sorted order gives the ids); may repeat
  --allow-objects    accept full Objects in arguments (allow_object_decoding)
  --max-peers N      most clients of one room (default 1024)
  --max-clients N    most clients of all rooms (default 10000)
  --max-rooms N      most rooms at once (default 1000)
  --room-rate R      most new rooms a second, on average (default 20)
  --empty-timeout D  end a room empty for this long (default 30s)
  --drain-timeout D  on SIGTERM, time to send what is queued (default 5s)
  --metrics ADDR     serve Prometheus metrics on http://ADDR/metrics, and
                     /healthz and /readyz (ADDR as --ws)
  --log-format F     standard error's records: text (default) or json
                     (log/slog's; the traffic view stays on standard output)
  --max-per-ip N     most clients at once from one IP address, WebSocket
                     handshakes in progress included (default 64)
  --max-packet N     largest packet in bytes (default 65536)
  --idle D           drop a client silent for this long (default 0: never)
  --write-delay D    handle the clients' messages at most once every D while
                     busy and send what that queued together, as Godot's
                     own host does once a frame (about 7ms), over WebSocket
                     and ENet: less CPU per message, up to D more latency
                     (default 0: WebSocket writes at once, ENet runs in
                     frames of 1ms, the wait its flushes allow anyway)
  --max-text N       cut every piece of text a client controls (arguments,
                     node paths, method names, errors quoting them) after
                     N bytes in what is printed (default 300; 0: never)
  --log-rate N       print at most N lines a second of one kind of packet
                     from one client, after a burst of 5N (refused packets
                     are one kind per client); the next line printed says
                     how many were not (default 10; 0: no limit)
  --hex              print each packet's bytes too

Examples:
  gdvar host
  gdvar host --ws 0.0.0.0:9082 --project ~/games/mygame --metrics 0.0.0.0:9100
  gdvar host --godot 3 --ws 9082
  gdvar host --godot 3 --enet 0.0.0.0:7777 --compress zstd
  gdvar host --rpc Lobby:hello,welcome --rpc Main/Player:move
  gdvar host --ws 0.0.0.0:9082 --log-format json > traffic.log
`

func runHost(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	return hostMain(ctx, args, stdout, stderr)
}

// hostMain is gdvar host, until ctx is done; then it drains.
func hostMain(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("host", flag.ContinueOnError)
	ws := fs.String("ws", "127.0.0.1:9082", "WebSocket address")
	enetAddr := fs.String("enet", "", "ENet (UDP) address")
	compress := fs.String("compress", "none", "ENet compression mode")
	godot := newGodotFlag()
	fs.Var(godot, "godot", "engine family: 3 or 4")
	project := fs.String("project", "", "Godot project directory")
	var specs []string
	fs.Func("rpc", "NODEPATH:METHOD,…", func(s string) error { specs = append(specs, s); return nil })
	allow := fs.Bool("allow-objects", false, "accept full objects")
	maxPeers := fs.Int("max-peers", multiplayer.DefaultMaxPeers, "most clients of a room")
	maxClients := fs.Int("max-clients", multiplayer.DefaultRoomsMaxPeers, "most clients")
	maxRooms := fs.Int("max-rooms", multiplayer.DefaultMaxRooms, "most rooms")
	roomRate := fs.Float64("room-rate", multiplayer.DefaultRoomRate, "new rooms a second")
	emptyTimeout := fs.Duration("empty-timeout", multiplayer.DefaultEmptyTimeout, "end empty rooms after")
	drainTimeout := fs.Duration("drain-timeout", multiplayer.DefaultFlushTimeout, "time to send what is queued")
	maxPacket := fs.Int("max-packet", multiplayer.DefaultMaxPacketSize, "largest packet")
	idle := fs.Duration("idle", 0, "idle timeout")
	writeDelay := fs.Duration("write-delay", 0, "handle and send at most once every D (WebSocket and ENet)")
	maxPerIP := fs.Int("max-per-ip", multiplayer.DefaultMaxPeersPerIP, "most clients from one IP address")
	maxText := fs.Int("max-text", loglimit.DefaultMaxText, "cut printed client text")
	logRate := fs.Int("log-rate", 10, "lines a second of one kind")
	metricsAddr := fs.String("metrics", "", "admin (metrics, health) address")
	logFormat := fs.String("log-format", "text", "text or json")
	hexOut := fs.Bool("hex", false, "print packet bytes")
	if err := parseCommandFlags(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, hostUsage)
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		usageError(stderr, "host", fmt.Errorf("unexpected argument %q", fs.Arg(0)))
		return 2
	}
	if *maxPeers <= 0 || *maxPerIP <= 0 || *maxPacket <= 0 || *maxClients <= 0 || *maxRooms <= 0 || *roomRate <= 0 || *maxText < 0 || *logRate < 0 || *idle < 0 || *writeDelay < 0 || *emptyTimeout <= 0 || *drainTimeout <= 0 {
		usageError(stderr, "host", errors.New("--max-peers, --max-per-ip, --max-clients, --max-rooms, --room-rate, --max-packet, --empty-timeout, --drain-timeout must be positive; --max-text, --log-rate, --idle, --write-delay not negative"))
		return 2
	}
	var logger *slog.Logger
	switch *logFormat {
	case "text":
		logger = slog.New(slog.NewTextHandler(stderr, &slog.HandlerOptions{Level: slog.LevelWarn}))
	case "json":
		logger = slog.New(slog.NewJSONHandler(&lockedWriter{w: stderr}, nil))
	default:
		usageError(stderr, "host", fmt.Errorf("--log-format %q: want text or json", *logFormat))
		return 2
	}
	useWS := true
	if *enetAddr != "" {
		useWS = false
		fs.Visit(func(f *flag.Flag) { useWS = useWS || f.Name == "ws" })
	}
	addr, err := listenAddr(*ws)
	if err != nil {
		usageError(stderr, "host", err)
		return 2
	}
	var enetListen, adminListen string
	if *enetAddr != "" {
		if enetListen, err = listenAddr(*enetAddr); err != nil {
			fmt.Fprintln(stderr, "gdvar host:", err)
			return 2
		}
	}
	if *metricsAddr != "" {
		if adminListen, err = listenAddr(*metricsAddr); err != nil {
			fmt.Fprintln(stderr, "gdvar host:", err)
			return 2
		}
	}
	mode, err := godotcompress.ParseMode(*compress)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar host:", err)
		return 2
	}
	fam := godot.family()
	var nodes []multiplayer.Node
	var replProject *multiplayer.Project
	if *project != "" {
		if nodes, replProject, err = loadHostProject(*project, fam, stderr); err != nil {
			fmt.Fprintln(stderr, "gdvar host:", err)
			return 1
		}
		if _, err := os.Stat(filepath.Join(*project, "project.godot")); err != nil {
			fmt.Fprintf(stderr, "gdvar host: warning: %s has no project.godot: --project names the Godot project's folder\n", *project)
		}
		if len(nodes) == 0 && fam == variant.Godot4 {
			fmt.Fprintf(stderr, "gdvar host: warning: no RPC methods in %s's scenes and autoloads: calls print as #N\n", *project)
		}
		for _, n := range nodes {
			names := make([]string, len(n.Methods))
			for i, m := range n.Methods {
				names[i] = m.Name
			}
			fmt.Fprintf(stderr, "gdvar host: %s: %s\n", n.Path, strings.Join(names, ", "))
		}
	}
	for _, s := range specs {
		n, err := parseRPCSpec(s)
		if err != nil {
			fmt.Fprintln(stderr, "gdvar host:", err)
			return 2
		}
		nodes = append(nodes, n)
	}
	pr := newHostPrinter(stdout, *maxText, *logRate, *hexOut, gdtext.Options{Family: fam})
	pr.project = replProject
	logText := *maxText
	if logText == 0 {
		logText = -1 // the library's "no limit"
	}
	// note reports an event on standard error: a line of text, or a JSON
	// record with the room as an attribute.
	// human is the line of text, msg and attrs the record.
	note := func(room, human, msg string, attrs ...any) {
		if *logFormat == "json" {
			logger.Info("gdvar host: "+msg, append([]any{"room", room}, attrs...)...)
			return
		}
		prefix := ""
		if room != "" {
			prefix = "[" + room + "] "
		}
		pr.note(stderr, "%s%s", prefix, human)
	}
	// say reports the host's own events on standard error.
	say := func(format string, args ...any) {
		if *logFormat == "json" {
			logger.Info("gdvar host: " + fmt.Sprintf(format, args...))
		} else {
			fmt.Fprintf(stderr, "gdvar host: "+format+"\n", args...)
		}
	}
	var m *metrics.Metrics
	reg := prometheus.NewRegistry()
	if adminListen != "" {
		reg.MustRegister(collectors.NewGoCollector(), collectors.NewProcessCollector(collectors.ProcessCollectorOpts{}))
		m = metrics.New(reg)
	}
	ro := multiplayer.RoomsOptions{
		Host: multiplayer.HostOptions{
			Godot:         fam,
			MaxPeers:      *maxPeers,
			MaxPeersPerIP: *maxPerIP,
			IdleTimeout:   *idle,
			AllowObjects:  *allow,
			MaxErrors:     -1, // a watching host: log, as the engine does, and keep going
			MaxLogText:    logText,
		},
		Open: func(_ context.Context, name string, o multiplayer.HostOptions) (*multiplayer.Host, error) {
			o.OnConnect = func(id multiplayer.PeerID) { note(name, fmt.Sprintf("peer %d joined", id), "peer joined", "peer", id) }
			o.OnDisconnect = func(id multiplayer.PeerID, err error) {
				pr.left(id)
				if err != nil {
					note(name, fmt.Sprintf("peer %d left: %s", id, pr.cut(err.Error())), "peer left", "peer", id, "err", pr.cut(err.Error()))
				} else {
					note(name, fmt.Sprintf("peer %d left", id), "peer left", "peer", id)
				}
			}
			o.Observe = pr.eventIn(name)
			h, err := multiplayer.NewHost(o, nodes...)
			if err == nil && name != "" {
				note(name, "room opened", "room opened")
			}
			return h, err
		},
		OnClose: func(r *multiplayer.Room) {
			if r.Name() != "" {
				note(r.Name(), "room closed", "room closed")
			}
		},
		MaxRooms:     *maxRooms,
		MaxPeers:     *maxClients,
		RoomRate:     *roomRate,
		EmptyTimeout: *emptyTimeout,
		FlushTimeout: *drainTimeout,
		WebSocket: multiplayer.WebSocketOptions{
			MaxPacketSize: *maxPacket,
			WriteDelay:    *writeDelay,
			// A development host: web exports may be served from anywhere.
			Peer: peer.Options{CloseTimeout: 250 * time.Millisecond, MaxConnsPerIP: *maxPerIP, WebSocket: peer.WebSocketOptions{Origins: []string{"*"}}},
		},
		Logger: logger,
	}
	if m != nil {
		ro.Meter = m
	}
	rs, err := multiplayer.NewRooms(ro)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar host:", err)
		return 2
	}
	if m != nil {
		m.WatchRooms(rs)
	}
	var wg sync.WaitGroup
	defer wg.Wait()
	if adminListen != "" {
		ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", adminListen)
		if err != nil {
			fmt.Fprintln(stderr, "gdvar host:", err)
			return 1
		}
		srv := metrics.NewServer("", metrics.Admin(reg, rs.Ready))
		wg.Go(func() { srv.Serve(ln) })
		// The admin listener outlives the drain, so that probes see it.
		defer srv.Close()
		say("metrics on http://%s/metrics, health on /healthz and /readyz", ln.Addr())
	}
	if useWS {
		ln, err := (&net.ListenConfig{}).Listen(ctx, "tcp", addr)
		if err != nil {
			fmt.Fprintln(stderr, "gdvar host:", err)
			return 1
		}
		wg.Go(func() { rs.ServeWebSocket(context.Background(), ln) })
		say("%s multiplayer host on ws://%s (a room each path: ws://%s/NAME)", fam, ln.Addr(), ln.Addr())
	}
	if enetListen != "" {
		l, err := multiplayer.ListenENet(ctx, enetListen, multiplayer.ENetOptions{
			Godot:       fam,
			Compression: mode,
			ENet: enet.Config{PeerLimit: min(*maxPeers, 4095), MaxPacketSize: *maxPacket + 8, // Godot 3's header
				Frame: *writeDelay},
		})
		if err != nil {
			fmt.Fprintln(stderr, "gdvar host:", err)
			rs.Shutdown(context.Background())
			return 1
		}
		wg.Go(func() { rs.ServeListener(l, "") })
		say("%s multiplayer host on enet://%s (compression %s)", fam, l.Addr(), mode)
	}
	<-ctx.Done()
	say("draining")
	sctx, cancel := context.WithTimeout(context.Background(), *drainTimeout+time.Second)
	defer cancel()
	if err := rs.Shutdown(sctx); err != nil {
		say("drain: %v", err)
	}
	say("stopped")
	return 0
}

// lockedWriter serializes writes, for log records and notes sharing a
// writer.
type lockedWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *lockedWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// parseRPCSpec reads NODEPATH:METHOD,METHOD,….
func parseRPCSpec(s string) (multiplayer.Node, error) {
	path, list, ok := strings.Cut(s, ":")
	if !ok || path == "" || list == "" {
		return multiplayer.Node{}, fmt.Errorf("--rpc %q: want NODEPATH:METHOD,METHOD,…", s)
	}
	n := multiplayer.Node{Path: path}
	for _, m := range strings.Split(list, ",") {
		if m = strings.TrimSpace(m); m != "" {
			n.Methods = append(n.Methods, multiplayer.Method{Name: m, Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable})
		}
	}
	return n, nil
}

// loadHostProject reads --project: the RPC declarations and, for Godot 4,
// the spawners and synchronizers that name what SPAWN, SYNC and DELTA
// carry (nil, with a warning, when the scenes do not read as such).
func loadHostProject(dir string, fam variant.Family, stderr io.Writer) ([]multiplayer.Node, *multiplayer.Project, error) {
	if fam != variant.Godot4 {
		nodes, err := multiplayer.LoadProject(dir, fam)
		return nodes, nil, err
	}
	proj, err := multiplayer.ReadProject(dir)
	if err != nil {
		nodes, lerr := multiplayer.LoadProject(dir, fam)
		if lerr == nil {
			fmt.Fprintf(stderr, "gdvar host: warning: replication prints without property names: %v\n", err)
		}
		return nodes, nil, lerr
	}
	for _, sp := range proj.Spawners {
		scenes := make([]string, len(sp.Scenes))
		for i, sc := range sp.Scenes {
			scenes[i] = sc.Path
		}
		fmt.Fprintf(stderr, "gdvar host: %s spawns %s\n", sp.Path, strings.Join(scenes, ", "))
	}
	for _, sy := range proj.Synchronizers {
		fmt.Fprintf(stderr, "gdvar host: %s synchronizes %s\n", sy.Name, strings.Join(keys(sy.Properties), ", "))
	}
	return proj.Nodes, proj, nil
}

// hostPrinter writes gdvar host's traffic view: a line per packet.
type hostPrinter struct {
	mu      sync.Mutex
	repl    replNames            // what the SPAWNs seen named; guarded by mu
	project *multiplayer.Project // --project's spawners and synchronizers; nil: none
	w       io.Writer
	maxText int
	hex     bool
	text    gdtext.Options
	lim     *loglimit.Limiter // nil: no limit
}

func newHostPrinter(w io.Writer, maxText, rate int, hex bool, text gdtext.Options) *hostPrinter {
	p := &hostPrinter{w: w, maxText: maxText, hex: hex, text: text}
	if rate > 0 {
		p.lim = loglimit.New(5*rate, time.Second/time.Duration(rate))
	}
	return p
}

// note prints a line about the host on w; lines about peers joining and
// leaving are one kind of line, rate-limited.
func (p *hostPrinter) note(w io.Writer, format string, args ...any) {
	ok, n := p.lim.Allow("note")
	if !ok {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintf(w, "gdvar host: "+format+suppressed(n)+"\n", args...)
}

// suppressed says how many lines like the one it ends were not printed.
func suppressed(n int) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("  (+%d like it not shown)", n)
}

// kind is the rate-limited kind of e's line: every refused packet of one
// peer, or the packets of one peer with the same command, node and method.
func kind(e *multiplayer.Event) string {
	if e.Err != nil {
		return fmt.Sprintf("%d refused", e.From)
	}
	return fmt.Sprintf("%d %s %.64s.%.64s", e.From, e.Packet.Command, e.Node, e.Method)
}

// left prints how many lines about a peer that left were not printed.
func (p *hostPrinter) left(id multiplayer.PeerID) {
	if n := p.lim.FlushPrefix(strconv.Itoa(int(id)) + " "); n > 0 {
		p.mu.Lock()
		defer p.mu.Unlock()
		fmt.Fprintf(p.w, "%d: %d more packets not shown\n", id, n)
	}
}

// eventInRoom prints one packet the host saw in room; the line starts
// with [room] (nothing for the room "").
func (p *hostPrinter) eventInRoom(room string, e *multiplayer.Event) {
	ok, n := p.lim.Allow(kind(e))
	if !ok {
		return
	}
	var b strings.Builder
	if room != "" {
		b.WriteString("[" + room + "] ")
	}
	to := "1"
	if e.Relayed {
		to = strconv.Itoa(int(e.To)) + " (relay)"
	}
	fmt.Fprintf(&b, "%d -> %s %s", e.From, to, replCommand(e))
	pk := &e.Packet
	switch pk.Command {
	case multiplayer.CmdSpawn, multiplayer.CmdDespawn, multiplayer.CmdSync:
		p.replication(&b, room, e)
	case multiplayer.CmdRemoteCall, multiplayer.CmdRemoteSet:
		node := e.Node
		if node == "" {
			node = "#" + strconv.FormatUint(uint64(pk.NodeID), 10)
		}
		method := e.Method
		if method == "" {
			method = "#" + strconv.Itoa(int(pk.Method))
		}
		b.WriteString(" " + p.cut(node) + "." + p.cut(method) + "(" + p.args(e.Args) + ")")
	case multiplayer.CmdSimplifyPath:
		fmt.Fprintf(&b, " %s as #%d", p.cut(string(pk.Path)), pk.NodeID)
	case multiplayer.CmdConfirmPath:
		if pk.Path != nil {
			fmt.Fprintf(&b, " %s", p.cut(string(pk.Path)))
		} else {
			fmt.Fprintf(&b, " #%d valid=%v", pk.NodeID, pk.Valid)
		}
	case multiplayer.CmdRaw:
		b.WriteString(" " + p.cut(fmt.Sprintf("%x", pk.Payload)))
	case multiplayer.CmdSys:
		fmt.Fprintf(&b, " %s %d", pk.Sys, pk.Peer)
	}
	if e.Err != nil {
		b.WriteString("  REFUSED: " + p.cut(e.Err.Error()))
	}
	if p.hex {
		b.WriteString("  [" + p.cut(fmt.Sprintf("%x", e.Data)) + "]")
	}
	b.WriteString(suppressed(n))
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, b.String())
}

func (p *hostPrinter) args(args []variant.Value) string {
	parts := make([]string, len(args))
	for i, a := range args {
		t, err := gdtext.Format(a, p.text)
		if err != nil {
			t = "?"
		}
		parts[i] = t
	}
	return p.cut(strings.Join(parts, ", "))
}

// cut shortens text a client controls to --max-text bytes.
func (p *hostPrinter) cut(s string) string { return loglimit.Cut(s, p.maxText) }

// eventIn returns the printer of the packets of room: its lines start
// with [room] (none for the room "").
func (p *hostPrinter) eventIn(room string) func(*multiplayer.Event) {
	return func(e *multiplayer.Event) { p.eventInRoom(room, e) }
}
