package main

import (
	"bytes"
	"context"
	"io"
	"os"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// syncBuffer is a bytes.Buffer safe for the server's goroutines.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// waitFor waits until buf holds a match of re, and returns it.
func waitFor(t *testing.T, buf *syncBuffer, re string) []string {
	t.Helper()
	rx := regexp.MustCompile(re)
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		if m := rx.FindStringSubmatch(buf.String()); m != nil {
			return m
		}
	}
	t.Fatalf("no %q in:\n%s", re, buf.String())
	return nil
}

func testServer(t *testing.T, family variant.Family) (*server, *syncBuffer, *syncBuffer) {
	t.Helper()
	var stdout, stderr syncBuffer
	cfg := serveConfig{
		tcp: "127.0.0.1:0", udp: "127.0.0.1:0", ws: "127.0.0.1:0",
		opts:    peer.Options{Godot: family, CloseTimeout: 100 * time.Millisecond},
		text:    gdtext.Options{Family: family},
		maxText: 60,
	}
	s, err := startServer(context.Background(), cfg, &stdout, &stderr)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.shutdown)
	return s, &stdout, &stderr
}

func TestServeEchoesAndPrints(t *testing.T) {
	for _, family := range []variant.Family{variant.Godot4, variant.Godot3} {
		s, stdout, stderr := testServer(t, family)
		ctx := context.Background()
		o := peer.Options{Godot: family}
		dials := map[string]func() (*peer.Conn, error){
			"tcp": func() (*peer.Conn, error) { return peer.DialTCP(ctx, s.tcp.Addr().String(), o) },
			"udp": func() (*peer.Conn, error) { return peer.DialUDP(ctx, s.udp.LocalAddr().String(), o) },
			"ws":  func() (*peer.Conn, error) { return peer.DialWebSocket(ctx, "ws://"+s.ws.Addr().String()+"/game", o) },
		}
		d := variant.NewDictionary(2)
		d.Set(variant.String("hp"), variant.Float(99.5))
		d.Set(variant.String("pos"), variant.Vector2{X: 1, Y: 2})
		want := map[variant.Family]string{
			variant.Godot4: `{ "hp": 99.5, "pos": Vector2(1, 2) }`,
			variant.Godot3: `{ "hp": 99.5, "pos": Vector2( 1, 2 ) }`,
		}[family]
		for proto, dial := range dials {
			c, err := dial()
			if err != nil {
				t.Fatal(proto, err)
			}
			c.SetDeadline(time.Now().Add(10 * time.Second))
			for _, v := range []variant.Value{d, make(variant.PackedByteArray, 100)} {
				if err := c.WriteValue(v); err != nil {
					t.Fatal(proto, err)
				}
				got, err := c.ReadValue()
				if err != nil || !variant.Equal(got, v) {
					t.Fatalf("%s: echo %v, %v", proto, got, err)
				}
			}
			local := regexp.QuoteMeta(c.LocalAddr().String())
			waitFor(t, stdout, `(?m)^`+proto+` `+local+`: `+regexp.QuoteMeta(want)+`$`)
			// Long values are cut.
			waitFor(t, stdout, `(?m)^`+proto+` `+local+`: \S.{59}…$`)
			// A payload that does not decode is reported; the connection
			// goes on.
			c.WritePayload([]byte{0xff, 0, 0, 0})
			waitFor(t, stdout, `(?m)^`+proto+` `+local+`: ERROR frame at byte \d+ \(4 bytes\): decode: byte 0: invalid Variant type`)
			c.WriteValue(variant.Int(7))
			if v, err := c.ReadValue(); err != nil || v != variant.Int(7) {
				t.Errorf("%s: after the bad payload: %v %v", proto, v, err)
			}
			c.Close()
			if proto != "udp" {
				waitFor(t, stderr, `(?m)^gdvar serve: `+proto+` `+local+` disconnected$`)
			}
		}
		if !strings.Contains(stderr.String(), "listening on tcp 127.0.0.1:") {
			t.Errorf("stderr:\n%s", stderr)
		}
	}
}

