package variant

import (
	"strings"
	"sync/atomic"
)

// keyCache remembers, for a DecMode, the Dictionary keys it has decoded
// recently, so that separate calls decoding the same kind of message (a
// server reading one small record per packet) share their key strings
// instead of allocating them each time. It is a direct-mapped table of
// short String keys indexed by a hash of their bytes: a lookup is one
// atomic load and one comparison, a miss replaces the slot. Its size is
// fixed, whatever the input.
type keyCache struct {
	slots [keyCacheSlots]atomic.Pointer[cachedKey]
}

const keyCacheSlots = 256

// cachedKey is a String key: its bytes on the wire and its value, which
// owns its own memory.
type cachedKey struct {
	raw   string
	value Value
}

func keySlot(raw []byte) int {
	h := uint32(2166136261) // FNV-1a
	for _, c := range raw {
		h = (h ^ uint32(c)) * 16777619
	}
	return int(h % keyCacheSlots)
}

// get returns the value of the key whose wire bytes are raw, if cached.
func (c *keyCache) get(raw []byte) (Value, bool) {
	e := c.slots[keySlot(raw)].Load()
	if e == nil || e.raw != string(raw) {
		return nil, false
	}
	return e.value, true
}

// put caches v, a key decoded from raw, in a copy that shares no memory
// with the input or the call's slabs.
func (c *keyCache) put(raw []byte, v Value) {
	s, ok := v.(String)
	if !ok {
		return
	}
	c.slots[keySlot(raw)].Store(&cachedKey{raw: string(raw), value: String(strings.Clone(string(s)))})
}
