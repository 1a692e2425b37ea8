package metrics_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/multiplayer/metrics"
)

// scrape fetches url and parses it with Prometheus' text parser.
func scrape(t *testing.T, url string) map[string]*dto.MetricFamily {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	p := expfmt.NewTextParser(model.UTF8Validation)
	fams, err := p.TextToMetricFamilies(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return fams
}

// value returns the value of the series of family name whose labels
// include the given name=value pairs; -1 when there is none.
func value(fams map[string]*dto.MetricFamily, name string, labels ...string) float64 {
	f := fams["gdvar_multiplayer_"+name]
	if f == nil {
		return -1
	}
next:
	for _, m := range f.Metric {
		for i := 0; i+1 < len(labels); i += 2 {
			found := false
			for _, l := range m.Label {
				if l.GetName() == labels[i] && l.GetValue() == labels[i+1] {
					found = true
				}
			}
			if !found {
				continue next
			}
		}
		switch {
		case m.Counter != nil:
			return m.Counter.GetValue()
		case m.Gauge != nil:
			return m.Gauge.GetValue()
		case m.Histogram != nil:
			return float64(m.Histogram.GetSampleCount())
		}
	}
	return -1
}

func status(t *testing.T, url string) int {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Traffic of Go clients in two rooms, counted: each counter is checked
// against what was sent, scraped over HTTP and parsed as Prometheus does;
// /readyz turns 503 while draining.
func TestMetricsCountTraffic(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := metrics.New(reg)
	var admin *httptest.Server
	readyDuringDrain := make(chan int, 1)
	node := multiplayer.Node{Path: "Game", Methods: []multiplayer.Method{{Name: "move", Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable,
		Handler: func(context.Context, multiplayer.PeerID, int) {}}}}
	rs, err := multiplayer.NewRooms(multiplayer.RoomsOptions{
		Meter:  m,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		Nodes:  []multiplayer.Node{node},
		Open: func(ctx context.Context, name string, o multiplayer.HostOptions) (*multiplayer.Host, error) {
			if name == "nope" {
				return nil, multiplayer.ErrRoomUnknown
			}
			return multiplayer.NewHost(o, node)
		},
		Drain: func(ctx context.Context, r *multiplayer.Room) {
			select {
			case readyDuringDrain <- status(t, admin.URL+"/readyz"):
			default:
			}
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	m.WatchRooms(rs)
	admin = httptest.NewServer(metrics.Admin(reg, rs.Ready))
	defer admin.Close()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	serveCtx, stop := context.WithCancel(ctx)
	served := make(chan error, 1)
	go func() { served <- rs.ServeWebSocket(serveCtx, ln) }()
	base := "ws://" + ln.Addr().String()
	// Another node, which only the clients declare: the host refuses its
	// calls.
	other := multiplayer.Node{Path: "Other", Methods: []multiplayer.Method{{Name: "x", Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable}}}
	join := func(room string, nodes ...multiplayer.Node) *multiplayer.Client {
		link, err := multiplayer.DialWebSocket(ctx, base+room, multiplayer.WebSocketOptions{})
		if err != nil {
			t.Fatal(err)
		}
		c, err := multiplayer.Join(ctx, link, multiplayer.ClientOptions{}, append(nodes, node)...)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	a1, a2, b1 := join("/a"), join("/a"), join("/b", other)
	defer a1.Close()
	defer a2.Close()
	defer b1.Close()
	if _, err := multiplayer.Join(ctx, must(multiplayer.DialWebSocket(ctx, base+"/nope", multiplayer.WebSocketOptions{})), multiplayer.ClientOptions{}); err == nil {
		t.Fatal("joined an unknown room")
	}
	for len(a1.Peers()) < 2 {
		time.Sleep(5 * time.Millisecond)
	}
	const rawN, relayN, outN, calls, size = 7, 5, 9, 3, 100
	for range rawN {
		a1.SendBytes(multiplayer.HostID, make([]byte, size), multiplayer.Reliable, 0)
	}
	for range relayN {
		a1.SendBytes(a2.ID(), make([]byte, size), multiplayer.Reliable, 0)
	}
	for i := range calls {
		if err := b1.Call(multiplayer.HostID, "Game", "move", i); err != nil {
			t.Fatal(err)
		}
	}
	if err := b1.Call(multiplayer.HostID, "Other", "x"); err != nil {
		t.Fatal(err)
	}
	for range outN {
		rs.Room("b").Host().SendBytes(0, make([]byte, size), multiplayer.Reliable, 0)
	}
	var fams map[string]*dto.MetricFamily
	deadline := time.Now().Add(10 * time.Second)
	for {
		fams = scrape(t, admin.URL+"/metrics")
		if value(fams, "relayed_packets_total") == relayN && value(fams, "rpc_handler_seconds") == calls &&
			value(fams, "packets_in_total", "command", "raw") == rawN &&
			value(fams, "refused_packets_total", "reason", "unknown_node") == 1 || time.Now().After(deadline) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	for _, c := range []struct {
		name   string
		labels []string
		want   float64
	}{
		{"rooms", nil, 2},
		{"peers", nil, 3},
		{"rooms_opened_total", nil, 2},
		{"peers_joined_total", nil, 3},
		{"joins_refused_total", []string{"reason", "unknown"}, 1},
		{"packets_in_total", []string{"command", "raw"}, rawN},
		{"bytes_in_total", []string{"command", "raw"}, rawN * (size + 1)},
		{"packets_in_total", []string{"command", "sys"}, relayN},
		{"relayed_packets_total", nil, relayN},
		{"packets_out_total", []string{"command", "raw"}, outN},
		{"bytes_out_total", []string{"command", "raw"}, outN * (size + 1)},
		{"packets_out_total", []string{"command", "sys"}, 2 + relayN}, // ADD_PEER both ways, the relayed
		{"packets_in_total", []string{"command", "remote_call"}, calls + 1},
		{"packets_in_total", []string{"command", "simplify_path"}, 2},
		{"refused_packets_total", []string{"reason", "unknown_node"}, 1},
		{"rpc_handler_seconds", nil, calls},
		{"draining", nil, 0},
	} {
		if got := value(fams, c.name, c.labels...); got != c.want {
			t.Errorf("%s%v = %v, want %v", c.name, c.labels, got, c.want)
		}
	}
	if s := status(t, admin.URL+"/readyz"); s != 200 {
		t.Errorf("/readyz %d before drain", s)
	}
	if err := rs.Room("a").Host().Kick(a2.ID()); err != nil {
		t.Fatal(err)
	}
	<-a2.Done()
	stop()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
	if s := <-readyDuringDrain; s != http.StatusServiceUnavailable {
		t.Errorf("/readyz %d during drain", s)
	}
	fams = scrape(t, admin.URL+"/metrics")
	for _, c := range []struct {
		name   string
		want   float64
		labels []string
	}{{"rooms", 0, nil}, {"peers", 0, nil}, {"rooms_closed_total", 2, nil}, {"peers_left_total", 3, nil}, {"draining", 1, nil},
		{"dropped_peers_total", 1, []string{"reason", "kicked"}}} {
		if got := value(fams, c.name, c.labels...); got != c.want {
			t.Errorf("after drain %s = %v, want %v", c.name, got, c.want)
		}
	}
	if s := status(t, admin.URL+"/healthz"); s != 200 {
		t.Errorf("/healthz %d", s)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

// Scrapers that connect and never finish their request hold no scrape
// back.
func TestMetricsSlowScrapers(t *testing.T) {
	reg := prometheus.NewRegistry()
	metrics.New(reg)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := metrics.NewServer("", metrics.Admin(reg, nil))
	go srv.Serve(ln)
	defer srv.Close()
	for range 50 {
		c, err := net.Dial("tcp", ln.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		c.Write([]byte("GET /metrics HTTP/1.1\r\nHost: x\r\n")) // and nothing more
	}
	client := &http.Client{Timeout: 5 * time.Second}
	for range 10 {
		resp, err := client.Get("http://" + ln.Addr().String() + "/metrics")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("scrape: %s", resp.Status)
		}
	}
}

// The round-trip time of an ENet client of a room is exported.
func TestMetricsENet(t *testing.T) {
	reg := prometheus.NewRegistry()
	m := metrics.New(reg)
	c, err := net.ListenPacket("udp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := c.LocalAddr().(*net.UDPAddr).Port
	c.Close()
	rs, err := multiplayer.NewRooms(multiplayer.RoomsOptions{Meter: m, Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
		ENet: &multiplayer.RoomsENet{Host: "127.0.0.1", FirstPort: port, LastPort: port}})
	if err != nil {
		t.Fatal(err)
	}
	defer rs.Shutdown(context.Background())
	m.WatchRooms(rs)
	admin := httptest.NewServer(metrics.Admin(reg, rs.Ready))
	defer admin.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	room, err := rs.Create(ctx, "e")
	if err != nil {
		t.Skipf("no ENet room (port %d taken?): %v", port, err)
	}
	link, err := multiplayer.DialENet(ctx, room.ENetAddr().String(), multiplayer.ENetOptions{})
	if err != nil {
		t.Fatal(err)
	}
	cl, err := multiplayer.Join(ctx, link, multiplayer.ClientOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	// The host side learns of the connection a moment after the client.
	var fams map[string]*dto.MetricFamily
	for deadline := time.Now().Add(5 * time.Second); ; time.Sleep(5 * time.Millisecond) {
		fams = scrape(t, admin.URL+"/metrics")
		if value(fams, "enet_rtt_seconds") == 1 || time.Now().After(deadline) {
			break
		}
	}
	if got := value(fams, "enet_rtt_seconds"); got != 1 {
		t.Errorf("enet_rtt_seconds counts %v clients, want 1", got)
	}
	if got := value(fams, "enet_packet_loss_ratio"); got != 1 {
		t.Errorf("enet_packet_loss_ratio counts %v clients, want 1", got)
	}
}
