package multiplayer

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// gameNode declares the rset properties of testdata/rset3.gd's Game node.
func gameNode(l *chatLog) Node {
	set := func(name string) func(context.Context, PeerID, any) {
		return func(_ context.Context, from PeerID, v any) { l.add(fmt.Sprintf("%s %d %v", name, from, v)) }
	}
	return Node{Path: "Game", Properties: []Property{
		{Name: "score", Mode: AnyPeer, Handler: set("score")},
		{Name: "pos", Mode: Authority, Handler: func(_ context.Context, from PeerID, v variant.Vector2) {
			l.add(fmt.Sprintf("pos %d %v", from, v))
		}},
		{Name: "nick", Mode: Master, Handler: set("nick")},
		{Name: "hp", Mode: AnyPeer, Handler: set("hp")},
	}}
}

func TestAppendSet(t *testing.T) {
	v, _ := defaultEnc3.Append(nil, variant.Int(5))
	got := AppendSet(nil, 1, "", "hp", v)
	if want := mustHex(t, "01 01000000 687000 0200000005000000"); !bytes.Equal(got, want) {
		t.Fatalf("%x, want %x", got, want)
	}
	got = AppendSet(nil, 1, "Game", "hp", v)
	if want := mustHex(t, "01 10000080 687000 0200000005000000 47616d6500"); !bytes.Equal(got, want) {
		t.Fatalf("%x, want %x", got, want)
	}
	p, err := Parse(variant.Godot3, got)
	if err != nil || p.Command != CmdRemoteSet || string(p.Path) != "Game" || string(p.Name) != "hp" || !bytes.Equal(p.Args, v) {
		t.Fatalf("%+v %v", p, err)
	}
	vals, err := DecodeArgs(defaultDec3, &p)
	if err != nil || len(vals) != 1 || vals[0] != variant.Int(5) {
		t.Fatal(vals, err)
	}
}

