package multiplayer

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"math/rand/v2"
	"net"
	"sort"
	"strconv"
	"sync"
	"time"

	"github.com/gdvar/gdvar/internal/loglimit"
	"github.com/gdvar/gdvar/variant"
)

// Default limits of a Host.
const (
	DefaultAuthTimeout  = 3 * time.Second // the engine's auth_timeout
	DefaultMaxPeers     = 1024
	DefaultMaxPathCache = 4096
	// DefaultMaxPathCacheBytes bounds the memory of one peer's path cache:
	// 1 MiB holds 4096 paths of 200 bytes.
	DefaultMaxPathCacheBytes = 1 << 20
	DefaultMaxQueuedBytes    = 4 << 20
	DefaultMaxErrors         = 64
	DefaultMaxPeersPerIP     = 64
)

// AuthFunc authenticates a joining peer, in place of SceneMultiplayer's
// auth_callback: it is called with each authentication message the peer
// sends (SceneMultiplayer.send_auth on its side). It may answer with
// a.Send, ends its side with a.Complete, or returns an error to drop the
// peer. The peer is admitted once both sides have completed.
type AuthFunc func(ctx context.Context, a *Auth, data []byte) error

// Auth is the authentication exchange with one pending peer.
type Auth struct {
	peer     PeerID
	send     func(data []byte) error
	complete func() error
}

// Peer is the id of the other side of the exchange.
func (a *Auth) Peer() PeerID { return a.peer }

// Send sends authentication data to the other side (send_auth).
func (a *Auth) Send(data []byte) error {
	if len(data) == 0 {
		return errors.New("multiplayer: empty authentication data")
	}
	return a.send(data)
}

// Complete ends this side of the exchange (complete_auth).
func (a *Auth) Complete() error { return a.complete() }

func (h *Host) authOf(p *hostPeer) *Auth {
	return &Auth{
		peer: p.id,
		send: func(data []byte) error {
			h.mu.Lock()
			defer h.mu.Unlock()
			if !p.pending || p.authLocal {
				return ErrNotAllowed
			}
			h.sendLocked(p, AppendSys(nil, SysAuth, 0, data), 0, Reliable)
			return nil
		},
		complete: func() error {
			h.mu.Lock()
			defer h.mu.Unlock()
			if !p.pending || p.authLocal {
				return ErrNotAllowed
			}
			p.authLocal = true
			h.sendLocked(p, AppendSys(nil, SysAuth, 0, nil), 0, Reliable)
			if p.authRemote {
				h.admitLocked(p)
			}
			return nil
		},
	}
}

