package main

import (
	"context"
	"log/slog"
	"net/http"
	"os"
	"strings"
	"time"
)

// agones speaks to the Agones SDK server (the sidecar of a GameServer's
// pod) over its REST API, when AGONES_SDK_HTTP_PORT says where it is: a
// few POSTs that need no client library. Agones' GameServer lifecycle
// maps onto the server's as docs/deploy.md describes:
//
//   - Ready: once the listeners are up (POST /ready);
//   - Health: a ping every 2 s while the process runs, drain included
//     (POST /health), since Agones replaces a GameServer whose pings stop;
//   - Shutdown: once the drain has ended (POST /shutdown), so that the
//     GameServer is deleted rather than left in its last state.
type agones struct {
	base string // "" when not running under Agones
	log  *slog.Logger
	c    http.Client
}

func newAgones(log *slog.Logger) *agones {
	a := &agones{log: log, c: http.Client{Timeout: 2 * time.Second}}
	if port := os.Getenv("AGONES_SDK_HTTP_PORT"); port != "" {
		a.base = "http://localhost:" + port
	}
	return a
}

// post calls the SDK's path, retrying for a while: the sidecar may start
// after the game server.
func (a *agones) post(ctx context.Context, path string, tries int) bool {
	if a.base == "" {
		return false
	}
	for i := range tries {
		req, _ := http.NewRequestWithContext(ctx, "POST", a.base+path, strings.NewReader("{}"))
		req.Header.Set("Content-Type", "application/json")
		resp, err := a.c.Do(req)
		if err == nil {
			resp.Body.Close()
			if resp.StatusCode == http.StatusOK {
				return true
			}
		}
		if i+1 < tries {
			select {
			case <-ctx.Done():
				return false
			case <-time.After(500 * time.Millisecond):
			}
		}
	}
	a.log.Warn("agones: SDK call failed", "path", path)
	return false
}

// ready marks the GameServer Ready and pings Health until stop is closed.
func (a *agones) ready(stop <-chan struct{}) {
	if a.base == "" {
		return
	}
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-stop; cancel() }()
	if a.post(ctx, "/ready", 20) {
		a.log.Info("agones: Ready")
	}
	t := time.NewTicker(2 * time.Second)
	defer t.Stop()
	for {
		a.post(ctx, "/health", 1)
		select {
		case <-ctx.Done():
			return
		case <-t.C:
		}
	}
}

// shutdown tells Agones the server has ended.
func (a *agones) shutdown() {
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	if a.post(ctx, "/shutdown", 3) {
		a.log.Info("agones: Shutdown")
	}
}
