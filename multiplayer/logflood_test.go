package multiplayer

import (
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// countWriter counts the bytes written to it.
type countWriter struct {
	mu    sync.Mutex
	n     int
	lines int
	last  string
}

func (w *countWriter) Write(p []byte) (int, error) {
	w.mu.Lock()
	w.n += len(p)
	w.lines++
	w.last = string(p)
	w.mu.Unlock()
	return len(p), nil
}

// The log amplification attack: a long path, then thousands of tiny
// REMOTE_CALLs that name it, each refused. Logged at the debug level, the
// host's log stays small: the path is cut in each line, and the refusals
// are rate-limited, the next line saying how many were held back.
func TestHostLogFlood(t *testing.T) {
	var w countWriter
	var seen atomic.Int64
	log := slog.New(slog.NewTextHandler(&w, &slog.HandlerOptions{Level: slog.LevelDebug}))
	h, url := startHost(t, HostOptions{MaxErrors: -1, Logger: log, Observe: func(e *Event) {
		if e.Packet.Command == CmdRemoteCall {
			seen.Add(1)
		}
	}})
	bad, id := rawClient(t, url, variant.Godot4)
	long := strings.Repeat("p", MaxPathLength-1) // the longest path the cache takes
	for i, path := range []string{strings.Repeat("q", 60<<10), long} {
		if err := bad.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), uint32(i+1), path)}); err != nil {
			t.Fatal(err)
		}
	}
	const calls = 5000
	for i := range calls {
		pkt := AppendCall(nil, variant.Godot4, Call{NodeID: uint32(1 + i%2)})
		if len(pkt) > 4 {
			t.Fatalf("a call of %d bytes", len(pkt))
		}
		if err := bad.WriteFrame(Frame{Data: pkt}); err != nil {
			t.Fatal(err)
		}
	}
	for end := time.Now().Add(30 * time.Second); seen.Load() < calls && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	if seen.Load() < calls {
		t.Fatalf("the host saw %d of %d calls", seen.Load(), calls)
	}
	h.Kick(id)
	h.Close()
	w.mu.Lock()
	defer w.mu.Unlock()
	t.Logf("%d calls naming a %d-byte path: %d log lines, %d bytes; last: %s", calls, len(long), w.lines, w.n, w.last)
	if w.n > 64<<10 {
		t.Errorf("%d log bytes for %d refused calls", w.n, calls)
	}
	if !strings.Contains(w.last, "suppressed=") {
		t.Errorf("the held-back lines were not counted: %s", w.last)
	}
	if strings.Contains(fmt.Sprint(w.last), long) {
		t.Error("a path was logged whole")
	}
}
