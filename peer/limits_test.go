package peer

import (
	"context"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/variant"
)

// serveReads accepts connections on l and reads each until it fails,
// sending every error on errs.
func serveReads(t *testing.T, l *Listener, errs chan<- error) {
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept(context.Background())
			if err != nil {
				return
			}
			go func() {
				defer c.Close()
				for {
					if _, err := c.ReadValue(); err != nil {
						errs <- err
						return
					}
				}
			}()
		}
	}()
}

// waitUntil polls cond for up to 10 seconds.
func waitUntil(t *testing.T, what string, cond func() bool) {
	t.Helper()
	for deadline := time.Now().Add(10 * time.Second); !cond(); time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("timed out waiting for %s", what)
		}
	}
}

// closedByPeer reports whether the server has closed nc, waiting at most d
// and skipping whatever it sends before.
func closedByPeer(nc net.Conn, d time.Duration) bool {
	nc.SetReadDeadline(time.Now().Add(d))
	for {
		if _, err := nc.Read(make([]byte, 64)); err != nil {
			return !isTimeout(err)
		}
	}
}

// 50 silent connections against a cap of 10: 10 are held, 40 are closed
// at once, and a place that frees up is taken again.
func TestMaxConns(t *testing.T) {
	ctx := testCtx(t)
	for _, listen := range []func(context.Context, string, Options) (*Listener, error){ListenTCP, ListenWebSocket} {
		l, err := listen(ctx, "127.0.0.1:0", Options{MaxConns: 10})
		if err != nil {
			t.Fatal(err)
		}
		serveReads(t, l, make(chan error, 100))
		var conns []net.Conn
		for range 50 {
			nc, err := net.Dial("tcp", l.Addr().String())
			if err != nil {
				continue // reset before the dial returned: refused
			}
			defer nc.Close()
			conns = append(conns, nc)
		}
		waitUntil(t, "40 refusals", func() bool { return l.Refused() == 40 })
		if n := l.Conns(); n != 10 {
			t.Errorf("%d connections open, want 10", n)
		}
		var open []net.Conn
		for _, nc := range conns {
			if !closedByPeer(nc, 20*time.Millisecond) {
				open = append(open, nc)
			}
		}
		if len(open) != 10 {
			t.Fatalf("%d connections left open, want 10", len(open))
		}
		open[0].Close()
		waitUntil(t, "a place freed", func() bool { return l.Conns() == 9 })
		nc, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		if closedByPeer(nc, 100*time.Millisecond) {
			t.Error("a connection after a place freed up was refused")
		}
		if l.Refused() != 40 || l.Conns() != 10 {
			t.Errorf("refused %d, open %d", l.Refused(), l.Conns())
		}
		l.Close()
	}
}

// An Upgrader answers 503 beyond its limit.
func TestUpgraderMaxConns(t *testing.T) {
	u, err := NewUpgrader(Options{MaxConns: 2})
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if c, err := u.Upgrade(w, r); err == nil {
			go echo(c)
		}
	}))
	defer srv.Close()
	ctx := testCtx(t)
	url := "ws" + strings.TrimPrefix(srv.URL, "http")
	var conns []*Conn
	for range 2 {
		c, err := DialWebSocket(ctx, url, Options{})
		if err != nil {
			t.Fatal(err)
		}
		conns = append(conns, c)
	}
	if _, err := DialWebSocket(ctx, url, Options{}); err == nil || !strings.Contains(err.Error(), "503") {
		t.Fatalf("third connection: %v", err)
	}
	conns[0].Close()
	waitUntil(t, "a place freed", func() bool { return u.Conns() == 1 })
	c, err := DialWebSocket(ctx, url, Options{})
	if err != nil {
		t.Fatalf("after a place freed up: %v", err)
	}
	c.Close()
	conns[1].Close()
}

