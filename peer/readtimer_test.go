package peer

import (
	"errors"
	"fmt"
	"net"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gorilla/websocket"

	"github.com/gdvar/gdvar/variant"
)

// countSets makes t count the deadlines it sets on the connection.
func countSets(t *readTimer) *atomic.Int64 {
	var n atomic.Int64
	set := t.setDeadline
	t.setDeadline = func(d time.Time) error { n.Add(1); return set(d) }
	return &n
}

// A busy connection moves its read deadline only when it must: 1,000
// frames of two bytes, each read in two reads (the second within the
// frame), set it twice (the idle deadline, then the first frame's), not on
// every read.
func TestReadTimerSetsDeadlineRarely(t *testing.T) {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	rt := newReadTimer(a.SetReadDeadline, time.Minute, 10*time.Second)
	rt.streamFrames = true
	sets := countSets(rt)
	r := &timedConn{Conn: a, t: rt}
	const frames = 1000
	go func() {
		for i := range 2 * frames {
			if _, err := b.Write([]byte{byte(i)}); err != nil {
				return
			}
		}
	}()
	var p [1]byte
	for i := range 2 * frames {
		if _, err := r.Read(p[:]); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
		if p[0] != byte(i) {
			t.Fatalf("read %d: got %d", i, p[0])
		}
		if i%2 == 1 {
			rt.endFrame()
		}
	}
	if n := sets.Load(); n > 2 {
		t.Errorf("%d deadlines set for %d frames, want 2", n, frames)
	}
}

// The deadline a busy connection leaves behind passes before the peer has
// been silent for the idle time: the read goes on, and the idle timeout
// strikes no earlier than the idle time after the last byte. The same for
// the deadline of a frame, left behind when the frame ended: a silence
// longer than the frame timeout between frames is no timeout.
func TestReadTimerLateDeadlines(t *testing.T) {
	const idle = 300 * time.Millisecond
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	rt := newReadTimer(a.SetReadDeadline, idle, 0)
	rt.streamFrames = true
	sets := countSets(rt)
	r := &timedConn{Conn: a, t: rt}
	go func() {
		for i := range 5 {
			time.Sleep(idle / 10)
			b.Write([]byte{byte(i)})
		}
	}()
	var p [1]byte
	var last time.Time
	for i := range 5 {
		if _, err := r.Read(p[:]); err != nil {
			t.Fatalf("read %d: %v", i, err)
		}
		last = time.Now()
		rt.endFrame()
	}
	_, err := r.Read(p[:])
	if d := time.Since(last); !errors.Is(err, ErrIdleTimeout) || d < idle || d > 10*idle+5*time.Second {
		t.Errorf("silent peer: %v after %v, want ErrIdleTimeout after %v", err, d, idle)
	}
	if n := sets.Load(); n < 2 {
		t.Errorf("%d deadlines set: the first one did not pass early, the test proves nothing", n)
	}

	// A frame long enough that the second byte, sent a tenth of it
	// later, is read within it on a loaded machine too.
	const frame = 500 * time.Millisecond
	a, b = net.Pipe()
	defer a.Close()
	defer b.Close()
	rt = newReadTimer(a.SetReadDeadline, 10*time.Second, frame)
	rt.streamFrames = true
	r = &timedConn{Conn: a, t: rt}
	go func() {
		b.Write([]byte{1})
		time.Sleep(frame / 10)
		b.Write([]byte{2}) // read within the frame: the frame's deadline is set
		time.Sleep(3 * frame)
		b.Write([]byte{3})
	}()
	for i := range 3 {
		if _, err := r.Read(p[:]); err != nil {
			t.Fatalf("frame read %d: %v", i, err)
		}
		if i == 1 {
			rt.endFrame()
		}
	}
}

// A WebSocket server reads the messages of a busy client under its idle
// and frame timeouts without setting its read deadline per message.
func TestWebSocketReadDeadlines(t *testing.T) {
	ctx := testCtx(t)
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	c, err := DialWebSocket(ctx, "ws://"+l.Addr().String(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	s, err := l.Accept(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	rt := s.tr.(*wsTransport).timer
	if rt == nil {
		t.Fatal("a server's connection has no read timeouts")
	}
	sets := countSets(rt)
	const messages = 500
	go func() {
		for i := range messages {
			if c.WriteValue(variant.Int(i)) != nil {
				return
			}
		}
	}()
	s.SetReadDeadline(time.Now().Add(20 * time.Second))
	for i := range messages {
		v, err := s.ReadValue()
		if err != nil || v != variant.Int(i) {
			t.Fatalf("message %d: %v, %v", i, v, err)
		}
	}
	// The user's deadline, the idle deadline, the frame's and the idle
	// one back when a message spans two reads (at most twice a frame
	// timeout, 1 minute).
	if n := sets.Load(); n > 4 {
		t.Errorf("%d read deadlines set for %d messages", n, messages)
	}
}

// WebSocket pings are activity: a client that only pings, more often than
// the idle timeout, keeps its connection; once it stops, the idle timeout
// closes it.
func TestWebSocketPingsKeepAlive(t *testing.T) {
	ctx := testCtx(t)
	const idle = 200 * time.Millisecond
	l, err := ListenWebSocket(ctx, "127.0.0.1:0", Options{IdleTimeout: idle, CloseTimeout: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	ws, _, err := websocket.DefaultDialer.DialContext(ctx, "ws://"+l.Addr().String(), nil)
	if err != nil {
		t.Fatal(err)
	}
	defer ws.Close()
	go func() { // the pongs
		for {
			if _, _, err := ws.NextReader(); err != nil {
				return
			}
		}
	}()
	s, err := l.Accept(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	got := make(chan error, 2)
	go func() {
		v, err := s.ReadValue()
		if err == nil && v != variant.Int(7) {
			err = fmt.Errorf("got %v", v)
		}
		got <- err
		_, err = s.ReadValue()
		got <- err
	}()
	for range 8 { // 4 idle timeouts
		time.Sleep(idle / 4)
		if err := ws.WriteControl(websocket.PingMessage, nil, time.Now().Add(time.Second)); err != nil {
			t.Fatal(err)
		}
	}
	if err := ws.WriteMessage(websocket.BinaryMessage, []byte{2, 0, 0, 0, 7, 0, 0, 0}); err != nil {
		t.Fatal(err)
	}
	if err := <-got; err != nil {
		t.Fatalf("a client that pinged: %v", err)
	}
	start := time.Now()
	if err := <-got; !errors.Is(err, ErrIdleTimeout) {
		t.Errorf("a silent client: %v, want ErrIdleTimeout", err)
	} else if d := time.Since(start); d < idle/2 {
		t.Errorf("idle timeout after %v, want %v", d, idle)
	}
}
