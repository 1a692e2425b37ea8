package enet

import (
	"net"
	"net/netip"
	"os"
	"sync"
	"sync/atomic"
	"syscall"
	"time"
	"unsafe"

	"golang.org/x/sys/unix"
)

// frameSocket is a UDP socket taken out of Go's poller for a host that
// runs frames (Config.Frame): its descriptor is duplicated and the
// *net.UDPConn closed, so that a datagram's arrival wakes nothing but the
// host's own goroutine, which waits in ppoll; an eventfd wakes it for
// what other goroutines queue, and for Close.
type frameSocket struct {
	fd, efd int
	v6      bool     // an AF_INET6 socket: IPv4 peers are written as mapped addresses
	local   net.Addr // the socket's address, as the closed conn gave it
	r       *batchReader
	// idle is set, under the host's mu, while the loop waits for a
	// datagram with nothing queued: a goroutine that queues something
	// then wakes it.
	idle atomic.Bool

	wmu    sync.Mutex // the write state below, and closed
	closed bool       // the descriptors are closed: a late Flush or wake must not touch their numbers
	hdrs   [maxBatch]mmsghdr
	iovs   [maxBatch]syscall.Iovec
	addrs  [maxBatch]syscall.RawSockaddrInet6
	zones  map[string]uint32 // interface indexes of IPv6 zones
}

// newFrameSocket takes c's descriptor out of Go's poller and closes c,
// or returns nil (c untouched) when it cannot.
func newFrameSocket(c *net.UDPConn) *frameSocket {
	rc, err := c.SyscallConn()
	if err != nil {
		return nil
	}
	fd := -1
	if err := rc.Control(func(s uintptr) {
		r, _, errno := syscall.Syscall(syscall.SYS_FCNTL, s, syscall.F_DUPFD_CLOEXEC, 0)
		if errno == 0 {
			fd = int(r)
		}
	}); err != nil || fd < 0 {
		return nil
	}
	efd, _, errno := syscall.Syscall(syscall.SYS_EVENTFD2, 0, syscall.O_CLOEXEC|syscall.O_NONBLOCK, 0)
	if errno != 0 {
		syscall.Close(fd)
		return nil
	}
	sa, err := syscall.Getsockname(fd)
	if err != nil {
		syscall.Close(fd)
		syscall.Close(int(efd))
		return nil
	}
	_, v6 := sa.(*syscall.SockaddrInet6)
	f := &frameSocket{fd: fd, efd: int(efd), v6: v6, local: c.LocalAddr(), r: newRawBatchReader()}
	// The duplicate shares the file, non-blocking as Go set it; closing
	// c takes the descriptor Go watches out of its poller.
	c.Close()
	return f
}

// read reads up to readBatch datagrams without waiting, for
// f.r.datagram: 0 when none is there.
func (f *frameSocket) read() (int, error) {
	return f.r.readFD(f.fd)
}

// wait blocks until a datagram is there, the host is woken, or d has
// passed (d < 0: no limit); with socket false it waits for a wake or d
// only. It waits in the system call, outside Go's scheduler.
func (f *frameSocket) wait(d time.Duration, socket bool) {
	fds := [2]pollFd{{fd: int32(f.efd), events: pollIn}, {fd: int32(f.fd), events: pollIn}}
	n := 1
	if socket {
		n = 2
	}
	var ts *syscall.Timespec
	if d >= 0 {
		t := syscall.NsecToTimespec(int64(d))
		ts = &t
	}
	syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds[0])), uintptr(n), uintptr(unsafe.Pointer(ts)), 0, 0, 0)
	if fds[0].revents != 0 {
		var b [8]byte
		syscall.Read(f.efd, b[:])
	}
}

// wake ends a wait; a wait that starts later returns at once.
func (f *frameSocket) wake() {
	f.wmu.Lock()
	if !f.closed {
		one := [8]byte{1}
		syscall.Write(f.efd, one[:])
	}
	f.wmu.Unlock()
}

// close closes the descriptors, once the loop has ended.
func (f *frameSocket) close() error {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	if f.closed {
		return nil
	}
	f.closed = true
	err := syscall.Close(f.fd)
	syscall.Close(f.efd)
	if err != nil {
		return os.NewSyscallError("close", err)
	}
	return nil
}

// pollFd is struct pollfd.
type pollFd struct {
	fd      int32
	events  int16
	revents int16
}

const (
	pollIn  = 0x1
	pollOut = 0x4
)

