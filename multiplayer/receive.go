package multiplayer

// What a Host does with what its clients send: the read loop of a client
// on goroutines of its own, each frame's checks (the peer's errors, the
// Observe hook, refusals), the host's own RPCs and replication messages,
// and the relay of what is addressed to other clients, for Godot 4
// (receive4, relay4) and Godot 3 (receive3).

import (
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/gdvar/gdvar/variant"
)

// readLoop reads p's frames on a goroutine of its own (a link that does
// not deliver them itself) until the link fails or a frame ends the
// client, with IdleTimeout as each read's deadline where the link has one.
func (h *Host) readLoop(p *hostPeer) error {
	dl, canDeadline := p.link.(interface{ SetReadDeadline(time.Time) error })
	for {
		if h.o.IdleTimeout > 0 && canDeadline {
			dl.SetReadDeadline(time.Now().Add(h.o.IdleTimeout))
		}
		f, err := p.link.ReadFrame()
		if err != nil {
			if _, ok := errors.AsType[*PacketError](err); !ok {
				return err
			}
		}
		if err := h.onFrame(p, f, err); err != nil {
			return err
		}
	}
}

// onFrame handles a frame read from p's link, or the *PacketError its
// link could not make a frame of (readErr); an error ends the client.
func (h *Host) onFrame(p *hostPeer, f Frame, readErr error) error {
	if readErr != nil {
		if h.peerError(p, &Event{From: p.id}, readErr) {
			return readErr
		}
		return nil
	}
	if f.Kind != FrameData {
		h.peerError(p, &Event{From: p.id}, perr(0, CmdUnknown, ErrInvalidPacket, "a client sent a system message"))
		return nil
	}
	if h.o.Meter != nil {
		h.o.Meter.PacketIn(commandOf(h.o.Godot, f.Data), len(f.Data))
	}
	if h.o.Godot == variant.Godot3 {
		return h.receive3(p, f)
	}
	return h.receive4(p, f)
}

// peerError records a refused packet and shows it to Observe; true when p
// has now sent too many.
func (h *Host) peerError(p *hostPeer, e *Event, err error) bool {
	e.Err = err
	h.observe(e)
	h.countRefused(err)
	return h.refuse(p, err)
}

// observe shows Observe a copy of e, if there is an Observe: the Event
// of a received packet is the caller's (on its stack, with no Observe to
// keep it), and Observe is given one of its own, which it may keep.
func (h *Host) observe(e *Event) {
	if h.o.Observe == nil {
		return
	}
	c := new(Event)
	*c = *e
	h.o.Observe(c)
}

// refuse counts a refused packet; true when p has now sent too many.
// Refused calls (unknown nodes or methods, modes, arguments) do not count:
// games call RPCs on nodes a Go host need not know, and the engine only
// logs them.
func (h *Host) refuse(p *hostPeer, err error) bool {
	h.logLine(slog.LevelDebug, refusedKey(p.id), "multiplayer: refused packet", "peer", p.id, "err", h.cut(err))
	if _, isCall := errors.AsType[*CallError](err); isCall {
		return false
	}
	h.mu.Lock()
	p.errs++
	over := h.o.MaxErrors > 0 && p.errs > h.o.MaxErrors
	h.mu.Unlock()
	if over {
		h.drop(p, fmt.Errorf("%w: more than %d refused packets, the last: %v", ErrBudget, h.o.MaxErrors, err))
	}
	return over
}

