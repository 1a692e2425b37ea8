package multiplayer

import (
	"context"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"sort"
	"sync"

	"github.com/gdvar/gdvar/internal/loglimit"
	"github.com/gdvar/gdvar/variant"
)

// ClientOptions configures a Client. The zero value joins a Godot 4 host
// without authentication.
type ClientOptions struct {
	// Godot is the engine family of the host: 0 or 4, or 3. It must match
	// the Link's.
	Godot variant.Family
	// Auth, when set, authenticates with a Godot 4 host that asks for it:
	// it is called once with nil data when the connection opens (to Send
	// credentials), then with each message the host sends. The client is
	// admitted once both sides have called Complete.
	Auth AuthFunc
	// AllowObjects accepts full Objects in arguments.
	AllowObjects bool
	// MaxPathCache is the most node paths each other peer may register;
	// 0 means DefaultMaxPathCache.
	MaxPathCache int
	// MaxPathCacheBytes bounds the memory of the paths each other peer
	// registers, as for a Host; 0 means DefaultMaxPathCacheBytes.
	MaxPathCacheBytes int
	// Logger receives refused packets; nil means slog.Default().
	Logger *slog.Logger
	// OnPeer is called when another peer joins or leaves.
	OnPeer func(id PeerID, joined bool)
	// OnBytes receives RAW packets; data is valid during the call only.
	OnBytes func(from PeerID, data []byte)
	// Observe sees every packet the client receives, as for a Host.
	Observe func(e *Event)
}

// Client is a peer that joins a multiplayer host: a Godot game hosting
// with WebSocketMultiplayerPeer (or Godot 3's WebSocketServer) or a Host.
type Client struct {
	*session
	o      ClientOptions
	log    *slog.Logger
	logLim *loglimit.Limiter
	link   Link
	id     PeerID
	ctx    context.Context
	stop   context.CancelFunc
	done   chan struct{}
	err    error

	wmu sync.Mutex // one writer at a time on the link

	mu         sync.Mutex
	peers      map[PeerID]*remote
	admitted   bool
	authLocal  bool
	authRemote bool
	admittedCh chan struct{}
}

// Join performs the connection handshake on link (the id the host assigns,
// and authentication when ClientOptions.Auth is set) and returns the
// connected client, which then serves the link on its own goroutine. ctx
// bounds the handshake.
func Join(ctx context.Context, link Link, o ClientOptions, nodes ...Node) (*Client, error) {
	sess, err := newSession(o.Godot, o.AllowObjects, nodes)
	if err != nil {
		return nil, err
	}
	if o.MaxPathCache <= 0 {
		o.MaxPathCache = DefaultMaxPathCache
	}
	if o.MaxPathCacheBytes <= 0 {
		o.MaxPathCacheBytes = DefaultMaxPathCacheBytes
	}
	c := &Client{session: sess, o: o, log: o.Logger, logLim: newLogLimiter(), link: link, peers: map[PeerID]*remote{}, done: make(chan struct{}), admittedCh: make(chan struct{})}
	if c.log == nil {
		c.log = slog.Default()
	}
	c.ctx, c.stop = context.WithCancel(context.Background())
	stop := context.AfterFunc(ctx, func() { link.Close() })
	id, err := c.handshake()
	if !stop() || err != nil {
		link.Close()
		if err == nil || ctx.Err() != nil {
			err = fmt.Errorf("%w: %v", ErrHandshake, ctx.Err())
		}
		return nil, err
	}
	c.id = id
	c.peers[HostID] = c.newRemote()
	go c.serve()
	if c.f == variant.Godot4 && o.Auth != nil {
		if err := o.Auth(ctx, c.authOf(), nil); err != nil {
			c.Close()
			return nil, err
		}
	} else {
		c.mu.Lock()
		c.admitLocked()
		c.mu.Unlock()
	}
	select {
	case <-c.admittedCh:
		return c, nil
	case <-c.done:
		return nil, fmt.Errorf("%w: %v", ErrHandshake, c.err)
	case <-ctx.Done():
		c.Close()
		return nil, fmt.Errorf("%w: %v", ErrHandshake, ctx.Err())
	}
}

