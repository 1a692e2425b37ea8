// Package metrics exports what multiplayer Hosts and Rooms count as
// Prometheus metrics (github.com/prometheus/client_golang, the ecosystem's
// standard), and serves them with the health probes an orchestrator asks
// (/healthz, /readyz) on one admin handler. Labels are bounded: commands
// and reasons come from fixed sets, and nothing is labelled by peer or
// room, so a process with thousands of rooms exports a few dozen series.
// ENet round-trip times and packet loss are exported as histograms of the
// clients connected at the scrape; ENet retransmissions are not.
//
// Give New's Metrics to RoomsOptions.Meter (or HostOptions.Meter), then
// mount Admin on an address of its own:
//
//	m := metrics.New(reg)
//	rs, _ := multiplayer.NewRooms(multiplayer.RoomsOptions{Meter: m})
//	m.WatchRooms(rs)
//	http.ListenAndServe(":9100", metrics.Admin(reg, rs.Ready))
package metrics

import (
	"net/http"
	"strings"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/gdvar/gdvar/multiplayer"
)

const ns = "gdvar_multiplayer"

// commands are the label values of the packet counters, by Command.
var commands = []multiplayer.Command{
	multiplayer.CmdRemoteCall, multiplayer.CmdRemoteSet, multiplayer.CmdSimplifyPath,
	multiplayer.CmdConfirmPath, multiplayer.CmdRaw, multiplayer.CmdSpawn,
	multiplayer.CmdDespawn, multiplayer.CmdSync, multiplayer.CmdSys,
}

// dir holds the counters of one direction, by command.
type dir struct {
	packets, bytes [256]prometheus.Counter
}

func newDir(packets, bytes *prometheus.CounterVec) *dir {
	d := &dir{}
	unknownP := packets.WithLabelValues("unknown")
	unknownB := bytes.WithLabelValues("unknown")
	for i := range d.packets {
		d.packets[i], d.bytes[i] = unknownP, unknownB
	}
	for _, c := range commands {
		name := strings.ToLower(c.String())
		d.packets[c], d.bytes[c] = packets.WithLabelValues(name), bytes.WithLabelValues(name)
	}
	return d
}

func (d *dir) add(c multiplayer.Command, n int) {
	d.packets[c].Inc()
	d.bytes[c].Add(float64(n))
}

// Metrics is a multiplayer.RoomsMeter (and so a multiplayer.Meter) that
// keeps Prometheus metrics. Safe for concurrent use.
type Metrics struct {
	reg                      prometheus.Registerer
	in, out                  *dir
	relayed                  prometheus.Counter
	refused, dropped, joinNo *prometheus.CounterVec
	joined, left             prometheus.Counter
	opened, closed           prometheus.Counter
	rpc                      prometheus.Histogram
}

// New registers the counters with reg and returns them.
func New(reg prometheus.Registerer) *Metrics {
	f := func(name, help string, labels ...string) *prometheus.CounterVec {
		v := prometheus.NewCounterVec(prometheus.CounterOpts{Namespace: ns, Name: name, Help: help}, labels)
		reg.MustRegister(v)
		return v
	}
	c := func(name, help string) prometheus.Counter {
		v := prometheus.NewCounter(prometheus.CounterOpts{Namespace: ns, Name: name, Help: help})
		reg.MustRegister(v)
		return v
	}
	m := &Metrics{
		reg:     reg,
		in:      newDir(f("packets_in_total", "Packets received from clients, by command.", "command"), f("bytes_in_total", "Bytes of the packets received from clients, by command.", "command")),
		out:     newDir(f("packets_out_total", "Packets queued for clients, by command.", "command"), f("bytes_out_total", "Bytes of the packets queued for clients, by command.", "command")),
		relayed: c("relayed_packets_total", "Packets relayed from one client to another, counted once per receiving client."),
		refused: f("refused_packets_total", "Packets refused, by reason.", "reason"),
		dropped: f("dropped_peers_total", "Clients the host disconnected, by reason.", "reason"),
		joinNo:  f("joins_refused_total", "Clients refused a room, by reason.", "reason"),
		joined:  c("peers_joined_total", "Clients admitted."),
		left:    c("peers_left_total", "Admitted clients that left."),
		opened:  c("rooms_opened_total", "Rooms opened."),
		closed:  c("rooms_closed_total", "Rooms ended."),
		rpc: prometheus.NewHistogram(prometheus.HistogramOpts{Namespace: ns, Name: "rpc_handler_seconds",
			Help: "Time the Go RPC handlers took.", Buckets: prometheus.ExponentialBuckets(1e-5, 4, 10)}),
	}
	reg.MustRegister(m.rpc)
	return m
}

// PacketIn counts a received packet.
func (m *Metrics) PacketIn(cmd multiplayer.Command, n int) { m.in.add(cmd, n) }

// PacketOut counts a queued packet.
func (m *Metrics) PacketOut(cmd multiplayer.Command, n int) { m.out.add(cmd, n) }

// Relayed counts a packet relayed to n clients.
func (m *Metrics) Relayed(n int) { m.relayed.Add(float64(n)) }

// Refused counts a refused packet.
func (m *Metrics) Refused(reason string) { m.refused.WithLabelValues(reason).Inc() }

// Dropped counts a dropped client.
func (m *Metrics) Dropped(reason string) { m.dropped.WithLabelValues(reason).Inc() }

// Joined counts an admitted client.
func (m *Metrics) Joined() { m.joined.Inc() }

