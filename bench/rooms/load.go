package main

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"net/http"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/gdvar/gdvar/internal/procstat"
	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// loadConfig configures load.
type loadConfig struct {
	config
	rate     float64
	duration time.Duration
	warmup   time.Duration
	dialers  int
	senders  int
	relay    bool          // wait for the ADD_PEER notices
	timeout  time.Duration // bounds joining, and hearing of every peer
}

// result is what load prints.
type result struct {
	Clients int     `json:"clients"`
	Rooms   int     `json:"rooms"`
	Relay   bool    `json:"relay"`
	Rate    float64 `json:"rate"`
	Seconds float64 `json:"seconds"`

	ConnectS float64 `json:"connect_s"`
	PeersS   float64 `json:"peers_s"`
	Notices  int64   `json:"notices"`

	Scheduled float64 `json:"scheduled_per_s"`
	Offered   float64 `json:"offered_per_s"`
	Delivered float64 `json:"delivered_per_s"`
	Sent      int64   `json:"sent"`
	Lost      int64   `json:"lost"`
	WriteErrs int64   `json:"write_errors"`
	Warnings  int64   `json:"server_warnings"`

	CPUPerClientS float64 `json:"cpu_us_per_client_s"`
	CPUPerRPC     float64 `json:"cpu_us_per_rpc"`
	CPUCores      float64 `json:"server_cores"`
	LoadCores     float64 `json:"load_cores"`

	RSSIdleMB      float64 `json:"rss_idle_mb"`
	RSSJoinedMB    float64 `json:"rss_joined_mb"`
	RSSLoadMB      float64 `json:"rss_load_mb"`
	RSSPerClient   float64 `json:"rss_kb_per_client"`
	RSSPerRoom     float64 `json:"rss_kb_per_room"`
	HeapPerClient  float64 `json:"heap_kb_per_client"`
	HeapPerRoom    float64 `json:"heap_kb_per_room"`
	StackPerClient float64 `json:"stack_kb_per_client"`
	Goroutines     int     `json:"server_goroutines"`
}

// client is one lean client: its link, and what its reader has seen.
type client struct {
	link      multiplayer.Link
	confirmed chan struct{}
	peers     atomic.Int64 // ADD_PEER notices heard, less DEL_PEER
	done      chan struct{}
}

// The packets a client sends: SIMPLIFY_PATH for P, then P.move(1, 2)
// by cache id, as a Godot 4 client does once the host has confirmed it.
var simplify, call []byte

func init() {
	simplify = multiplayer.AppendSimplifyPath(nil, variant.Godot4,
		multiplayer.MethodsChecksum([]string{methodName}), cacheID, nodePath)
	args, raw, n, err := multiplayer.AppendArgs(nil, nil, variant.Vector2{X: 1, Y: 2})
	if err != nil {
		panic(err)
	}
	call = multiplayer.AppendCall(nil, variant.Godot4, multiplayer.Call{NodeID: cacheID, Method: 0, Raw: raw, ArgCount: n, Args: args})
}

// join connects client i to its room and does the host's handshake.
func join(ctx context.Context, c *loadConfig, i int, notices *atomic.Int64) (*client, error) {
	url := fmt.Sprintf("ws://%s/r%d", c.addr, i%c.rooms)
	link, err := multiplayer.DialWebSocket(ctx, url, multiplayer.WebSocketOptions{})
	if err != nil {
		return nil, err
	}
	stop := context.AfterFunc(ctx, func() { link.Close() })
	defer stop()
	// Godot 4's WebSocketMultiplayerPeer: the first message is the id.
	f, err := link.ReadFrame()
	if err != nil {
		link.Close()
		return nil, fmt.Errorf("reading the id: %w", err)
	}
	if len(f.Data) != 4 || int32(binary.LittleEndian.Uint32(f.Data)) < 2 {
		link.Close()
		return nil, fmt.Errorf("first message of %d bytes, not a peer id", len(f.Data))
	}
	if err := link.WriteFrame(multiplayer.Frame{Kind: multiplayer.FrameData, Data: simplify, Mode: multiplayer.Reliable}); err != nil {
		link.Close()
		return nil, err
	}
	cl := &client{link: link, confirmed: make(chan struct{}), done: make(chan struct{})}
	go cl.read(notices)
	select {
	case <-cl.confirmed:
		return cl, nil
	case <-cl.done:
		return nil, errors.New("the host closed the connection before confirming the path")
	case <-ctx.Done():
		link.Close()
		return nil, ctx.Err()
	}
}