func (c *Client) admitLocked() {
	if !c.admitted {
		c.admitted = true
		close(c.admittedCh)
	}
}

// handshake reads the id: Godot 4 sends it as a first 4-byte message;
// Godot 3 sends a SYS_ID and then adds the host.
func (c *Client) handshake() (PeerID, error) {
	var id PeerID
	for {
		f, err := c.link.ReadFrame()
		if err != nil {
			if c.f == variant.Godot3 && errors.Is(err, ErrTruncated) {
				return 0, fmt.Errorf("%w: %v (a Godot 4 host's first message is a 4-byte peer id: join a Godot 4 host as Godot 4, in ClientOptions and in the link's options)", ErrHandshake, err)
			}
			return 0, fmt.Errorf("%w: %v", ErrHandshake, err)
		}
		if c.f == variant.Godot4 {
			if f.Kind == FrameAssignID { // a transport where the client chose its id (ENet)
				if f.Peer < 2 {
					return 0, fmt.Errorf("%w: id %d", ErrHandshake, f.Peer)
				}
				return f.Peer, nil
			}
			if len(f.Data) != 4 {
				hint := ""
				if len(f.Data) == 13 {
					hint = " (13 bytes is a Godot 3 host's SYS_ID: join a Godot 3 host as Godot 3, in ClientOptions and in the link's options)"
				}
				return 0, fmt.Errorf("%w: the first message has %d bytes, not the 4 of a peer id%s", ErrHandshake, len(f.Data), hint)
			}
			id = PeerID(int32(binary.LittleEndian.Uint32(f.Data)))
			if id < 2 {
				return 0, fmt.Errorf("%w: assigned id %d", ErrHandshake, id)
			}
			return id, nil
		}
		switch f.Kind {
		case FrameAssignID:
			id = f.Peer
		case FramePeerAdded:
			if f.Peer == HostID && id >= 2 {
				return id, nil
			}
			return 0, fmt.Errorf("%w: peer %d added before the host", ErrHandshake, f.Peer)
		default:
			return 0, fmt.Errorf("%w: data before the id", ErrHandshake)
		}
	}
}

func (c *Client) authOf() *Auth {
	return &Auth{
		peer: HostID,
		send: func(data []byte) error {
			c.mu.Lock()
			done := c.authLocal
			c.mu.Unlock()
			if done {
				return ErrNotAllowed
			}
			return c.write(HostID, AppendSys(nil, SysAuth, 0, data), 0, Reliable)
		},
		complete: func() error {
			c.mu.Lock()
			if c.authLocal {
				c.mu.Unlock()
				return ErrNotAllowed
			}
			c.authLocal = true
			if c.authRemote {
				c.admitLocked()
			}
			c.mu.Unlock()
			return c.write(HostID, AppendSys(nil, SysAuth, 0, nil), 0, Reliable)
		},
	}
}

// ID is the id the host assigned.
func (c *Client) ID() PeerID { return c.id }

// Done is closed when the client has left the host.
func (c *Client) Done() <-chan struct{} { return c.done }

// Err says why the client left, once Done is closed; nil after Close or
// when the host closed the connection cleanly.
func (c *Client) Err() error {
	<-c.done
	return c.err
}