// Left counts a client that left.
func (m *Metrics) Left() { m.left.Inc() }

// RPC observes an RPC handler's time.
func (m *Metrics) RPC(d time.Duration) { m.rpc.Observe(d.Seconds()) }

// RoomOpened counts an opened room.
func (m *Metrics) RoomOpened() { m.opened.Inc() }

// RoomClosed counts an ended room.
func (m *Metrics) RoomClosed() { m.closed.Inc() }

// JoinRefused counts a client refused a room.
func (m *Metrics) JoinRefused(reason string) { m.joinNo.WithLabelValues(reason).Inc() }

// WatchRooms registers the gauges of rs: open rooms, clients, bytes
// queued, whether it is draining, and histograms of the round-trip times
// and packet loss of its ENet clients. Call it once.
func (m *Metrics) WatchRooms(rs *multiplayer.Rooms) {
	g := func(name, help string, f func(multiplayer.RoomsStats) float64) {
		m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: name, Help: help},
			func() float64 { return f(rs.Stats()) }))
	}
	m.reg.MustRegister(&enetCollector{
		rs:         rs,
		rtt:        prometheus.NewDesc(ns+"_enet_rtt_seconds", "Round-trip time of the ENet clients connected now, as ENet estimates it.", nil, nil),
		loss:       prometheus.NewDesc(ns+"_enet_packet_loss_ratio", "Packet loss of the ENet clients connected now (0..1), as ENet estimates it.", nil, nil),
		rttBuckets: []float64{.005, .01, .025, .05, .1, .2, .4, .8},
		lossBucket: []float64{0, .01, .05, .1, .25, .5},
	})
	g("rooms", "Open rooms.", func(s multiplayer.RoomsStats) float64 { return float64(s.Rooms) })
	g("peers", "Connected clients.", func(s multiplayer.RoomsStats) float64 { return float64(s.Peers) })
	g("queued_bytes", "Bytes waiting to be sent to clients.", func(s multiplayer.RoomsStats) float64 { return float64(s.QueuedBytes) })
	g("draining", "1 while the process drains.", func(s multiplayer.RoomsStats) float64 {
		if s.Draining {
			return 1
		}
		return 0
	})
}

// enetCollector exports the round-trip times and packet loss of the
// rooms' ENet clients at each scrape, as histograms of the clients now
// connected.
type enetCollector struct {
	rs         *multiplayer.Rooms
	rtt, loss  *prometheus.Desc
	rttBuckets []float64
	lossBucket []float64
}

func (c *enetCollector) Describe(ch chan<- *prometheus.Desc) { ch <- c.rtt; ch <- c.loss }

func (c *enetCollector) Collect(ch chan<- prometheus.Metric) {
	rtt := make(map[float64]uint64, len(c.rttBuckets))
	loss := make(map[float64]uint64, len(c.lossBucket))
	var n uint64
	var rttSum, lossSum float64
	c.rs.ENetPeerStats(func(d time.Duration, l float64) {
		n++
		s := d.Seconds()
		rttSum += s
		lossSum += l
		for _, b := range c.rttBuckets {
			if s <= b {
				rtt[b]++
			}
		}
		for _, b := range c.lossBucket {
			if l <= b {
				loss[b]++
			}
		}
	})
	ch <- prometheus.MustNewConstHistogram(c.rtt, n, rttSum, rtt)
	ch <- prometheus.MustNewConstHistogram(c.loss, n, lossSum, loss)
}

// WatchHost registers the gauges of a single Host (without Rooms):
// clients and bytes queued. Call it once, and not with WatchRooms.
func (m *Metrics) WatchHost(h *multiplayer.Host) {
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "peers", Help: "Connected clients."},
		func() float64 { return float64(h.Stats().Peers) }))
	m.reg.MustRegister(prometheus.NewGaugeFunc(prometheus.GaugeOpts{Namespace: ns, Name: "queued_bytes", Help: "Bytes waiting to be sent to clients."},
		func() float64 { return float64(h.Stats().QueuedBytes) }))
}

// Admin returns the admin handler: /metrics (the metrics of g, in
// Prometheus' text or protobuf form; at most 4 scrapes at once, each cut
// after 10 s), /healthz (200 while the process runs: liveness) and /readyz
// (200 while ready() is true, 503 otherwise: readiness; nil means always
// ready). Serve it with the timeouts of NewServer.
func Admin(g prometheus.Gatherer, ready func() bool) http.Handler {
	mux := http.NewServeMux()
	mux.Handle("/metrics", promhttp.HandlerFor(g, promhttp.HandlerOpts{MaxRequestsInFlight: 4, Timeout: 10 * time.Second}))
	mux.HandleFunc("/healthz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		w.Write([]byte("ok\n"))
	})
	mux.HandleFunc("/readyz", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		if ready != nil && !ready() {
			w.WriteHeader(http.StatusServiceUnavailable)
			w.Write([]byte("draining\n"))
			return
		}
		w.Write([]byte("ok\n"))
	})
	return mux
}

// NewServer returns an HTTP server for an admin handler on addr, with
// timeouts that keep slow or stuck scrapers from holding connections:
// headers within 5 s, a response written within 15 s, idle connections
// closed after 60 s.
func NewServer(addr string, h http.Handler) *http.Server {
	return &http.Server{Addr: addr, Handler: h, ReadHeaderTimeout: 5 * time.Second,
		ReadTimeout: 10 * time.Second, WriteTimeout: 15 * time.Second, IdleTimeout: 60 * time.Second, MaxHeaderBytes: 16 << 10}
}
