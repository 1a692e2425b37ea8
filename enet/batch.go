package enet

import (
	"net"
	"runtime"
	"sync"

	"golang.org/x/net/ipv4"
	"golang.org/x/net/ipv6"
)

// maxBatch bounds the datagrams one sendmmsg call writes.
const maxBatch = 64

// batchWriter writes many datagrams with one system call (sendmmsg on
// Linux) on a *net.UDPConn. A flush writes what all its peers are owed at
// once, one datagram each or more: with one call for them all, the
// syscall no longer costs one per datagram. Elsewhere (other systems,
// other PacketConns) the host writes datagram by datagram.
type batchWriter struct {
	mu   sync.Mutex
	conn interface {
		WriteBatch([]ipv4.Message, int) (int, error)
	}
	msgs []ipv4.Message
	iov  [][]byte
}

// newBatchWriter returns a batchWriter for c, or nil where x/net has no
// sendmmsg (systems other than Linux).
func newBatchWriter(c *net.UDPConn) *batchWriter {
	if runtime.GOOS != "linux" {
		return nil
	}
	w := &batchWriter{msgs: make([]ipv4.Message, maxBatch), iov: make([][]byte, maxBatch)}
	if ua, ok := c.LocalAddr().(*net.UDPAddr); ok && ua.IP.To4() != nil {
		w.conn = ipv4.NewPacketConn(c)
	} else {
		w.conn = ipv6.NewPacketConn(c)
	}
	return w
}

// udpAddr is the peer's address as a *net.UDPAddr for a batch, made once
// per address.
func (p *Peer) udpAddr() *net.UDPAddr {
	if p.ua == nil {
		p.ua = net.UDPAddrFromAddrPort(p.ap)
	}
	return p.ua
}

// write writes out's datagrams that have a *net.UDPAddr (d.ua), the
// rest being the caller's, and reports how many it sent and their bytes.
func (w *batchWriter) write(out []datagram) (sent, bytes uint64) {
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := 0; i < len(out); {
		n := 0
		for ; i < len(out) && n < maxBatch; i++ {
			if d := &out[i]; d.ua != nil {
				w.iov[n] = d.b
				w.msgs[n] = ipv4.Message{Buffers: w.iov[n : n+1], Addr: d.ua}
				n++
			}
		}
		for k := 0; k < n; {
			m, err := w.conn.WriteBatch(w.msgs[k:n], 0)
			m = max(m, 0)
			for _, msg := range w.msgs[k : k+m] {
				sent++
				bytes += uint64(msg.N)
			}
			k += m
			if err != nil {
				k++ // that one failed (e.g. unreachable): go on with the rest
			}
		}
		clear(w.msgs[:n])
		clear(w.iov[:n])
	}
	return sent, bytes
}