// A silent connection is closed after the idle timeout; one that keeps
// sending is not; a read deadline still only interrupts the read. (The
// busy peer sends every 60 ms for 1.5 s against an idle timeout of 1 s,
// so that a loaded machine's pauses do not make it idle.)
func TestIdleTimeout(t *testing.T) {
	ctx := testCtx(t)
	const idle, sends = time.Second, 25
	o := Options{IdleTimeout: idle, CloseTimeout: -1}
	for _, network := range []string{"tcp", "ws"} {
		var l *Listener
		var err error
		var dial func() (*Conn, error)
		if network == "tcp" {
			l, err = ListenTCP(ctx, "127.0.0.1:0", o)
			dial = func() (*Conn, error) { return DialTCP(ctx, l.Addr().String(), Options{}) }
		} else {
			l, err = ListenWebSocket(ctx, "127.0.0.1:0", o)
			dial = func() (*Conn, error) { return DialWebSocket(ctx, "ws://"+l.Addr().String(), Options{}) }
		}
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		silent, err := dial()
		if err != nil {
			t.Fatal(err)
		}
		defer silent.Close()
		busy, err := dial()
		if err != nil {
			t.Fatal(err)
		}
		defer busy.Close()
		s1, err := l.Accept(ctx)
		if err != nil {
			t.Fatal(err)
		}
		s2, err := l.Accept(ctx)
		if err != nil {
			t.Fatal(err)
		}
		// The server side of busy: a short read deadline, then reads that
		// go on for longer than the idle timeout.
		// (A WebSocket connection does not survive a read deadline.)
		busyDone := make(chan error, 1)
		go func() {
			srv := s2
			if srv.RemoteAddr().String() != busy.LocalAddr().String() {
				srv = s1
			}
			defer srv.Close()
			if network == "tcp" {
				srv.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
				if _, err := srv.ReadValue(); !errors.Is(err, os.ErrDeadlineExceeded) {
					busyDone <- err
					return
				}
				srv.SetReadDeadline(time.Time{})
			}
			for range sends {
				if _, err := srv.ReadValue(); err != nil {
					busyDone <- err
					return
				}
			}
			busyDone <- nil
		}()
		srvSilent := s1
		if srvSilent.RemoteAddr().String() != silent.LocalAddr().String() {
			srvSilent = s2
		}
		start := time.Now()
		go func() {
			for range sends {
				time.Sleep(60 * time.Millisecond)
				busy.WriteValue(variant.Int(1))
			}
		}()
		_, err = srvSilent.ReadValue()
		if !errors.Is(err, ErrIdleTimeout) || errors.Is(err, os.ErrDeadlineExceeded) {
			t.Fatalf("%s: silent peer: %v", network, err)
		}
		if d := time.Since(start); d < idle || d > idle+5*time.Second {
			t.Errorf("%s: idle timeout after %v", network, d)
		}
		if _, again := srvSilent.ReadValue(); again == nil {
			t.Errorf("%s: read after idle timeout succeeded", network)
		}
		silent.SetReadDeadline(time.Now().Add(5 * time.Second))
		if _, err := silent.ReadValue(); err == nil || isTimeout(err) {
			t.Errorf("%s: the silent client's connection is not closed: %v", network, err)
		}
		if err := <-busyDone; err != nil {
			t.Errorf("%s: busy peer: %v", network, err)
		}
		srvSilent.Close()
	}
}

