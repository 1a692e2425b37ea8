package peer

import (
	"bytes"
	"context"
	"errors"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/variant"
)

func testCtx(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// echo sends every value it reads back, until the connection ends.
func echo(c *Conn) {
	defer c.Close()
	for {
		v, err := c.ReadValue()
		if err != nil {
			var fe *frame.Error
			var ve *variant.Error
			if errors.As(err, &fe) && errors.As(err, &ve) {
				continue // a payload that did not decode
			}
			return
		}
		if err := c.WriteValue(v); err != nil {
			return
		}
	}
}

// serveEcho accepts connections on l and echoes on each.
func serveEcho(t *testing.T, l *Listener) {
	t.Cleanup(func() { l.Close() })
	go func() {
		for {
			c, err := l.Accept(context.Background())
			if err != nil {
				return
			}
			go echo(c)
		}
	}()
}

type dialer func(t *testing.T, o Options) *Conn

// echoServers starts an echo server for each connection-oriented transport
// and returns how to dial each.
func echoServers(t *testing.T, o Options) map[string]dialer {
	ctx := testCtx(t)
	tl, err := ListenTCP(ctx, "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	serveEcho(t, tl)
	wl, err := ListenWebSocket(ctx, "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	serveEcho(t, wl)
	pc, err := ListenUDP(ctx, "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { pc.Close() })
	go func() {
		for {
			v, addr, err := pc.ReadValueFrom()
			if err != nil {
				if addr != nil {
					continue
				}
				return
			}
			pc.WriteValueTo(v, addr)
		}
	}()
	dial := func(f func(context.Context, string, Options) (*Conn, error), addr string) dialer {
		return func(t *testing.T, o Options) *Conn {
			c, err := f(testCtx(t), addr, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		}
	}
	return map[string]dialer{
		"tcp": dial(DialTCP, tl.Addr().String()),
		"ws":  dial(DialWebSocket, "ws://"+wl.Addr().String()+"/"),
		"udp": dial(DialUDP, pc.LocalAddr().String()),
	}
}

func TestEchoAllTransports(t *testing.T) {
	for _, family := range []variant.Family{variant.Godot4, variant.Godot3} {
		o := Options{Godot: family}
		for name, dial := range echoServers(t, o) {
			c := dial(t, o)
			c.SetDeadline(time.Now().Add(20 * time.Second))
			if c.Network() != name || c.RemoteAddr() == nil || c.LocalAddr() == nil {
				t.Errorf("%s: Network %q, addresses %v %v", name, c.Network(), c.LocalAddr(), c.RemoteAddr())
			}
			vals := sampleValues(family)
			// Many in a row, then all the echoes.
			for _, v := range vals {
				if err := c.WriteValue(v); err != nil {
					t.Fatalf("%s %v: write %v: %v", name, family, v, err)
				}
			}
			for i, want := range vals {
				got, err := c.ReadValue()
				if err != nil {
					t.Fatalf("%s %v: read %d: %v", name, family, i, err)
				}
				if !variant.Equal(got, want) {
					t.Errorf("%s %v: value %d = %#v, want %#v", name, family, i, got, want)
				}
			}
		}
	}
}

func TestLargeAndMany(t *testing.T) {
	o := Options{MaxSize: 16 << 20}
	for name, dial := range echoServers(t, o) {
		c := dial(t, o)
		c.SetDeadline(time.Now().Add(20 * time.Second))
		size := 6 << 20
		if name == "udp" {
			size = 60000 // a datagram holds at most 65507 bytes
		}
		big := bigBytes(size)
		if err := c.WriteValue(big); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		got, err := c.ReadValue()
		if err != nil || !variant.Equal(got, big) {
			t.Fatalf("%s: big value: %v", name, err)
		}
		// Many small values in a row, while reading the echoes. Over UDP
		// one at a time: a loaded machine's socket buffers may drop a
		// datagram of a burst, which UDP does not resend.
		const n = 2000
		done := make(chan error, 1)
		next := make(chan struct{}, 1)
		go func() {
			for i := range n {
				if name == "udp" && i > 0 {
					<-next
				}
				if err := c.WriteValue(variant.Int(i)); err != nil {
					done <- err
					return
				}
			}
			done <- nil
		}()
		for i := range n {
			v, err := c.ReadValue()
			if err != nil {
				t.Fatalf("%s: value %d: %v", name, i, err)
			}
			if v != variant.Int(i) {
				t.Fatalf("%s: value %d is %v", name, i, v)
			}
			if name == "udp" {
				next <- struct{}{}
			}
		}
		if err := <-done; err != nil {
			t.Fatal(err)
		}
	}
}

func TestBadPayloadKeepsConnection(t *testing.T) {
	for name, dial := range echoServers(t, Options{}) {
		c := dial(t, Options{})
		c.SetDeadline(time.Now().Add(10 * time.Second))
		// The echo server skips a payload that does not decode.
		c.WritePayload([]byte{0xff, 0, 0, 0})
		c.WriteValue(str("still here"))
		if v, err := c.ReadValue(); err != nil || v != str("still here") {
			t.Errorf("%s: %v %v", name, v, err)
		}
		// Our side reports one with the frame's offset.
		c.WriteValue(variant.Int(1)) // echoed as a payload below
		p, err := c.ReadPayload()
		if err != nil || len(p) != 8 {
			t.Fatalf("%s: %x %v", name, p, err)
		}
	}
}

// pair returns both ends of a TCP connection.
func pair(t *testing.T, o Options) (client, server *Conn) {
	ctx := testCtx(t)
	l, err := ListenTCP(ctx, "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	client, err = DialTCP(ctx, l.Addr().String(), o)
	if err != nil {
		t.Fatal(err)
	}
	server, err = l.Accept(ctx)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// Both at once: each Close waits for the other side to close.
		go client.Close()
		server.Close()
	})
	return client, server
}

func TestDecodeErrorOffset(t *testing.T) {
	client, server := pair(t, Options{})
	client.WriteValue(str("abc"))                             // 4 + 12 bytes
	client.WritePayload([]byte{5, 0, 0, 0, 0, 0, 0x80, 0x3f}) // a Vector2 cut short
	client.WriteValue(variant.Vector2{X: 1, Y: 2})            // fine again
	server.SetReadDeadline(time.Now().Add(5 * time.Second))
	if v, err := server.ReadValue(); err != nil || v != str("abc") {
		t.Fatal(v, err)
	}
	_, err := server.ReadValue()
	var fe *frame.Error
	var ve *variant.Error
	if !errors.As(err, &fe) || !errors.As(err, &ve) || fe.Offset != 16 || ve.Type != variant.TypeVector2 {
		t.Fatalf("got %v", err)
	}
	if v, err := server.ReadValue(); err != nil || v != (variant.Vector2{X: 1, Y: 2}) {
		t.Fatal(v, err)
	}
}

func TestTooLarge(t *testing.T) {
	small := Options{MaxSize: 1000}
	// TCP: refused from the length prefix alone.
	client, server := pair(t, small)
	raw := client.tr.(*streamTransport).nc
	raw.Write([]byte{0x00, 0x00, 0x00, 0x40}) // claims 1 GiB
	server.SetReadDeadline(time.Now().Add(5 * time.Second))
	_, err := server.ReadValue()
	if !errors.Is(err, frame.ErrTooLarge) {
		t.Fatalf("tcp: %v", err)
	}
	if _, err2 := server.ReadValue(); err2 != err {
		t.Errorf("tcp: the error does not stick: %v", err2)
	}
	// Writers refuse too.
	if err := client.WriteValue(bigBytes(2000)); !errors.Is(err, frame.ErrTooLarge) {
		t.Errorf("tcp write: %v", err)
	}
	// WebSocket and UDP.
	big := Options{MaxSize: 100000}
	for name, dial := range echoServers(t, small) {
		c := dial(t, big)
		c.SetDeadline(time.Now().Add(5 * time.Second))
		c.WriteValue(bigBytes(5000))
		if name == "udp" {
			// The server drops it; the next value gets through.
			c.WriteValue(variant.Int(5))
			if v, err := c.ReadValue(); err != nil || v != variant.Int(5) {
				t.Errorf("udp: %v %v", v, err)
			}
			continue
		}
		// The WebSocket server closes the connection (status 1009).
		if v, err := c.ReadValue(); err == nil {
			t.Errorf("%s: got %v", name, v)
		}
	}
}

func TestCleanClose(t *testing.T) {
	for name, dial := range echoServers(t, Options{}) {
		if name == "udp" {
			continue
		}
		c := dial(t, Options{CloseTimeout: 5 * time.Second})
		c.WriteValue(str("bye"))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		if v, err := c.ReadValue(); err != nil || v != str("bye") {
			t.Fatal(name, v, err)
		}
		start := time.Now()
		if err := c.Close(); err != nil {
			t.Errorf("%s: Close: %v", name, err)
		}
		// The echo server closes its side at once, so Close does not wait
		// for its time limit.
		if d := time.Since(start); d > 2*time.Second {
			t.Errorf("%s: Close took %v", name, d)
		}
		if _, err := c.ReadValue(); err == nil {
			t.Errorf("%s: read after Close succeeded", name)
		}
		if err := c.Close(); err != nil {
			t.Errorf("%s: second Close: %v", name, err)
		}
	}
	// What a server writes just before it closes arrives, then io.EOF.
	client, server := pair(t, Options{})
	for i := range 100 {
		server.WriteValue(bigBytes(10000 + i))
	}
	go server.Close()
	client.SetReadDeadline(time.Now().Add(5 * time.Second))
	for i := range 100 {
		v, err := client.ReadValue()
		if err != nil || len(v.(variant.PackedByteArray)) != 10000+i {
			t.Fatalf("value %d: %v", i, err)
		}
	}
	if _, err := client.ReadValue(); err != io.EOF {
		t.Errorf("after the server closed: %v", err)
	}
}

func TestCloseUnblocksReader(t *testing.T) {
	for name, dial := range echoServers(t, Options{}) {
		c := dial(t, Options{CloseTimeout: -1})
		errc := make(chan error, 1)
		go func() {
			_, err := c.ReadValue()
			errc <- err
		}()
		time.Sleep(50 * time.Millisecond)
		c.Close()
		select {
		case err := <-errc:
			if err == nil {
				t.Errorf("%s: read returned no error", name)
			}
		case <-time.After(5 * time.Second):
			t.Fatalf("%s: read still blocked after Close", name)
		}
	}
}

func TestDeadlineResumesFrame(t *testing.T) {
	client, server := pair(t, Options{})
	// Nothing arrives: the read times out.
	server.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	if _, err := server.ReadValue(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	// Half a frame arrives, then the deadline passes; the rest follows
	// and the next read completes the same frame.
	raw := client.tr.(*streamTransport).nc
	frameBytes := []byte{12, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 'a', 'b', 'c', 0}
	raw.Write(frameBytes[:6])
	server.SetReadDeadline(time.Now().Add(100 * time.Millisecond))
	if _, err := server.ReadValue(); !errors.Is(err, os.ErrDeadlineExceeded) {
		t.Fatalf("got %v", err)
	}
	raw.Write(frameBytes[6:])
	server.SetReadDeadline(time.Now().Add(5 * time.Second))
	if v, err := server.ReadValue(); err != nil || v != str("abc") {
		t.Fatalf("resumed: %v %v", v, err)
	}
}

func TestConcurrentWriters(t *testing.T) {
	client, server := pair(t, Options{})
	const writers, each = 8, 200
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for i := range each {
				client.WriteValue(variant.NewArray(variant.Int(w), variant.Int(i), bigBytes(100*w)))
			}
		})
	}
	next := make([]int, writers)
	server.SetReadDeadline(time.Now().Add(10 * time.Second))
	for range writers * each {
		v, err := server.ReadValue()
		if err != nil {
			t.Fatal(err)
		}
		a := v.(*variant.Array)
		w, i := int(a.Values[0].(variant.Int)), int(a.Values[1].(variant.Int))
		if i != next[w] || !variant.Equal(a.Values[2], bigBytes(100*w)) {
			t.Fatalf("writer %d: value %d out of order or damaged", w, i)
		}
		next[w]++
	}
	wg.Wait()
}

func TestBigEndianPrefix(t *testing.T) {
	client, server := pair(t, Options{BigEndian: true})
	client.WriteValue(variant.Int(1))
	server.SetReadDeadline(time.Now().Add(5 * time.Second))
	raw := server.tr.(*streamTransport).nc
	b := make([]byte, 12)
	if _, err := io.ReadFull(raw, b); err != nil {
		t.Fatal(err)
	}
	if string(b) != "\x00\x00\x00\x08\x02\x00\x00\x00\x01\x00\x00\x00" {
		t.Errorf("wire bytes %x", b)
	}
}

func TestListener(t *testing.T) {
	ctx := testCtx(t)
	for _, listen := range []func(context.Context, string, Options) (*Listener, error){ListenTCP, ListenWebSocket} {
		l, err := listen(ctx, "127.0.0.1:0", Options{})
		if err != nil {
			t.Fatal(err)
		}
		short, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		if _, err := l.Accept(short); err != context.DeadlineExceeded {
			t.Errorf("Accept with an expired context: %v", err)
		}
		cancel()
		go func() {
			time.Sleep(50 * time.Millisecond)
			l.Close()
		}()
		if _, err := l.Accept(ctx); !errors.Is(err, net.ErrClosed) {
			t.Errorf("Accept on a closed listener: %v", err)
		}
	}
	if _, err := ListenTCP(ctx, "127.0.0.1:0", Options{Godot: 7}); err == nil {
		t.Error("bad options accepted")
	}
	if _, err := DialTCP(ctx, "127.0.0.1:0", Options{MaxSize: -1}); err == nil {
		t.Error("bad options accepted")
	}
}

func TestUDPPacketConn(t *testing.T) {
	ctx := testCtx(t)
	srv, err := ListenUDP(ctx, "127.0.0.1:0", Options{MaxSize: 1000})
	if err != nil {
		t.Fatal(err)
	}
	defer srv.Close()
	c, err := DialUDP(ctx, srv.LocalAddr().String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	srv.SetDeadline(time.Now().Add(5 * time.Second))
	c.SetDeadline(time.Now().Add(5 * time.Second))

	c.WritePayload([]byte{0xff, 0, 0, 0})
	_, from, err := srv.ReadValueFrom()
	var ve *variant.Error
	if !errors.As(err, &ve) || from.String() != c.LocalAddr().String() {
		t.Errorf("bad payload: %v from %v", err, from)
	}
	c.WriteValue(bigBytes(2000))
	if _, from, err = srv.ReadPayloadFrom(); !errors.Is(err, frame.ErrTooLarge) || from == nil {
		t.Errorf("oversized datagram: %v from %v", err, from)
	}
	c.WriteValue(str("hi"))
	v, from, err := srv.ReadValueFrom()
	if err != nil || v != str("hi") {
		t.Fatal(v, err)
	}
	if err := srv.WriteValueTo(variant.Vector2{X: 1, Y: 2}, from); err != nil {
		t.Fatal(err)
	}
	if v, err := c.ReadValue(); err != nil || v != (variant.Vector2{X: 1, Y: 2}) {
		t.Fatal(v, err)
	}
	if err := srv.WritePayloadTo(make([]byte, 70000), from); !errors.Is(err, frame.ErrTooLarge) {
		t.Errorf("oversized write: %v", err)
	}
	if err := c.WritePayload(make([]byte, 70000)); !errors.Is(err, frame.ErrTooLarge) {
		t.Errorf("oversized write: %v", err)
	}
}

func TestWebSocketOrigins(t *testing.T) {
	var mu sync.Mutex
	var got []*Conn
	handler := func(o Options) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			c, err := UpgradeWebSocket(w, r, o)
			if err == nil {
				mu.Lock()
				got = append(got, c)
				mu.Unlock()
				go echo(c)
			}
		})
	}
	strict := httptest.NewServer(handler(Options{}))
	defer strict.Close()
	open := httptest.NewServer(handler(Options{WebSocket: WebSocketOptions{Origins: []string{"game.example", "127.0.0.1:*"}}}))
	defer open.Close()
	ctx := testCtx(t)
	try := func(srv *httptest.Server, origin string) error {
		h := http.Header{}
		if origin != "" {
			h.Set("Origin", origin)
		}
		c, err := DialWebSocket(ctx, "ws"+strings.TrimPrefix(srv.URL, "http")+"/any/path", Options{WebSocket: WebSocketOptions{Header: h}})
		if err != nil {
			return err
		}
		defer c.Close()
		c.WriteValue(variant.Int(1))
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		_, err = c.ReadValue()
		return err
	}
	for _, c := range []struct {
		srv    *httptest.Server
		origin string
		ok     bool
	}{
		{strict, "", true},
		{strict, strict.URL, true},
		{strict, "https://evil.example", false},
		{open, "https://game.example", true},
		{open, "http://127.0.0.1:8060", true},
		{open, "https://evil.example", false},
	} {
		if err := try(c.srv, c.origin); (err == nil) != c.ok {
			t.Errorf("origin %q: %v", c.origin, err)
		}
	}
}

