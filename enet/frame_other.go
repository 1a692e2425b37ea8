//go:build !linux

package enet

import (
	"net"
	"sync/atomic"
	"time"
)

// frameSocket is the socket of a host that runs frames (Config.Frame),
// taken out of Go's poller: Linux only. Elsewhere there is none, and
// such a host flushes at most once per Frame instead.
type frameSocket struct {
	local net.Addr
	r     *batchReader
	idle  atomic.Bool
}

func newFrameSocket(*net.UDPConn) *frameSocket { return nil }

func (f *frameSocket) read() (int, error)                    { return 0, net.ErrClosed }
func (f *frameSocket) wait(time.Duration, bool)              {}
func (f *frameSocket) wake()                                 {}
func (f *frameSocket) close() error                          { return nil }
func (f *frameSocket) write([]datagram) (sent, bytes uint64) { return 0, 0 }
