// Package loglimit keeps the logs of a server small whatever its peers
// send: Cut shortens text a peer controls, and a Limiter lets through a
// burst of lines of one kind and then a few a second, counting the lines
// it holds back so that the next line can say how many. It writes
// nothing itself: callers decide what a line is and where it goes (a
// slog.Logger, a printer), and add the count to it.
//
// Limits: a Limiter tracks at most MaxKeys kinds of line at once; past
// that, lines of new kinds share one bucket.
package loglimit

import (
	"strconv"
	"strings"
	"sync"
	"time"
	"unicode/utf8"
)

// DefaultMaxText is the default length, in bytes, of a piece of
// peer-controlled text in a log line.
const DefaultMaxText = 300

// Cut returns s cut to at most n bytes, on a UTF-8 boundary, followed by
// how much was cut: "abc… (1234 more bytes)". n <= 0 returns s whole.
func Cut(s string, n int) string {
	if n <= 0 || len(s) <= n {
		return s
	}
	c := n
	for c > 0 && !utf8.RuneStart(s[c]) {
		c--
	}
	return s[:c] + "… (" + strconv.Itoa(len(s)-c) + " more bytes)"
}

// MaxKeys is the most kinds of line a Limiter tracks at once.
const MaxKeys = 4096

// overflowKey is the bucket the kinds of line past MaxKeys share.
const overflowKey = "\x00overflow"

// A Limiter rate-limits log lines by kind (a key the caller chooses, such
// as a peer and what it did): Burst lines of a kind pass at once, then
// one every Every. It is safe for concurrent use.
type Limiter struct {
	burst int
	every time.Duration
	now   func() time.Time

	mu        sync.Mutex
	buckets   map[string]*bucket
	lastSweep time.Time
}

type bucket struct {
	tokens     float64
	last       time.Time
	suppressed int
}

// New returns a Limiter that passes burst lines of a kind at once and
// then one every every. burst <= 0 passes every line.
func New(burst int, every time.Duration) *Limiter {
	return &Limiter{burst: burst, every: every, now: time.Now, buckets: map[string]*bucket{}}
}

// SetClock replaces the clock, for tests.
func (l *Limiter) SetClock(now func() time.Time) { l.now = now }

// Allow reports whether a line of kind key may be written now. When it
// may, suppressed is how many lines of that kind were held back since the
// last one written, for the line to say so.
// A nil Limiter passes every line.
func (l *Limiter) Allow(key string) (ok bool, suppressed int) {
	if l == nil || l.burst <= 0 {
		return true, 0
	}
	now := l.now()
	l.mu.Lock()
	defer l.mu.Unlock()
	b := l.buckets[key]
	if b == nil {
		if len(l.buckets) >= MaxKeys && now.Sub(l.lastSweep) >= max(l.every, time.Second) {
			l.lastSweep = now // at most one sweep a period: a flood of kinds costs no more
			l.sweep(now)
		}
		if len(l.buckets) >= MaxKeys {
			key = overflowKey
			b = l.buckets[key]
		}
		if b == nil {
			b = &bucket{tokens: float64(l.burst), last: now}
			l.buckets[key] = b
		}
	}
	if l.every > 0 {
		b.tokens = min(float64(l.burst), b.tokens+float64(now.Sub(b.last))/float64(l.every))
	}
	b.last = now
	if b.tokens < 1 {
		b.suppressed++
		return false, 0
	}
	b.tokens--
	suppressed, b.suppressed = b.suppressed, 0
	return true, suppressed
}

// Flush forgets kind key and returns how many of its lines were held back
// and not yet reported, for a last line (when a peer leaves).
func (l *Limiter) Flush(key string) (suppressed int) {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if b := l.buckets[key]; b != nil {
		suppressed = b.suppressed
		delete(l.buckets, key)
	}
	return suppressed
}

// FlushPrefix forgets every kind whose key starts with prefix and returns
// how many of their lines were held back and not yet reported.
func (l *Limiter) FlushPrefix(prefix string) (suppressed int) {
	if l == nil {
		return 0
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	for k, b := range l.buckets {
		if strings.HasPrefix(k, prefix) {
			suppressed += b.suppressed
			delete(l.buckets, k)
		}
	}
	return suppressed
}

// sweep forgets the kinds whose bucket is full again and holds no count;
// mu is held.
func (l *Limiter) sweep(now time.Time) {
	for k, b := range l.buckets {
		if b.suppressed == 0 && (l.every <= 0 || float64(now.Sub(b.last))/float64(l.every)+b.tokens >= float64(l.burst)) {
			delete(l.buckets, k)
		}
	}
}