// Shutting down closes the connections still open.
func TestServeShutdown(t *testing.T) {
	s, _, stderr := testServer(t, variant.Godot4)
	c, err := peer.DialTCP(context.Background(), s.tcp.Addr().String(), peer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	waitFor(t, stderr, `tcp \S+ connected`)
	done := make(chan struct{})
	go func() {
		s.shutdown()
		close(done)
	}()
	select {
	case <-done:
	case <-time.After(5 * time.Second):
		t.Fatal("shutdown hangs")
	}
	c.SetReadDeadline(time.Now().Add(5 * time.Second))
	if _, err := c.ReadValue(); err != io.EOF {
		t.Errorf("client read after shutdown: %v", err)
	}
}

// The command itself: it listens, echoes, and ends cleanly on SIGINT.
func TestServeCommandSIGINT(t *testing.T) {
	var stdout, stderr syncBuffer
	status := make(chan int, 1)
	go func() {
		status <- run([]string{"serve", "--tcp", ":0", "--godot", "3"}, strings.NewReader(""), &stdout, &stderr)
	}()
	// The signal handler is in place once it says it listens.
	addr := waitFor(t, &stderr, `listening on tcp (127\.0\.0\.1:\d+) \(Godot 3\)`)[1]
	c, err := peer.DialTCP(context.Background(), addr, peer.Options{Godot: variant.Godot3})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	c.WriteValue(variant.Quaternion{W: 1})
	if v, err := c.ReadValue(); err != nil || v != (variant.Quaternion{W: 1}) {
		t.Fatal(v, err)
	}
	waitFor(t, &stdout, `(?m)^tcp 127\.0\.0\.1:\d+: Quat\( 0, 0, 0, 1 \)$`)
	self, err := os.FindProcess(os.Getpid())
	if err != nil {
		t.Fatal(err)
	}
	if err := self.Signal(os.Interrupt); err != nil {
		t.Skipf("this system sends no interrupt to a process: %v", err)
	}
	select {
	case st := <-status:
		if st != 0 {
			t.Errorf("exit status %d", st)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("gdvar serve did not stop on SIGINT")
	}
	if !strings.HasSuffix(stderr.String(), "gdvar serve: stopped\n") {
		t.Errorf("stderr:\n%s", stderr.String())
	}
	if _, err := c.ReadValue(); err != io.EOF {
		t.Errorf("client read after the server stopped: %v", err)
	}
}

func TestServeUsage(t *testing.T) {
	if status, out, _ := gdvar(t, "", "serve", "--help"); status != 0 || !strings.Contains(out, "Usage: gdvar serve") {
		t.Errorf("--help: %d %q", status, out)
	}
	for _, args := range [][]string{
		{"serve", "extra"},
		{"serve", "--tcp", "no port"},
		{"serve", "--godot", "5"},
		{"serve", "--max-size", "0"},
		{"serve", "--max-text", "-1"},
		{"serve", "--max-per-ip", "-1"},
		{"serve", "--bogus"},
	} {
		if status, _, _ := gdvar(t, "", args...); status != 2 {
			t.Errorf("%q: status %d, want 2", args, status)
		}
	}
	// An address that cannot be listened on.
	if status, _, stderr := gdvar(t, "", "serve", "--tcp", "192.0.2.1:1"); status != 1 || !strings.Contains(stderr, "gdvar serve:") {
		t.Errorf("unusable address: %d %q", status, stderr)
	}
	for in, want := range map[string]string{"9000": "127.0.0.1:9000", ":9000": "127.0.0.1:9000", "0.0.0.0:1": "0.0.0.0:1", "[::1]:5": "[::1]:5"} {
		if got, err := listenAddr(in); got != want || err != nil {
			t.Errorf("listenAddr(%q) = %q, %v", in, got, err)
		}
	}
}
