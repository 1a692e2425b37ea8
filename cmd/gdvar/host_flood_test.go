package main

import (
	"context"
	"encoding/binary"
	"fmt"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// startHostCommand runs gdvar host with args on a free port and returns
// its WebSocket URL and outputs; the host stops with the test.
func startHostCommand(t *testing.T, args ...string) (url string, stdout, stderr *syncBuffer) {
	t.Helper()
	ctx, cancel := context.WithCancel(context.Background())
	stdout, stderr = new(syncBuffer), new(syncBuffer)
	done := make(chan int)
	go func() { done <- hostMain(ctx, append([]string{"--ws", "127.0.0.1:0"}, args...), stdout, stderr) }()
	t.Cleanup(func() { cancel(); <-done })
	addrRE := regexp.MustCompile(`ws://(\S+)`)
	waitUntil(t, "the host to listen", func() bool { return addrRE.MatchString(stderr.String()) })
	return "ws://" + addrRE.FindStringSubmatch(stderr.String())[1], stdout, stderr
}

// rawLink connects to the host and reads the id it assigns.
func rawLink(t *testing.T, url string) (multiplayer.Link, multiplayer.PeerID, error) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	link, err := multiplayer.DialWebSocket(ctx, url, multiplayer.WebSocketOptions{MaxPacketSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { link.Close() })
	f, err := link.ReadFrame()
	if err != nil {
		return nil, 0, err
	}
	return link, multiplayer.PeerID(binary.LittleEndian.Uint32(f.Data)), nil
}

// The log amplification attack on gdvar host: a long path registered,
// then 5,000 REMOTE_CALLs of 3 bytes that name it (and a 60 KB path the
// host refuses). What the host writes stays small: each path is cut to
// --max-text, and the refused calls are printed at --log-rate with a
// count of the others. It wrote 600 MB for 5,000 calls naming a 60 KB
// path.
func TestHostCommandLogFlood(t *testing.T) {
	url, stdout, stderr := startHostCommand(t)
	bad, id, err := rawLink(t, url)
	if err != nil {
		t.Fatal(err)
	}
	long := strings.Repeat("p", multiplayer.MaxPathLength-1)
	for i, path := range []string{long, strings.Repeat("q", 60<<10)} {
		if err := bad.WriteFrame(multiplayer.Frame{Data: multiplayer.AppendSimplifyPath(nil, variant.Godot4, multiplayer.MethodsChecksum(nil), uint32(i+1), path)}); err != nil {
			t.Fatal(err)
		}
	}
	const calls = 5000
	for i := range calls {
		pkt := multiplayer.AppendCall(nil, variant.Godot4, multiplayer.Call{NodeID: uint32(1 + i%2)})
		if err := bad.WriteFrame(multiplayer.Frame{Data: pkt}); err != nil {
			t.Fatal(err)
		}
	}
	// A last packet of another kind: once it is printed, all are handled.
	bad.WriteFrame(multiplayer.Frame{Data: multiplayer.AppendRaw(nil, variant.Godot4, []byte("done"))})
	waitUntil(t, "the last packet", func() bool { return strings.Contains(stdout.String(), "RAW 646f6e65") })
	bad.Close()
	waitUntil(t, "the client to leave", func() bool { return strings.Contains(stderr.String(), fmt.Sprintf("peer %d left", id)) })
	out, errOut := stdout.String(), stderr.String()
	t.Logf("%d calls: %d bytes printed, %d on standard error; the end:\n%s", calls, len(out), len(errOut), out[max(0, len(out)-600):])
	if len(out)+len(errOut) > 64<<10 {
		t.Errorf("%d bytes written for %d refused calls", len(out)+len(errOut), calls)
	}
	if strings.Contains(out, long) {
		t.Error("a path was printed whole")
	}
	if !strings.Contains(out, fmt.Sprintf("%d: ", id)) || !strings.Contains(out, "more packets not shown") {
		t.Error("the lines not printed were not counted")
	}
}

// --max-per-ip sets how many clients one address may have: the third
// from one address is answered 503 at its handshake.
func TestHostCommandMaxPerIP(t *testing.T) {
	url, _, _ := startHostCommand(t, "--max-per-ip", "2")
	for range 2 {
		if _, _, err := rawLink(t, url); err != nil {
			t.Fatal(err)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	link, err := multiplayer.DialWebSocket(ctx, url, multiplayer.WebSocketOptions{})
	if err == nil {
		link.Close()
		t.Fatal("a third client from one address was accepted")
	}
	if !strings.Contains(err.Error(), "503") {
		t.Fatalf("a third client from one address: %v", err)
	}
}
