package multiplayer

import (
	"context"
	"errors"
	"fmt"
	"net"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

// checkBroadcast waits until the first client knows every other, has it
// broadcast two bytes, and waits until each other client's log has them.
func checkBroadcast(t *testing.T, cs []*Client, logs []*chatLog) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); len(cs[0].Peers()) < len(cs) && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if err := cs[0].SendBytes(Broadcast, []byte{4, 2}, Reliable, 0); err != nil {
		t.Fatal(err)
	}
	for _, l := range logs[1:] {
		l.wait(t, fmt.Sprintf("bytes %d 0402", cs[0].ID()))
	}
}

// hostGoroutines counts the goroutines in the host's per-client
// functions.
func hostGoroutines() map[string]int {
	buf := make([]byte, 1<<20)
	stacks := string(buf[:runtime.Stack(buf, true)])
	n := map[string]int{}
	for _, fn := range []string{"multiplayer.(*Host).readLoop", "multiplayer.(*outQueue).write", "multiplayer.(*Host).ServeLink"} {
		n[fn] = strings.Count(stacks, fn+"(")
	}
	return n
}

// On Linux a host's WebSocket clients are served by the process's Poller:
// no goroutine of the host's per client, for both engine families, and
// the relay works; NoPoller gives each its reader again.
func TestWebSocketHostNoGoroutinePerClient(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the Poller needs Linux")
	}
	for _, tc := range []struct {
		fam      variant.Family
		noPoller bool
	}{{variant.Godot4, false}, {variant.Godot3, false}, {variant.Godot3, true}} {
		t.Run(fmt.Sprintf("%v/NoPoller=%v", tc.fam, tc.noPoller), func(t *testing.T) {
			h, url := startHostWSOptions(t, HostOptions{Godot: tc.fam}, WebSocketOptions{NoPoller: tc.noPoller})
			logs := make([]*chatLog, 4)
			cs := make([]*Client, 4)
			for i := range cs {
				l := newChatLog()
				logs[i] = l
				cs[i] = join(t, url, ClientOptions{Godot: tc.fam, OnBytes: func(from PeerID, data []byte) {
					l.add(fmt.Sprintf("bytes %d %x", from, data))
				}})
			}
			checkBroadcast(t, cs, logs)
			readers := hostGoroutines()["multiplayer.(*Host).readLoop"]
			switch {
			case !tc.noPoller && readers > 0:
				t.Errorf("%d reader goroutines with %d polled clients", readers, len(cs))
			case tc.noPoller && readers != len(cs):
				t.Errorf("%d reader goroutines with %d clients and NoPoller, want one each", readers, len(cs))
			}
			if len(h.Peers()) != len(cs) {
				t.Errorf("%d peers, want %d", len(h.Peers()), len(cs))
			}
		})
	}
}

// A polled client that reads nothing is dropped once MaxQueuedBytes are
// queued for it, and what it was charged goes back to the shared budget;
// a client that reads is not disturbed.
func TestWebSocketPolledClientBudget(t *testing.T) {
	shared := NewByteBudget(4<<20, nil)
	h, url := startHostWSOptions(t, HostOptions{MaxQueuedBytes: 256 << 10, QueueBudget: shared, Logger: quiet}, WebSocketOptions{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	slow, err := DialWebSocket(ctx, url, WebSocketOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer slow.Close()
	calm := newChatLog()
	other := join(t, url, ClientOptions{OnBytes: func(from PeerID, data []byte) { calm.add(fmt.Sprintf("%d bytes", len(data))) }})
	for deadline := time.Now().Add(5 * time.Second); len(h.Peers()) < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	var slowID PeerID
	for _, id := range h.Peers() {
		if id != other.ID() {
			slowID = id
		}
	}
	sent := 0
	for range 10000 {
		if h.SendBytes(slowID, make([]byte, 8<<10), Reliable, 0) != nil {
			break
		}
		sent++
		if len(h.Peers()) < 2 {
			break
		}
	}
	for deadline := time.Now().Add(10 * time.Second); len(h.Peers()) > 1; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the client that reads nothing was not dropped after %d packets of 8 KB", sent)
		}
	}
	for deadline := time.Now().Add(10 * time.Second); shared.Used() != 0; time.Sleep(5 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("the shared budget still has %d bytes charged", shared.Used())
		}
	}
	if q := h.Stats().QueuedBytes; q != 0 {
		t.Errorf("Stats().QueuedBytes = %d with nothing queued", q)
	}
	if err := h.SendBytes(other.ID(), make([]byte, 100), Reliable, 0); err != nil {
		t.Fatal(err)
	}
	calm.wait(t, "100 bytes")
}

// A link the Poller will not take (here: a closed Poller) ends at once with
// why; what was queued for it before is given back to the shared budget,
// and frames queued afterwards go nowhere without an error or a charge.
func TestWebSocketPollRefused(t *testing.T) {
	p, err := peer.NewPoller(peer.PollerOptions{Goroutines: 1})
	if errors.Is(err, peer.ErrPollUnsupported) {
		t.Skip("no Poller on this system")
	}
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	pl, err := peer.ListenWebSocket(ctx, "127.0.0.1:0", peer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer pl.Close()
	client, err := peer.DialWebSocket(ctx, "ws://"+pl.Addr().String(), peer.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer client.Close()
	c, err := pl.Accept(ctx)
	if err != nil {
		t.Fatal(err)
	}
	shared := NewByteBudget(1<<20, nil)
	l := &wsPollLink{wsLink: newWSLink(c, WebSocketOptions{}), poller: p, max: DefaultMaxQueuedBytes}
	l.attach(0, shared, 0)
	if err := l.queueFrame(Frame{Kind: FrameData, Data: []byte("early")}); err != nil {
		t.Fatal(err)
	}
	if shared.Used() == 0 {
		t.Fatal("an early frame is not charged")
	}
	ended := make(chan error, 1)
	l.deliver(func(Frame, error) error { return nil }, func(err error) { ended <- err })
	select {
	case err := <-ended:
		if !errors.Is(err, net.ErrClosed) {
			t.Errorf("ended with %v, want net.ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("not ended")
	}
	if err := l.queueFrame(Frame{Kind: FrameData, Data: []byte("late")}); err != nil {
		t.Errorf("a frame after the refusal: %v", err)
	}
	if u := shared.Used(); u != 0 {
		t.Errorf("%d bytes still charged", u)
	}
	l.Close()
}