// A frame dribbled a byte at a time is cut at the frame timeout, although
// every byte comes well within the idle timeout.
func TestFrameTimeout(t *testing.T) {
	ctx := testCtx(t)
	o := Options{IdleTimeout: 5 * time.Second, FrameTimeout: 200 * time.Millisecond, CloseTimeout: -1}
	for _, network := range []string{"tcp", "ws"} {
		var l *Listener
		var err error
		var raw net.Conn
		var head []byte // what starts the frame
		if network == "tcp" {
			l, err = ListenTCP(ctx, "127.0.0.1:0", o)
			if err != nil {
				t.Fatal(err)
			}
			raw, err = net.Dial("tcp", l.Addr().String())
			head = []byte{100, 0, 0, 0}
		} else {
			l, err = ListenWebSocket(ctx, "127.0.0.1:0", o)
			if err != nil {
				t.Fatal(err)
			}
			var ws *websocket.Conn
			ws, _, err = websocket.DefaultDialer.DialContext(ctx, "ws://"+l.Addr().String(), nil)
			if err == nil {
				raw = ws.NetConn()
			}
			// A binary frame of 100 bytes, masked with a zero key.
			head = []byte{0x82, 0x80 | 100, 0, 0, 0, 0}
		}
		if err != nil {
			t.Fatal(err)
		}
		defer raw.Close()
		defer l.Close()
		errs := make(chan error, 1)
		serveReads(t, l, errs)
		if _, err := raw.Write(head); err != nil {
			t.Fatal(err)
		}
		start := time.Now()
		stop := make(chan struct{})
		defer close(stop)
		go func() {
			for range 100 {
				select {
				case <-stop:
					return
				case <-time.After(20 * time.Millisecond):
				}
				if _, err := raw.Write([]byte{0}); err != nil {
					return
				}
			}
		}()
		var got error
		select {
		case got = <-errs:
		case <-time.After(10 * time.Second):
			t.Fatalf("%s: no error", network)
		}
		var fe *frame.Error
		if !errors.Is(got, ErrFrameTimeout) || !errors.As(got, &fe) || fe.Offset != 0 {
			t.Errorf("%s: dribbled frame: %v", network, got)
		}
		if d := time.Since(start); d < 200*time.Millisecond || d > 1500*time.Millisecond {
			t.Errorf("%s: cut after %v, want soon after 200ms", network, d)
		}
		if !closedByPeer(raw, 5*time.Second) {
			t.Errorf("%s: connection not closed", network)
		}
	}
}

// heapInUse returns the live heap after a collection.
func heapInUse() int64 {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapInuse)
}

// parkClients has n clients send all but the last byte of an 8 MiB frame
// to a TCP server with the options o, and returns the growth of the heap
// while they are parked, with the server's errors.
func parkClients(t *testing.T, n int, o Options, payload []byte) (growth int64, l *Listener, errs []error) {
	ctx := testCtx(t)
	l, err := ListenTCP(ctx, "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	errc := make(chan error, n)
	serveReads(t, l, errc)
	base := heapInUse()
	var conns []net.Conn
	done := make(chan struct{}, n)
	for range n {
		nc, err := net.Dial("tcp", l.Addr().String())
		if err != nil {
			t.Fatal(err)
		}
		defer nc.Close()
		conns = append(conns, nc)
		go func() {
			defer func() { done <- struct{}{} }()
			nc.SetWriteDeadline(time.Now().Add(10 * time.Second))
			if _, err := nc.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(payload)+1))); err != nil {
				return
			}
			nc.Write(payload)
		}()
	}
	for range n {
		<-done
	}
	// Every client has written its frame or been refused; wait until the
	// server has read what it accepted.
	time.Sleep(200 * time.Millisecond)
	growth = heapInUse() - base
	for len(errc) > 0 {
		errs = append(errs, <-errc)
	}
	for _, nc := range conns {
		nc.Close()
	}
	waitUntil(t, "the connections closed", func() bool { return l.Conns() == 0 })
	for len(errc) > 0 {
		<-errc
	}
	return growth, l, errs
}

