package main

import (
	"cmp"
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"os"
	"os/signal"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

const serveUsage = `Usage: gdvar serve [--tcp ADDR] [--udp ADDR] [--ws ADDR] [--godot 3|4] [flags]

A server to develop a game against. Point the game at it: every value the
game sends is printed in Godot's text form, one line each, with the
protocol and the game's address, and sent straight back (an echo):

  tcp 127.0.0.1:53124: { "hp": 99.5, "pos": Vector2(1, 2) }

  TCP        StreamPeerTCP.put_var / get_var (a 4-byte length, then the value)
  UDP        PacketPeerUDP.put_var / get_var (one value per datagram)
  WebSocket  WebSocketPeer.put_var / get_var (one value per binary message)

Without --tcp, --udp or --ws it listens on all three, on loopback:
TCP and UDP on 127.0.0.1:9080, WebSocket on 127.0.0.1:9081 (any path, any
Origin). With any of them, only those given. ADDR is PORT or :PORT (on
127.0.0.1), or HOST:PORT (0.0.0.0:9080 for every interface). A value that
does not decode is printed as ERROR and the reason; connections and
disconnections are reported on standard error. Ctrl-C (SIGINT) or SIGTERM
closes the connections and stops.

Flags:
  --tcp ADDR        listen for StreamPeerTCP clients
  --udp ADDR        listen for PacketPeerUDP datagrams
  --ws ADDR         listen for WebSocket clients
  --godot 3|4       engine family of the game (default 4); 4.x also limits
                    what the echo may use, as for encode
  --allow-objects   accept full Objects, and echo them in full
` + classesUsage + `
  --max-conns N     most connections at once per TCP or WebSocket listener;
                    more are closed at once (default 1024; 0: no limit)
  --max-per-ip N    most connections at once from one IP address per TCP or
                    WebSocket listener, handshakes in progress included,
                    checked first (default 64; 0: no limit)
  --idle-timeout D  close a connection that sends nothing for D (default
                    5m; 0: never)
  --frame-timeout D close a connection whose value is not whole D after
                    its first byte (default 1m; 0: no limit)
  --write-timeout D close a connection that does not take an echo within D
                    (default 1m; 0: no limit)
  --max-buffered N  bytes the values being received may hold in all, per
                    listener; a connection that needs more is closed
                    (default 67108864, or --max-size if larger; 0: no limit)
  --big-endian      TCP length prefixes are big-endian (StreamPeer.big_endian)
  --max-size N      largest value in bytes (default 8388608, the engine's
                    PacketPeer limit)
  --max-text N      cut printed values after N characters (default 2000;
                    0: never)

Examples:
  gdvar serve
  gdvar serve --tcp 7000 --godot 3
  gdvar serve --ws 0.0.0.0:8080
`

// Default addresses of gdvar serve.
const (
	defaultStreamAddr = "127.0.0.1:9080"
	defaultWSAddr     = "127.0.0.1:9081"
)

// serveConfig is the parsed command line of gdvar serve.
type serveConfig struct {
	tcp, udp, ws string // "" when not listening
	opts         peer.Options
	text         gdtext.Options
	maxText      int
}

func runServe(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("serve", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() { fmt.Fprint(stderr, serveUsage) }
	var cfg serveConfig
	fs.StringVar(&cfg.tcp, "tcp", "", "TCP address")
	fs.StringVar(&cfg.udp, "udp", "", "UDP address")
	fs.StringVar(&cfg.ws, "ws", "", "WebSocket address")
	godot := newGodotFlag()
	fs.Var(godot, "godot", "engine family: 3 or 4")
	allow := fs.Bool("allow-objects", false, "accept full objects")
	classes := fs.String("classes", "", "classes full objects may have: engine or a file")
	maxConns := fs.Int("max-conns", peer.DefaultMaxConns, "most connections per listener")
	maxPerIP := fs.Int("max-per-ip", peer.DefaultMaxConnsPerIP, "most connections from one address per listener")
	idle := fs.Duration("idle-timeout", peer.DefaultIdleTimeout, "close silent connections after this")
	frameTimeout := fs.Duration("frame-timeout", peer.DefaultFrameTimeout, "longest a value may take to arrive")
	writeTimeout := fs.Duration("write-timeout", peer.DefaultWriteTimeout, "longest an echo may take to go out")
	maxBuffered := fs.Int64("max-buffered", 0, "bytes values being received may hold per listener")
	bigEndian := fs.Bool("big-endian", false, "big-endian TCP length prefixes")
	maxSize := fs.Int("max-size", frame.DefaultMaxSize, "largest value in bytes")
	fs.IntVar(&cfg.maxText, "max-text", 2000, "cut printed values after this many characters")
	if err := parseCommandFlags(fs, args, stderr); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stdout, serveUsage)
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "gdvar serve: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	limits, err := serveLimits(*maxConns, *maxPerIP, *idle, *frameTimeout, *writeTimeout, *maxBuffered, fs)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar serve:", err)
		return 2
	}
	if *maxSize <= 0 || *maxSize > frame.MaxSizeLimit {
		fmt.Fprintf(stderr, "gdvar serve: --max-size must be 1..%d\n", frame.MaxSizeLimit)
		return 2
	}
	if cfg.maxText < 0 {
		fmt.Fprintln(stderr, "gdvar serve: --max-text must not be negative")
		return 2
	}
	given := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { given[f.Name] = true })
	if !given["tcp"] && !given["udp"] && !given["ws"] {
		cfg.tcp, cfg.udp, cfg.ws = defaultStreamAddr, defaultStreamAddr, defaultWSAddr
	}
	for _, a := range []*string{&cfg.tcp, &cfg.udp, &cfg.ws} {
		var err error
		if *a, err = listenAddr(*a); err != nil {
			fmt.Fprintln(stderr, "gdvar serve:", err)
			return 2
		}
	}
	allowed, err := classList(*classes, godot.family())
	if err != nil {
		fmt.Fprintln(stderr, "gdvar serve:", err)
		return 2
	}
	cfg.opts = peer.Options{
		Godot:        godot.family(),
		Dec:          variant.DecOptions{AllowObjects: *allow, Classes: allowed},
		Enc:          variant.EncOptions{Family: godot.family(), Version: godot.encVersion(), FullObjects: *allow},
		MaxSize:      *maxSize,
		BigEndian:    *bigEndian,
		CloseTimeout: 250 * time.Millisecond,
		// A development server: web exports may be served from anywhere.
		WebSocket:     peer.WebSocketOptions{Origins: []string{"*"}},
		MaxConns:      limits.MaxConns,
		MaxConnsPerIP: limits.MaxConnsPerIP,
		IdleTimeout:   limits.IdleTimeout,
		FrameTimeout:  limits.FrameTimeout,
		WriteTimeout:  limits.WriteTimeout,
		BufferBudget:  limits.BufferBudget,
	}
	if limits.BufferBudget > 0 && limits.BufferBudget < int64(*maxSize) {
		fmt.Fprintln(stderr, "gdvar serve: --max-buffered must be at least --max-size")
		return 2
	}
	cfg.text = gdtext.Options{Family: godot.family()}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s, err := startServer(ctx, cfg, stdout, stderr)
	if err != nil {
		fmt.Fprintln(stderr, "gdvar serve:", err)
		if h := listenHint(err, "--tcp, --udp or --ws"); h != "" {
			fmt.Fprintln(stderr, "gdvar: hint:", h)
		}
		return 1
	}
	<-ctx.Done()
	stop()
	s.shutdown()
	fmt.Fprintln(stderr, "gdvar serve: stopped")
	return 0
}

