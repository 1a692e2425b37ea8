package enet

import (
	"encoding/binary"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/enginetest"
)

// TestCaptureSeeds records what the C library and Godot 3 send to a Go
// host as clients, for the fuzz seed corpus in testdata/captures:
//
//	ENET_CAPTURE=1 go test ./enet -run TestCaptureSeeds
func TestCaptureSeeds(t *testing.T) {
	if os.Getenv("ENET_CAPTURE") == "" {
		t.Skip("set ENET_CAPTURE=1 to record testdata/captures")
	}
	for _, m := range interopModes[:2] {
		cfg := m.cfg
		capture(t, "c-"+m.name, &cfg, func(port int) {
			c := startC(t, append([]string{"client", "127.0.0.1", strconv.Itoa(port), "-channels", "3", "-data", "77", "-send", "6", "3000", "r"}, m.cflags...)...)
			_ = c
		}, func(h *Host) {
			for {
				ev := next(t, h, 10*time.Second)
				if string(ev.Packet) == "done" {
					ev.Peer.DisconnectLater(0)
					nextOf(t, h, EventDisconnect, 10*time.Second)
					return
				}
			}
		})
		mode := "0"
		if m.cfg.Compression == CompressRangeCoder {
			mode = "1"
		}
		capture(t, "godot3-"+m.name, &cfg, func(port int) {
			enginetest.StartGodot3(t, "testdata/enet_client3.gd", strconv.Itoa(port), mode, "5000")
		}, func(h *Host) {
			ev := nextOf(t, h, EventConnect, 20*time.Second)
			for i := 0; i < 3; i++ {
				next(t, h, 10*time.Second)
			}
			ev.Peer.Send(Godot3ChannelReliable, AppendGodot3Packet(nil, 1, int32(ev.Data), []byte("quit")), Reliable)
			nextOf(t, h, EventDisconnect, 10*time.Second)
		})
	}
}

func capture(t *testing.T, name string, cfg *Config, start func(port int), run func(h *Host)) {
	h, err := Listen("udp4", "127.0.0.1:0", cfg)
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	r := newRelay(t, h.LocalAddr().(*net.UDPAddr), 0, 0, 0)
	r.mu.Lock()
	r.record = true
	r.mu.Unlock()
	start(r.addr().Port)
	run(h)
	time.Sleep(100 * time.Millisecond)
	r.mu.Lock()
	defer r.mu.Unlock()
	var out []byte
	for _, d := range r.recorded {
		out = binary.BigEndian.AppendUint16(out, uint16(len(d)))
		out = append(out, d...)
	}
	os.MkdirAll("testdata/captures", 0o755)
	if err := os.WriteFile(filepath.Join("testdata/captures", name+".bin"), out, 0o644); err != nil {
		t.Fatal(err)
	}
	t.Logf("%s: %d datagrams", name, len(r.recorded))
}
