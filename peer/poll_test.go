package peer

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"net"
	"sync"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gdvar/gdvar/frame"
)

// pollRecorder is a PollHandler that echoes what it is given (unless
// quiet) and records it.
type pollRecorder struct {
	c     *Conn
	quiet bool
	mu    sync.Mutex
	got   [][]byte
	wrote int
	ended chan error
}

func newPollRecorder() *pollRecorder { return &pollRecorder{ended: make(chan error, 1)} }

func (r *pollRecorder) Payload(p []byte) error {
	r.mu.Lock()
	r.got = append(r.got, append([]byte(nil), p...))
	r.mu.Unlock()
	if bytes.Equal(p, []byte("stop")) {
		return errors.New("told to stop")
	}
	if r.quiet {
		return nil
	}
	return r.c.WritePayload(p)
}

func (r *pollRecorder) Written(n int) {
	r.mu.Lock()
	r.wrote += n
	r.mu.Unlock()
}

func (r *pollRecorder) Ended(err error) { r.ended <- err }

func (r *pollRecorder) wait(t *testing.T) error {
	t.Helper()
	select {
	case err := <-r.ended:
		return err
	case <-time.After(10 * time.Second):
		t.Fatal("the connection did not end")
		return nil
	}
}

// polledServer listens with o and returns a function that accepts one
// connection and hands it to a Poller with a recorder.
func polledServer(t *testing.T, o Options) (url string, accept func() *pollRecorder, l *Listener) {
	t.Helper()
	return polledServerWith(t, o, PollerOptions{Goroutines: 1}, PollOptions{})
}

// polledServerWith is polledServer with a Poller of po, each connection
// polled with co.
func polledServerWith(t *testing.T, o Options, po PollerOptions, co PollOptions) (url string, accept func() *pollRecorder, l *Listener) {
	t.Helper()
	p, err := NewPoller(po)
	if errors.Is(err, ErrPollUnsupported) {
		t.Skip("no Poller on this system")
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	l, err = ListenWebSocket(testCtx(t), "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { l.Close() })
	return "ws://" + l.Addr().String(), func() *pollRecorder {
		c, err := l.Accept(testCtx(t))
		if err != nil {
			t.Fatal(err)
		}
		r := newPollRecorder()
		r.c = c
		if err := c.Poll(p, r, co); err != nil {
			t.Fatal(err)
		}
		if _, err := c.ReadPayload(); !errors.Is(err, ErrPolled) {
			t.Errorf("read of a polled connection: %v, want ErrPolled", err)
		}
		if err := c.Poll(p, r, PollOptions{}); !errors.Is(err, ErrPolled) {
			t.Errorf("second Poll: %v, want ErrPolled", err)
		}
		return r
	}, l
}

func dialGorilla(t *testing.T, url string) *websocket.Conn {
	t.Helper()
	ws, _, err := websocket.DefaultDialer.Dial(url, nil)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ws.Close() })
	return ws
}