// HostOptions configures a Host. The zero value is a Godot 4 host that
// relays between clients, as SceneMultiplayer does by default, with the
// limits below at their defaults.
type HostOptions struct {
	// Godot is the engine family of the clients: 0 or 4, or 3.
	Godot variant.Family
	// NoRelay turns server_relay off: clients then know only the host.
	NoRelay bool
	// Auth, when set, authenticates each peer before it is admitted
	// (Godot 4 only). Until then only authentication messages are
	// accepted from it.
	Auth AuthFunc
	// AuthTimeout drops peers that have not completed authentication in
	// time; 0 means DefaultAuthTimeout (3 s, the engine's default).
	AuthTimeout time.Duration
	// MaxPeers is the most clients at once; 0 means DefaultMaxPeers. More
	// are refused at once.
	MaxPeers int
	// MaxPeersPerIP is the most clients at once from one IP address; 0
	// means DefaultMaxPeersPerIP. It keeps one machine from taking every
	// place with connections that never speak.
	MaxPeersPerIP int
	// MaxPathCache is the most node paths a peer may register in the
	// host's cache of its paths (SIMPLIFY_PATH); 0 means
	// DefaultMaxPathCache. A peer that registers more is dropped.
	MaxPathCache int
	// MaxPathCacheBytes bounds the memory the host holds for the paths a
	// peer registers, each charged at what it costs (its bytes and the
	// cache entry, about 100 bytes more); 0 means
	// DefaultMaxPathCacheBytes. A peer that registers more is dropped. A
	// single path longer than MaxPathLength is refused as a bad packet.
	// With Observe set, the paths a peer announces to other peers through
	// the relay are recorded too, for Observe's names, within a budget of
	// the same size of their own: past it they are not recorded, and the
	// peer is not dropped.
	MaxPathCacheBytes int
	// MaxQueuedBytes bounds what the host holds for one peer waiting to be
	// sent; 0 means DefaultMaxQueuedBytes. A peer that does not read fast
	// enough to stay within it is dropped.
	MaxQueuedBytes int
	// MaxErrors is how many malformed packets and protocol violations
	// (system packets a client may not send, forged senders, unconfirmable
	// paths) a peer may send before it is dropped; 0 means
	// DefaultMaxErrors, negative means no limit (the engine only logs
	// them). Refused RPC calls are reported but not counted.
	MaxErrors int
	// IdleTimeout drops a peer that sends nothing for this long; 0 means
	// no limit (Godot clients send nothing while idle).
	IdleTimeout time.Duration
	// Meter, when set, receives the host's counts, for metrics.
	Meter Meter
	// QueueBudget, when set, is charged every byte queued for the host's
	// peers besides MaxQueuedBytes: a budget shared by the rooms of a
	// process, say. A peer whose packet does not fit is dropped.
	QueueBudget *ByteBudget
	// AllowObjects accepts full Objects in arguments
	// (allow_object_decoding). Objects are only data here.
	AllowObjects bool
	// Logger receives the errors of peers; nil means slog.Default(). Its
	// lines are kept small whatever peers send: text a peer controls
	// (paths, method names, errors quoting them) is cut to MaxLogText
	// bytes, and lines of one kind (refused clients, dropped peers, one
	// peer's refused packets) are rate-limited, 10 at once and then one a
	// second, the next line that passes saying how many were held back
	// ("suppressed").
	Logger *slog.Logger
	// MaxLogText is the most bytes of peer-controlled text in a log line;
	// 0 means 300, negative means no limit.
	MaxLogText int
	// OnConnect is called, on a goroutine of its own, when a peer is
	// admitted; OnDisconnect, on the peer's goroutine, when an admitted
	// peer leaves (err says why, nil for a clean close).
	OnConnect    func(id PeerID)
	OnDisconnect func(id PeerID, err error)
	// OnBytes receives RAW packets (send_bytes; the engine's peer_packet
	// signal). data is valid during the call only.
	OnBytes func(from PeerID, data []byte)
	// Observe, when set, sees every packet the host receives, decoded as
	// far as the host can; for tracing. It runs on the peer's goroutine.
	// Each call is given an Event of its own, which Observe may keep (but
	// not Event.Data's bytes, valid during the call only). Without
	// Observe, the host allocates nothing in steady state for a call it
	// runs whose parameters hold no pointers, nor for a packet of up to
	// 4 KiB it relays over ENet or WebSocket (the transport's reading
	// aside).
	Observe func(e *Event)
	// ReplicationTick is how often the scene model (Spawn,
	// AddSynchronizer) sends SYNC and DELTA packets; 0 means
	// DefaultReplicationTick; negative: never by itself, the program calls
	// Host.Replicate.
	ReplicationTick time.Duration
}

// Event describes one packet received by a Host, for HostOptions.Observe.
type Event struct {
	From PeerID
	// To is the target of a relayed packet: 0 all, -n all but n.
	To PeerID
	// Relayed is set for a packet carried by a SYS RELAY (Godot 4) or
	// addressed to other peers (Godot 3).
	Relayed bool
	// Data is the packet as received (for a relayed packet, the inner
	// one); valid during the call only.
	Data   []byte
	Packet Packet
	// Node and Method name what a REMOTE_CALL calls, when the host knows
	// (Node from the path cache, Method from the declarations); Method is
	// "" when only the id is known.
	Node   string
	Method string
	// Args are the decoded arguments of a REMOTE_CALL.
	Args []variant.Value
	// Replication is a SPAWN, DESPAWN, SYNC or DELTA decoded (Godot 4).
	Replication *Replication
	// Err is why the packet was refused, if it was.
	Err error
}

