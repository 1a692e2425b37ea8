// Command chat is a small lobby and chat server for Godot games, built on
// gdvar's peer package. Godot 4 clients connect with WebSocketPeer (native
// or exported for the web), Godot 3 clients with StreamPeerTCP; both join
// the same lobby. See README.md, and client4.gd and client3.gd for the
// game's side.
//
// Every message is one Variant Dictionary with a "type":
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
	"unicode/utf8"

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

// Options of the connections: small messages, and web exports served from
// anywhere may connect.
var connOptions = peer.Options{
	MaxSize:   64 << 10,
	WebSocket: peer.WebSocketOptions{Origins: []string{"*"}},
}

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
	outbox chan variant.Value // written by the player's writer goroutine
	buf    []byte             // the writer's encoding buffer
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
// and 27 in Godot 4.
type codec struct {
	dec *variant.DecMode
	enc *variant.EncMode
}

func codecFor(payload []byte) (codec, error) {
	if len(payload) < 4 {
		return codec{}, errors.New("empty message")
	}
	family := variant.Godot4
	if id, _ := variant.TypeDictionary.ID(variant.Godot3); payload[0] == id {
		family = variant.Godot3
	}
	dec, err := variant.DecOptions{Family: family}.DecMode()
	if err != nil {
		return codec{}, err
	}
	enc, err := variant.EncOptions{Family: family}.EncMode()
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
	p := &player{conn: c, codec: cd, outbox: make(chan variant.Value, 256)}
	msg, err := p.decode(payload)
	if err != nil || str(msg, "type") != "join" || !validName(str(msg, "name")) {
		p.write(dict("type", "error", "message", `first send {"type": "join", "name": "…"} (1 to 32 characters)`))
		return
	}
	p.name = str(msg, "name")

	lb.mu.Lock()
	if lb.closed {
		lb.mu.Unlock()
		return
	}
	p.id = lb.nextID
	lb.nextID++
	roster := variant.NewDictionary(len(lb.players) + 1)
	lb.players[p.id] = p
	for id, q := range lb.players {
		roster.Set(variant.Int(id), dict("name", q.name, "pos", q.pos))
	}
	p.send(dict("type", "welcome", "id", p.id, "players", roster))
	lb.broadcastLocked(p.id, dict("type", "joined", "id", p.id, "name", p.name))
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
		lb.broadcastLocked(p.id, dict("type", "left", "id", p.id))
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
		msg, err := p.decode(payload)
		if err != nil {
			p.send(dict("type", "error", "message", err.Error()))
			continue
		}
		switch str(msg, "type") {
		case "say":
			text := str(msg, "text")
			if text == "" || utf8.RuneCountInString(text) > 500 {
				p.send(dict("type", "error", "message", "say: text must be 1 to 500 characters"))
				continue
			}
			lb.broadcast(0, dict("type", "said", "id", p.id, "name", p.name, "text", text))
		case "move":
			pos, ok := get(msg, "pos").(variant.Vector2)
			if !ok {
				p.send(dict("type", "error", "message", "move: pos must be a Vector2"))
				continue
			}
			lb.mu.Lock()
			p.pos = pos
			lb.broadcastLocked(0, dict("type", "moved", "id", p.id, "pos", pos))
			lb.mu.Unlock()
		default:
			p.send(dict("type", "error", "message", fmt.Sprintf("unknown message type %q", str(msg, "type"))))
		}
	}
}

func (lb *lobby) broadcast(except int64, msg variant.Value) {
	lb.mu.Lock()
	defer lb.mu.Unlock()
	lb.broadcastLocked(except, msg)
}

// broadcastLocked queues msg for every player but except; lb.mu is held.
func (lb *lobby) broadcastLocked(except int64, msg variant.Value) {
	for id, p := range lb.players {
		if id != except {
			p.send(msg)
		}
	}
}

// send queues msg; a player who does not keep up is disconnected rather
// than slowing everyone down.
func (p *player) send(msg variant.Value) {
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
func (p *player) write(msg variant.Value) error {
	var err error
	if p.buf, err = p.codec.enc.Append(p.buf[:0], msg); err != nil {
		return err
	}
	return p.conn.WritePayload(p.buf)
}

// decode decodes one message, which must be a Dictionary.
func (p *player) decode(payload []byte) (*variant.Dictionary, error) {
	v, _, err := p.codec.dec.Decode(payload)
	if err != nil {
		return nil, fmt.Errorf("bad message: %w", err)
	}
	d, ok := v.(*variant.Dictionary)
	if !ok {
		return nil, fmt.Errorf("a message is a Dictionary, not %v", variant.TypeOf(v))
	}
	return d, nil
}

func validName(s string) bool {
	n := utf8.RuneCountInString(s)
	return n >= 1 && n <= 32
}

// dict builds a Dictionary from alternating keys and values; Go strings
// become Strings and int64s Ints.
func dict(kv ...any) *variant.Dictionary {
	d := variant.NewDictionary(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		d.Set(value(kv[i]), value(kv[i+1]))
	}
	return d
}

func value(x any) variant.Value {
	switch x := x.(type) {
	case string:
		return variant.String(x)
	case int64:
		return variant.Int(x)
	case variant.Value:
		return x
	}
	panic(fmt.Sprintf("dict: %T", x))
}

func get(d *variant.Dictionary, key string) variant.Value {
	v, _ := d.Get(variant.String(key))
	return v
}

// str returns d[key] when it is a String or StringName, else "".
func str(d *variant.Dictionary, key string) string {
	switch s := get(d, key).(type) {
	case variant.String:
		return string(s)
	case variant.StringName:
		return string(s)
	}
	return ""
}
