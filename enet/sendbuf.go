package enet

import "encoding/binary"

// Packets Send copies whole (in one command, not fragments) are kept in
// buffers the host reuses once their command has been sent (unreliable)
// or acknowledged (reliable), so that sending allocates nothing in steady
// state. Received packets (but for reassembled fragments) are copied into
// the same buffers, which the application may give back with
// Host.ReleasePacket. Buffers
// come in the Go allocator's size classes up to 3456 bytes, and Send
// charges a packet its class (sendAlloc); larger packets are allocated as
// before. The free buffers are bounded (maxFreeSendBytes)
// and not charged to the peers: they belong to no one.

// sendClasses are the Go allocator's size classes up to 3456 bytes
// (runtime/sizeclasses.go); TestSendClasses checks them against the
// allocator.
var sendClasses = [...]int{8, 16, 24, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 256,
	288, 320, 352, 384, 416, 448, 480, 512, 576, 640, 704, 768, 896, 1024, 1152, 1280, 1408, 1536, 1792, 2048,
	2304, 2688, 3072, 3200, maxSendClass}

// maxSendClass is the largest class: larger packets are not pooled.
const maxSendClass = 3456

// maxFreeSendBytes bounds the bytes of a host's free send buffers, with
// their places in the free lists (freeSendSlot each).
const maxFreeSendBytes = 256 << 10

// freeSendSlot is a free buffer's place in its list: a slice header in a
// chunk of 40 of them (bufStack), 1,024 bytes allocated.
const freeSendSlot = 26

// sendClass is the index of the smallest class of at least n bytes, or -1:
// a table lookup, as the Go allocator finds its own classes (every class
// up to 1024 bytes is a multiple of 8, every larger one 1024 and a
// multiple of 128, so n's class is its rounded size's).
func sendClass(n int) int {
	switch {
	case n <= 1024:
		return int(sendClassBy8[(max(n, 0)+7)>>3])
	case n <= maxSendClass:
		return int(sendClassBy128[(n-1024+127)>>7])
	}
	return -1
}

// sendClassBy8 and sendClassBy128 are sendClass's tables: the class of a
// size rounded up to 8 bytes (up to 1024), and above 1024 bytes to 128.
var sendClassBy8, sendClassBy128 = sendClassTables()

func sendClassTables() (by8 [1024>>3 + 1]uint8, by128 [(maxSendClass-1024)>>7 + 1]uint8) {
	smallest := func(n int) uint8 {
		i := 0
		for sendClasses[i] < n {
			i++
		}
		return uint8(i)
	}
	for i := range by8 {
		by8[i] = smallest(i << 3)
	}
	for i := range by128 {
		by128[i] = smallest(1024 + i<<7)
	}
	return by8, by128
}

// copySend returns a copy of prefix and data, one after the other, in a
// reused buffer of its class, or nil for packets too large to pool.
func (h *Host) copySend(prefix, data []byte) []byte {
	return h.copySendRoom(prefix, data, 0)
}

// copySendRoom is copySend with room bytes more capacity than the packet.
func (h *Host) copySendRoom(prefix, data []byte, room int) []byte {
	c := sendClass(len(prefix) + len(data) + room)
	if c < 0 {
		return nil
	}
	b := h.freeSend[c].pop()
	if b != nil {
		h.freeSendBytes -= sendClasses[c] + freeSendSlot
		h.freeSendLow[c] = min(h.freeSendLow[c], h.freeSend[c].len())
	} else {
		b = make([]byte, 0, sendClasses[c])
	}
	return append(append(b, prefix...), data...)
}

// shareRoom is the room a shared buffer keeps after its packet: the count
// of the commands that hold it, 4 bytes at the end of its capacity.
const shareRoom = 4

// sharePacket returns prefix and data in one buffer for several peers'
// commands (SendMany, Broadcast): a pooled one counted by its holders
// (sendShared), or, too large to pool, a copy garbage collected
// (sendKeep). shareDone ends its making.
func (h *Host) sharePacket(prefix, data []byte) ([]byte, sendHow) {
	if b := h.copySendRoom(prefix, data, shareRoom); b != nil {
		setShareRefs(b, 0)
		return b, sendShared
	}
	return append(append(make([]byte, 0, len(prefix)+len(data)), prefix...), data...), sendKeep
}

// shareDone gives back a shared buffer that no command took.
func (h *Host) shareDone(b []byte, how sendHow) {
	if how == sendShared && shareRefs(b) == 0 {
		h.releaseSend(b)
	}
}

func shareRefs(b []byte) uint32 {
	return binary.LittleEndian.Uint32(b[cap(b)-shareRoom : cap(b)])
}

func setShareRefs(b []byte, n uint32) {
	binary.LittleEndian.PutUint32(b[cap(b)-shareRoom:cap(b)], n)
}

// addShareRef counts one more command holding b.
func addShareRef(b []byte) { setShareRefs(b, shareRefs(b)+1) }

// releaseShareRef counts one command fewer holding b, and reuses it
// when none is left.
func (h *Host) releaseShareRef(b []byte) {
	n := shareRefs(b) - 1
	if n == 0 {
		h.releaseSend(b)
		return
	}
	setShareRefs(b, n)
}

// copyReceived is a received packet's copy for its Event: in a reused
// buffer when it fits one.
func (h *Host) copyReceived(data []byte) []byte {
	if b := h.copySend(nil, data); b != nil {
		return b
	}
	return append(make([]byte, 0, len(data)), data...)
}

// ReleasePacket gives back a packet that Service returned (Event.Packet)
// once the application is done with it: the host reuses its buffer for
// later packets, so a steady stream allocates nothing. It is optional (a
// packet not given back is garbage collected as usual), and b must not
// be used, nor given back again, afterwards.
func (h *Host) ReleasePacket(b []byte) {
	if cap(b) == 0 {
		return
	}
	h.mu.Lock()
	h.releaseSend(b)
	h.mu.Unlock()
}

// releaseSend keeps b, a buffer copySend returned that no command holds
// any more, for reuse.
func (h *Host) releaseSend(b []byte) {
	c := sendClass(cap(b))
	if c < 0 || sendClasses[c] != cap(b) || h.freeSendBytes+cap(b)+freeSendSlot > maxFreeSendBytes {
		return
	}
	h.freeSendBytes += cap(b) + freeSendSlot
	h.freeSend[c].push(b[:0])
}
