package enet

import "fmt"

// What the host's memory for a peer really costs, charged to the budgets
// (MaxPeerMemory, MaxHostMemory and the per-direction MaxOutgoingData and
// MaxWaitingData). TestChargesCoverStructs keeps these at least the sizes
// of the structures they stand for.
const (
	// outCmdCost is one queued outgoing command: its outCmd (88 bytes,
	// allocated as 96, linked into the queues it passes through, which
	// take no room of their own) and its share of the host's free list of
	// commands.
	outCmdCost = 96 + 32
	// inCmdOverhead is one queued incoming command or received packet:
	// its inCmd (200 bytes, allocated as 208) or its Event (64 bytes) in
	// the event queue, and their places in the queues.
	inCmdOverhead = 208 + 48
	// pieceOverhead is one stored fragment beyond its bytes: its piece
	// (32 bytes) in a slice that grows by doubling.
	pieceOverhead = 64
)

// allocSize bounds what the Go allocator takes for n bytes: small sizes
// are rounded up to their size class (at most an eighth more, and 16 bytes
// at least), large ones to whole 8 KiB pages.
func allocSize(n int) int {
	if n <= 32<<10 {
		return n + n>>3 + 16
	}
	return (n + 8<<10 - 1) &^ (8<<10 - 1)
}

// memory is what the host holds for the peer, both ways.
func (p *Peer) memory() int { return p.waiting + p.queued }

// memory is what the host holds for all its peers.
func (h *Host) memory() int { return h.waiting + h.queued }

// canReceive reports whether cost more bytes of incoming data fit in the
// peer's and the host's memory budgets.
func (h *Host) canReceive(p *Peer, cost int) bool {
	return p.memory()+cost <= h.cfg.MaxPeerMemory && h.memory()+cost <= h.cfg.MaxHostMemory
}

// sendCost is what Send charges for a packet of n bytes sent as count
// commands.
func sendCost(n, count int) int { return sendAlloc(n) + count*outCmdCost }

// sendAlloc is what Send's copy of an n-byte packet costs: its allocation,
// or its reused buffer's size class (sendbuf.go), whichever is more.
func sendAlloc(n int) int {
	a := allocSize(n)
	if c := sendClass(n); c >= 0 {
		a = max(a, sendClasses[c])
	}
	return a
}

// checkSend applies the budgets to a packet Send is about to queue. A peer
// that would hold more than MaxPeerMemory is disconnected, as ENet
// disconnects a peer at once (a DISCONNECT is sent, the application gets
// an EventDisconnect, everything queued for and from it is dropped),
// unless the packet alone is larger than the budget. Beyond MaxOutgoingData
// or MaxHostMemory, Send fails and the peer stays.
func (h *Host) checkSend(p *Peer, cost int) error {
	if cost > h.cfg.MaxPeerMemory || cost > h.cfg.MaxOutgoingData {
		return fmt.Errorf("%w: a packet costing %d bytes, budget %d", ErrQueueFull, cost, min(h.cfg.MaxPeerMemory, h.cfg.MaxOutgoingData))
	}
	if p.memory()+cost > h.cfg.MaxPeerMemory {
		held := p.memory()
		h.serviceTime = h.now()
		h.forceDisconnect(p)
		h.wakeSender()
		return fmt.Errorf("%w: the peer holds %d bytes, MaxPeerMemory %d: disconnected", ErrQueueFull, held, h.cfg.MaxPeerMemory)
	}
	if p.queued+cost > h.cfg.MaxOutgoingData {
		return ErrQueueFull
	}
	if h.memory()+cost > h.cfg.MaxHostMemory {
		return fmt.Errorf("%w: the host holds %d bytes, MaxHostMemory %d", ErrQueueFull, h.memory(), h.cfg.MaxHostMemory)
	}
	return nil
}

// charge and uncharge move outgoing bytes in and out of the budgets.
func (h *Host) charge(p *Peer, cost int) {
	p.queued += cost
	h.queued += cost
}

func (h *Host) uncharge(p *Peer, cost int) {
	p.queued -= cost
	h.queued -= cost
}