// read reads what the host sends until the link closes: the path's
// confirmation and the peer notices.
func (cl *client) read(notices *atomic.Int64) {
	defer close(cl.done)
	confirmed := false
	for {
		f, err := cl.link.ReadFrame()
		if err != nil {
			return
		}
		pk, err := multiplayer.Parse(variant.Godot4, f.Data)
		if err != nil {
			continue
		}
		switch {
		case pk.Command == multiplayer.CmdConfirmPath && !confirmed:
			if !pk.Valid {
				cl.link.Close()
				return
			}
			confirmed = true
			close(cl.confirmed)
		case pk.Command == multiplayer.CmdSys && pk.Sys == multiplayer.SysAddPeer:
			cl.peers.Add(1)
			notices.Add(1)
		case pk.Command == multiplayer.CmdSys && pk.Sys == multiplayer.SysDelPeer:
			cl.peers.Add(-1)
			notices.Add(-1)
		}
	}
}

// getStats asks the server for its counts (after a collection, with gc).
func getStats(ctx context.Context, addr string, gc bool) (stats, error) {
	u := "http://" + addr + "/stats"
	if gc {
		u += "?gc=1"
	}
	var s stats
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, u, nil)
	if err != nil {
		return s, err
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		return s, err
	}
	defer resp.Body.Close()
	return s, json.NewDecoder(resp.Body).Decode(&s)
}