// rset between Go peers (Godot 3): to the host, checked against each
// property's mode; from the host; and between clients through the relay.
func TestSetLoopback(t *testing.T) {
	hostLog, aLog, bLog := newChatLog(), newChatLog(), newChatLog()
	var refused = make(chan error, 8)
	h, url := startHost(t, HostOptions{Godot: variant.Godot3, Observe: func(e *Event) {
		if e.Err != nil && e.Packet.Command == CmdRemoteSet {
			refused <- e.Err
		}
	}}, gameNode(hostLog))
	a := join(t, url, ClientOptions{Godot: variant.Godot3}, gameNode(aLog))
	b := join(t, url, ClientOptions{Godot: variant.Godot3}, gameNode(bLog))
	if err := a.Set(HostID, "Game", "score", 10); err != nil {
		t.Fatal(err)
	}
	hostLog.wait(t, fmt.Sprintf("score %d 10", a.ID()))
	if err := a.SetUnreliable(HostID, "Game", "nick", "ann"); err != nil {
		t.Fatal(err)
	}
	hostLog.wait(t, fmt.Sprintf("nick %d ann", a.ID()))
	// puppet: only the master (the host) sets it; the host refuses it.
	if err := a.Set(HostID, "Game", "pos", variant.Vector2{X: 1, Y: 2}); err != nil {
		t.Fatal(err)
	}
	select {
	case err := <-refused:
		if !errors.Is(err, ErrNotAllowed) {
			t.Errorf("puppet set: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the host accepted a puppet rset from a client")
	}
	for deadline := time.Now().Add(5 * time.Second); len(h.Peers()) < 2 && time.Now().Before(deadline); {
		time.Sleep(5 * time.Millisecond)
	}
	if err := h.Set(Broadcast, "Game", "pos", variant.Vector2{X: 5, Y: 6}); err != nil {
		t.Fatal(err)
	}
	aLog.wait(t, "pos 1 Vector2(5, 6)")
	bLog.wait(t, "pos 1 Vector2(5, 6)")
	if err := h.SetUnreliable(b.ID(), "Game", "hp", 77); err != nil {
		t.Fatal(err)
	}
	bLog.wait(t, "hp 1 77")
	for b.ID() != 0 && len(a.Peers()) < 2 {
		time.Sleep(10 * time.Millisecond)
	}
	if err := a.Set(b.ID(), "Game", "score", 7); err != nil {
		t.Fatal(err)
	}
	bLog.wait(t, fmt.Sprintf("score %d 7", a.ID()))
	// Refused before sending: undeclared property or node.
	if err := h.Set(Broadcast, "Game", "nope", 1); !errors.Is(err, ErrUnknownProperty) {
		t.Error(err)
	}
	if err := a.Set(HostID, "Nope", "score", 1); !errors.Is(err, ErrUnknownNode) {
		t.Error(err)
	}
}

func TestSetGodot4(t *testing.T) {
	h, err := NewHost(HostOptions{}, Node{Path: "Game", Properties: []Property{{Name: "x"}}})
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	if err := h.Set(Broadcast, "Game", "x", 1); err == nil {
		t.Error("rset on a Godot 4 host")
	}
	if _, err := NewHost(HostOptions{}, Node{Path: "G", Properties: []Property{{Name: "x", Handler: func(context.Context, PeerID) {}}}}); err == nil {
		t.Error("a property handler without a value")
	}
}

// The REMOTE_SET packets real Godot 3.2.3 clients sent
// (testdata/capture/godot3.2.3-rset.txt) decode to the values
// testdata/rset3.gd set, and AppendSet writes the same bytes.
func TestSetGolden(t *testing.T) {
	n := 0
	for _, g := range loadCaptures(t) {
		if g.file != "godot3.2.3-rset.txt" {
			continue
		}
		p, err := Parse(variant.Godot3, g.data)
		if err != nil {
			t.Fatalf("%x: %v", g.data, err)
		}
		if p.Command != CmdRemoteSet {
			continue
		}
		n++
		vals, err := DecodeArgs(defaultDec3, &p)
		if err != nil || len(vals) != 1 {
			t.Fatalf("%x: %v", g.data, err)
		}
		want := map[string][]variant.Value{
			"score": {variant.Int(10), variant.Int(20)},
			"nick":  {variant.String("ann"), variant.String("bob")},
			"pos":   {variant.Vector2{X: 1, Y: 2}},
		}[string(p.Name)]
		found := false
		for _, w := range want {
			found = found || w == vals[0]
		}
		if !found {
			t.Errorf("%s = %#v", p.Name, vals[0])
		}
		v, err := defaultEnc3.Append(nil, vals[0])
		if err != nil {
			t.Fatal(err)
		}
		if again := AppendSet(nil, p.NodeID, string(p.Path), string(p.Name), v); !bytes.Equal(again, g.data) {
			t.Errorf("engine %x\n gdvar %x", g.data, again)
		}
	}
	if n < 6 {
		t.Errorf("%d REMOTE_SET packets captured", n)
	}
}

func TestScriptProperties(t *testing.T) {
	src := `extends Node
remote var score = 0 setget set_score
puppet var pos = Vector2()
master var nick = ""
export(int) remotesync var hp = 3
puppetsync onready var ready_pos = Vector2()
slave var old
var plain = 1
remote func not_a_var():
	pass
`
	got, err := ScriptProperties(src)
	if err != nil {
		t.Fatal(err)
	}
	want := []Property{
		{Name: "score", Mode: AnyPeer}, {Name: "pos", Mode: Authority}, {Name: "nick", Mode: Master},
		{Name: "hp", Mode: AnyPeer}, {Name: "ready_pos", Mode: Authority}, {Name: "old", Mode: Authority},
	}
	if fmt.Sprint(got) != fmt.Sprint(want) {
		t.Errorf("got %v\nwant %v", got, want)
	}
	// testdata/rset3.gd's Game declares what the interop test expects.
	b, err := os.ReadFile("testdata/rset3.gd")
	if err != nil {
		t.Fatal(err)
	}
	got, _ = ScriptProperties(string(b))
	if fmt.Sprint(got) != fmt.Sprint([]Property{{Name: "score", Mode: AnyPeer}, {Name: "pos", Mode: Authority}, {Name: "nick", Mode: Master}, {Name: "hp", Mode: AnyPeer}}) {
		t.Errorf("rset3.gd: %v", got)
	}
}
