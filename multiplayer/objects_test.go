package multiplayer

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// TestObjectsRefusedByDefault: a full Object in an RPC argument is refused
// unless HostOptions.AllowObjects is set (the engine's
// allow_object_decoding), and allowed it arrives as data.
func TestObjectsRefusedByDefault(t *testing.T) {
	enc, err := (variant.EncOptions{FullObjects: true}).EncMode()
	if err != nil {
		t.Fatal(err)
	}
	obj := &variant.Object{Class: "Node", Properties: []variant.Property{{Name: "name", Value: variant.String("x")}}}
	args, _, n, err := AppendArgs(nil, enc, obj)
	if err != nil {
		t.Fatal(err)
	}
	call := AppendCall(nil, variant.Godot4, Call{Path: "Box", Name: "put", ArgCount: n, Args: args})
	for _, allow := range []bool{false, true} {
		var ev eventLog
		got := make(chan variant.Value, 1)
		box := Node{Path: "Box", Methods: []Method{{Name: "put", Mode: AnyPeer, Transfer: Reliable,
			Handler: func(_ context.Context, _ PeerID, v variant.Value) { got <- v }}}}
		_, url := startHost(t, HostOptions{AllowObjects: allow, Logger: quiet, Observe: ev.observe}, box)
		bad, _ := rawClient(t, url, variant.Godot4)
		if err := bad.WriteFrame(Frame{Data: call}); err != nil {
			t.Fatal(err)
		}
		if !allow {
			if !ev.has(variant.ErrObjectsNotAllowed) {
				t.Errorf("a full Object was not refused: %v", ev.errs)
			}
			select {
			case v := <-got:
				t.Errorf("the handler got %v", v)
			default:
			}
			continue
		}
		var v variant.Value
		select {
		case v = <-got:
		case <-time.After(5 * time.Second):
			t.Fatalf("allowed, the call never arrived: %v", ev.errs)
		}
		if o, ok := v.(*variant.Object); !ok || o.Class != "Node" {
			t.Errorf("allowed, the handler got %#v", v)
		}
		if errors.Is(firstErr(&ev), variant.ErrObjectsNotAllowed) {
			t.Errorf("allowed, yet refused: %v", ev.errs)
		}
	}
}

func firstErr(l *eventLog) error {
	l.mu.Lock()
	defer l.mu.Unlock()
	if len(l.errs) == 0 {
		return nil
	}
	return l.errs[0]
}