// load runs the benchmark against a server and returns its figures.
func load(ctx context.Context, c loadConfig, progress func(string)) (r result, err error) {
	r = result{Clients: c.clients, Rooms: c.rooms, Relay: c.relay, Rate: c.rate}
	idle, err := getStats(ctx, c.statsAddr, true)
	if err != nil {
		return r, err
	}
	pid := idle.PID
	rssIdle, err := procstat.RSS(pid)
	if err != nil {
		return r, err
	}

	// Join, dialers at a time.
	var notices atomic.Int64
	clients := make([]*client, c.clients)
	defer closeAll(clients)
	start := time.Now()
	jctx, cancel := context.WithTimeout(ctx, c.timeout)
	defer cancel()
	var wg sync.WaitGroup
	var next atomic.Int64
	var joinErr atomic.Value
	for range c.dialers {
		wg.Go(func() {
			for jctx.Err() == nil && joinErr.Load() == nil {
				i := int(next.Add(1) - 1)
				if i >= c.clients {
					return
				}
				cl, err := join(jctx, &c, i, &notices)
				if err != nil {
					joinErr.CompareAndSwap(nil, fmt.Errorf("client %d: %w", i, err))
					return
				}
				clients[i] = cl
			}
		})
	}
	wg.Wait()
	if err, _ := joinErr.Load().(error); err != nil {
		return r, err
	}
	r.ConnectS = time.Since(start).Seconds()
	progress(fmt.Sprintf("joined %d clients in %.1f s", c.clients, r.ConnectS))
	if c.relay {
		// Every client hears of the others of its room.
		var want int64
		for room := range c.rooms {
			n := int64(c.clients / c.rooms)
			if room < c.clients%c.rooms {
				n++
			}
			want += n * (n - 1)
		}
		last := time.Now()
		for notices.Load() < want && jctx.Err() == nil {
			time.Sleep(10 * time.Millisecond)
			if time.Since(last) > 10*time.Second {
				last = time.Now()
				progress(fmt.Sprintf("%d of %d peer notices", notices.Load(), want))
			}
		}
		if n := notices.Load(); n < want {
			return r, fmt.Errorf("%d of %d peer notices after %v", n, want, c.timeout)
		}
		r.Notices = want
		r.PeersS = time.Since(start).Seconds()
		progress(fmt.Sprintf("every client knows its room's peers after %.1f s", r.PeersS))
	}
	joined, err := getStats(ctx, c.statsAddr, true)
	if err != nil {
		return r, err
	}
	if joined.Rooms != c.rooms || joined.Peers != c.clients {
		return r, fmt.Errorf("the server has %d rooms and %d clients", joined.Rooms, joined.Peers)
	}
	rssJoined, err := procstat.RSS(pid)
	if err != nil {
		return r, err
	}

	// The load: senders goroutines, each writing for its share of the
	// clients, spread evenly over the period.
	period := time.Duration(float64(time.Second) / c.rate)
	var sent, writeErrs atomic.Int64
	stop := make(chan struct{})
	t0 := time.Now()
	for s := range c.senders {
		var mine []*client
		for i := s; i < len(clients); i += c.senders {
			mine = append(mine, clients[i])
		}
		wg.Go(func() { send(mine, t0, period, s, c.senders, stop, &sent, &writeErrs) })
	}
	stopped := false
	stopSenders := func() {
		if !stopped {
			stopped = true
			close(stop)
			wg.Wait()
		}
	}
	defer stopSenders()
	select {
	case <-time.After(c.warmup):
	case <-ctx.Done():
		return r, ctx.Err()
	}
	s0, err := getStats(ctx, c.statsAddr, false)
	if err != nil {
		return r, err
	}
	cpu0, err := procstat.CPU(pid)
	if err != nil {
		return r, err
	}
	self0, _ := procstat.CPU(os.Getpid())
	sent0, m0 := sent.Load(), time.Now()
	select {
	case <-time.After(c.duration):
	case <-ctx.Done():
		return r, ctx.Err()
	}
	s1, err := getStats(ctx, c.statsAddr, false)
	if err != nil {
		return r, err
	}
	cpu1, err := procstat.CPU(pid)
	if err != nil {
		return r, err
	}
	self1, _ := procstat.CPU(os.Getpid())
	sent1, secs := sent.Load(), time.Since(m0).Seconds()
	rssLoad, _ := procstat.RSS(pid)
	stopSenders()

	// What was written arrives, or is lost.
	total := sent.Load()
	var final stats
	for deadline := time.Now().Add(10 * time.Second); ; {
		if final, err = getStats(ctx, c.statsAddr, false); err != nil {
			return r, err
		}
		if final.Calls-idle.Calls >= total || time.Now().After(deadline) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}

	cpu := float64((cpu1 - cpu0) / time.Microsecond)
	delivered := float64(s1.Calls - s0.Calls)
	r.Seconds = secs
	r.Scheduled = float64(c.clients) * c.rate
	r.Offered = float64(sent1-sent0) / secs
	r.Delivered = delivered / secs
	r.Sent = total
	r.Lost = total - (final.Calls - idle.Calls)
	r.WriteErrs = writeErrs.Load()
	r.Warnings = final.Warnings
	r.CPUPerClientS = cpu / (float64(c.clients) * secs)
	if delivered > 0 {
		r.CPUPerRPC = cpu / delivered
	}
	r.CPUCores = cpu / 1e6 / secs
	r.LoadCores = (self1 - self0).Seconds() / secs
	const mb, kb = 1 << 20, 1 << 10
	r.RSSIdleMB = float64(rssIdle) / mb
	r.RSSJoinedMB = float64(rssJoined) / mb
	r.RSSLoadMB = float64(rssLoad) / mb
	grow := float64(rssJoined - rssIdle)
	r.RSSPerClient = grow / kb / float64(c.clients)
	r.RSSPerRoom = grow / kb / float64(c.rooms)
	heap := float64(joined.HeapAlloc - idle.HeapAlloc)
	r.HeapPerClient = heap / kb / float64(c.clients)
	r.HeapPerRoom = heap / kb / float64(c.rooms)
	r.StackPerClient = float64(joined.StackInuse-idle.StackInuse) / kb / float64(c.clients)
	r.Goroutines = joined.Goroutines
	return r, nil
}

