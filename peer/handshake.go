package peer

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"
	"strconv"
	"sync"
	"time"

	"github.com/gdvar/gdvar/frame"
)

// A WebSocket listener answers the opening handshakes itself rather than
// through net/http's server: a connection there gets a 4 KiB reader and
// two writers (4 and 2 KiB) that it keeps after the connection is
// hijacked, and its hijack adds another 4 KiB writer. Here the request is
// read through a small pooled reader and the answer written through a
// small pooled writer, both given back once the handshake is over, so a
// joining client costs its own state and not 15 KiB of buffers left for
// the collector. One request per connection: a request that is not a
// WebSocket handshake is answered (as net/http's server answers it to
// the same handler) and the connection closed.

const (
	// maxHandshakeBytes bounds an opening handshake's request line and
	// headers; a larger request is answered 431 and closed.
	maxHandshakeBytes = 64 << 10
	// handshakeReadSize and handshakeWriteSize are the pooled buffers'
	// sizes: a handshake request's lines are read through the reader (a
	// longer line is put together by the header parser), the answer (a
	// 101 and its headers, about 150 bytes) written through the writer.
	handshakeReadSize  = 1 << 10
	handshakeWriteSize = 512
	// maxErrorBody bounds the body of a refusal.
	maxErrorBody = 4 << 10
)

var (
	handshakeReaders = sync.Pool{New: func() any { return bufio.NewReaderSize(nil, handshakeReadSize) }}
	handshakeWriters = sync.Pool{New: func() any { return bufio.NewWriterSize(nil, handshakeWriteSize) }}
)

// handshakeServer accepts connections on a listener and answers their
// opening handshakes with upgrade; each upgraded connection goes to
// offer.
type handshakeServer struct {
	cfg     *config
	budget  *frame.Budget
	timeout time.Duration // from accept to the end of the answer
	offer   func(*Conn)

	mu     sync.Mutex
	ln     net.Listener
	open   map[net.Conn]struct{} // connections in their handshake
	closed bool
}

// serve accepts connections until the listener is closed, and returns
// the error that ended it (net.ErrClosed after close).
func (s *handshakeServer) serve(ln net.Listener) error {
	var backoff time.Duration
	for {
		nc, err := ln.Accept()
		if err != nil {
			if errors.Is(err, net.ErrClosed) || s.isClosed() {
				return err
			}
			// Out of descriptors or another passing failure: as
			// net/http's server, wait a little (5 ms, doubling up to
			// 1 s) and accept again.
			backoff = min(max(2*backoff, 5*time.Millisecond), time.Second)
			time.Sleep(backoff)
			continue
		}
		backoff = 0
		if !s.track(nc) {
			nc.Close()
			return net.ErrClosed
		}
		go s.handshake(nc)
	}
}

func (s *handshakeServer) isClosed() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.closed
}

// track adds nc to the connections in their handshake, unless the server
// is closed.
func (s *handshakeServer) track(nc net.Conn) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.closed {
		return false
	}
	s.open[nc] = struct{}{}
	return true
}

func (s *handshakeServer) untrack(nc net.Conn) {
	s.mu.Lock()
	delete(s.open, nc)
	s.mu.Unlock()
}

// close closes the listener and the connections in their handshake;
// upgraded connections are their owners' to close.
func (s *handshakeServer) close() error {
	s.mu.Lock()
	s.closed = true
	open := s.open
	s.open = map[net.Conn]struct{}{}
	s.mu.Unlock()
	for nc := range open {
		nc.Close()
	}
	return s.ln.Close()
}

// handshake reads one request from nc and answers it: with 101 and the
// connection handed to offer, or with an HTTP error and the connection
// closed.
func (s *handshakeServer) handshake(nc net.Conn) {
	defer s.untrack(nc)
	nc.SetDeadline(time.Now().Add(s.timeout))
	lr := &io.LimitedReader{R: nc, N: maxHandshakeBytes}
	br := handshakeReaders.Get().(*bufio.Reader)
	br.Reset(lr)
	bw := handshakeWriters.Get().(*bufio.Writer)
	bw.Reset(nc)
	w := &handshakeWriter{nc: nc, br: br, bw: bw}
	defer func() {
		br.Reset(nil)
		handshakeReaders.Put(br)
		bw.Reset(nil)
		handshakeWriters.Put(bw)
	}()
	r, err := http.ReadRequest(br)
	if err != nil {
		switch {
		case lr.N <= 0:
			w.refuse(http.StatusRequestHeaderFieldsTooLarge)
		case errors.Is(err, io.EOF) || isTimeout(err) || errors.Is(err, net.ErrClosed):
			nc.Close() // nothing (whole) came: no answer
		default:
			w.refuse(http.StatusBadRequest)
		}
		return
	}
	r.RemoteAddr = nc.RemoteAddr().String()
	c, err := upgrade(w, r, s.cfg, s.budget)
	if err != nil {
		if f := s.cfg.opts.WebSocket.OnRefused; f != nil {
			f(r.RemoteAddr, err)
		}
		if !w.hijacked {
			w.reply()
		}
		return
	}
	s.offer(c)
}

// handshakeWriter is the http.ResponseWriter and http.Hijacker of one
// handshake: the library hijacks it to answer 101; a refusal is kept and
// written by reply.
type handshakeWriter struct {
	nc       net.Conn
	br       *bufio.Reader
	bw       *bufio.Writer
	header   http.Header
	status   int
	body     []byte
	hijacked bool
}

func (w *handshakeWriter) Header() http.Header {
	if w.header == nil {
		w.header = http.Header{}
	}
	return w.header
}

func (w *handshakeWriter) WriteHeader(status int) {
	if w.status == 0 {
		w.status = status
	}
}

func (w *handshakeWriter) Write(p []byte) (int, error) {
	w.WriteHeader(http.StatusOK)
	if n := maxErrorBody - len(w.body); n > 0 {
		w.body = append(w.body, p[:min(len(p), n)]...)
	}
	return len(p), nil
}

// Hijack hands the connection over, its handshake deadline cleared, with
// the reader the request came through (empty, or the library refuses a
// client that sent more before its answer) and the writer for the 101.
// Neither is kept by the library: both go back to their pools once the
// handshake is over.
func (w *handshakeWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if w.hijacked {
		return nil, nil, http.ErrHijacked
	}
	w.hijacked = true
	w.nc.SetDeadline(time.Time{})
	return w.nc, bufio.NewReadWriter(w.br, w.bw), nil
}

// refuse answers status with its text and closes the connection.
func (w *handshakeWriter) refuse(status int) {
	w.status = status
	w.body = append(w.body, http.StatusText(status)+"\n"...)
	w.Header().Set("Content-Type", "text/plain; charset=utf-8")
	w.reply()
}

// reply writes the answer kept (400 when the handler set none) and
// closes the connection.
func (w *handshakeWriter) reply() {
	status := w.status
	if status == 0 {
		status = http.StatusBadRequest
	}
	h := w.Header()
	h.Set("Content-Length", strconv.Itoa(len(w.body)))
	h.Set("Connection", "close")
	w.bw.WriteString("HTTP/1.1 " + strconv.Itoa(status) + " " + http.StatusText(status) + "\r\n")
	h.Write(w.bw)
	w.bw.WriteString("\r\n")
	w.bw.Write(w.body)
	w.bw.Flush()
	w.nc.Close()
}
