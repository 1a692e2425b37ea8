// Command arena is a Godot 4 game server whose world is Go: unmodified
// Godot 4 clients join it with WebSocketMultiplayerPeer, and the server
// spawns, moves and despawns their players through the engine's own
// MultiplayerSpawner and MultiplayerSynchronizer nodes.
//
//	go run ./examples/arena [--ws ADDR]
//
// The client project is this folder (main.tscn, player.tscn, player.gd);
// client.gd runs a client without a game around it. See README.md.
package main

import (
	"context"
	"flag"
	"fmt"
	"log"
	"math"
	"os"
	"os/signal"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// The game's rules.
const (
	speed     = 100 // pixels per second, times the player's direction
	tick      = time.Second / 30
	hpStart   = 100         // player.gd's hp
	hpEvery   = time.Second // hp falls by 1 this often, down to 0
	spawnerAt = "Main/Spawner"
)

// playerScene declares player.tscn as the clients have it: ServerSync
// (the server's: position and hp) and InputSync (the player's own:
// direction), both rooted at the player.
var playerScene = multiplayer.Scene{
	Path: "res://player.tscn",
	Synchronizers: []multiplayer.Synchronizer{
		{Name: "ServerSync", Properties: []multiplayer.SyncProperty{
			{Path: ".:position", Spawn: true, Mode: multiplayer.ReplicateAlways},
			{Path: ".:hp", Spawn: true, Mode: multiplayer.ReplicateOnChange},
		}},
		{Name: "InputSync", Owned: true, Properties: []multiplayer.SyncProperty{
			{Path: ".:direction", Mode: multiplayer.ReplicateAlways},
		}},
	},
}

// state is a player's replicated state, as the synchronizers name it.
type state struct {
	Position variant.Vector2 `gdvar:"position"`
	HP       int             `gdvar:"hp"`
}

type player struct {
	node  *multiplayer.SceneNode
	pos   variant.Vector2
	hp    int
	since time.Duration // time since hp last fell
}

// arena is the game: its players, moved by a loop.
type arena struct {
	host    *multiplayer.Host
	logf    func(string, ...any)
	mu      sync.Mutex
	players map[multiplayer.PeerID]*player
	joined  int
	// left holds peers that left before their OnConnect ran (the host
	// calls OnConnect on a goroutine of its own).
	left map[multiplayer.PeerID]bool
}

// newArena makes the server. With project "", it declares the spawner in
// Go (playerScene); otherwise it reads it from the client's Godot project
// in that folder, as multiplayer.ReadProject finds it there.
func newArena(project string, logf func(string, ...any)) (*arena, error) {
	a := &arena{logf: logf, players: map[multiplayer.PeerID]*player{}, left: map[multiplayer.PeerID]bool{}}
	h, err := multiplayer.NewHost(multiplayer.HostOptions{OnConnect: a.join, OnDisconnect: a.leave})
	if err != nil {
		return nil, err
	}
	a.host = h
	if project == "" {
		err = h.AddSpawner(multiplayer.Spawner{Path: spawnerAt, SpawnPath: "../Players", Scenes: []multiplayer.Scene{playerScene}})
	} else {
		err = addFromProject(h, project)
	}
	if err != nil {
		h.Close()
		return nil, err
	}
	return a, nil
}

// addFromProject declares what the Godot project declares. The .tscn files
// cannot say that player.gd hands InputSync to the player's peer: that is
// said here.
func addFromProject(h *multiplayer.Host, dir string) error {
	p, err := multiplayer.ReadProject(dir)
	if err != nil {
		return err
	}
	in := p.Synchronizer("InputSync")
	if in == nil {
		return fmt.Errorf("%s: no InputSync in the project's spawnable scenes", dir)
	}
	in.Owned = true
	return p.AddTo(h)
}

// start is where the n-th player appears: along a row, 80 pixels apart.
func start(n int) variant.Vector2 {
	return variant.Vector2{X: float64(100 + 80*(n%10)), Y: float64(100 + 80*(n/10%10))}
}

func (a *arena) join(id multiplayer.PeerID) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.left[id] {
		delete(a.left, id)
		return
	}
	pos := start(a.joined)
	a.joined++
	n, err := a.host.Spawn(spawnerAt, 0, id.String(), multiplayer.SpawnOptions{Owner: id, State: state{Position: pos, HP: hpStart}})
	if err != nil {
		a.logf("cannot spawn a player for %d: %v", id, err)
		return
	}
	a.players[id] = &player{node: n, pos: pos, hp: hpStart}
	a.logf("%d joined at %v", id, pos)
}

func (a *arena) leave(id multiplayer.PeerID, err error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	p, ok := a.players[id]
	if !ok {
		a.left[id] = true
		return
	}
	p.node.Despawn()
	delete(a.players, id)
	a.logf("%d left", id)
}

// step moves every player by its direction and lowers hp, dt later.
func (a *arena) step(dt time.Duration) {
	a.mu.Lock()
	defer a.mu.Unlock()
	for _, p := range a.players {
		var dir variant.Vector2
		p.node.Get("direction", &dir) // Nil (not sent yet) leaves it zero
		if finite(dir.X) && finite(dir.Y) {
			p.pos.X += dir.X * speed * dt.Seconds()
			p.pos.Y += dir.Y * speed * dt.Seconds()
		}
		p.node.Set("position", p.pos)
		for p.since += dt; p.since >= hpEvery; p.since -= hpEvery {
			if p.hp > 0 {
				p.hp--
				p.node.Set("hp", p.hp)
			}
		}
	}
}

func finite(f float64) bool { return !math.IsNaN(f) && !math.IsInf(f, 0) }

// run steps the game every tick until ctx is done.
func (a *arena) run(ctx context.Context) {
	t := time.NewTicker(tick)
	defer t.Stop()
	last := time.Now()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			a.step(now.Sub(last))
			last = now
		}
	}
}

// defaultOrigins lets web exports served from this machine (a local web
// server, the editor's remote debug) join; pages from elsewhere need
// --origins. Native games send no Origin and are always accepted.
const defaultOrigins = "localhost:*,127.0.0.1:*,::1"

// listen listens for WebSocket clients on addr, accepting browser pages
// from the comma-separated origins.
func listen(ctx context.Context, addr, origins string) (multiplayer.Listener, error) {
	var wo multiplayer.WebSocketOptions
	if origins != "" {
		wo.Peer.WebSocket.Origins = strings.Split(origins, ",")
	}
	return multiplayer.ListenWebSocket(ctx, addr, wo)
}

func main() {
	addr := flag.String("ws", "127.0.0.1:9090", "WebSocket address to listen on")
	project := flag.String("project", "", "read the spawner and synchronizers from the client's Godot project in this folder (examples/arena) instead of the Go declarations")
	origins := flag.String("origins", defaultOrigins, "comma-separated Origin hosts that browser clients (web exports) may come from, e.g. \"localhost:*,*.itch.zone\"; \"\" for the server's own host only")
	flag.Parse()
	a, err := newArena(*project, log.Printf)
	if err != nil {
		log.Fatal(err)
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	ln, err := listen(ctx, *addr, *origins)
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("arena on ws://%s", ln.Addr())
	go a.host.Serve(ctx, ln)
	go a.run(ctx)
	<-ctx.Done()
	a.host.Close()
}