// send writes the calls of its clients on schedule until stop: client j
// of n calls at t0 + k·period + (j·senders+s)/(n·senders) of a period, so
// that all senders' calls spread evenly. A sender that falls behind
// catches up as fast as it can write.
func send(cs []*client, t0 time.Time, period time.Duration, s, senders int, stop <-chan struct{}, sent, errs *atomic.Int64) {
	n := len(cs)
	if n == 0 {
		return
	}
	dead := make([]bool, n)
	phase := func(j int) time.Duration {
		return period * time.Duration(j*senders+s) / time.Duration(n*senders)
	}
	timer := time.NewTimer(0)
	defer timer.Stop()
	for k, j := 0, 0; ; {
		due := t0.Add(time.Duration(k)*period + phase(j))
		if wait := time.Until(due); wait > 0 {
			timer.Reset(wait)
			select {
			case <-stop:
				return
			case <-timer.C:
			}
		} else {
			select {
			case <-stop:
				return
			default:
			}
		}
		// Every call due by now; a sender far behind still stops soon.
		now := time.Now()
		for w := 0; !t0.Add(time.Duration(k)*period + phase(j)).After(now); w++ {
			if w%64 == 63 {
				select {
				case <-stop:
					return
				default:
				}
			}
			if !dead[j] {
				err := cs[j].link.WriteFrame(multiplayer.Frame{Kind: multiplayer.FrameData, Data: call, Mode: multiplayer.Reliable})
				if err != nil {
					dead[j] = true
					errs.Add(1)
				} else {
					sent.Add(1)
				}
			}
			if j++; j == n {
				j, k = 0, k+1
			}
		}
	}
}

// closeAll closes the clients, all at once, and waits for their readers.
func closeAll(cs []*client) {
	var wg sync.WaitGroup
	for _, cl := range cs {
		if cl != nil {
			wg.Go(func() {
				cl.link.Close()
				<-cl.done
			})
		}
	}
	wg.Wait()
}

func loadMain(ctx context.Context, args []string) error {
	var c loadConfig
	fs := flag.NewFlagSet("load", flag.ExitOnError)
	c.flags(fs)
	fs.Float64Var(&c.rate, "rate", 20, "calls per client per second")
	fs.DurationVar(&c.duration, "duration", 30*time.Second, "measured time")
	fs.DurationVar(&c.warmup, "warmup", 3*time.Second, "load before measuring")
	fs.IntVar(&c.dialers, "dialers", 32, "clients joining at once")
	fs.IntVar(&c.senders, "senders", 8, "goroutines writing the calls")
	fs.BoolVar(&c.relay, "relay", true, "the server relays: wait until every client has heard of every other of its room")
	fs.DurationVar(&c.timeout, "timeout", 10*time.Minute, "bound on joining and hearing of every peer")
	row := fs.Bool("row", false, "print a Markdown table row instead of JSON")
	quiet := fs.Bool("quiet", false, "no progress on standard error")
	fs.Parse(args)
	if c.clients < 1 || c.rooms < 1 || c.rooms > c.clients || c.rate <= 0 || c.dialers < 1 || c.senders < 1 {
		return errors.New("--clients, --rooms (at most --clients), --rate, --dialers and --senders must be positive")
	}
	progress := func(s string) {
		if !*quiet {
			fmt.Fprintln(os.Stderr, "rooms load:", s)
		}
	}
	r, err := load(ctx, c, progress)
	if err != nil {
		return err
	}
	if *row {
		return printRow(r)
	}
	return json.NewEncoder(os.Stdout).Encode(r)
}

// header is the Markdown table printRow's rows belong to.
const header = `| clients × rooms | relay | join s (peers known) | RPC/s scheduled | offered | delivered | lost | server CPU µs / client-s | µs / RPC | cores: server + load | RSS KB / client | RSS KB / room | heap+stack KB / client | heap KB / room |
|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|`

func printRow(r result) error {
	relay := "off"
	join := fmt.Sprintf("%.1f", r.ConnectS)
	if r.Relay {
		relay = "on"
		join += fmt.Sprintf(" (%.1f)", r.PeersS)
	}
	lost := fmt.Sprint(r.Lost)
	if r.Warnings > 0 || r.WriteErrs > 0 {
		lost += fmt.Sprintf(" (%d server warnings, %d write errors)", r.Warnings, r.WriteErrs)
	}
	_, err := fmt.Printf("| %d × %d | %s | %s | %.0f | %.0f | %.0f | %s | %.0f | %.1f | %.2f + %.2f | %.1f | %.0f | %.1f | %.1f |\n",
		r.Clients, r.Rooms, relay, join, r.Scheduled, r.Offered, r.Delivered, lost,
		r.CPUPerClientS, r.CPUPerRPC, r.CPUCores, r.LoadCores,
		r.RSSPerClient, r.RSSPerRoom, r.HeapPerClient+r.StackPerClient, r.HeapPerRoom)
	return err
}
