package metrics_test

import (
	"fmt"
	"io"
	"net/http/httptest"
	"strings"

	"github.com/prometheus/client_golang/prometheus"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/multiplayer/metrics"
)

// The metrics of Rooms and the health probes on one admin handler.
func Example() {
	reg := prometheus.NewRegistry()
	m := metrics.New(reg)
	rs, err := multiplayer.NewRooms(multiplayer.RoomsOptions{Meter: m})
	if err != nil {
		panic(err)
	}
	m.WatchRooms(rs)
	admin := httptest.NewServer(metrics.Admin(reg, rs.Ready))
	defer admin.Close()

	resp, err := admin.Client().Get(admin.URL + "/metrics")
	if err != nil {
		panic(err)
	}
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "gdvar_multiplayer_rooms ") || strings.HasPrefix(line, "gdvar_multiplayer_draining ") {
			fmt.Println(line)
		}
	}
	resp, _ = admin.Client().Get(admin.URL + "/readyz")
	fmt.Println("/readyz", resp.Status)
	resp.Body.Close()
	// Output:
	// gdvar_multiplayer_draining 0
	// gdvar_multiplayer_rooms 0
	// /readyz 200 OK
}