// serveLimits turns the limit flags into peer.Options fields, where 0
// means the package's default and a negative value no limit; on the
// command line 0 means no limit. --max-buffered defaults to 0 (the
// package's default, which depends on --max-size), so it is 0 from the
// command line only when given.
func serveLimits(maxConns, maxPerIP int, idle, frameTimeout, writeTimeout time.Duration, maxBuffered int64, fs *flag.FlagSet) (peer.Options, error) {
	var o peer.Options
	if maxConns < 0 || maxPerIP < 0 || idle < 0 || frameTimeout < 0 || writeTimeout < 0 || maxBuffered < 0 {
		return o, errors.New("--max-conns, --max-per-ip, --idle-timeout, --frame-timeout, --write-timeout and --max-buffered must not be negative")
	}
	orOff := func(n int64) int64 { return cmp.Or(n, -1) }
	o.MaxConns = int(orOff(int64(maxConns)))
	o.MaxConnsPerIP = int(orOff(int64(maxPerIP)))
	o.IdleTimeout = time.Duration(orOff(int64(idle)))
	o.FrameTimeout = time.Duration(orOff(int64(frameTimeout)))
	o.WriteTimeout = time.Duration(orOff(int64(writeTimeout)))
	o.BufferBudget = maxBuffered
	fs.Visit(func(f *flag.Flag) {
		if f.Name == "max-buffered" && maxBuffered == 0 {
			o.BufferBudget = -1
		}
	})
	return o, nil
}

// listenAddr turns PORT and :PORT into loopback addresses.
func listenAddr(a string) (string, error) {
	if a == "" {
		return "", nil
	}
	if _, err := strconv.ParseUint(a, 10, 16); err == nil {
		return "127.0.0.1:" + a, nil
	}
	host, port, err := net.SplitHostPort(a)
	if err != nil {
		return "", fmt.Errorf("bad address %q: want PORT, :PORT or HOST:PORT", a)
	}
	if host == "" {
		host = "127.0.0.1"
	}
	return net.JoinHostPort(host, port), nil
}

// server is a running gdvar serve.
type server struct {
	cfg    serveConfig
	outMu  sync.Mutex
	stdout io.Writer
	stderr io.Writer

	tcp *peer.Listener
	ws  *peer.Listener
	udp *peer.PacketConn

	wg    sync.WaitGroup
	mu    sync.Mutex
	conns map[*peer.Conn]struct{}
	down  bool
}