// Clients parked behind nearly complete 8 MiB frames hold no more than
// the buffer budget; the ones beyond it (at least seven of ten) are closed
// with frame.ErrBudget, and the budget comes back when the parked ones go.
func TestBufferBudget(t *testing.T) {
	if testing.Short() {
		t.Skip("moves 160 MiB over loopback")
	}
	const n, size = 10, 8 << 20
	payload := make([]byte, size-1)
	budget := int64(3 * size)

	without, _, errs := parkClients(t, n, Options{BufferBudget: -1}, payload)
	if len(errs) != 0 {
		t.Fatalf("without a budget: %v", errs)
	}
	t.Logf("%d clients parked behind 8 MiB frames, no budget: heap +%d MiB", n, without>>20)
	if without < n*size*9/10 {
		t.Fatalf("without a budget the heap grew only %d MiB: the test measures nothing", without>>20)
	}

	with, l, errs := parkClients(t, n, Options{BufferBudget: budget}, payload)
	t.Logf("%d clients parked behind 8 MiB frames, budget %d MiB: heap +%d MiB, %d refused", n, budget>>20, with>>20, len(errs))
	if with > budget+size/2 {
		t.Errorf("heap grew %d MiB with a budget of %d MiB", with>>20, budget>>20)
	}
	// At most three 8 MiB frames fit in 24 MiB. Fewer may: the buffers
	// grow by doubling as the bytes arrive, and how the ten connections'
	// growths interleave decides which reach their frame's size before
	// the budget is spent (each refused one gives its share back, so in
	// practice one at least does).
	if len(errs) < n-3 || len(errs) == n {
		t.Errorf("%d connections failed, want %d to %d", len(errs), n-3, n-1)
	}
	for _, err := range errs {
		if !errors.Is(err, frame.ErrBudget) {
			t.Errorf("refused frame: %v", err)
		}
	}
	waitUntil(t, "the budget back", func() bool { return l.BufferedBytes() == 0 && l.Conns() == 0 })
}

// The budget is shared by a listener's connections: once it is spent, a
// new frame fails (a WebSocket connection is closed with status 1008,
// "server busy"); a
// frame that fits still goes through afterwards.
func TestBufferBudgetWebSocket(t *testing.T) {
	ctx := testCtx(t)
	o := Options{MaxSize: 1 << 20, BufferBudget: 1 << 20}
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	errs := make(chan error, 4)
	serveReads(t, l, errs)
	url := "ws://" + l.Addr().String()
	// One client parks 900 KiB of a 1 MiB message.
	parked, _, err := websocket.DefaultDialer.DialContext(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer parked.Close()
	w, _ := parked.NextWriter(websocket.BinaryMessage)
	w.Write(make([]byte, 900<<10))
	waitUntil(t, "the parked bytes", func() bool { return l.BufferedBytes() >= 900<<10 })
	// Another sends 300 KiB: over the budget.
	other, _, err := websocket.DefaultDialer.DialContext(ctx, url, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	other.WriteMessage(websocket.BinaryMessage, make([]byte, 300<<10))
	other.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err = other.ReadMessage()
	if ce, ok := err.(*websocket.CloseError); !ok || ce.Code != websocket.ClosePolicyViolation || ce.Text != "server busy" {
		t.Errorf("over the budget: %v", err)
	}
	if err := <-errs; !errors.Is(err, frame.ErrBudget) {
		t.Errorf("server side: %v", err)
	}
	if l.BufferedBytes() > 1<<20 {
		t.Errorf("%d bytes buffered, budget 1 MiB", l.BufferedBytes())
	}
	// The parked client goes; the budget is free again.
	parked.Close()
	waitUntil(t, "the budget back", func() bool { return l.BufferedBytes() == 0 })
	if err := <-errs; !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("parked client gone: %v", err)
	}
	c, err := DialWebSocket(ctx, url, Options{MaxSize: 1 << 20})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.WritePayload(append([]byte{0x1d, 0, 0, 0, 0xf0, 0xff, 0x0b, 0}, make([]byte, 0xbfff0)...)); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-errs:
		t.Errorf("a frame within the budget: %v", err)
	case <-time.After(200 * time.Millisecond):
	}
}

