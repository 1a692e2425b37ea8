package multiplayer

import (
	"errors"
	"fmt"
	"runtime"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// heapInUse returns the live heap after a collection.
func heapInUse() int64 {
	runtime.GC()
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	return int64(ms.HeapAlloc)
}

// The cost charged for a cached path covers what it really holds: the
// heap grows by no more than the bytes charged, for short paths (where the
// entry dominates) and long ones (where the path does).
func TestPathCostCoversHeap(t *testing.T) {
	s, err := newSession(variant.Godot4, false, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, n := range []int{1, 20, 100, 1000, MaxPathLength} {
		t.Run(fmt.Sprint(n), func(t *testing.T) {
			b := &pathBudget{maxPaths: 1 << 30, maxBytes: 1 << 62}
			r := newRemote(b)
			path := []byte(strings.Repeat("n", n))
			before := heapInUse()
			for i := range 20000 {
				pk := Packet{Command: CmdSimplifyPath, NodeID: uint32(i + 1), Path: path}
				if _, err := s.simplify(r, &pk); err != nil {
					t.Fatal(err)
				}
			}
			grew := heapInUse() - before
			runtime.KeepAlive(r)
			t.Logf("%d paths of %d bytes: heap +%d, charged %d", len(r.recv), n, grew, b.bytes)
			if grew > int64(b.bytes) {
				t.Errorf("the cache holds %d bytes, more than the %d charged", grew, b.bytes)
			}
		})
	}
}

// A path cache flood of the shape that took a host to 800 MB: many 60 KB
// paths. Each is refused as a bad packet, without being kept; paths under
// the length cap are charged at their cost, and a peer that registers more
// than its byte budget is dropped.
func TestPathCacheFloodBytes(t *testing.T) {
	var tooLarge, overBudget atomic.Int64
	h, url := startHost(t, HostOptions{MaxErrors: -1, Logger: quiet, Observe: func(e *Event) {
		switch {
		case errors.Is(e.Err, ErrTooLarge):
			tooLarge.Add(1)
		case errors.Is(e.Err, ErrBudget):
			overBudget.Add(1)
		}
	}}, chatNode(newChatLog()))
	good := join(t, url, ClientOptions{Logger: quiet}, chatNode(newChatLog()))

	t.Run("60 KB paths", func(t *testing.T) {
		bad, id := rawClient(t, url, variant.Godot4)
		const n = 1000
		long := strings.Repeat("x", 60<<10)
		before := heapInUse()
		for i := range n {
			if err := bad.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), uint32(i+1), fmt.Sprintf("%s%d", long, i))}); err != nil {
				t.Fatal(err)
			}
		}
		for end := time.Now().Add(30 * time.Second); tooLarge.Load() < n && time.Now().Before(end); {
			time.Sleep(10 * time.Millisecond)
		}
		if got := tooLarge.Load(); got != n {
			t.Fatalf("%d of %d over-long paths refused", got, n)
		}
		grew := heapInUse() - before
		p := h.peer(id)
		if p == nil {
			t.Fatal("the host dropped a peer whose errors it was told to count without limit")
		}
		h.mu.Lock()
		paths, charged := len(p.recv), p.remote.budget.bytes
		h.mu.Unlock()
		t.Logf("%d paths of 60 KB: %d cached, %d bytes charged, heap +%d", n, paths, charged, grew)
		if paths != 0 || charged != 0 {
			t.Errorf("over-long paths were kept: %d, %d bytes", paths, charged)
		}
		if grew > 8<<20 {
			t.Errorf("heap grew by %d bytes for paths that were refused", grew)
		}
	})
	t.Run("paths under the cap", func(t *testing.T) {
		bad, id := rawClient(t, url, variant.Godot4)
		path := strings.Repeat("y", MaxPathLength-8)
		sent := 0
		for i := range DefaultMaxPathCache {
			if bad.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), uint32(i+1), fmt.Sprintf("%s%d", path, i))}) != nil {
				break // dropped
			}
			sent++
			if p := h.peer(id); p != nil {
				h.mu.Lock()
				charged := p.remote.budget.bytes
				h.mu.Unlock()
				if charged > DefaultMaxPathCacheBytes {
					t.Fatalf("%d bytes charged, over the budget of %d", charged, DefaultMaxPathCacheBytes)
				}
			}
		}
		if !closedWithin(bad, 10*time.Second) {
			t.Fatalf("the host kept a peer that registered %d paths of %d bytes", sent, len(path))
		}
		for end := time.Now().Add(5 * time.Second); overBudget.Load() == 0 && time.Now().Before(end); {
			time.Sleep(5 * time.Millisecond)
		}
		if overBudget.Load() == 0 {
			t.Error("the drop was not reported as ErrBudget")
		}
	})
	if err := good.Call(HostID, "Chat", "say", "still here", 1); err != nil {
		t.Fatal(err)
	}
}

// The paths a client announces to another through the relay, which the
// host records for Observe, have a budget of their own: past it they are
// not recorded, and the client's own path cache is untouched.
func TestRelayedPathsBudget(t *testing.T) {
	var seen atomic.Int64
	h, url := startHost(t, HostOptions{Logger: quiet, Observe: func(e *Event) { seen.Add(1) }}, chatNode(newChatLog()))
	a, aID := rawClient(t, url, variant.Godot4)
	_, bID := rawClient(t, url, variant.Godot4)
	path := strings.Repeat("r", MaxPathLength-8)
	const n = 300 // 1.2 MB of paths, over the 1 MiB budget
	for i := range n {
		inner := AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum(nil), uint32(i+1), fmt.Sprintf("%s%d", path, i))
		if err := a.WriteFrame(Frame{Data: AppendSys(nil, SysRelay, bID, inner)}); err != nil {
			t.Fatal(err)
		}
	}
	if err := a.WriteFrame(Frame{Data: AppendSimplifyPath(nil, variant.Godot4, MethodsChecksum([]string{"announce", "say"}), 1, "Chat")}); err != nil {
		t.Fatal(err)
	}
	for end := time.Now().Add(10 * time.Second); seen.Load() < n+1 && time.Now().Before(end); {
		time.Sleep(5 * time.Millisecond)
	}
	p := h.peer(aID)
	if p == nil {
		t.Fatal("the host dropped a client for paths it relayed")
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if got := p.relayedPaths.bytes; got > DefaultMaxPathCacheBytes || got < DefaultMaxPathCacheBytes/2 {
		t.Errorf("%d bytes of relayed paths recorded, want at most %d, most of it", got, DefaultMaxPathCacheBytes)
	}
	if len(p.recv) != 1 {
		t.Errorf("the client's own cache holds %d paths, want 1", len(p.recv))
	}
}
