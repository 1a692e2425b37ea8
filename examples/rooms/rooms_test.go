package main

import (
	"bufio"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"regexp"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/gdvar/gdvar/internal/godot4web"
	"github.com/gdvar/gdvar/multiplayer"
)

// startServer runs the server in this process on free ports.
func startServer(t *testing.T, args ...string) (ws, admin string, stop func() int) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	listening := make(chan [2]string, 1)
	done := make(chan int, 1)
	go func() {
		done <- run(ctx, append([]string{"-ws", "127.0.0.1:0", "-admin", "127.0.0.1:0"}, args...), io.Discard, listening)
	}()
	select {
	case a := <-listening:
		t.Cleanup(cancel)
		return a[0], a[1], func() int { cancel(); return <-done }
	case code := <-done:
		t.Fatalf("server exited %d", code)
	}
	return
}

// gameNode is the game's Game node on a Go player's side.
func playerNode(totals, final chan<- map[int64]int64) multiplayer.Node {
	return multiplayer.Node{Path: "Game", Methods: []multiplayer.Method{
		{Name: "final", Mode: multiplayer.Authority, Transfer: multiplayer.Reliable,
			Handler: func(_ context.Context, _ multiplayer.PeerID, t map[int64]int64) { final <- t }},
		{Name: "score", Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable},
		{Name: "totals", Mode: multiplayer.Authority, Transfer: multiplayer.Reliable,
			Handler: func(_ context.Context, _ multiplayer.PeerID, t map[int64]int64) { totals <- t }},
	}}
}

