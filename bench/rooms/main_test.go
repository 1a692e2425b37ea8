package main

import (
	"context"
	"net"
	"runtime"
	"testing"
	"time"
)

// TestSmall runs both sides at a very small scale (20 clients in 2 rooms,
// one second of load) in one process, so that the programs run.sh uses keep
// working: every client joins and hears of its room's peers, and every
// call written reaches the server. Rates and CPU are not checked.
func TestSmall(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc: Linux only")
	}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	c := config{addr: "127.0.0.1:0", statsAddr: "127.0.0.1:0", clients: 20, rooms: 2}
	addrs := make(chan [2]net.Addr, 1)
	served := make(chan error, 1)
	go func() {
		served <- serve(ctx, serverConfig{config: c, relay: true}, func(ws, st net.Addr) { addrs <- [2]net.Addr{ws, st} })
	}()
	var a [2]net.Addr
	select {
	case a = <-addrs:
	case err := <-served:
		t.Fatal(err)
	}
	c.addr, c.statsAddr = a[0].String(), a[1].String()
	r, err := load(ctx, loadConfig{config: c, rate: 20, duration: time.Second, warmup: 200 * time.Millisecond,
		dialers: 4, senders: 2, relay: true, timeout: time.Minute}, func(s string) { t.Log(s) })
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%+v", r)
	if r.Notices != 2*10*9 {
		t.Errorf("%d peer notices, want %d", r.Notices, 2*10*9)
	}
	// At least the first call of each client was written.
	if r.Sent < 20 || r.Lost != 0 || r.WriteErrs != 0 || r.Warnings != 0 {
		t.Errorf("%d calls sent, %d lost, %d write errors, %d server warnings", r.Sent, r.Lost, r.WriteErrs, r.Warnings)
	}
	cancel()
	if err := <-served; err != nil {
		t.Fatal(err)
	}
}
