package enet

import (
	"bytes"
	"compress/zlib"
	"encoding/binary"
	"net/netip"
	"runtime"
	"testing"
)

// A compressed datagram from anyone, before any handshake, that expands
// to 1 MiB costs the host no more than a datagram's worth of output: it
// is dropped after at most 4 KiB is decoded, with no allocation in the
// range coder and no new inflater for zlib.
func TestHostileCompressedDatagram(t *testing.T) {
	var z bytes.Buffer
	w, _ := zlib.NewWriterLevel(&z, zlib.BestCompression)
	w.Write(make([]byte, 1<<20))
	w.Close()
	rc := new(RangeCoder).Compress(nil, make([]byte, 1<<20), 1<<20)
	for _, tc := range []struct {
		c    Compression
		body []byte
	}{{CompressZlib, z.Bytes()}, {CompressRangeCoder, rc[:min(len(rc), 3992)]}} {
		h := newReplayHost(t, &Config{Compression: tc.c})
		d := binary.BigEndian.AppendUint16(nil, maxPeerID|headerFlagCompress)
		d = append(d, tc.body...)
		ap := netip.MustParseAddrPort("127.0.0.1:5000")
		run := func() {
			h.mu.Lock()
			h.handleDatagram(d, ap, nil)
			h.mu.Unlock()
		}
		run()
		allocs := testing.AllocsPerRun(50, run)
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 50 {
			run()
		}
		runtime.ReadMemStats(&after)
		perDatagram := (after.TotalAlloc - before.TotalAlloc) / 50
		t.Logf("%v: %d-byte datagram, %.0f allocations and %d bytes each", tc.c, len(d), allocs, perDatagram)
		if allocs > 2 || perDatagram > 1024 {
			t.Errorf("%v: %.0f allocations and %d bytes per hostile datagram", tc.c, allocs, perDatagram)
		}
		if s := h.Stats(); s.DatagramsDropped < 101 {
			t.Errorf("%v: %d datagrams dropped of 101", tc.c, s.DatagramsDropped)
		}
		h.Close()
	}
}