func readyz(t *testing.T, admin string) int {
	resp, err := http.Get("http://" + admin + "/readyz")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// Real Godot 4.6 players (web build) in two matches of one server: each
// hears the totals of its own match only; a player asking for a room
// that is not a match is refused with the reason; when the server drains,
// every player hears the final totals and then a normal disconnect.
func TestMatchesGodot4(t *testing.T) {
	godot4web.Skip(t)
	ws, admin, stop := startServer(t)
	type player struct{ url, points string }
	players := []player{{"/match-a", "3"}, {"/match-a", "4"}, {"/match-b", "5"}, {"/lobby", "1"}}
	results := make([]godot4web.Result, len(players))
	var wg sync.WaitGroup
	for i, p := range players {
		wg.Go(func() {
			results[i] = godot4web.Run(t, godot4web.Job{Script: "client4.gd", Args: []string{"ws://" + ws + p.url, p.points}, Timeout: 90 * time.Second})
		})
	}
	// Drain once the three players have scored and the fourth has been
	// refused (the server's metrics say).
	deadline := time.Now().Add(80 * time.Second)
	for m := ""; !strings.Contains(m, "gdvar_multiplayer_rpc_handler_seconds_count 3") ||
		!strings.Contains(m, `gdvar_multiplayer_joins_refused_total{reason="unknown"} 1`); m = scrape(t, admin) {
		if time.Now().After(deadline) {
			t.Fatal("the players did not score")
		}
		time.Sleep(50 * time.Millisecond)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
	wg.Wait()
	finals := map[string][]string{}
	for i, r := range results {
		t.Logf("player of %s:\n%s", players[i].url, r.Stdout)
		if r.Code != 0 {
			t.Errorf("player %d failed (%d): %s", i, r.Code, r.Stderr)
		}
		if players[i].url == "/lobby" {
			if !strings.Contains(r.Stdout, "REFUSED 4404 unknown room") {
				t.Error("the lobby player was not told why it was refused")
			}
			continue
		}
		m := regexp.MustCompile(`(?m)^FINAL (.*)$`).FindStringSubmatch(r.Stdout)
		if m == nil || !strings.Contains(r.Stdout, "DISCONNECTED 1001 server shutting down") {
			t.Errorf("player %d did not hear the end of its match", i)
			continue
		}
		finals[players[i].url] = append(finals[players[i].url], m[1])
	}
	sum := func(s string) (n, total int) {
		for _, f := range strings.Fields(s) {
			_, v, _ := strings.Cut(f, "=")
			var x int
			for _, c := range v {
				x = x*10 + int(c-'0')
			}
			n, total = n+1, total+x
		}
		return
	}
	if fa := finals["/match-a"]; len(fa) != 2 || fa[0] != fa[1] {
		t.Errorf("match a's finals: %q", fa)
	} else if n, total := sum(fa[0]); n != 2 || total != 7 {
		t.Errorf("match a's final %q", fa[0])
	}
	if fb := finals["/match-b"]; len(fb) != 1 {
		t.Errorf("match b's finals: %q", fb)
	} else if n, total := sum(fb[0]); n != 1 || total != 5 {
		t.Errorf("match b's final %q", fb[0])
	}
}

func scrape(t *testing.T, admin string) string {
	resp, err := http.Get("http://" + admin + "/metrics")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return string(b)
}

// TestMain runs the server itself when asked to, for TestSIGTERM.
func TestMain(m *testing.M) {
	if args, ok := os.LookupEnv("GDVAR_ROOMS_SERVER"); ok {
		os.Args = append(os.Args[:1], strings.Fields(args)...)
		main()
	}
	os.Exit(m.Run())
}

// The server as a process of its own: SIGTERM during a match drains it
// (readiness turns 503, the player hears the final totals and a clean
// close) and it exits 0.
func TestSIGTERM(t *testing.T) {
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "GDVAR_ROOMS_SERVER=-ws 127.0.0.1:0 -admin 127.0.0.1:0 -drain-timeout 5s")
	stderr, err := cmd.StderrPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	defer cmd.Process.Kill()
	lines := bufio.NewScanner(stderr)
	var ws, admin string
	for ws == "" && lines.Scan() {
		var rec struct{ Msg, WS, Admin string }
		if json.Unmarshal(lines.Bytes(), &rec) == nil && rec.Msg == "serving" {
			ws = strings.TrimSuffix(strings.TrimPrefix(rec.WS, "ws://"), "/match-NAME")
			admin = strings.TrimPrefix(rec.Admin, "http://")
		}
	}
	if ws == "" {
		t.Fatal("the server did not say where it listens")
	}
	go io.Copy(io.Discard, stderr)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	totals, final := make(chan map[int64]int64, 4), make(chan map[int64]int64, 1)
	link, err := multiplayer.DialWebSocket(ctx, "ws://"+ws+"/match-x", multiplayer.WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	c, err := multiplayer.Join(ctx, link, multiplayer.ClientOptions{}, playerNode(totals, final))
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Call(1, "Game", "score", 42); err != nil {
		t.Fatal(err)
	}
	if got := <-totals; got[int64(c.ID())] != 42 {
		t.Errorf("totals %v", got)
	}
	if s := readyz(t, admin); s != 200 {
		t.Errorf("/readyz %d", s)
	}
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case got := <-final:
		if got[int64(c.ID())] != 42 {
			t.Errorf("final %v", got)
		}
	case <-ctx.Done():
		t.Fatal("no final totals")
	}
	<-c.Done()
	if err := c.Err(); err != nil {
		t.Errorf("the player saw %v, want a clean close", err)
	}
	if err := cmd.Wait(); err != nil {
		t.Errorf("server: %v", err)
	}
}

// Under Agones (a stand-in SDK server here), the server marks itself
// Ready, pings Health, and asks for Shutdown once drained.
func TestAgones(t *testing.T) {
	var mu sync.Mutex
	var calls []string
	sdk := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		if n := len(calls); n == 0 || calls[n-1] != r.URL.Path {
			calls = append(calls, r.URL.Path)
		}
		mu.Unlock()
		w.Write([]byte("{}"))
	}))
	defer sdk.Close()
	t.Setenv("AGONES_SDK_HTTP_PORT", sdk.URL[strings.LastIndexByte(sdk.URL, ':')+1:])
	_, _, stop := startServer(t)
	waitFor := time.Now().Add(10 * time.Second)
	for {
		mu.Lock()
		n := len(calls)
		mu.Unlock()
		if n >= 2 || time.Now().After(waitFor) {
			break
		}
		time.Sleep(10 * time.Millisecond)
	}
	if code := stop(); code != 0 {
		t.Errorf("exit %d", code)
	}
	mu.Lock()
	defer mu.Unlock()
	if got := strings.Join(calls, " "); got != "/ready /health /shutdown" {
		t.Errorf("SDK calls: %s", got)
	}
}
