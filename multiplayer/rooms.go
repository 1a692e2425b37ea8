package multiplayer

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gdvar/gdvar/peer"
)

// Default limits of Rooms.
const (
	DefaultMaxRooms           = 1000
	DefaultRoomsMaxPeers      = 10000
	DefaultRoomsQueuedBytes   = 256 << 20
	DefaultRoomQueuedBytes    = 16 << 20
	DefaultRoomRate           = 20 // rooms created per second
	DefaultRoomBurst          = 100
	DefaultEmptyTimeout       = 30 * time.Second
	DefaultDrainTimeout       = 20 * time.Second
	DefaultFlushTimeout       = 5 * time.Second
	DefaultMaxRoomNameLength  = 64
	defaultRoomsHeaderTimeout = 10 * time.Second
)

// Why a client is refused a room. The WebSocket close status a refused
// client receives, with the error's text as reason, is in RefuseCode.
var (
	// ErrRoomUnknown: the room does not exist and may not be created
	// (RoomsOptions.Open refused the name), or the name is not valid.
	ErrRoomUnknown = errors.New("multiplayer: unknown room")
	// ErrRoomFull: the room has its Host's MaxPeers clients.
	ErrRoomFull = errors.New("multiplayer: room full")
	// ErrRoomClosed: the room is closing.
	ErrRoomClosed = errors.New("multiplayer: room closed")
	// ErrTooManyRooms: creating the room would exceed MaxRooms or the
	// room creation rate.
	ErrTooManyRooms = errors.New("multiplayer: too many rooms")
	// ErrServerFull: the process has MaxPeers clients.
	ErrServerFull = errors.New("multiplayer: server full")
	// ErrDraining: the process is shutting down.
	ErrDraining = errors.New("multiplayer: server draining")
)

// The WebSocket close status codes of refused clients (4000–4999 are the
// application's), as RefuseCode gives them; a client reads them with
// WebSocketPeer.get_close_code and get_close_reason (Godot 4) or the
// server_close_request signal (Godot 3).
const (
	CloseRoomUnknown  = 4404
	CloseRoomFull     = 4409
	CloseRoomClosed   = 4410
	CloseTooManyRooms = 4429
	CloseRefused      = 4403 // another refusal from RoomsOptions.Open
)

// RefuseCode returns the WebSocket close status and the reason a client
// refused for err receives.
func RefuseCode(err error) (code int, reason string) {
	switch {
	case errors.Is(err, ErrRoomUnknown):
		return CloseRoomUnknown, "unknown room"
	case errors.Is(err, ErrRoomFull):
		return CloseRoomFull, "room full"
	case errors.Is(err, ErrRoomClosed):
		return CloseRoomClosed, "room closed"
	case errors.Is(err, ErrTooManyRooms):
		return CloseTooManyRooms, "too many rooms"
	case errors.Is(err, ErrServerFull):
		return peer.CloseTryAgainLater, "server full"
	case errors.Is(err, ErrDraining):
		return peer.CloseTryAgainLater, "server draining"
	}
	return CloseRefused, "refused"
}

// refuseReason is the metric label of a refusal.
func refuseReason(err error) string {
	switch {
	case errors.Is(err, ErrRoomUnknown):
		return "unknown"
	case errors.Is(err, ErrRoomFull):
		return "full"
	case errors.Is(err, ErrRoomClosed):
		return "closed"
	case errors.Is(err, ErrTooManyRooms):
		return "too_many_rooms"
	case errors.Is(err, ErrServerFull):
		return "server_full"
	case errors.Is(err, ErrDraining):
		return "draining"
	}
	return "other"
}

// RoomsMeter is a Meter that also counts rooms; Rooms gives it to every
// room's Host, so that counts are the process's, not per room.
type RoomsMeter interface {
	Meter
	// RoomOpened and RoomClosed count rooms created and ended.
	RoomOpened()
	RoomClosed()
	// JoinRefused counts a client refused a room: "unknown", "full",
	// "closed", "too_many_rooms", "server_full", "draining" or "other".
	JoinRefused(reason string)
}

// RoomsENet serves each room to ENet clients too, on a UDP port of its
// own taken from a range (ENet has no URL to name a room by).
type RoomsENet struct {
	// Host is the address to listen on ("" every interface).
	Host string
	// FirstPort and LastPort bound the ports rooms get.
	FirstPort, LastPort int
	// Options configures the listeners; its Godot is the rooms'.
	Options ENetOptions
}