// receive4 is SceneMultiplayer::poll for one packet of a Godot 4 client.
func (h *Host) receive4(p *hostPeer, f Frame) error {
	b := f.Data
	h.mu.Lock()
	pending := p.pending
	h.mu.Unlock()
	if pending {
		if len(b) < 2 || b[0]&7 != 7 || b[1] != byte(SysAuth) {
			h.peerError(p, &Event{From: p.id}, fmt.Errorf("%w: only authentication messages before authentication", ErrNotAllowed))
			return nil
		}
		if h.o.Observe != nil {
			ap, _ := Parse(variant.Godot4, b)
			h.o.Observe(&Event{From: p.id, Data: b, Packet: ap})
		}
		if len(b) > 2 {
			a := h.authOf(p)
			if err := h.o.Auth(h.ctx, a, b[2:]); err != nil {
				h.drop(p, fmt.Errorf("multiplayer: authentication refused: %w", err))
				return err
			}
			return nil
		}
		h.mu.Lock()
		p.authRemote = true
		if p.authLocal {
			h.admitLocked(p)
		}
		h.mu.Unlock()
		return nil
	}
	pkt, err := Parse(variant.Godot4, b)
	e := &Event{From: p.id, Packet: pkt, Data: b}
	if err != nil {
		h.peerError(p, e, err)
		return nil
	}
	if pkt.Command == CmdSys {
		switch pkt.Sys {
		case SysAuth:
			if len(b) != 2 {
				h.peerError(p, e, perr(2, CmdSys, ErrInvalidPacket, "authentication data after authentication"))
			}
			return nil
		case SysRelay:
			return h.relay4(p, pkt, f)
		default:
			h.peerError(p, e, perr(1, CmdSys, ErrNotAllowed, "a client sent "+pkt.Sys.String()))
			return nil
		}
	}
	h.process(p, p.id, e)
	return nil
}

// relay4 forwards a SYS RELAY packet as the engine's server does.
func (h *Host) relay4(p *hostPeer, pkt Packet, f Frame) error {
	e := &Event{From: p.id, To: pkt.Peer, Relayed: true, Data: pkt.Payload}
	if h.o.NoRelay {
		h.peerError(p, e, fmt.Errorf("%w: relay is off", ErrNotAllowed))
		return nil
	}
	inner := pkt.Payload
	if ip, err := Parse(variant.Godot4, inner); err == nil {
		e.Packet = ip
	}
	target := pkt.Peer
	h.mu.Lock()
	m := relayMsg{sys: true, src: p.id, body: inner}
	if target > 0 {
		t := h.peers[target]
		if t == nil || !t.admitted || target == p.id {
			h.mu.Unlock()
			// The engine drops it silently: the target may have just left.
			e.Err = fmt.Errorf("%w: relay to %d", ErrUnknownPeer, target)
			h.observe(e)
			return nil
		}
		h.relayToLocked(t, &m, Frame{Kind: FrameData, From: HostID, To: t.id, Channel: f.Channel, Mode: f.Mode})
		h.relayDoneLocked(&m)
		h.mu.Unlock()
		h.countRelayed(1)
		h.observeRelayed(p, target, e)
		return nil
	}
	n := 0
	for _, oid := range h.order {
		o := h.peers[oid]
		if o == p || oid == -target || !o.admitted {
			continue
		}
		h.relayToLocked(o, &m, Frame{Kind: FrameData, From: HostID, To: o.id, Channel: f.Channel, Mode: f.Mode})
		n++
	}
	h.relayDoneLocked(&m)
	h.mu.Unlock()
	h.countRelayed(n)
	if target == -1 {
		h.observeRelayed(p, target, e)
		return nil
	}
	// The host is one of the targets: process it as from the source.
	ip, err := Parse(variant.Godot4, inner)
	e.Packet = ip
	if err != nil {
		h.peerError(p, e, err)
		return nil
	}
	if ip.Command == CmdSys {
		h.peerError(p, e, perr(0, CmdSys, ErrInvalidPacket, "a relayed SYS packet"))
		return nil
	}
	h.process(p, p.id, e)
	return nil
}

// relayMsg is a message the host relays to one or more targets: body as
// it came (Godot 3), or a SYS RELAY from src carrying body (Godot 4). Its
// data is made at most once for each kind of target that needs it
// (relayToLocked), and shared by the targets of that kind.
type relayMsg struct {
	sys  bool
	src  PeerID
	body []byte
	// direct is the data for targets whose transport copies it (queuer):
	// body itself, or the SYS RELAY built in the host's scratch.
	direct []byte
	// buf holds the data for queues that give their buffers back once
	// written (outQueue.pooled); clone, for the other queues.
	buf   *sendBuf
	clone []byte
}

// appendTo appends the message's data.
func (m *relayMsg) appendTo(dst []byte) []byte {
	if m.sys {
		return AppendSys(dst, SysRelay, m.src, m.body)
	}
	return append(dst, m.body...)
}