// Messages of every size, one frame or fragmented, pings among them, are
// echoed in order; a clean close from the client is io.EOF.
func TestPollEcho(t *testing.T) {
	url, accept, _ := polledServer(t, Options{})
	ws := dialGorilla(t, url)
	r := accept()
	var pongs int
	ws.SetPongHandler(func(string) error { pongs++; return nil })
	var want [][]byte
	for i, n := range []int{0, 1, 125, 126, 127, 65535, 65536, 60000} {
		b := bytes.Repeat([]byte{byte(i + 1)}, n)
		want = append(want, b)
		if err := ws.WriteMessage(websocket.BinaryMessage, b); err != nil {
			t.Fatal(err)
		}
		if err := ws.WriteControl(websocket.PingMessage, []byte("hi"), time.Now().Add(time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	// A fragmented message, with a ping between its fragments.
	big := bytes.Repeat([]byte("fragment"), 3000)
	key := []byte{9, 8, 7, 6}
	var raw []byte
	raw = append(raw, rawFrame(0x02, big[:10000], key)...)
	raw = append(raw, rawFrame(0x89, nil, key)...)
	raw = append(raw, rawFrame(0x00, big[10000:20000], key)...)
	raw = append(raw, rawFrame(0x80, big[20000:], key)...)
	nc := ws.NetConn()
	nc.Write(raw[:7]) // in pieces, the first not even a whole header
	time.Sleep(10 * time.Millisecond)
	nc.Write(raw[7:15000])
	time.Sleep(10 * time.Millisecond)
	nc.Write(raw[15000:])
	want = append(want, big)
	for i, b := range want {
		ws.SetReadDeadline(time.Now().Add(10 * time.Second))
		mt, got, err := ws.ReadMessage()
		if err != nil {
			t.Fatalf("echo %d: %v", i, err)
		}
		if mt != websocket.BinaryMessage || !bytes.Equal(got, b) {
			t.Fatalf("echo %d: %d bytes, want %d", i, len(got), len(b))
		}
	}
	if pongs != len(want) {
		t.Errorf("%d pongs, want %d", pongs, len(want))
	}
	ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	if err := r.wait(t); err != io.EOF {
		t.Errorf("ended with %v, want io.EOF", err)
	}
	// The server answers the close frame, then closes.
	_, _, err := ws.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseNormalClosure {
		t.Errorf("client read after close: %v", err)
	}
	total := 0
	for _, b := range want {
		total += len(b)
	}
	r.mu.Lock()
	if r.wrote < total {
		t.Errorf("Written told of %d bytes, want at least %d", r.wrote, total)
	}
	r.mu.Unlock()
}

// Close from the server: the client gets a close frame with 1000, the
// handler net.ErrClosed, and the listener's place is given back once the
// handshake is over.
func TestPollServerClose(t *testing.T) {
	url, accept, l := polledServer(t, Options{MaxConns: 1})
	ws := dialGorilla(t, url)
	r := accept()
	r.c.Close()
	if err := r.wait(t); !errors.Is(err, net.ErrClosed) {
		t.Errorf("ended with %v, want net.ErrClosed", err)
	}
	_, _, err := ws.ReadMessage()
	var ce *websocket.CloseError
	if !errors.As(err, &ce) || ce.Code != websocket.CloseNormalClosure {
		t.Fatalf("client read: %v, want close 1000", err)
	}
	ws.WriteControl(websocket.CloseMessage, websocket.FormatCloseMessage(websocket.CloseNormalClosure, ""), time.Now().Add(time.Second))
	waitUntil(t, "the place to be given back", func() bool { return l.lim.open.Load() == 0 })
	// A second client gets the one place.
	dialGorilla(t, url)
	accept()
}

// A handler's error ends the connection with it, and the client is told
// 1000; CloseWith and Refuse send their status.
func TestPollHandlerErrorAndCloseWith(t *testing.T) {
	url, accept, _ := polledServer(t, Options{})
	ws := dialGorilla(t, url)
	r := accept()
	ws.WriteMessage(websocket.BinaryMessage, []byte("stop"))
	if err := r.wait(t); err == nil || err.Error() != "told to stop" {
		t.Errorf("ended with %v", err)
	}
	for _, tc := range []struct {
		close func(c *Conn)
		code  int
		text  string
	}{
		{func(c *Conn) { c.CloseWith(CloseTryAgainLater, "draining") }, CloseTryAgainLater, "draining"},
		{func(c *Conn) { c.Refuse("full") }, websocket.ClosePolicyViolation, "full"},
	} {
		ws := dialGorilla(t, url)
		r := accept()
		tc.close(r.c)
		_, _, err := ws.ReadMessage()
		var ce *websocket.CloseError
		if !errors.As(err, &ce) || ce.Code != tc.code || ce.Text != tc.text {
			t.Errorf("client read: %v, want close %d %q", err, tc.code, tc.text)
		}
		r.wait(t)
	}
}

// rawFrame is a client frame: masked (unless mask is nil), with the
// header bits given.
func rawFrame(b0 byte, payload []byte, mask []byte) []byte {
	f := []byte{b0}
	m := byte(0)
	if mask != nil {
		m = 0x80
	}
	switch n := len(payload); {
	case n < 126:
		f = append(f, m|byte(n))
	case n <= 0xffff:
		f = append(f, m|126)
		f = binary.BigEndian.AppendUint16(f, uint16(n))
	default:
		f = append(f, m|127)
		f = binary.BigEndian.AppendUint64(f, uint64(n))
	}
	if mask == nil {
		return append(f, payload...)
	}
	f = append(f, mask...)
	for i, c := range payload {
		f = append(f, c^mask[i&3])
	}
	return f
}

// A client that breaks the framing is told why (its close status) and the
// handler gets a *frame.Error that says where.
func TestPollHostileFrames(t *testing.T) {
	key := []byte{1, 2, 3, 4}
	ok := rawFrame(0x82, []byte("ok"), key)
	for _, tc := range []struct {
		name string
		data []byte
		code int
		want error
		off  int64
	}{
		{"unmasked", rawFrame(0x82, []byte("x"), nil), websocket.CloseProtocolError, ErrProtocol, int64(len(ok))},
		{"reserved bits", rawFrame(0xc2, []byte("x"), key), websocket.CloseProtocolError, ErrProtocol, int64(len(ok))},
		{"reserved opcode", rawFrame(0x83, []byte("x"), key), websocket.CloseProtocolError, ErrProtocol, int64(len(ok))},
		{"long ping", rawFrame(0x89, make([]byte, 126), key), websocket.CloseProtocolError, ErrProtocol, int64(len(ok))},
		{"fragmented ping", rawFrame(0x09, nil, key), websocket.CloseProtocolError, ErrProtocol, int64(len(ok))},
		{"lone continuation", rawFrame(0x80, []byte("x"), key), websocket.CloseProtocolError, ErrProtocol, int64(len(ok))},
		{"too large", rawFrame(0x82, make([]byte, 1001), key), websocket.CloseMessageTooBig, frame.ErrTooLarge, int64(len(ok))},
		{"too large by length only", []byte{0x82, 0xff, 0, 0, 0, 0, 0, 0, 0x10, 0}, websocket.CloseMessageTooBig, frame.ErrTooLarge, int64(len(ok))},
		{"too large fragmented", append(rawFrame(0x02, make([]byte, 600), key), rawFrame(0x80, make([]byte, 600), key)...), websocket.CloseMessageTooBig, frame.ErrTooLarge, int64(len(ok))},
		{"text not UTF-8", rawFrame(0x81, []byte{0xff}, key), websocket.CloseInvalidFramePayloadData, ErrInvalidUTF8, int64(len(ok))},
		{"new message inside a fragmented one", append(rawFrame(0x02, []byte("a"), key), rawFrame(0x82, []byte("b"), key)...), websocket.CloseProtocolError, ErrProtocol, int64(len(ok)) + 7},
	} {
		t.Run(tc.name, func(t *testing.T) {
			url, accept, _ := polledServer(t, Options{MaxSize: 1000})
			ws := dialGorilla(t, url)
			r := accept()
			nc := ws.NetConn()
			nc.Write(append(append([]byte(nil), ok...), tc.data...))
			err := r.wait(t)
			var fe *frame.Error
			if !errors.Is(err, tc.want) || !errors.As(err, &fe) || fe.Offset != tc.off {
				t.Errorf("ended with %v (%#v), want %v at offset %d", err, fe, tc.want, tc.off)
			}
			_, got, rerr := ws.ReadMessage()
			if string(got) != "ok" || rerr != nil {
				t.Errorf("echo before the bad frame: %q, %v", got, rerr)
			}
			_, _, rerr = ws.ReadMessage()
			var ce *websocket.CloseError
			if !errors.As(rerr, &ce) || ce.Code != tc.code {
				t.Errorf("client read: %v, want close %d", rerr, tc.code)
			}
		})
	}
}

// A connection that goes quiet, or stops in the middle of a message, is
// ended by the server limits; one that vanishes without a close frame
// ends with io.ErrUnexpectedEOF.
func TestPollTimeoutsAndEOF(t *testing.T) {
	url, accept, _ := polledServer(t, Options{IdleTimeout: 300 * time.Millisecond, FrameTimeout: 300 * time.Millisecond})
	dialGorilla(t, url)
	r := accept()
	if err := r.wait(t); !errors.Is(err, ErrIdleTimeout) {
		t.Errorf("quiet client: %v, want ErrIdleTimeout", err)
	}
	ws := dialGorilla(t, url)
	r = accept()
	half := rawFrame(0x82, make([]byte, 100), []byte{1, 2, 3, 4})[:50]
	ws.NetConn().Write(half)
	if err := r.wait(t); !errors.Is(err, ErrFrameTimeout) {
		t.Errorf("half a message: %v, want ErrFrameTimeout", err)
	}
	ws = dialGorilla(t, url)
	r = accept()
	ws.NetConn().Close()
	if err := r.wait(t); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("vanished client: %v, want io.ErrUnexpectedEOF", err)
	}
}

// A client that reads nothing: writes queue up to MaxPending, then fail
// with ErrPendingFull; nothing blocks; the write timeout ends it.
func TestPollSlowReader(t *testing.T) {
	url, accept, _ := polledServerWith(t, Options{WriteTimeout: 500 * time.Millisecond}, PollerOptions{Goroutines: 1}, PollOptions{MaxPending: 256 << 10})
	dialGorilla(t, url)
	r := accept()
	r.quiet = true
	c := r.c
	msg := make([]byte, 32<<10)
	var werr error
	sent := 0
	for i := 0; i < 10000 && werr == nil; i++ {
		if werr = c.WritePayload(msg); werr == nil {
			sent += len(msg)
		}
	}
	if !errors.Is(werr, ErrPendingFull) {
		t.Fatalf("writes to a client that reads nothing: %v after %d bytes, want ErrPendingFull", werr, sent)
	}
	if err := r.wait(t); !errors.Is(err, ErrWriteTimeout) {
		t.Errorf("ended with %v, want ErrWriteTimeout", err)
	}
}

// A Poller with a Frame handles the first message of a quiet spell at
// once, and what arrives while it has work once a Frame.
func TestPollFrame(t *testing.T) {
	const frame = 400 * time.Millisecond // long enough for "at once" to hold on a loaded machine
	url, accept, _ := polledServerWith(t, Options{}, PollerOptions{Goroutines: 1, Frame: frame}, PollOptions{})
	ws := dialGorilla(t, url)
	accept()
	time.Sleep(2 * frame)
	start := time.Now()
	ws.WriteMessage(websocket.BinaryMessage, []byte("a"))
	if _, m, err := ws.ReadMessage(); err != nil || string(m) != "a" {
		t.Fatalf("echo: %q, %v", m, err)
	}
	if d := time.Since(start); d >= frame {
		t.Errorf("the first message of a quiet spell took %v", d)
	}
	start = time.Now()
	ws.WriteMessage(websocket.BinaryMessage, []byte("b"))
	ws.WriteMessage(websocket.BinaryMessage, []byte("c"))
	for _, want := range []string{"b", "c"} {
		if _, m, err := ws.ReadMessage(); err != nil || string(m) != want {
			t.Fatalf("echo: %q, %v, want %q", m, err, want)
		}
	}
	if d := time.Since(start); d < frame/2 {
		t.Errorf("messages sent while the Poller had work were echoed after %v, within the frame of %v", d, frame)
	}
}