// RoomsOptions configures Rooms. The zero value serves Godot 4 rooms,
// any valid name created on first join, with the limits below at their
// defaults.
type RoomsOptions struct {
	// Host is the template of every room's HostOptions.
	Host HostOptions
	// Nodes are the nodes of every room, when Open is nil.
	Nodes []Node
	// Open is called on the first join of a room that does not exist
	// (and by Create) with the room's name ("" for the bare "/") and its
	// HostOptions: Host, with a Logger that names the room and the
	// process's Meter and queue budget. It returns the room's Host
	// (NewHost(o, nodes...)), or an error to refuse the client:
	// ErrRoomUnknown, ErrRoomFull, ErrRoomClosed or another (see
	// RefuseCode). nil creates every room with NewHost(o, Nodes...).
	Open func(ctx context.Context, name string, o HostOptions) (*Host, error)
	// Drain is called by Shutdown for each room, all at once, with a
	// context that ends after DrainTimeout: the game's chance to end its
	// matches (tell the players, save results) before its peers are
	// disconnected. Shutdown does not wait for it past the deadline.
	Drain func(ctx context.Context, r *Room)
	// OnClose is called when a room has ended.
	OnClose func(r *Room)
	// MaxRooms is the most rooms at once; 0 means DefaultMaxRooms.
	MaxRooms int
	// MaxPeers is the most clients of all rooms at once; 0 means
	// DefaultRoomsMaxPeers. A room's own limit is its Host's MaxPeers.
	MaxPeers int
	// MaxQueuedBytes bounds what all rooms hold to be sent; 0 means
	// DefaultRoomsQueuedBytes. RoomQueuedBytes bounds one room; 0 means
	// DefaultRoomQueuedBytes. A peer whose packet does not fit is dropped.
	MaxQueuedBytes  int64
	RoomQueuedBytes int64
	// RoomRate and RoomBurst bound how fast rooms are created: RoomRate a
	// second on average (0 means DefaultRoomRate), RoomBurst at once (0
	// means DefaultRoomBurst).
	RoomRate  float64
	RoomBurst int
	// EmptyTimeout ends a room once it has been empty this long; 0 means
	// DefaultEmptyTimeout, negative never.
	EmptyTimeout time.Duration
	// DrainTimeout bounds the Drain callbacks; 0 means
	// DefaultDrainTimeout. FlushTimeout bounds sending what is queued
	// once peers are disconnected; 0 means DefaultFlushTimeout.
	DrainTimeout time.Duration
	FlushTimeout time.Duration
	// MaxRoomNameLength bounds names; 0 means DefaultMaxRoomNameLength.
	MaxRoomNameLength int
	// WebSocket configures the WebSocket links (its Godot is the rooms').
	WebSocket WebSocketOptions
	// ENet, when set, serves every room over ENet too.
	ENet *RoomsENet
	// Logger receives the rooms' events; nil means slog.Default(). Each
	// room's Host logs to it with a "room" attribute.
	Logger *slog.Logger
	// Meter, when set, receives the counts of every room.
	Meter RoomsMeter
}

// Rooms serves many independent rooms, one Host each, from one process:
// WebSocket clients pick a room by URL path (ws://host:port/NAME; "/" is
// the room ""), ENet clients by port (RoomsENet). Rooms is an
// http.Handler. Its limits keep one room from starving the others.
type Rooms struct {
	o      RoomsOptions
	log    *slog.Logger
	budget *ByteBudget
	up     *peer.Upgrader
	ws     WebSocketOptions

	mu       sync.Mutex
	rooms    map[string]*Room
	peers    int
	draining bool
	tokens   float64
	last     time.Time
	ports    map[int]bool
	servers  []*http.Server
	wg       sync.WaitGroup // clients and room endings in progress
}

// Room is one room of Rooms: a name and the Host that serves it.
type Room struct {
	rs     *Rooms
	name   string
	ready  chan struct{} // closed once opened (host or err set)
	host   *Host
	err    error
	budget *ByteBudget
	enet   Listener
	port   int

	// under rs.mu
	peers      int
	pinned     int        // ServeListener calls keeping the room open
	closedByGo bool       // Close or Shutdown ends it: joins are refused
	extra      []Listener // listeners of ServeListener, closed when the room ends
	closing    bool
	timer      *time.Timer
	done       chan struct{}
}