func (m *relayMsg) size() int {
	if m.sys {
		return sysCmdSize + len(m.body)
	}
	return len(m.body)
}

// relayToLocked queues m for o as frame f (its data set here), with no
// copy of the data for a target whose transport copies it (ENet: the
// targets are gathered in h.batch, and relayDoneLocked queues the message
// for them with one copy in all) and one copy, pooled when the queue
// allows, for every target whose queue keeps it (WebSocket).
// relayDoneLocked ends the message.
func (h *Host) relayToLocked(o *hostPeer, m *relayMsg, f Frame) {
	if _, direct := o.link.(queuer); direct {
		if m.direct == nil {
			m.direct = m.body
			if m.sys {
				h.scratch = m.appendTo(h.scratch[:0])
				m.direct = h.scratch
			}
		}
		f.Data = m.direct
		if l, ok := o.link.(*enetLink); ok && !h.closed {
			h.batch.add(h, o, l, f)
			return
		}
		h.queueLocked(o, f, true, nil)
		return
	}
	if o.q.pooled && m.size() <= maxPooledSend {
		if m.buf == nil {
			m.buf = getSendBuf(m.size())
			m.buf.b = m.appendTo(m.buf.b)
		}
		f.Data = m.buf.b
		h.queueLocked(o, f, true, m.buf)
		return
	}
	if m.clone == nil {
		m.clone = m.appendTo(make([]byte, 0, m.size()))
	}
	f.Data = m.clone
	h.queueLocked(o, f, true, nil)
}

// relayDoneLocked ends the relay of m: the ENet targets gathered get it,
// its pooled buffer is the queues' alone, and the host's scratch is free
// again (let go when it grew past 64 KiB).
func (h *Host) relayDoneLocked(m *relayMsg) {
	h.batch.flush(h)
	if m.buf != nil {
		m.buf.release()
	}
	if cap(h.scratch) > 1<<16 {
		h.scratch = nil
	}
}

// receive3 is the server side of Godot 3's WebSocketMultiplayerPeer and
// NetworkedMultiplayerENet (which relay alike: the sender must be the
// peer, the packet goes on with its channel and mode) plus
// MultiplayerAPI::_process_packet for one message.
func (h *Host) receive3(p *hostPeer, f Frame) error {
	e := &Event{From: p.id, To: f.To, Data: f.Data}
	if f.From != p.id {
		h.peerError(p, e, fmt.Errorf("%w: message claims to come from peer %d", ErrNotAllowed, f.From))
		return nil
	}
	forUs := f.To == HostID || f.To == Broadcast || f.To < 0 && f.To != -p.id
	if f.To != HostID {
		e.Relayed = true
		n := 0
		h.mu.Lock()
		m := relayMsg{body: f.Data}
		out := Frame{Kind: FrameData, From: p.id, To: f.To, Channel: f.Channel, Mode: f.Mode}
		switch {
		case f.To > 0:
			t := h.peers[f.To]
			if t == nil || f.To == p.id {
				h.mu.Unlock()
				h.peerError(p, e, fmt.Errorf("%w: relay to %d", ErrUnknownPeer, f.To))
				return nil
			}
			h.relayToLocked(t, &m, out)
			n = 1
		default:
			for _, oid := range h.order {
				if oid != p.id && oid != -f.To {
					h.relayToLocked(h.peers[oid], &m, out)
					n++
				}
			}
		}
		h.relayDoneLocked(&m)
		h.mu.Unlock()
		h.countRelayed(n)
	}
	pkt, err := Parse(variant.Godot3, f.Data)
	e.Packet = pkt
	if err != nil {
		h.peerError(p, e, err)
		return nil
	}
	if !forUs {
		h.observeRelayed(p, f.To, e)
		return nil
	}
	h.process(p, p.id, e)
	return nil
}

// refuseEvent marks e refused; process shows e to Observe itself.
func (h *Host) refuseEvent(p *hostPeer, e *Event, err error) {
	e.Err = err
	h.countRefused(err)
	h.refuse(p, err)
}

