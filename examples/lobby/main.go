// Command lobby is a small multiplayer game server that unmodified Godot
// games join with WebSocketMultiplayerPeer: a lobby where players join
// with a name, chat, and move, their positions relayed to the others.
//
//	go run ./examples/lobby [--ws ADDR] [--godot 3|4]
//
// The games attach lobby4.gd (Godot 4) or lobby3.gd (Godot 3) at
// /root/Lobby; demo4.gd and demo3.gd run one without a game. See README.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"os"
	"os/signal"
	"sort"
	"sync"
	"syscall"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// player is what the server knows of a player.
type player struct {
	Name string          `gdvar:"name"`
	Pos  variant.Vector2 `gdvar:"pos"`
}

// lobby is the game state: the players who have joined.
type lobby struct {
	mu      sync.Mutex
	host    *multiplayer.Host
	players map[multiplayer.PeerID]*player
	logf    func(format string, args ...any)
}

// node declares /root/Lobby: the RPCs of lobby4.gd and lobby3.gd. The
// clients call join, say and move on the server; the server calls the
// others on the clients.
func (l *lobby) node() multiplayer.Node {
	toClients := func(name string) multiplayer.Method {
		return multiplayer.Method{Name: name, Mode: multiplayer.Authority, Transfer: multiplayer.Reliable}
	}
	moved := toClients("moved")
	moved.Transfer = multiplayer.UnreliableOrdered
	return multiplayer.Node{Path: "Lobby", Methods: []multiplayer.Method{
		{Name: "join", Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable, Handler: l.join},
		{Name: "say", Mode: multiplayer.AnyPeer, Transfer: multiplayer.Reliable, Handler: l.say},
		{Name: "move", Mode: multiplayer.AnyPeer, Transfer: multiplayer.UnreliableOrdered, Handler: l.move},
		toClients("joined"), toClients("left"), toClients("said"), toClients("roster"), moved,
	}}
}

func (l *lobby) join(_ context.Context, from multiplayer.PeerID, name string) error {
	if name == "" || len(name) > 32 {
		return fmt.Errorf("bad name %q", name)
	}
	l.mu.Lock()
	if _, ok := l.players[from]; ok {
		l.mu.Unlock()
		return fmt.Errorf("peer %d joined twice", from)
	}
	roster := map[int]player{}
	for id, p := range l.players {
		roster[int(id)] = *p
	}
	l.players[from] = &player{Name: name}
	l.mu.Unlock()
	l.logf("%d joined as %q", from, name)
	if err := l.host.Call(from, "Lobby", "roster", roster); err != nil {
		return err
	}
	return l.host.Call(multiplayer.Broadcast, "Lobby", "joined", int(from), name)
}

func (l *lobby) say(_ context.Context, from multiplayer.PeerID, text string) error {
	if len(text) > 500 {
		text = text[:500]
	}
	l.mu.Lock()
	_, ok := l.players[from]
	l.mu.Unlock()
	if !ok {
		return fmt.Errorf("peer %d talks before joining", from)
	}
	l.logf("%d says %q", from, text)
	return l.host.Call(multiplayer.Broadcast, "Lobby", "said", int(from), text)
}

func (l *lobby) move(_ context.Context, from multiplayer.PeerID, pos variant.Vector2) error {
	l.mu.Lock()
	p, ok := l.players[from]
	if ok {
		p.Pos = pos
	}
	l.mu.Unlock()
	if !ok {
		return fmt.Errorf("peer %d moves before joining", from)
	}
	return l.host.Call(-from, "Lobby", "moved", int(from), pos)
}

func (l *lobby) leave(id multiplayer.PeerID, err error) {
	l.mu.Lock()
	_, ok := l.players[id]
	delete(l.players, id)
	l.mu.Unlock()
	if ok {
		l.logf("%d left", id)
		l.host.Call(multiplayer.Broadcast, "Lobby", "left", int(id))
	}
}

// names returns the players' names, sorted.
func (l *lobby) names() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	var out []string
	for _, p := range l.players {
		out = append(out, p.Name)
	}
	sort.Strings(out)
	return out
}

// newLobby makes the server for engine family fam.
func newLobby(fam variant.Family, logf func(string, ...any)) (*lobby, error) {
	l := &lobby{players: map[multiplayer.PeerID]*player{}, logf: logf}
	h, err := multiplayer.NewHost(multiplayer.HostOptions{Godot: fam, OnDisconnect: l.leave}, l.node())
	if err != nil {
		return nil, err
	}
	l.host = h
	return l, nil
}

func main() {
	addr := flag.String("ws", "127.0.0.1:9090", "WebSocket address to listen on")
	godot := flag.Int("godot", 4, "engine family of the games: 3 or 4")
	flag.Parse()
	fam := variant.Family(*godot)
	l, err := newLobby(fam, log.Printf)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := multiplayer.ListenWebSocket(ctx, *addr, multiplayer.WebSocketOptions{Godot: fam})
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("lobby for %v on ws://%s", fam, ln.Addr())
	go l.host.Serve(ctx, ln)
	<-ctx.Done()
	l.host.Close()
}