// startServer opens the listeners of cfg and serves until shutdown.
func startServer(ctx context.Context, cfg serveConfig, stdout, stderr io.Writer) (*server, error) {
	s := &server{cfg: cfg, stdout: stdout, stderr: stderr, conns: map[*peer.Conn]struct{}{}}
	var err error
	var where []string
	if cfg.tcp != "" {
		if s.tcp, err = peer.ListenTCP(ctx, cfg.tcp, cfg.opts); err != nil {
			s.shutdown()
			return nil, err
		}
		where = append(where, "tcp "+s.tcp.Addr().String())
	}
	if cfg.udp != "" {
		if s.udp, err = peer.ListenUDP(ctx, cfg.udp, cfg.opts); err != nil {
			s.shutdown()
			return nil, err
		}
		where = append(where, "udp "+s.udp.LocalAddr().String())
	}
	if cfg.ws != "" {
		if s.ws, err = peer.ListenWebSocket(ctx, cfg.ws, cfg.opts); err != nil {
			s.shutdown()
			return nil, err
		}
		where = append(where, "ws ws://"+s.ws.Addr().String()+"/")
	}
	for _, l := range []*peer.Listener{s.tcp, s.ws} {
		if l != nil {
			s.wg.Go(func() { s.accept(l) })
		}
	}
	if s.udp != nil {
		s.wg.Go(s.serveUDP)
	}
	s.note("listening on %s (Godot %d); Ctrl-C stops", strings.Join(where, ", "), cfg.opts.Godot)
	return s, nil
}

// shutdown stops listening, closes every connection and waits for them.
func (s *server) shutdown() {
	s.mu.Lock()
	s.down = true
	conns := make([]*peer.Conn, 0, len(s.conns))
	for c := range s.conns {
		conns = append(conns, c)
	}
	s.mu.Unlock()
	for _, l := range []*peer.Listener{s.tcp, s.ws} {
		if l != nil {
			l.Close()
		}
	}
	if s.udp != nil {
		s.udp.Close()
	}
	var wg sync.WaitGroup
	for _, c := range conns {
		wg.Go(func() { c.Close() })
	}
	wg.Wait()
	s.wg.Wait()
}

func (s *server) accept(l *peer.Listener) {
	for {
		c, err := l.Accept(context.Background())
		if err != nil {
			return
		}
		s.mu.Lock()
		if s.down {
			s.mu.Unlock()
			c.Close()
			return
		}
		s.conns[c] = struct{}{}
		s.mu.Unlock()
		s.wg.Go(func() {
			s.serveConn(c)
			s.mu.Lock()
			delete(s.conns, c)
			s.mu.Unlock()
		})
	}
}

func (s *server) serveConn(c *peer.Conn) {
	defer c.Close()
	from := c.RemoteAddr().String()
	s.note("%s %s connected", c.Network(), from)
	for {
		v, err := c.ReadValue()
		if err != nil {
			var ve *variant.Error
			if errors.As(err, &ve) {
				s.value(c.Network(), from, nil, err)
				continue
			}
			switch {
			case err == io.EOF:
				s.note("%s %s disconnected", c.Network(), from)
			case errors.Is(err, net.ErrClosed):
				s.note("%s %s closed", c.Network(), from)
			default:
				s.note("%s %s: %v; closing", c.Network(), from, err)
			}
			return
		}
		s.value(c.Network(), from, v, nil)
		if err := c.WriteValue(v); err != nil {
			s.note("%s %s: echo failed: %v", c.Network(), from, err)
		}
	}
}

func (s *server) serveUDP() {
	for {
		v, from, err := s.udp.ReadValueFrom()
		if err != nil {
			if from == nil {
				if !errors.Is(err, net.ErrClosed) {
					s.note("udp: %v", err)
				}
				return
			}
			s.value("udp", from.String(), nil, err)
			continue
		}
		s.value("udp", from.String(), v, nil)
		if err := s.udp.WriteValueTo(v, from); err != nil {
			s.note("udp %s: echo failed: %v", from, err)
		}
	}
}

// value prints one received value, or why it could not be read.
func (s *server) value(proto, from string, v variant.Value, err error) {
	var text string
	if err == nil {
		o := s.cfg.text
		o.MaxBytes = s.cfg.maxText // stops formatting there: a huge value costs no more
		text, err = gdtext.Format(v, o)
	}
	if err != nil {
		text = "ERROR " + err.Error()
	}
	s.outMu.Lock()
	defer s.outMu.Unlock()
	fmt.Fprintf(s.stdout, "%s %s: %s\n", proto, from, text)
}

// note reports an event on standard error.
func (s *server) note(format string, args ...any) {
	s.outMu.Lock()
	defer s.outMu.Unlock()
	fmt.Fprintf(s.stderr, "gdvar serve: "+format+"\n", args...)
}