// RFC 6455: a text message that is not UTF-8 fails the connection with
// status 1007. Valid text still carries values.
func TestWebSocketInvalidUTF8(t *testing.T) {
	ctx := testCtx(t)
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	errs := make(chan error, 1)
	serveReads(t, l, errs)
	ws, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+l.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.WriteMessage(websocket.TextMessage, []byte{2, 0, 0, 0, 42, 0, 0, 0})
	// Float 1.5: 00 00 00 00 00 00 f8 3f is not UTF-8.
	ws.WriteMessage(websocket.TextMessage, []byte{3, 0, 0, 0, 0, 0, 0xc0, 0x3f})
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, _, err = ws.ReadMessage()
	if !websocket.IsCloseError(err, websocket.CloseInvalidFramePayloadData) {
		t.Errorf("client: %v", err)
	}
	got := <-errs
	var fe *frame.Error
	if !errors.Is(got, ErrInvalidUTF8) || !errors.As(got, &fe) || fe.Offset != 8 {
		t.Errorf("server: %v", got)
	}
}

// The limits are on by default for servers and off for clients.
func TestLimitDefaults(t *testing.T) {
	cfg, err := Options{}.config()
	if err != nil {
		t.Fatal(err)
	}
	if cfg.maxConns != DefaultMaxConns || cfg.budget != DefaultBufferBudget {
		t.Errorf("defaults: %d connections, %d bytes", cfg.maxConns, cfg.budget)
	}
	if idle, ft := cfg.timeouts(true); idle != DefaultIdleTimeout || ft != DefaultFrameTimeout {
		t.Errorf("server timeouts %v %v", idle, ft)
	}
	if idle, ft := cfg.timeouts(false); idle != 0 || ft != 0 {
		t.Errorf("client timeouts %v %v", idle, ft)
	}
	if cfg.writeTimeout(true) != DefaultWriteTimeout || cfg.writeTimeout(false) != 0 {
		t.Errorf("write timeouts %v %v", cfg.writeTimeout(true), cfg.writeTimeout(false))
	}
	cfg, _ = Options{MaxConns: -1, BufferBudget: -1, IdleTimeout: -1, FrameTimeout: -1}.config()
	if idle, ft := cfg.timeouts(true); cfg.maxConns != 0 || cfg.budget != 0 || idle != 0 || ft != 0 {
		t.Errorf("disabled: %+v %v %v", cfg, idle, ft)
	}
	cfg, _ = Options{MaxSize: 100 << 20}.config()
	if cfg.budget != 100<<20 {
		t.Errorf("budget with a 100 MiB MaxSize: %d", cfg.budget)
	}
	if _, err := (Options{MaxSize: 1 << 20, BufferBudget: 1000}).config(); err == nil {
		t.Error("a budget below MaxSize is accepted")
	}
}

// A peer that does not read cannot block a server's writer for longer
// than the write timeout.
func TestWriteTimeout(t *testing.T) {
	ctx := testCtx(t)
	o := Options{WriteTimeout: 200 * time.Millisecond, CloseTimeout: -1}
	for _, network := range []string{"tcp", "ws"} {
		var l *Listener
		var err error
		var raw net.Conn
		if network == "tcp" {
			l, err = ListenTCP(ctx, "127.0.0.1:0", o)
			if err == nil {
				raw, err = net.Dial("tcp", l.Addr().String())
			}
		} else {
			l, err = ListenWebSocket(ctx, "127.0.0.1:0", o)
			if err == nil {
				var ws *websocket.Conn
				ws, _, err = websocket.DefaultDialer.DialContext(ctx, "ws://"+l.Addr().String(), nil)
				if err == nil {
					raw = ws.NetConn()
				}
			}
		}
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		defer raw.Close()
		c, err := l.Accept(ctx)
		if err != nil {
			t.Fatal(err)
		}
		big := make(variant.PackedByteArray, 1<<20)
		var werr error
		start := time.Now()
		for i := 0; i < 1000 && werr == nil; i++ {
			werr = c.WriteValue(big)
		}
		if !errors.Is(werr, ErrWriteTimeout) {
			t.Fatalf("%s: writes to a peer that does not read: %v", network, werr)
		}
		if d := time.Since(start); d > 5*time.Second {
			t.Errorf("%s: write timeout after %v", network, d)
		}
		if err := c.WriteValue(variant.Int(1)); err == nil {
			t.Errorf("%s: a write after the timeout succeeded", network)
		}
		if !closedByPeer(raw, 5*time.Second) {
			t.Errorf("%s: connection not closed", network)
		}
		c.Close()
	}
}