// Host is a multiplayer host (peer id 1) that Godot clients join:
// SceneMultiplayer's server side with a Go program in place of the game.
//
// A client's packets are handled on "the peer's goroutine": over ENet
// (ListenENet) the ENet host's own receive goroutine, for all of its
// clients one packet at a time, as the engine handles them on its main
// thread, so that a relayed packet costs no hand-off between goroutines;
// over WebSocket on Linux (ListenWebSocket, Rooms, Handler) one of the
// process's peer.Poller goroutines, one per core, likewise shared by many
// clients; over other Links, and WebSocket with
// WebSocketOptions.NoPoller, a goroutine of the Host's for each client.
// On a shared goroutine the RPC methods, OnBytes, Observe and
// OnDisconnect should return soon: while one runs, the other clients of
// that goroutine wait.
type Host struct {
	*session
	o      HostOptions
	log    *slog.Logger
	logLim *loglimit.Limiter
	ctx    context.Context
	cancel context.CancelFunc
	noQ    *outQueue // the queue of the peers whose transport queues frames (queueFor)
	wg     sync.WaitGroup

	mu     sync.Mutex
	peers  map[PeerID]*hostPeer
	order  []PeerID // connection order, for the engine's iteration
	closed bool
	repl   *replState // the scene model, once a spawner or synchronizer is declared
	// scratch holds the packet being relayed to targets whose transport
	// copies it (relayToLocked).
	scratch []byte
	// batch gathers a relayed message's ENet targets (relayToLocked).
	batch enetBatch
}

type recvEntry struct {
	path string
	node *node // nil when the host does not declare the node
}

type hostPeer struct {
	id         PeerID
	ip         string
	link       Link
	q          *outQueue
	pending    bool // authenticating
	admitted   bool
	authLocal  bool
	authRemote bool
	*remote
	relayed      map[PeerID]*remote // paths announced to other peers through the relay, for Observe
	relayedPaths *pathBudget        // what relayed may hold, apart from the peer's own cache
	rp           *replPeer          // the scene model's view of the peer (Godot 4, once admitted)
	errs         int
	dropErr      error
}

// NewHost returns a host that knows the given nodes and their RPCs.
func NewHost(o HostOptions, nodes ...Node) (*Host, error) {
	if o.Godot == 0 {
		o.Godot = variant.Godot4
	}
	if o.Auth != nil && o.Godot == variant.Godot3 {
		return nil, errors.New("multiplayer: Godot 3 has no authentication step")
	}
	if o.AuthTimeout <= 0 {
		o.AuthTimeout = DefaultAuthTimeout
	}
	if o.MaxPeers <= 0 {
		o.MaxPeers = DefaultMaxPeers
	}
	if o.MaxPeersPerIP <= 0 {
		o.MaxPeersPerIP = DefaultMaxPeersPerIP
	}
	if o.MaxPathCache <= 0 {
		o.MaxPathCache = DefaultMaxPathCache
	}
	if o.MaxPathCacheBytes <= 0 {
		o.MaxPathCacheBytes = DefaultMaxPathCacheBytes
	}
	if o.MaxQueuedBytes <= 0 {
		o.MaxQueuedBytes = DefaultMaxQueuedBytes
	}
	if o.MaxErrors == 0 {
		o.MaxErrors = DefaultMaxErrors
	}
	sess, err := newSession(o.Godot, o.AllowObjects, nodes)
	if err != nil {
		return nil, err
	}
	if o.MaxLogText == 0 {
		o.MaxLogText = loglimit.DefaultMaxText
	}
	h := &Host{session: sess, o: o, log: o.Logger, logLim: newLogLimiter(), peers: map[PeerID]*hostPeer{}}
	if h.log == nil {
		h.log = slog.Default()
	}
	h.ctx, h.cancel = context.WithCancel(context.Background())
	return h, nil
}

// Serve accepts clients from l until ctx is done or the host is closed,
// and serves each (on goroutines of its own, or for ENet on the
// transport's). It closes l before returning.
func (h *Host) Serve(ctx context.Context, l Listener) error {
	defer l.Close()
	stop := context.AfterFunc(h.ctx, func() { l.Close() })
	defer stop()
	for {
		link, err := l.Accept(ctx)
		if err != nil {
			if h.ctx.Err() != nil {
				return ErrClosed
			}
			return err
		}
		h.wg.Add(1)
		h.startLink(link, func(error) { h.wg.Done() })
	}
}

