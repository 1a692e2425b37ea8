// Command chat is a small lobby and chat server for Godot games, built on
// gdvar's peer package. Godot 4 clients connect with WebSocketPeer (native
// or exported for the web), Godot 3 clients with StreamPeerTCP; both join
// the same lobby. See README.md, and client4.gd and client3.gd for the
// game's side.
//
// Every message is one Dictionary with a "type"; on the Go side each is a
// struct (see the message types below), which gdvar encodes as the
// Dictionary the game reads with get_var:
//
//	client → server
//	  {"type": "join", "name": "Ada"}           first message
//	  {"type": "say", "text": "hi"}
//	  {"type": "move", "pos": Vector2(3, 4)}
//	server → client
//	  {"type": "welcome", "id": 1, "players": {1: {"name": "Ada", "pos": Vector2(0, 0)}, …}}
//	  {"type": "joined", "id": 2, "name": "Grace"}
//	  {"type": "said", "id": 2, "name": "Grace", "text": "hi"}
//	  {"type": "moved", "id": 2, "pos": Vector2(3, 4)}
//	  {"type": "left", "id": 2}
//	  {"type": "error", "message": "…"}
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
	"unicode/utf8"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/peer"
	"github.com/gdvar/gdvar/variant"
)

func main() {
	tcpAddr := flag.String("tcp", "127.0.0.1:9090", "TCP address for StreamPeerTCP clients (empty: none)")
	wsAddr := flag.String("ws", "127.0.0.1:9091", "WebSocket address for WebSocketPeer clients (empty: none)")
	flag.Parse()

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	lobby := newLobby(log.New(os.Stderr, "chat: ", log.LstdFlags))
	if err := lobby.listen(ctx, *tcpAddr, *wsAddr); err != nil {
		log.Fatal(err)
	}
	<-ctx.Done()
	lobby.close()
}

// Options of the connections: small messages, a lobby's worth of players,
// chatters who may stay quiet for a while, and web exports served from
// anywhere.
var connOptions = peer.Options{
	MaxSize:      64 << 10,
	MaxConns:     500,
	BufferBudget: 16 << 20,
	IdleTimeout:  30 * time.Minute,
	WebSocket:    peer.WebSocketOptions{Origins: []string{"*"}},
}

// clientMsg is any message a client sends; Type says which other fields
// count. A field the Dictionary does not have stays zero.
type clientMsg struct {
	Type string           `gdvar:"type"`
	Name string           `gdvar:"name"` // join
	Text string           `gdvar:"text"` // say
	Pos  *variant.Vector2 `gdvar:"pos"`  // move; nil when missing
}

// The messages the server sends.
type (
	welcomeMsg struct {
		Type    string               `gdvar:"type"` // "welcome"
		ID      int64                `gdvar:"id"`
		Players map[int64]playerInfo `gdvar:"players"`
	}
	playerInfo struct {
		Name string          `gdvar:"name"`
		Pos  variant.Vector2 `gdvar:"pos"`
	}
	joinedMsg struct {
		Type string `gdvar:"type"` // "joined"
		ID   int64  `gdvar:"id"`
		Name string `gdvar:"name"`
	}
	saidMsg struct {
		Type string `gdvar:"type"` // "said"
		ID   int64  `gdvar:"id"`
		Name string `gdvar:"name"`
		Text string `gdvar:"text"`
	}
	movedMsg struct {
		Type string          `gdvar:"type"` // "moved"
		ID   int64           `gdvar:"id"`
		Pos  variant.Vector2 `gdvar:"pos"`
	}
	leftMsg struct {
		Type string `gdvar:"type"` // "left"
		ID   int64  `gdvar:"id"`
	}
	errorMsg struct {
		Type    string `gdvar:"type"` // "error"
		Message string `gdvar:"message"`
	}
)

func fail(message string) errorMsg { return errorMsg{Type: "error", Message: message} }

// lobby is the chat room: the players and what they see.
type lobby struct {
	log *log.Logger

	mu      sync.Mutex
	players map[int64]*player
	nextID  int64
	closed  bool

	listeners []*peer.Listener
	wg        sync.WaitGroup
}

// player is one connected client.
type player struct {
	id     int64
	name   string
	pos    variant.Vector2
	conn   *peer.Conn
	codec  codec
	outbox chan any // messages, written by the player's writer goroutine
	buf    []byte   // the writer's encoding buffer
	kick   sync.Once
}

func newLobby(l *log.Logger) *lobby {
	return &lobby{log: l, players: map[int64]*player{}, nextID: 1}
}

// listen starts accepting players on the addresses that are not empty.
func (lb *lobby) listen(ctx context.Context, tcpAddr, wsAddr string) error {
	if tcpAddr != "" {
		l, err := peer.ListenTCP(ctx, tcpAddr, connOptions)
		if err != nil {
			return err
		}
		lb.log.Printf("StreamPeerTCP clients: %s", l.Addr())
		lb.listeners = append(lb.listeners, l)
	}
	if wsAddr != "" {
		l, err := peer.ListenWebSocket(ctx, wsAddr, connOptions)
		if err != nil {
			lb.close()
			return err
		}
		lb.log.Printf("WebSocketPeer clients: ws://%s/", l.Addr())
		lb.listeners = append(lb.listeners, l)
	}
	for _, l := range lb.listeners {
		lb.wg.Go(func() {
			for {
				c, err := l.Accept(context.Background())
				if err != nil {
					return
				}
				lb.wg.Go(func() { lb.serve(c) })
			}
		})
	}
	return nil
}