// describe fills in the node and method names and the arguments of a
// call, as far as the host knows them.
func (h *Host) describe(from PeerID, e *Event) {
	pk := &e.Packet
	if pk.Command == CmdSpawn || pk.Command == CmdDespawn || pk.Command == CmdSync {
		h.mu.Lock()
		if p := h.peers[from]; p != nil {
			h.decodeReplication(p.remote, e)
		}
		h.mu.Unlock()
		return
	}
	if pk.Command != CmdRemoteCall && pk.Command != CmdRemoteSet {
		return
	}
	if p := h.peer(from); p != nil {
		h.mu.Lock()
		h.find(p.remote, e) // the names only
		h.mu.Unlock()
	}
	if args, err := DecodeArgs(h.vdec, pk); err == nil {
		e.Args = args
	}
}

// observeRelayed shows Observe a packet the host only relays, with the
// node and method names the sender announced to that target.
func (h *Host) observeRelayed(p *hostPeer, target PeerID, e *Event) {
	if h.o.Observe == nil {
		return
	}
	pk := &e.Packet
	h.mu.Lock()
	if p.relayed == nil {
		p.relayed = map[PeerID]*remote{}
		p.relayedPaths = h.pathBudget()
	}
	r := p.relayed[target]
	if r == nil && len(p.relayed) < h.o.MaxPeers {
		r = newRemote(p.relayedPaths)
		p.relayed[target] = r
	}
	if r != nil {
		switch pk.Command {
		case CmdSimplifyPath:
			e.Node = string(pk.Path)
			h.simplify(r, pk) // past the budget, the path is not recorded
		case CmdRemoteCall, CmdRemoteSet:
			h.find(r, e) // the names only
		case CmdSpawn, CmdDespawn, CmdSync:
			h.decodeReplication(r, e)
		}
	}
	h.mu.Unlock()
	if pk.Command == CmdRemoteCall || pk.Command == CmdRemoteSet {
		if args, err := DecodeArgs(h.vdec, pk); err == nil {
			e.Args = args
		}
	}
	h.observe(e)
}

func (h *Host) peer(id PeerID) *hostPeer {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.peers[id]
}

// process handles a packet addressed to the host, from peer "from"
// (the source of a relayed packet).
func (h *Host) process(p *hostPeer, from PeerID, e *Event) {
	pk := &e.Packet
	if h.o.Observe != nil {
		h.describe(from, e)
		defer h.observe(e)
	}
	switch pk.Command {
	case CmdSimplifyPath:
		e.Node = string(pk.Path)
		h.mu.Lock()
		if h.repl != nil {
			h.materializeLocked(e.Node)
		}
		reply, err := h.simplify(p.remote, pk)
		if reply != nil {
			h.sendLocked(p, reply, 0, Reliable)
		}
		if h.repl != nil && err == nil {
			h.noteRecvLocked(p, pk.NodeID)
		}
		h.mu.Unlock()
		if errors.Is(err, ErrBudget) {
			e.Err = err
			h.drop(p, err)
		} else if err != nil {
			h.refuseEvent(p, e, err)
		}
	case CmdConfirmPath:
		h.mu.Lock()
		err := h.confirm(p.remote, pk)
		h.mu.Unlock()
		if err != nil {
			h.refuseEvent(p, e, err)
		}
	case CmdRaw:
		if h.o.OnBytes != nil {
			h.o.OnBytes(from, pk.Payload)
		}
	case CmdRemoteCall, CmdRemoteSet:
		h.mu.Lock()
		nd, m, err := h.resolve(p.remote, e)
		h.mu.Unlock()
		switch {
		case err != nil:
		case h.o.Meter != nil:
			start := time.Now()
			err = h.dispatch(h.ctx, HostID, nd, m, e)
			h.o.Meter.RPC(time.Since(start))
		default:
			err = h.dispatch(h.ctx, HostID, nd, m, e) // no clock reading without a Meter
		}
		if err != nil {
			h.refuseEvent(p, e, err)
		}
	case CmdSpawn, CmdDespawn, CmdSync:
		h.receiveRepl(p, from, e)
	default:
		h.refuseEvent(p, e, fmt.Errorf("%w: the host does not handle %s", ErrNotAllowed, pk.Command))
	}
}