// ServeLink serves one client on a Link the caller accepted, until it
// leaves or is dropped; it returns why. The Link is closed on return.
func (h *Host) ServeLink(link Link) error {
	done := make(chan error, 1)
	h.startLink(link, func(err error) { done <- err })
	err := <-done
	if err == io.EOF {
		return nil
	}
	return err
}

// startLink serves one client as ServeLink does, without waiting: after
// is called once the client has left (or was refused) and its Link is
// closed. A Link that delivers its frames itself (ENet's) needs no
// goroutine of the host's; any other is read on a goroutine of its own.
func (h *Host) startLink(link Link, after func(error)) {
	p, err := h.join(link)
	if err != nil {
		if r, ok := link.(refuser); ok {
			r.refuse(refusalReason(err))
		} else {
			link.Close()
		}
		after(err)
		return
	}
	end := func(err error) {
		h.leave(p, err)
		p.q.wait()
		p.q.discard() // gives what was left back to the shared budget
		link.Close()
		after(err)
	}
	if d, ok := link.(deliverer); ok {
		// Frames go straight to the transport's queue.
		d.deliver(func(f Frame, err error) error { return h.onFrame(p, f, err) }, end)
		return
	}
	// The queue's writer starts with the first frame queued (none for a
	// transport that queues frames itself).
	go func() { end(h.readLoop(p)) }()
}

// refuser is a Link that can tell a client it refuses why, as the
// transport's close allows; other Links are closed.
type refuser interface {
	refuse(reason string)
}

// errTooManyFrom refines ErrBudget for a client refused for its address.
var errTooManyFrom = fmt.Errorf("%w: too many peers from this address", ErrBudget)

// refusalReason is what a refused client is told.
func refusalReason(err error) string {
	switch {
	case errors.Is(err, errTooManyFrom):
		return "too many peers from your address"
	case errors.Is(err, ErrBudget):
		return "server full"
	case errors.Is(err, ErrClosed):
		return "server closing"
	}
	return "refused"
}

func (h *Host) join(link Link) (*hostPeer, error) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.closed {
		return nil, ErrClosed
	}
	if len(h.peers) >= h.o.MaxPeers {
		h.logLine(slog.LevelWarn, "refuse full", "multiplayer: refusing a client: too many peers", "addr", addrOf(link), "max", h.o.MaxPeers)
		return nil, fmt.Errorf("%w: %d peers already", ErrBudget, len(h.peers))
	}
	ip := ipOf(link)
	if ip != "" {
		n := 0
		for _, o := range h.peers {
			if o.ip == ip {
				n++
			}
		}
		if n >= h.o.MaxPeersPerIP {
			h.logLine(slog.LevelWarn, "refuse ip", "multiplayer: refusing a client: too many from its address", "addr", addrOf(link), "max", h.o.MaxPeersPerIP)
			return nil, fmt.Errorf("%w: %d from %s already", errTooManyFrom, n, ip)
		}
	}
	id := h.newIDLocked()
	if cl, ok := link.(ClientIDLink); ok {
		// The client chose its id (ENet): the engine's server refuses one
		// below 2 or taken.
		id = cl.ClientID()
		if _, taken := h.peers[id]; taken || id < 2 {
			h.logLine(slog.LevelWarn, "refuse id", "multiplayer: refusing a client: its id is taken or reserved", "addr", addrOf(link), "peer", id)
			return nil, fmt.Errorf("%w: client id %d is taken or reserved", ErrNotAllowed, id)
		}
	}
	p := &hostPeer{id: id, ip: ip, link: link, remote: newRemote(h.pathBudget())}
	p.q = h.queueFor(link, func(err error) { h.writeFailed(p, err) })
	h.peers[id] = p
	h.order = append(h.order, id)
	p.q.shared = h.o.QueueBudget
	if a, ok := link.(attacher); ok {
		a.attach(h.o.MaxQueuedBytes, h.o.QueueBudget, h.o.IdleTimeout)
	}
	h.frameLocked(p, Frame{Kind: FrameAssignID, Peer: id})
	if h.o.Godot == variant.Godot3 {
		// Godot 3's WebSocketMultiplayerPeer: the id, then the host, then
		// the other peers both ways (_send_add).
		h.frameLocked(p, Frame{Kind: FramePeerAdded, Peer: HostID})
		for _, oid := range h.order {
			if o := h.peers[oid]; o != p {
				h.frameLocked(o, Frame{Kind: FramePeerAdded, Peer: id})
				h.frameLocked(p, Frame{Kind: FramePeerAdded, Peer: oid})
			}
		}
		h.admitLocked(p)
		return p, nil
	}
	if h.o.Auth != nil {
		p.pending = true
		time.AfterFunc(h.o.AuthTimeout, func() {
			h.mu.Lock()
			still := p.pending && h.peers[p.id] == p
			h.mu.Unlock()
			if still {
				h.drop(p, ErrAuthTimeout)
			}
		})
		return p, nil
	}
	h.admitLocked(p)
	return p, nil
}