// writeStall bounds how long a write waits for room in a full socket
// buffer before it drops the rest of its datagrams (a reliable command
// in them is sent again).
const writeStall = 20 * time.Millisecond

// write writes out's datagrams with sendmmsg, maxBatch at a time, and
// reports how many it sent and their bytes. A datagram the kernel
// refuses (an unreachable address) is skipped; one whose address the
// socket cannot reach (IPv6 on an IPv4 socket) too.
func (f *frameSocket) write(out []datagram) (sent, bytes uint64) {
	f.wmu.Lock()
	defer f.wmu.Unlock()
	if f.closed {
		return 0, 0
	}
	var stalled time.Duration
	for i := 0; i < len(out); {
		n := 0
		for ; i < len(out) && n < maxBatch; i++ {
			d := &out[i]
			if !f.sockaddr(&f.addrs[n], d.ap) || len(d.b) == 0 {
				continue
			}
			f.iovs[n].Base = &d.b[0]
			f.iovs[n].SetLen(len(d.b))
			h := &f.hdrs[n]
			h.hdr = syscall.Msghdr{Name: (*byte)(unsafe.Pointer(&f.addrs[n])), Iov: &f.iovs[n], Iovlen: 1}
			h.hdr.Namelen = syscall.SizeofSockaddrInet4
			if f.v6 {
				h.hdr.Namelen = syscall.SizeofSockaddrInet6
			}
			h.n = 0
			n++
		}
		for k := 0; k < n; {
			r, _, errno := syscall.Syscall6(unix.SYS_SENDMMSG, uintptr(f.fd), uintptr(unsafe.Pointer(&f.hdrs[k])), uintptr(n-k), 0, 0, 0)
			switch {
			case errno == 0:
				for _, h := range f.hdrs[k : k+int(r)] {
					sent++
					bytes += uint64(h.n)
				}
				k += int(r)
			case errno == syscall.EINTR:
			case errno == syscall.EAGAIN && stalled < writeStall:
				start := time.Now()
				fds := pollFd{fd: int32(f.fd), events: pollOut}
				ts := syscall.NsecToTimespec(int64(writeStall - stalled))
				syscall.Syscall6(syscall.SYS_PPOLL, uintptr(unsafe.Pointer(&fds)), 1, uintptr(unsafe.Pointer(&ts)), 0, 0, 0)
				stalled += max(time.Since(start), time.Millisecond)
			case errno == syscall.EAGAIN:
				k = n // the buffer stays full: drop the rest of this batch
			default:
				k++ // that one failed (e.g. unreachable): go on with the rest
			}
		}
	}
	return sent, bytes
}

// sockaddr fills sa with ap as the socket takes it, false when it cannot
// reach ap.
func (f *frameSocket) sockaddr(sa *syscall.RawSockaddrInet6, ap netip.AddrPort) bool {
	a := ap.Addr()
	if !f.v6 {
		a = a.Unmap()
		if !a.Is4() {
			return false
		}
		s4 := (*syscall.RawSockaddrInet4)(unsafe.Pointer(sa))
		*s4 = syscall.RawSockaddrInet4{Family: syscall.AF_INET, Addr: a.As4()}
		setPort(&s4.Port, ap.Port())
		return true
	}
	if !a.IsValid() {
		return false
	}
	*sa = syscall.RawSockaddrInet6{Family: syscall.AF_INET6, Addr: a.As16()}
	if z := a.Zone(); z != "" {
		sa.Scope_id = f.zoneIndex(z)
	}
	setPort(&sa.Port, ap.Port())
	return true
}

// setPort stores p in network byte order.
func setPort(dst *uint16, p uint16) {
	b := (*[2]byte)(unsafe.Pointer(dst))
	b[0], b[1] = byte(p>>8), byte(p)
}

// zoneIndex is the index of the interface an IPv6 zone names (or the
// zone itself, when it is a number).
func (f *frameSocket) zoneIndex(z string) uint32 {
	if i, ok := f.zones[z]; ok {
		return i
	}
	var i uint32
	if ifi, err := net.InterfaceByName(z); err == nil {
		i = uint32(ifi.Index)
	} else {
		for _, c := range z {
			if c < '0' || c > '9' || i > 1<<28 {
				i = 0
				break
			}
			i = i*10 + uint32(c-'0')
		}
	}
	if f.zones == nil {
		f.zones = map[string]uint32{}
	}
	f.zones[z] = i
	return i
}
