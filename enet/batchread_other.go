//go:build !linux

package enet

import (
	"net"
	"net/netip"
)

// batchReader reads many datagrams with one system call where the system
// has one (Linux); elsewhere there is none, and the host reads datagram
// by datagram.
type batchReader struct{}

func newBatchReader(*net.UDPConn) *batchReader { return nil }

func (r *batchReader) read() (int, error) { return 0, net.ErrClosed }

func (r *batchReader) tryRead() (int, error) { return 0, net.ErrClosed }

func (r *batchReader) datagram(int) ([]byte, netip.AddrPort, bool) {
	return nil, netip.AddrPort{}, false
}

// readBatch is the most datagrams a batch read returns (none here).
const readBatch = 16