// A Godot 3 WebSocketPeer in text write mode sends text messages.
func TestWebSocketTextMessages(t *testing.T) {
	ctx := testCtx(t)
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	serveEcho(t, l)
	ws, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+l.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	ws.WriteMessage(websocket.TextMessage, []byte{2, 0, 0, 0, 42, 0, 0, 0})
	ws.SetReadDeadline(time.Now().Add(5 * time.Second))
	mt, p, err := ws.ReadMessage()
	if err != nil || mt != websocket.BinaryMessage || string(p) != "\x02\x00\x00\x00\x2a\x00\x00\x00" {
		t.Errorf("echo: %d %x %v", mt, p, err)
	}
	// A peer that vanishes without a close frame: io.ErrUnexpectedEOF.
	l2, _ := ListenWebSocket(ctx, "127.0.0.1:0", Options{})
	defer l2.Close()
	go func() {
		ws, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+l2.Addr().String(), nil)
		if err == nil {
			ws.NetConn().Close()
		}
	}()
	c, err := l2.Accept(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.ReadValue(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("vanished peer: %v", err)
	}
	if _, err := c.ReadValue(); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("second read: %v", err)
	}
	c.Close()
}

// Close drains what still arrives into a buffer of its own: the payload a
// read returned last stays as it was, for a goroutine still using it.
func TestCloseKeepsLastPayload(t *testing.T) {
	for name, dial := range echoServers(t, Options{}) {
		if name == "udp" {
			continue
		}
		c := dial(t, Options{})
		first, err := variant.Encode(bigBytes(1000))
		if err != nil {
			t.Fatal(err)
		}
		c.WritePayload(first)
		c.SetReadDeadline(time.Now().Add(5 * time.Second))
		p, err := c.ReadPayload()
		if err != nil || !bytes.Equal(p, first) {
			t.Fatalf("%s: %v", name, err)
		}
		second := bytes.Clone(first)
		for i := 8; i < len(second); i++ {
			second[i] = 0xEE
		}
		c.WritePayload(second) // echoed while Close waits for the server
		c.Close()
		if !bytes.Equal(p, first) {
			t.Errorf("%s: Close overwrote the last payload read", name)
		}
	}
}