// newLogLimiter returns the rate limit of log lines of one kind: 10 at
// once, then one a second.
func newLogLimiter() *loglimit.Limiter { return loglimit.New(10, time.Second) }

func refusedKey(id PeerID) string { return "refused " + strconv.Itoa(int(id)) }

// logLine logs msg at level unless lines of its kind (key) are being held
// back; the first line that passes after some were adds their count.
// Text a peer controls in args must have been cut (cut).
func (h *Host) logLine(level slog.Level, key, msg string, args ...any) {
	if !h.log.Enabled(h.ctx, level) {
		return
	}
	ok, n := h.logLim.Allow(key)
	if !ok {
		return
	}
	if n > 0 {
		args = append(args, "suppressed", n)
	}
	h.log.Log(h.ctx, level, msg, args...)
}

// cut returns err's text cut to MaxLogText bytes, for a log line.
func (h *Host) cut(err error) string {
	if err == nil {
		return ""
	}
	return loglimit.Cut(err.Error(), h.o.MaxLogText)
}

// pathBudget returns a new peer's path cache budget.
func (h *Host) pathBudget() *pathBudget {
	return &pathBudget{maxPaths: h.o.MaxPathCache, maxBytes: h.o.MaxPathCacheBytes}
}

// ipOf returns the IP address of the link's other side, "" when unknown.
func ipOf(l Link) string {
	a := l.RemoteAddr()
	if a == nil {
		return ""
	}
	if ta, ok := a.(*net.TCPAddr); ok {
		return ta.IP.String()
	}
	host, _, err := net.SplitHostPort(a.String())
	if err != nil {
		return ""
	}
	return host
}

func addrOf(l Link) string {
	if a := l.RemoteAddr(); a != nil {
		return a.String()
	}
	return ""
}

// newIDLocked picks a free id in [2, 2^31-1], at random as the engine does.
func (h *Host) newIDLocked() PeerID {
	for {
		id := PeerID(rand.Int32N(1<<31-2) + 2)
		if _, used := h.peers[id]; !used {
			return id
		}
	}
}

// admitLocked admits p: SceneMultiplayer._admit_peer.
func (h *Host) admitLocked(p *hostPeer) {
	p.pending = false
	if h.o.Godot == variant.Godot4 && !h.o.NoRelay {
		for _, oid := range h.order {
			o := h.peers[oid]
			if o == p || !o.admitted {
				continue
			}
			h.sendLocked(o, AppendSys(nil, SysAddPeer, p.id, nil), 0, Reliable)
			h.sendLocked(p, AppendSys(nil, SysAddPeer, o.id, nil), 0, Reliable)
		}
	}
	if h.o.Godot == variant.Godot4 && h.repl != nil {
		// After the ADD_PEER notices and before OnConnect, as the
		// engine's replicator->on_peer_change: the peer gets every node
		// it may see before it hears of anything spawned later.
		h.replJoinLocked(p)
	}
	p.admitted = true
	if h.o.Meter != nil {
		h.o.Meter.Joined()
	}
	if h.o.OnConnect != nil {
		id := p.id
		go h.o.OnConnect(id)
	}
}