// NewRooms returns Rooms configured by o.
func NewRooms(o RoomsOptions) (*Rooms, error) {
	if o.Host.Godot == 0 {
		o.Host.Godot = 4
	}
	if o.MaxRooms <= 0 {
		o.MaxRooms = DefaultMaxRooms
	}
	if o.MaxPeers <= 0 {
		o.MaxPeers = DefaultRoomsMaxPeers
	}
	if o.MaxQueuedBytes <= 0 {
		o.MaxQueuedBytes = DefaultRoomsQueuedBytes
	}
	if o.RoomQueuedBytes <= 0 {
		o.RoomQueuedBytes = DefaultRoomQueuedBytes
	}
	if o.RoomRate <= 0 {
		o.RoomRate = DefaultRoomRate
	}
	if o.RoomBurst <= 0 {
		o.RoomBurst = DefaultRoomBurst
	}
	if o.EmptyTimeout == 0 {
		o.EmptyTimeout = DefaultEmptyTimeout
	}
	if o.DrainTimeout <= 0 {
		o.DrainTimeout = DefaultDrainTimeout
	}
	if o.FlushTimeout <= 0 {
		o.FlushTimeout = DefaultFlushTimeout
	}
	if o.MaxRoomNameLength <= 0 {
		o.MaxRoomNameLength = DefaultMaxRoomNameLength
	}
	if e := o.ENet; e != nil && (e.FirstPort <= 0 || e.LastPort < e.FirstPort || e.LastPort > 65535) {
		return nil, fmt.Errorf("multiplayer: ENet room ports %d-%d", e.FirstPort, e.LastPort)
	}
	ws := o.WebSocket
	ws.Godot = o.Host.Godot
	po := ws.peerOptions()
	if po.MaxConns == 0 {
		po.MaxConns = o.MaxPeers + 64 // room for the refused, told why
	}
	up, err := peer.NewUpgrader(po)
	if err != nil {
		return nil, err
	}
	rs := &Rooms{o: o, log: o.Logger, budget: NewByteBudget(o.MaxQueuedBytes, nil), up: up, ws: ws,
		rooms: map[string]*Room{}, tokens: float64(o.RoomBurst), last: time.Now(), ports: map[int]bool{}}
	if rs.log == nil {
		rs.log = slog.Default()
	}
	return rs, nil
}

// validRoomName reports whether a room may be called name: at most max
// bytes of letters, digits and "-_.~".
func validRoomName(name string, max int) bool {
	if len(name) > max {
		return false
	}
	for i := 0; i < len(name); i++ {
		c := name[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~') {
			return false
		}
	}
	return true
}

// ServeHTTP accepts a WebSocket client into the room its URL path names
// ("/NAME", "/" for the room ""), creating the room on first join, and
// returns once the client is admitted (it is served on a goroutine of its
// own). A refused client gets the WebSocket close frame RefuseCode gives.
func (rs *Rooms) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	c, err := rs.up.Upgrade(w, r)
	if err != nil {
		return // answered
	}
	name := r.URL.Path
	if len(name) > 0 && name[0] == '/' {
		name = name[1:]
	}
	room, err := rs.admit(r.Context(), name)
	if err != nil {
		code, reason := RefuseCode(err)
		rs.log.Info("multiplayer: client refused", "room", name, "addr", c.RemoteAddr().String(), "reason", reason)
		c.CloseWith(code, reason)
		return
	}
	// Once this handler returns, the HTTP server lets go of what it held
	// for the request (its 4 KB buffers, the request, the goroutine's
	// stack grown reading it), which would otherwise stay for as long as
	// the client plays: the client is served by the process's Poller, or
	// by goroutines of its own.
	rs.start(room, serverWSLink(c, rs.ws), func() {})
}

// start serves one admitted client of room, without waiting for it to
// leave: on the transport's goroutine (ENet) or one of its own. after is
// called once it has left.
func (rs *Rooms) start(room *Room, link Link, after func()) {
	room.host.startLink(link, func(error) {
		rs.left(room)
		after()
	})
}

