package enet

import (
	"net"
	"net/netip"
	"strconv"
	"syscall"
	"unsafe"
)

// readBatch bounds the datagrams one recvmmsg call reads. With buffers
// of maxMTU bytes (the largest datagram ENet sends, and libenet's own
// receive buffer), a reader holds 64 KiB, as the single read did.
const readBatch = 16

// mmsghdr is struct mmsghdr: a msghdr and the length received. Go pads
// the struct to its alignment as C does.
type mmsghdr struct {
	hdr syscall.Msghdr
	n   uint32
}

// batchReader reads many datagrams with one system call (recvmmsg on
// Linux) from a *net.UDPConn, into buffers, headers and addresses made
// once: no allocation per datagram.
type batchReader struct {
	rc    syscall.RawConn
	hdrs  [readBatch]mmsghdr
	iovs  [readBatch]syscall.Iovec
	addrs [readBatch]syscall.RawSockaddrInet6 // large enough for IPv4's too
	bufs  [readBatch][]byte
	zones map[uint32]string // interface names of IPv6 scope ids

	recvFn func(uintptr) bool // recv, made once
	tryFn  func(uintptr) bool // recv without waiting
	got    int                // datagrams of the last call
	err    error              // of the last call
}

// newBatchReader returns a batchReader for c, or nil when c has no raw
// descriptor.
func newBatchReader(c *net.UDPConn) *batchReader {
	rc, err := c.SyscallConn()
	if err != nil {
		return nil
	}
	r := newRawBatchReader()
	r.rc = rc
	r.recvFn = r.recv
	r.tryFn = func(fd uintptr) bool { r.recv(fd); return true }
	return r
}

// read waits for datagrams and reads up to readBatch of them; each is
// then given by datagram(i) for i < the count returned.
func (r *batchReader) read() (int, error) {
	return r.call(r.recvFn)
}

// tryRead reads as read does, without waiting: 0 when nothing is there.
func (r *batchReader) tryRead() (int, error) {
	return r.call(r.tryFn)
}

func (r *batchReader) call(fn func(uintptr) bool) (int, error) {
	r.prepare()
	err := r.rc.Read(fn)
	if err == nil {
		err = r.err
	}
	return r.got, err
}

// newRawBatchReader returns a batchReader for a descriptor of the
// caller's (readFD).
func newRawBatchReader() *batchReader {
	r := &batchReader{}
	mem := make([]byte, readBatch*maxMTU)
	for i := range r.bufs {
		r.bufs[i] = mem[i*maxMTU : (i+1)*maxMTU : (i+1)*maxMTU]
	}
	return r
}

// readFD reads as tryRead does, from the non-blocking descriptor fd.
func (r *batchReader) readFD(fd int) (int, error) {
	r.prepare()
	r.recv(uintptr(fd))
	return r.got, r.err
}

// prepare readies the headers for a call.
func (r *batchReader) prepare() {
	for i := range r.hdrs {
		r.iovs[i].Base = &r.bufs[i][0]
		r.iovs[i].SetLen(maxMTU)
		h := &r.hdrs[i].hdr
		*h = syscall.Msghdr{}
		h.Name = (*byte)(unsafe.Pointer(&r.addrs[i]))
		h.Namelen = uint32(unsafe.Sizeof(r.addrs[i]))
		h.Iov = &r.iovs[i]
		h.Iovlen = 1
		r.hdrs[i].n = 0
	}
	r.got, r.err = 0, nil
}

// recv is the system call, for RawConn.Read: false (wait, then call
// again) while nothing is there to read.
func (r *batchReader) recv(fd uintptr) bool {
	n, _, errno := syscall.Syscall6(syscall.SYS_RECVMMSG, fd, uintptr(unsafe.Pointer(&r.hdrs[0])), readBatch, 0, 0, 0)
	switch errno {
	case 0:
		r.got = int(n)
	case syscall.EAGAIN, syscall.EINTR:
		return false
	default:
		r.err = &net.OpError{Op: "read", Net: "udp", Err: errno}
	}
	return true
}

// datagram returns the i-th datagram of the last read and its sender;
// ok is false for one cut short (longer than any ENet datagram) or from
// an address family that is not IP.
func (r *batchReader) datagram(i int) (b []byte, ap netip.AddrPort, ok bool) {
	m := &r.hdrs[i]
	if m.hdr.Flags&syscall.MSG_TRUNC != 0 {
		return nil, ap, false
	}
	b = r.bufs[i][:m.n]
	sa := &r.addrs[i]
	switch sa.Family {
	case syscall.AF_INET:
		s4 := (*syscall.RawSockaddrInet4)(unsafe.Pointer(sa))
		return b, netip.AddrPortFrom(netip.AddrFrom4(s4.Addr), portOf(s4.Port)), true
	case syscall.AF_INET6:
		a := netip.AddrFrom16(sa.Addr)
		if sa.Scope_id != 0 && a.Is6() && !a.Is4In6() {
			a = a.WithZone(r.zone(sa.Scope_id))
		}
		return b, netip.AddrPortFrom(a.Unmap(), portOf(sa.Port)), true
	}
	return b, ap, false
}

// portOf is a port as the kernel stores it, in network byte order.
func portOf(p uint16) uint16 {
	b := (*[2]byte)(unsafe.Pointer(&p))
	return uint16(b[0])<<8 | uint16(b[1])
}

// zone is the name of the interface with index id, as the net package
// names the zone of an address it reads.
func (r *batchReader) zone(id uint32) string {
	if z, ok := r.zones[id]; ok {
		return z
	}
	z := strconv.FormatUint(uint64(id), 10)
	if ifi, err := net.InterfaceByIndex(int(id)); err == nil {
		z = ifi.Name
	}
	if r.zones == nil {
		r.zones = map[uint32]string{}
	}
	r.zones[id] = z
	return z
}