func (h *Host) leave(p *hostPeer, err error) {
	h.mu.Lock()
	if h.peers[p.id] != p {
		h.mu.Unlock()
		return
	}
	delete(h.peers, p.id)
	for i, id := range h.order {
		if id == p.id {
			h.order = append(h.order[:i], h.order[i+1:]...)
			break
		}
	}
	if p.dropErr != nil {
		err = p.dropErr
	}
	if h.repl != nil {
		h.replLeaveLocked(p)
	}
	if p.admitted {
		for _, oid := range h.order {
			o := h.peers[oid]
			if h.o.Godot == variant.Godot3 {
				h.frameLocked(o, Frame{Kind: FramePeerRemoved, Peer: p.id})
			} else if !h.o.NoRelay && o.admitted {
				h.sendLocked(o, AppendSys(nil, SysDelPeer, p.id, nil), 0, Reliable)
			}
		}
	}
	admitted := p.admitted
	h.mu.Unlock()
	if n := h.logLim.Flush(refusedKey(p.id)); n > 0 {
		h.log.Debug("multiplayer: refused packets not logged", "peer", p.id, "suppressed", n)
	}
	p.q.close()
	if err == io.EOF {
		err = nil
	}
	if admitted && h.o.Meter != nil {
		h.o.Meter.Left()
	}
	if admitted && h.o.OnDisconnect != nil {
		h.o.OnDisconnect(p.id, err)
	}
}

// drop disconnects p for err.
func (h *Host) drop(p *hostPeer, err error) {
	if h.o.Meter != nil {
		h.o.Meter.Dropped(Reason(err))
	}
	h.mu.Lock()
	if p.dropErr == nil {
		p.dropErr = err
	}
	h.mu.Unlock()
	h.logLine(slog.LevelWarn, "drop", "multiplayer: dropping peer", "peer", p.id, "err", h.cut(err))
	p.q.close()
	p.link.Close()
}

// frameLocked queues a frame for p; a peer over its budget is dropped.
func (h *Host) frameLocked(p *hostPeer, f Frame) { h.queueLocked(p, f, false, nil) }

// queuedLocked follows a frame of kind and data that p's transport
// queued itself (queuer), with err: a peer over its budget is dropped, a
// data frame is metered.
func (h *Host) queuedLocked(p *hostPeer, kind FrameKind, data []byte, err error) {
	if err != nil {
		if p.dropErr == nil {
			p.dropErr = err
			go h.drop(p, err)
		}
		return
	}
	if h.o.Meter != nil && kind == FrameData {
		h.o.Meter.PacketOut(commandOf(h.o.Godot, data), len(data))
	}
}

// queueLocked queues a frame for p, a copy of its data unless shared
// (the data of a relayed message, made once and shared by the targets'
// queues, which the caller does not change); a peer over its budget is
// dropped. buf, when set, is the pooled buffer that holds the shared data
// (for a queue that is pooled).
func (h *Host) queueLocked(p *hostPeer, f Frame, shared bool, buf *sendBuf) {
	if qu, ok := p.link.(queuer); ok {
		// The transport queues and budgets the frame itself (ENet's
		// MaxPeerMemory and MaxHostMemory).
		if h.closed {
			return // a closing host refuses new frames
		}
		h.queuedLocked(p, f.Kind, f.Data, qu.queueFrame(f))
		return
	}
	var err error
	switch {
	case buf != nil:
		err = p.q.pushBuf(f, buf)
	case shared:
		err = p.q.pushShared(f)
	default:
		err = p.q.push(f)
	}
	switch {
	case err == nil:
		if h.o.Meter != nil && f.Kind == FrameData {
			h.o.Meter.PacketOut(commandOf(h.o.Godot, f.Data), len(f.Data))
		}
	case h.closed, errors.Is(err, errQueueClosed):
		// A closing host refuses new frames, as it should; a closed queue
		// is a peer whose connection has ended and which is leaving: it
		// misses the frame, and leaves for its own reason.
	case p.dropErr == nil:
		p.dropErr = err
		go h.drop(p, err)
	}
}

// sendLocked queues a packet for p.
func (h *Host) sendLocked(p *hostPeer, pkt []byte, ch int, mode TransferMode) {
	h.frameLocked(p, Frame{Kind: FrameData, From: HostID, To: p.id, Data: pkt, Channel: ch, Mode: mode})
}