// left counts a client of room out.
func (rs *Rooms) left(room *Room) {
	defer rs.wg.Done()
	rs.mu.Lock()
	room.peers--
	rs.peers--
	if room.peers == 0 && !room.closing && rs.o.EmptyTimeout > 0 {
		room.timer = time.AfterFunc(rs.o.EmptyTimeout, func() { rs.endIfEmpty(room) })
	}
	rs.mu.Unlock()
}

// endIfEmpty ends room when it is still empty.
func (rs *Rooms) endIfEmpty(room *Room) {
	rs.mu.Lock()
	end := room.peers == 0 && room.pinned == 0 && !room.closing && rs.rooms[room.name] == room
	if end {
		room.closing = true
		rs.wg.Add(1)
	}
	rs.mu.Unlock()
	if end {
		defer rs.wg.Done()
		rs.log.Info("multiplayer: room empty", "room", room.name)
		ctx, cancel := context.WithTimeout(context.Background(), rs.o.FlushTimeout)
		defer cancel()
		room.end(ctx, peer.CloseNormal, "room closed")
	}
}

// admit finds or creates the room name for one more client, and counts
// the client in it; the caller then calls serve.
func (rs *Rooms) admit(ctx context.Context, name string) (*Room, error) {
	room, err := rs.get(ctx, name, true)
	if err != nil {
		rs.refused(err)
		return nil, err
	}
	return room, nil
}

func (rs *Rooms) refused(err error) {
	if rs.o.Meter != nil {
		rs.o.Meter.JoinRefused(refuseReason(err))
	}
}

