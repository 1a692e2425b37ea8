package peer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
)

// Sizes of the interop exchanges: a PackedByteArray of several MiB over
// TCP and WebSocket, and many small values in a row.
const (
	interopBig  = 5 << 20
	interopMany = 1000
)

// recorder keeps what an interop server received.
type recorder struct {
	mu     sync.Mutex
	values []variant.Value
	errs   []error
	end    error // how the connection ended
}

func (r *recorder) add(v variant.Value) int {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.values = append(r.values, v)
	return len(r.values)
}

// answer returns what an interop server sends back for v: the value
// itself, or its own greeting for "bye".
func answer(v variant.Value, samples int) variant.Value {
	if v == variant.String("bye") {
		return greeting(samples)
	}
	return v
}

// serveInterop echoes on c until it ends, answering "bye" with the
// greeting, and records everything.
func serveInterop(c *Conn, rec *recorder, samples int) {
	defer c.Close()
	for {
		v, err := c.ReadValue()
		if err != nil {
			var ve *variant.Error
			if errors.As(err, &ve) {
				rec.mu.Lock()
				rec.errs = append(rec.errs, err)
				rec.mu.Unlock()
				continue
			}
			rec.mu.Lock()
			rec.end = err
			rec.mu.Unlock()
			return
		}
		rec.add(v)
		if err := c.WriteValue(answer(v, samples)); err != nil {
			rec.mu.Lock()
			rec.errs = append(rec.errs, fmt.Errorf("write: %w", err))
			rec.mu.Unlock()
		}
	}
}

// checkReceived checks that the server received the samples, then
// (unless big is 0) the big pattern, then 0..many-1, then "bye".
func checkReceived(t *testing.T, rec *recorder, family variant.Family, big, many int) {
	t.Helper()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	for _, err := range rec.errs {
		t.Errorf("server: %v", err)
	}
	var want []variant.Value
	want = append(want, sampleValues(family)...)
	if big > 0 {
		want = append(want, pattern251(big))
	}
	for i := range many {
		want = append(want, variant.Int(i))
	}
	want = append(want, variant.String("bye"))
	if len(rec.values) != len(want) {
		t.Errorf("server received %d values, want %d", len(rec.values), len(want))
	}
	for i := range min(len(want), len(rec.values)) {
		if !variant.Equal(rec.values[i], want[i]) {
			got, _ := gdtext.Format(rec.values[i], gdtext.Options{Family: family})
			exp, _ := gdtext.Format(want[i], gdtext.Options{Family: family})
			if len(got) > 200 {
				got = got[:200] + "…"
				exp = exp[:min(len(exp), 200)] + "…"
			}
			t.Errorf("server: value %d is %s, want %s", i, got, exp)
		}
	}
}

// checkScript checks the OK/FAIL/DONE lines of an interop script.
func checkScript(t *testing.T, engine, stdout, stderr string, code int) {
	t.Helper()
	for _, line := range strings.Split(strings.TrimSpace(stdout), "\n") {
		t.Logf("%s: %s", engine, line)
	}
	if code != 0 || !strings.Contains(stdout, "\nDONE") || strings.Contains(stdout, "FAIL") {
		t.Errorf("%s script failed (exit status %d)\nstdout:\n%s\nstderr:\n%s", engine, code, stdout, stderr)
	}
}

// cleanEnd reports whether err is how a connection that the peer closed
// cleanly ends.
func cleanEnd(err error) bool {
	var fe *frame.Error
	return err == io.EOF && !errors.As(err, &fe)
}

// clientExchange serves the first client of l in the background, runs the
// engine's client script (run gets our port and returns what the script
// printed, its messages and its exit code), and checks both sides: what
// the script reported and what the server received, and that the
// connection ended cleanly.
func clientExchange(ctx context.Context, t *testing.T, l *Listener, fam variant.Family, engine string,
	run func(port string) (stdout, stderr string, code int)) {
	t.Helper()
	rec := &recorder{}
	served := make(chan struct{})
	go func() {
		defer close(served)
		c, err := l.Accept(ctx)
		if err != nil {
			rec.end = err
			return
		}
		serveInterop(c, rec, len(sampleValues(fam)))
	}()
	stdout, stderr, code := run(strconv.Itoa(l.Addr().(*net.TCPAddr).Port))
	checkScript(t, engine, stdout, stderr, code)
	select {
	case <-served:
	case <-time.After(10 * time.Second):
		t.Fatal("the server still runs after the client quit")
	}
	checkReceived(t, rec, fam, interopBig, interopMany)
	if !cleanEnd(rec.end) {
		t.Errorf("the connection ended with %v, want a clean close (io.EOF)", rec.end)
	}
}