// writeFailed is told by p's queue that a write failed; the queue has
// ended.
func (h *Host) writeFailed(p *hostPeer, err error) {
	if errors.Is(err, net.ErrClosed) {
		// The connection is closing (the peer left, or the host closed
		// it): the read side reports why, as a leave.
		p.link.Close()
		return
	}
	h.drop(p, err)
}

// Peers returns the ids of the admitted peers.
func (h *Host) Peers() []PeerID {
	h.mu.Lock()
	defer h.mu.Unlock()
	var out []PeerID
	for _, id := range h.order {
		if h.peers[id].admitted {
			out = append(out, id)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// Kick disconnects a peer.
func (h *Host) Kick(id PeerID) error {
	p := h.peer(id)
	if p == nil {
		return ErrUnknownPeer
	}
	h.drop(p, ErrKicked)
	return nil
}

// targetsLocked returns the admitted peers that target to names: one id,
// 0 for all, -n for all but n.
func (h *Host) targetsLocked(to PeerID) ([]*hostPeer, error) {
	if to > 0 {
		p := h.peers[to]
		if p == nil || !p.admitted {
			return nil, fmt.Errorf("%w: %d", ErrUnknownPeer, to)
		}
		return []*hostPeer{p}, nil
	}
	var out []*hostPeer
	for _, id := range h.order {
		if p := h.peers[id]; p.admitted && id != -to {
			out = append(out, p)
		}
	}
	return out, nil
}

// Call calls method on the node at path on peer to (one id, 0 for every
// peer, -n for every peer but n), like the engine's rpc_id. The node and
// method must be declared; args are converted as gdvar.Marshal converts
// values. With CallLocal, the host's own handler runs too when the target
// includes the host.
func (h *Host) Call(to PeerID, path, methodName string, args ...any) error {
	nd, m, c, err := h.prepareCall(path, methodName, args)
	if err != nil {
		return err
	}
	h.mu.Lock()
	targets, err := h.targetsLocked(to)
	if err != nil {
		h.mu.Unlock()
		return err
	}
	for _, p := range targets {
		if nd.sn != nil && !nd.sn.hasPeerLocked(p) {
			// A node of the scene model reaches only the peers it is
			// spawned on (the engine's is_rpc_visible).
			if to > 0 {
				h.mu.Unlock()
				return fmt.Errorf("%w: %s is not visible to peer %d", ErrNotAllowed, nd.path, to)
			}
			continue
		}
		for _, pkt := range h.callPackets(p.remote, nd, c) {
			h.sendLocked(p, pkt, m.Channel, m.Transfer)
		}
	}
	h.mu.Unlock()
	if m.CallLocal && (to <= 0 && to != -HostID || to == HostID) && m.fn.IsValid() {
		pk, err := Parse(h.f, AppendCall(nil, h.f, c))
		if err != nil {
			return err
		}
		return m.invoke(h.ctx, h.dec, h.f, HostID, &pk)
	}
	return nil
}

func trimRoot(p string) string {
	if len(p) > 6 && p[:6] == "/root/" {
		return p[6:]
	}
	return p
}

// SendBytes sends a RAW packet (the client's peer_packet signal) to peer
// to (one id, 0 for all, -n for all but n).
func (h *Host) SendBytes(to PeerID, data []byte, mode TransferMode, channel int) error {
	if len(data) == 0 {
		return errors.New("multiplayer: empty raw packet")
	}
	pkt := AppendRaw(nil, h.o.Godot, data)
	h.mu.Lock()
	defer h.mu.Unlock()
	targets, err := h.targetsLocked(to)
	if err != nil {
		return err
	}
	for _, p := range targets {
		h.sendLocked(p, pkt, channel, mode)
	}
	return nil
}

// Close disconnects every peer and stops Serve.
func (h *Host) Close() error {
	h.mu.Lock()
	if h.closed {
		h.mu.Unlock()
		return nil
	}
	h.closed = true
	ps := make([]*hostPeer, 0, len(h.peers))
	for _, p := range h.peers {
		ps = append(ps, p)
	}
	h.mu.Unlock()
	h.cancel()
	for _, p := range ps {
		p.q.close()
		p.link.Close()
	}
	h.wg.Wait()
	return nil
}