// get finds or creates the room name; with join, it counts one more
// client in it.
func (rs *Rooms) get(ctx context.Context, name string, join bool) (*Room, error) {
	if !validRoomName(name, rs.o.MaxRoomNameLength) {
		return nil, fmt.Errorf("%w: invalid name", ErrRoomUnknown)
	}
	for {
		rs.mu.Lock()
		if rs.draining {
			rs.mu.Unlock()
			return nil, ErrDraining
		}
		room := rs.rooms[name]
		if room == nil {
			break // create it, below, still locked
		}
		select {
		case <-room.ready:
		default:
			rs.mu.Unlock()
			select { // being opened: wait and look again
			case <-room.ready:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			continue
		}
		if room.closing && !room.closedByGo {
			// Ending because it was empty: wait, and open it anew.
			rs.mu.Unlock()
			select {
			case <-room.done:
			case <-ctx.Done():
				return nil, ctx.Err()
			}
			continue
		}
		defer rs.mu.Unlock()
		if room.closing {
			return nil, ErrRoomClosed
		}
		if !join {
			return room, nil
		}
		return room, rs.joinLocked(room)
	}
	// rs.mu is held.
	if len(rs.rooms) >= rs.o.MaxRooms {
		rs.mu.Unlock()
		return nil, fmt.Errorf("%w: %d rooms already", ErrTooManyRooms, rs.o.MaxRooms)
	}
	now := time.Now()
	rs.tokens = min(float64(rs.o.RoomBurst), rs.tokens+now.Sub(rs.last).Seconds()*rs.o.RoomRate)
	rs.last = now
	if rs.tokens < 1 {
		rs.mu.Unlock()
		return nil, fmt.Errorf("%w: more than %g new rooms a second", ErrTooManyRooms, rs.o.RoomRate)
	}
	rs.tokens--
	room := &Room{rs: rs, name: name, ready: make(chan struct{}), done: make(chan struct{}),
		budget: NewByteBudget(rs.o.RoomQueuedBytes, rs.budget)}
	rs.rooms[name] = room
	rs.mu.Unlock()

	err := rs.open(ctx, room)
	rs.mu.Lock()
	defer rs.mu.Unlock()
	if err != nil {
		delete(rs.rooms, name)
		room.err = err
		close(room.ready)
		return nil, err
	}
	if rs.draining {
		delete(rs.rooms, name)
		room.err = ErrDraining
		close(room.ready)
		go room.host.Close()
		if room.enet != nil {
			go room.enet.Close()
			delete(rs.ports, room.port)
		}
		return nil, ErrDraining
	}
	close(room.ready)
	if rs.o.Meter != nil {
		rs.o.Meter.RoomOpened()
	}
	rs.log.Info("multiplayer: room opened", "room", name)
	if !join {
		if rs.o.EmptyTimeout > 0 {
			room.timer = time.AfterFunc(rs.o.EmptyTimeout, func() { rs.endIfEmpty(room) })
		}
		return room, nil
	}
	return room, rs.joinLocked(room)
}

// joinLocked counts one more client in room, within the limits.
func (rs *Rooms) joinLocked(room *Room) error {
	if rs.peers >= rs.o.MaxPeers {
		return ErrServerFull
	}
	if room.peers >= room.host.o.MaxPeers {
		return ErrRoomFull
	}
	if room.timer != nil {
		room.timer.Stop()
		room.timer = nil
	}
	room.peers++
	rs.peers++
	rs.wg.Add(1)
	return nil
}

// open makes room's Host, and its ENet listener when configured.
func (rs *Rooms) open(ctx context.Context, room *Room) error {
	o := rs.o.Host
	o.Logger = rs.log.With("room", room.name)
	if o.Meter == nil && rs.o.Meter != nil {
		o.Meter = rs.o.Meter
	}
	o.QueueBudget = room.budget
	var h *Host
	var err error
	if rs.o.Open != nil {
		h, err = rs.o.Open(ctx, room.name, o)
		if err == nil && h == nil {
			err = errors.New("multiplayer: Open returned no Host")
		}
	} else {
		h, err = NewHost(o, rs.o.Nodes...)
	}
	if err != nil {
		return err
	}
	if h.o.Godot != rs.o.Host.Godot {
		h.Close()
		return fmt.Errorf("multiplayer: room %q: a Godot %d host in Godot %d rooms", room.name, h.o.Godot, rs.o.Host.Godot)
	}
	room.host = h
	if e := rs.o.ENet; e != nil {
		if err := rs.listenENet(room, e); err != nil {
			h.Close()
			return err
		}
	}
	return nil
}

// listenENet gives room a port of the range and serves it there.
func (rs *Rooms) listenENet(room *Room, e *RoomsENet) error {
	eo := e.Options
	eo.Godot = rs.o.Host.Godot
	var lastErr error = errors.New("no free port")
	for port := e.FirstPort; port <= e.LastPort; port++ {
		rs.mu.Lock()
		used := rs.ports[port]
		if !used {
			rs.ports[port] = true
		}
		rs.mu.Unlock()
		if used {
			continue
		}
		l, err := ListenENet(context.Background(), net.JoinHostPort(e.Host, strconv.Itoa(port)), eo)
		if err != nil {
			lastErr = err
			rs.mu.Lock()
			delete(rs.ports, port)
			rs.mu.Unlock()
			continue
		}
		room.enet, room.port = l, port
		rs.wg.Add(1)
		go rs.acceptLinks(room, l)
		return nil
	}
	return fmt.Errorf("%w: no ENet port for room %q in %d-%d: %v", ErrTooManyRooms, room.name, e.FirstPort, e.LastPort, lastErr)
}

// ServeListener serves the clients l accepts in the room name, created
// now when it does not exist, and keeps the room open (EmptyTimeout does
// not end it) while l serves: for an ENet listener of one's own, say, since
// ENet clients cannot name a room. It returns once l is closed, which
// happens when the room ends (Room.Close, Shutdown), after its peers are
// disconnected.
func (rs *Rooms) ServeListener(l Listener, name string) error {
	room, err := rs.get(context.Background(), name, false)
	if err != nil {
		l.Close()
		return err
	}
	rs.mu.Lock()
	if room.closing {
		rs.mu.Unlock()
		l.Close()
		return ErrRoomClosed
	}
	room.pinned++
	room.extra = append(room.extra, l)
	if room.timer != nil {
		room.timer.Stop()
		room.timer = nil
	}
	rs.wg.Add(1)
	rs.mu.Unlock()
	rs.acceptLinks(room, l)
	rs.mu.Lock()
	room.pinned--
	if room.peers == 0 && room.pinned == 0 && !room.closing && rs.o.EmptyTimeout > 0 {
		room.timer = time.AfterFunc(rs.o.EmptyTimeout, func() { rs.endIfEmpty(room) })
	}
	rs.mu.Unlock()
	return nil
}

// acceptLinks admits the clients l accepts into room until l closes.
func (rs *Rooms) acceptLinks(room *Room, l Listener) {
	defer rs.wg.Done()
	for {
		link, err := l.Accept(context.Background())
		if err != nil {
			return
		}
		rs.mu.Lock()
		err = ErrRoomClosed
		if !room.closing && !rs.draining {
			err = rs.joinLocked(room)
		} else if rs.draining {
			err = ErrDraining
		}
		rs.mu.Unlock()
		if err != nil {
			rs.refused(err)
			rs.log.Info("multiplayer: client refused", "room", room.name, "addr", addrOf(link), "reason", err)
			link.Close()
			continue
		}
		rs.start(room, link, func() {})
	}
}

// Create opens the room name now, as its first join would, for a
// matchmaker (and for ENet clients, which cannot name a room). It returns
// the room when it exists already.
func (rs *Rooms) Create(ctx context.Context, name string) (*Room, error) {
	return rs.get(ctx, name, false)
}

// Room returns the open room name, or nil.
func (rs *Rooms) Room(name string) *Room {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	r := rs.rooms[name]
	if r == nil || !r.opened() || r.closing {
		return nil
	}
	return r
}

// opened reports whether the room is open: its host set, which a room
// being opened (ready not yet closed) is writing.
func (r *Room) opened() bool {
	select {
	case <-r.ready:
		return r.err == nil
	default:
		return false
	}
}

// List returns the open rooms.
func (rs *Rooms) List() []*Room {
	rs.mu.Lock()
	defer rs.mu.Unlock()
	var out []*Room
	for _, r := range rs.rooms {
		if r.opened() && !r.closing {
			out = append(out, r)
		}
	}
	return out
}

// Name is the room's name.
func (r *Room) Name() string { return r.name }

// Host is the Host serving the room.
func (r *Room) Host() *Host { return r.host }

// ENetAddr is the address of the room's ENet listener, nil without one.
func (r *Room) ENetAddr() net.Addr {
	if r.enet == nil {
		return nil
	}
	return r.enet.Addr()
}

// Done is closed once the room has ended.
func (r *Room) Done() <-chan struct{} { return r.done }

// Close ends the room: its peers are disconnected after what is queued
// for them is sent (until ctx is done; WebSocket clients get close status
// 1000, "room closed"), and its name is free again.
func (r *Room) Close(ctx context.Context) error {
	rs := r.rs
	rs.mu.Lock()
	if r.closing {
		rs.mu.Unlock()
		<-r.done
		return nil
	}
	r.closing, r.closedByGo = true, true
	rs.wg.Add(1)
	rs.mu.Unlock()
	defer rs.wg.Done()
	return r.end(ctx, peer.CloseNormal, "room closed")
}

// end disconnects the room's peers and forgets it; r.closing is set.
func (r *Room) end(ctx context.Context, code int, reason string) error {
	rs := r.rs
	rs.mu.Lock()
	if r.timer != nil {
		r.timer.Stop()
	}
	rs.mu.Unlock()
	err := r.host.shutdown(ctx, code, reason)
	rs.mu.Lock()
	ls := append([]Listener(nil), r.extra...)
	rs.mu.Unlock()
	if r.enet != nil {
		ls = append(ls, r.enet)
	}
	for _, l := range ls {
		// Let the DISCONNECTs go out before an ENet socket closes.
		if el, ok := l.(*enetListener); ok {
			for el.linkCount() > 0 && ctx.Err() == nil {
				time.Sleep(5 * time.Millisecond)
			}
		}
		l.Close()
	}
	r.host.Close()
	rs.mu.Lock()
	if rs.rooms[r.name] == r {
		delete(rs.rooms, r.name)
	}
	if r.enet != nil {
		delete(rs.ports, r.port)
	}
	rs.mu.Unlock()
	close(r.done)
	if rs.o.Meter != nil {
		rs.o.Meter.RoomClosed()
	}
	rs.log.Info("multiplayer: room closed", "room", r.name, "reason", reason)
	if rs.o.OnClose != nil {
		rs.o.OnClose(r)
	}
	return err
}

func (l *enetListener) linkCount() int {
	l.mu.Lock()
	defer l.mu.Unlock()
	return len(l.links)
}