// Before the WebSocket handshake, the handshake timeout bounds a silent
// connection and one kept alive after a request that was not upgraded.
func TestWebSocketHandshakeTimeout(t *testing.T) {
	ctx := testCtx(t)
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{WebSocket: WebSocketOptions{HandshakeTimeout: 200 * time.Millisecond}})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	silent, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer silent.Close()
	plain, err := net.Dial("tcp", l.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	plain.Write([]byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))
	start := time.Now()
	for _, nc := range []net.Conn{silent, plain} {
		if !closedByPeer(nc, 5*time.Second) {
			t.Error("connection not closed")
		}
	}
	if d := time.Since(start); d > 3*time.Second {
		t.Errorf("closed after %v", d)
	}
	waitUntil(t, "no connection open", func() bool { return l.Conns() == 0 })
}

// A server that reads with short deadlines and tries again still meets
// the idle timeout of a silent peer: retrying does not restart it. Data
// that arrived while nobody read is still taken.
func TestIdleTimeoutPolling(t *testing.T) {
	client, server := pair(t, Options{IdleTimeout: 300 * time.Millisecond, CloseTimeout: -1})
	client.WriteValue(variant.Int(1))
	time.Sleep(400 * time.Millisecond) // longer than the idle timeout, without reading
	server.SetReadDeadline(time.Now().Add(time.Second))
	if v, err := server.ReadValue(); err != nil || v != variant.Int(1) {
		t.Fatalf("the value sent while nobody read: %v, %v", v, err)
	}
	start := time.Now()
	for {
		server.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
		_, err := server.ReadValue()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if time.Since(start) > 5*time.Second {
				t.Fatal("the idle timeout never came")
			}
			continue
		}
		if !errors.Is(err, ErrIdleTimeout) {
			t.Fatalf("polling a silent peer: %v", err)
		}
		break
	}
	if d := time.Since(start); d < 250*time.Millisecond {
		t.Errorf("idle timeout after %v, want about 300ms", d)
	}

	// A read that timed out, then a pause longer than the idle timeout
	// during which the value came: the value is read.
	client, server = pair(t, Options{IdleTimeout: 300 * time.Millisecond, CloseTimeout: -1})
	server.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
	if _, err := server.ReadValue(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatal(err)
	}
	client.WriteValue(variant.Int(2))
	time.Sleep(400 * time.Millisecond)
	server.SetReadDeadline(time.Now().Add(time.Second))
	if v, err := server.ReadValue(); err != nil || v != variant.Int(2) {
		t.Errorf("the value sent after a timed-out read: %v, %v", v, err)
	}
}

// A WebSocket message of exactly MaxSize bytes fits a budget of exactly
// MaxSize.
func TestBudgetExactlyMaxSize(t *testing.T) {
	ctx := testCtx(t)
	const size = 100 << 10
	o := Options{MaxSize: size, BufferBudget: size}
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	serveEcho(t, l)
	c, err := DialWebSocket(ctx, "ws://"+l.Addr().String(), Options{MaxSize: size})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	v := make(variant.PackedByteArray, size-8) // 8 bytes of header
	for range 2 {
		if err := c.WriteValue(v); err != nil {
			t.Fatal(err)
		}
		if got, err := c.ReadValue(); err != nil || len(got.(variant.PackedByteArray)) != size-8 {
			t.Fatalf("echo: %v", err)
		}
	}
	if n := l.BufferedBytes(); n > size {
		t.Errorf("%d bytes buffered", n)
	}
}
