package multiplayer

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// Handlers of no argument or one of a common type are called as typed
// functions (directCall), the others through reflect; either way the
// handler gets the caller, the decoded argument and its error comes back,
// in both families.
func TestDirectCall(t *testing.T) {
	type score int
	errBad := errors.New("bad")
	var got any
	cases := []struct {
		name    string
		handler any
		direct  bool
		args    []variant.Value
		want    any
		err     error
	}{
		{"none", func(_ context.Context, from PeerID) { got = from }, true, nil, PeerID(5), nil},
		{"none, error", func(_ context.Context, from PeerID) error { got = from; return errBad }, true, nil, PeerID(5), errBad},
		{"bool", func(_ context.Context, _ PeerID, v bool) { got = v }, true, []variant.Value{variant.Bool(true)}, true, nil},
		{"int", func(_ context.Context, _ PeerID, v int) { got = v }, true, []variant.Value{variant.Int(-7)}, -7, nil},
		{"int32", func(_ context.Context, _ PeerID, v int32) error { got = v; return errBad }, true, []variant.Value{variant.Int(1 << 20)}, int32(1 << 20), errBad},
		{"int64", func(_ context.Context, _ PeerID, v int64) { got = v }, true, []variant.Value{variant.Int(1 << 40)}, int64(1 << 40), nil},
		{"float32", func(_ context.Context, _ PeerID, v float32) { got = v }, true, []variant.Value{variant.Float(0.5)}, float32(0.5), nil},
		{"float64", func(_ context.Context, _ PeerID, v float64) error { got = v; return nil }, true, []variant.Value{variant.Float(2.25)}, 2.25, nil},
		{"string", func(_ context.Context, _ PeerID, v string) { got = v }, true, []variant.Value{variant.String("hé")}, "hé", nil},
		{"bytes", func(_ context.Context, _ PeerID, v []byte) { got = v }, true, []variant.Value{variant.PackedByteArray{1, 2, 3}}, []byte{1, 2, 3}, nil},
		{"named type", func(_ context.Context, _ PeerID, v score) { got = v }, false, []variant.Value{variant.Int(3)}, score(3), nil},
		{"two", func(_ context.Context, _ PeerID, a int, b string) error { got = fmt.Sprint(a, b); return errBad }, false,
			[]variant.Value{variant.Int(1), variant.String("x")}, "1x", errBad},
	}
	for _, f := range []variant.Family{variant.Godot3, variant.Godot4} {
		for _, c := range cases {
			t.Run(fmt.Sprintf("%v/%s", f, c.name), func(t *testing.T) {
				s, err := newSession(f, false, []Node{{Path: "Main", Methods: []Method{{Name: "move", Mode: AnyPeer, Handler: c.handler}}}})
				if err != nil {
					t.Fatal(err)
				}
				nd := s.nodes["Main"]
				if m := nd.method("move"); (m.direct != nil) != c.direct {
					t.Errorf("called directly: %v, want %v", m.direct != nil, c.direct)
				}
				r := newRemote(&pathBudget{maxPaths: 1 << 30, maxBytes: 1 << 62})
				r.setRecv(nd.cacheID, recvEntry{path: nd.path, node: nd})
				pkt := benchPacket(t, f, nd, c.args...)
				e := Event{From: 5}
				if e.Packet, err = Parse(f, pkt); err != nil {
					t.Fatal(err)
				}
				rn, rm, err := s.resolve(r, &e)
				if err != nil {
					t.Fatal(err)
				}
				got = nil
				err = s.dispatch(context.Background(), 5, rn, rm, &e)
				if !errors.Is(err, c.err) || c.err == nil && err != nil {
					t.Errorf("error %v, want %v", err, c.err)
				}
				if !reflect.DeepEqual(got, c.want) {
					t.Errorf("got %#v, want %#v", got, c.want)
				}
			})
		}
	}
}

// A call frame goes back to its pool holding neither the context nor the
// arguments, whether the call failed before the handler (an argument that
// does not decode into its parameter) or the handler panicked.
func TestCallFrameCleared(t *testing.T) {
	type key struct{}
	ctx := context.WithValue(context.Background(), key{}, "secret")
	for _, c := range []struct {
		name    string
		handler any
		args    []variant.Value
	}{
		{"bad argument", func(_ context.Context, _ PeerID, a string, b int) {}, []variant.Value{variant.String("kept?"), variant.String("not an int")}},
		{"panic", func(_ context.Context, _ PeerID, a string, b int) { panic("boom") }, []variant.Value{variant.String("kept?"), variant.Int(1)}},
	} {
		s, err := newSession(variant.Godot4, false, []Node{{Path: "Main", Methods: []Method{{Name: "move", Mode: AnyPeer, Handler: c.handler}}}})
		if err != nil {
			t.Fatal(err)
		}
		nd := s.nodes["Main"]
		m := nd.method("move")
		p, err := Parse(variant.Godot4, benchPacket(t, variant.Godot4, nd, c.args...))
		if err != nil {
			t.Fatal(err)
		}
		func() {
			defer func() { recover() }()
			if err := m.invoke(ctx, s.dec, variant.Godot4, 5, &p); err == nil {
				t.Errorf("%s: no error", c.name)
			}
		}()
		// The frame just put back is the one the next Get returns (unless
		// a collection came between, or the race detector's pool dropped
		// it: then a new one, which is clean too).
		fr := m.frames.Get().(*callFrame)
		if *fr.ctxp != nil {
			t.Errorf("%s: the pooled frame holds the context", c.name)
		}
		for i, v := range fr.in {
			if v.IsValid() {
				t.Errorf("%s: the pooled frame holds argument %d: %v", c.name, i, v)
			}
		}
	}
}