// Peers returns the ids of the other peers, the host included.
func (c *Client) Peers() []PeerID {
	c.mu.Lock()
	defer c.mu.Unlock()
	out := make([]PeerID, 0, len(c.peers))
	for id := range c.peers {
		out = append(out, id)
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out
}

// write sends a packet to one peer: directly to the host, through the
// host's relay for the others.
func (c *Client) write(to PeerID, pkt []byte, ch int, mode TransferMode) error {
	f := Frame{Kind: FrameData, From: c.id, To: to, Data: pkt, Channel: ch, Mode: mode}
	if c.f == variant.Godot4 && to != HostID {
		f.Data = AppendSys(nil, SysRelay, to, pkt)
	}
	c.wmu.Lock()
	defer c.wmu.Unlock()
	return c.link.WriteFrame(f)
}

// Close leaves the host.
func (c *Client) Close() error {
	c.stop()
	err := c.link.Close()
	<-c.done
	return err
}

func (c *Client) serve() {
	defer close(c.done)
	for {
		f, err := c.link.ReadFrame()
		if err != nil {
			if c.ctx.Err() == nil && err != io.EOF {
				c.err = err
			}
			return
		}
		switch f.Kind {
		case FramePeerAdded:
			c.peerChange(f.Peer, true)
			continue
		case FramePeerRemoved:
			c.peerChange(f.Peer, false)
			continue
		case FrameAssignID:
			continue
		}
		from := HostID
		if c.f == variant.Godot3 {
			from = f.From
		}
		c.receive(from, f.Data, false)
	}
}

func (c *Client) peerChange(id PeerID, joined bool) {
	c.mu.Lock()
	if joined {
		if _, ok := c.peers[id]; !ok && id != c.id {
			c.peers[id] = c.newRemote()
		}
	} else {
		delete(c.peers, id)
	}
	c.mu.Unlock()
	if c.o.OnPeer != nil {
		c.o.OnPeer(id, joined)
	}
}

func (c *Client) receive(from PeerID, b []byte, relayed bool) {
	pk, err := Parse(c.f, b)
	e := &Event{From: from, Relayed: relayed, Data: b, Packet: pk}
	if err != nil {
		c.refuse(e, err)
		return
	}
	c.mu.Lock()
	pending := c.f == variant.Godot4 && c.o.Auth != nil && !(c.authLocal && c.authRemote)
	c.mu.Unlock()
	if pending {
		if pk.Command != CmdSys || pk.Sys != SysAuth {
			c.refuse(e, fmt.Errorf("%w: only authentication messages before authentication", ErrNotAllowed))
			return
		}
		if len(pk.Payload) > 0 {
			if err := c.o.Auth(c.ctx, c.authOf(), pk.Payload); err != nil {
				c.log.Warn("multiplayer: authentication failed", "err", err)
				c.link.Close()
			}
			return
		}
		c.mu.Lock()
		c.authRemote = true
		if c.authLocal {
			c.admitLocked()
		}
		c.mu.Unlock()
		return
	}
	if pk.Command == CmdSys {
		if from != HostID || relayed {
			c.refuse(e, fmt.Errorf("%w: SYS from peer %d", ErrNotAllowed, from))
			return
		}
		switch pk.Sys {
		case SysAddPeer:
			c.peerChange(pk.Peer, true)
		case SysDelPeer:
			c.peerChange(pk.Peer, false)
		case SysRelay:
			c.receive(pk.Peer, pk.Payload, true)
		}
		return
	}
	c.process(from, e)
}

func (c *Client) refuse(e *Event, err error) {
	e.Err = err
	c.observe(e)
	if c.log.Enabled(c.ctx, slog.LevelDebug) {
		if ok, n := c.logLim.Allow(refusedKey(e.From)); ok {
			args := []any{"from", e.From, "err", loglimit.Cut(err.Error(), loglimit.DefaultMaxText)}
			if n > 0 {
				args = append(args, "suppressed", n)
			}
			c.log.Debug("multiplayer: refused packet", args...)
		}
	}
}

func (c *Client) process(from PeerID, e *Event) {
	pk := &e.Packet
	c.mu.Lock()
	r := c.peers[from]
	if r == nil {
		// A relayed packet from a peer the client was not told about.
		r = c.newRemote()
		c.peers[from] = r
	}
	c.mu.Unlock()
	var err error
	switch pk.Command {
	case CmdSimplifyPath:
		e.Node = string(pk.Path)
		c.mu.Lock()
		var reply []byte
		reply, err = c.simplify(r, pk)
		c.mu.Unlock()
		if reply != nil {
			c.write(from, reply, 0, Reliable)
		}
	case CmdConfirmPath:
		c.mu.Lock()
		err = c.confirm(r, pk)
		c.mu.Unlock()
	case CmdRaw:
		if c.o.OnBytes != nil {
			c.o.OnBytes(from, pk.Payload)
		}
	case CmdRemoteCall, CmdRemoteSet:
		c.mu.Lock()
		nd, m, rerr := c.resolve(r, e)
		c.mu.Unlock()
		if c.o.Observe != nil {
			if args, aerr := DecodeArgs(c.vdec, pk); aerr == nil {
				e.Args = args
			}
		}
		err = rerr
		if err == nil {
			err = c.dispatch(c.ctx, c.id, nd, m, e)
		}
	case CmdSpawn, CmdDespawn, CmdSync:
		// Replication: the client keeps no scene; Observe sees it decoded.
		if c.o.Observe != nil {
			c.mu.Lock()
			c.decodeReplication(r, e)
			c.mu.Unlock()
		}
	default:
		err = fmt.Errorf("%w: the client does not handle %s", ErrNotAllowed, pk.Command)
	}
	if err != nil {
		c.refuse(e, err)
		return
	}
	c.observe(e)
}

// observe shows Observe a copy of e, if there is an Observe: the Event of
// a received packet is the caller's (on its stack), and Observe is given
// one of its own, which it may keep.
func (c *Client) observe(e *Event) {
	if c.o.Observe == nil {
		return
	}
	o := new(Event)
	*o = *e
	c.o.Observe(o)
}

// targetsLocked returns the peers a packet to "to" goes to, in id order:
// that peer (1 for the host), or every known peer (0), or every one but
// -to (negative).
func (c *Client) targetsLocked(to PeerID) ([]PeerID, error) {
	if to > 0 {
		if c.peers[to] == nil {
			return nil, fmt.Errorf("%w: %d", ErrUnknownPeer, to)
		}
		return []PeerID{to}, nil
	}
	var targets []PeerID
	for id := range c.peers {
		if id != -to {
			targets = append(targets, id)
		}
	}
	sort.Slice(targets, func(i, j int) bool { return targets[i] < targets[j] })
	return targets, nil
}

// Call calls method on the node at path on peer to (1 for the host, 0 for
// every peer, -n for every peer but n), as rpc_id does; calls to other
// clients go through the host's relay.
func (c *Client) Call(to PeerID, path, methodName string, args ...any) error {
	nd, m, call, err := c.prepareCall(path, methodName, args)
	if err != nil {
		return err
	}
	c.mu.Lock()
	targets, err := c.targetsLocked(to)
	if err != nil {
		c.mu.Unlock()
		return err
	}
	var pkts [][][]byte
	for _, t := range targets {
		pkts = append(pkts, c.callPackets(c.peers[t], nd, call))
	}
	c.mu.Unlock()
	for i, t := range targets {
		for _, pkt := range pkts[i] {
			if err := c.write(t, pkt, m.Channel, m.Transfer); err != nil {
				return err
			}
		}
	}
	return nil
}

// SendBytes sends a RAW packet (peer_packet on the other side) to peer to:
// 1 for the host, 0 for every peer, -n for every peer but n.
func (c *Client) SendBytes(to PeerID, data []byte, mode TransferMode, channel int) error {
	if len(data) == 0 {
		return errors.New("multiplayer: empty raw packet")
	}
	return c.write(to, AppendRaw(nil, c.f, data), channel, mode)
}

// newRemote returns the path cache state of another peer.
func (c *Client) newRemote() *remote {
	return newRemote(&pathBudget{maxPaths: c.o.MaxPathCache, maxBytes: c.o.MaxPathCacheBytes})
}