// close stops listening, disconnects everyone and waits.
func (lb *lobby) close() {
	for _, l := range lb.listeners {
		l.Close()
	}
	lb.mu.Lock()
	lb.closed = true
	for _, p := range lb.players {
		go p.conn.Close()
	}
	lb.mu.Unlock()
	lb.wg.Wait()
}

// codec decodes and encodes for one engine family. A client's first
// message, a Dictionary, tells its family: Dictionary is type 18 in Godot 3
// and 27 in Godot 4. (A server whose clients are all of one family sets
// peer.Options.Godot and uses Conn.Decode and Conn.Encode instead.)
type codec struct {
	dec *gdvar.DecMode
	enc *gdvar.EncMode
}

func codecFor(payload []byte) (codec, error) {
	if len(payload) < 4 {
		return codec{}, errors.New("empty message")
	}
	family := variant.Godot4
	if id, _ := variant.TypeDictionary.ID(variant.Godot3); payload[0] == id {
		family = variant.Godot3
	}
	dec, err := gdvar.DecOptions{Family: family}.DecMode()
	if err != nil {
		return codec{}, err
	}
	enc, err := gdvar.EncOptions{Family: family}.EncMode()
	return codec{dec, enc}, err
}

// serve runs one client's connection, from join to leave.
func (lb *lobby) serve(c *peer.Conn) {
	defer c.Close()
	from := c.Network() + " " + c.RemoteAddr().String()
	payload, err := c.ReadPayload()
	if err != nil {
		return
	}
	cd, err := codecFor(payload)
	if err != nil {
		return
	}
	p := &player{conn: c, codec: cd, outbox: make(chan any, 256)}
	var join clientMsg
	if err := p.decode(payload, &join); err != nil || join.Type != "join" || !validName(join.Name) {
		p.write(fail(`first send {"type": "join", "name": "…"} (1 to 32 characters)`))
		return
	}
	p.name = join.Name

	lb.mu.Lock()
	if lb.closed {
		lb.mu.Unlock()
		return
	}
	p.id = lb.nextID
	lb.nextID++
	lb.players[p.id] = p
	roster := make(map[int64]playerInfo, len(lb.players))
	for id, q := range lb.players {
		roster[id] = playerInfo{Name: q.name, Pos: q.pos}
	}
	p.send(welcomeMsg{Type: "welcome", ID: p.id, Players: roster})
	lb.broadcastLocked(p.id, joinedMsg{Type: "joined", ID: p.id, Name: p.name})
	lb.mu.Unlock()
	lb.log.Printf("%s joined as %d %q", from, p.id, p.name)

	done := make(chan struct{})
	go func() {
		defer close(done)
		p.flush()
	}()
	defer func() {
		lb.mu.Lock()
		delete(lb.players, p.id)
		lb.broadcastLocked(p.id, leftMsg{Type: "left", ID: p.id})
		lb.mu.Unlock()
		close(p.outbox)
		<-done
		lb.log.Printf("%d %q left", p.id, p.name)
	}()

	for {
		payload, err := c.ReadPayload()
		if err != nil {
			if err != io.EOF && !errors.Is(err, net.ErrClosed) {
				lb.log.Printf("%d %q: %v", p.id, p.name, err)
			}
			return
		}
		var msg clientMsg
		if err := p.decode(payload, &msg); err != nil {
			p.send(fail(err.Error()))
			continue
		}
		switch msg.Type {
		case "say":
			if msg.Text == "" || utf8.RuneCountInString(msg.Text) > 500 {
				p.send(fail("say: text must be 1 to 500 characters"))
				continue
			}
			lb.broadcast(0, saidMsg{Type: "said", ID: p.id, Name: p.name, Text: msg.Text})
		case "move":
			if msg.Pos == nil {
				p.send(fail("move: pos must be a Vector2"))
				continue
			}
			lb.mu.Lock()
			p.pos = *msg.Pos
			lb.broadcastLocked(0, movedMsg{Type: "moved", ID: p.id, Pos: p.pos})
			lb.mu.Unlock()
		default:
			p.send(fail(fmt.Sprintf("unknown message type %q", msg.Type)))
		}
	}
}

func (lb *lobby) broadcast(except int64, msg any) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	lb.broadcastLocked(except, msg)
}

// broadcastLocked queues msg for every player but except; lb.mu is held.
func (lb *lobby) broadcastLocked(except int64, msg any) {
	for id, p := range lb.players {
		if id != except {
			p.send(msg)
		}
	}
}

// send queues msg; a player who does not keep up is disconnected rather
// than slowing everyone down.
func (p *player) send(msg any) {
	select {
	case p.outbox <- msg:
	default:
		p.kick.Do(func() { go p.conn.Close() })
	}
}

// flush writes the queued messages until the outbox is closed.
func (p *player) flush() {
	for msg := range p.outbox {
		if err := p.write(msg); err != nil {
			p.kick.Do(func() { go p.conn.Close() })
			for range p.outbox {
			}
			return
		}
	}
}

// write encodes msg for the player's engine and sends it.
func (p *player) write(msg any) error {
	var err error
	if p.buf, err = p.codec.enc.Append(p.buf[:0], msg); err != nil {
		return err
	}
	return p.conn.WritePayload(p.buf)
}

// decode decodes one message into msg.
func (p *player) decode(payload []byte, msg *clientMsg) error {
	if err := p.codec.dec.Unmarshal(payload, msg); err != nil {
		return fmt.Errorf("bad message: %w", err)
	}
	return nil
}

func validName(s string) bool {
	n := utf8.RuneCountInString(s)
	return n >= 1 && n <= 32
}
