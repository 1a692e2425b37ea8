package loglimit

import (
	"fmt"
	"strings"
	"testing"
	"time"
)

func TestCut(t *testing.T) {
	for _, c := range []struct {
		s    string
		n    int
		want string
	}{
		{"abc", 3, "abc"},
		{"abcd", 3, "abc… (1 more bytes)"},
		{"abcd", 0, "abcd"},
		{"aé", 2, "a… (2 more bytes)"}, // not inside é
		{strings.Repeat("x", 60<<10), 300, strings.Repeat("x", 300) + "… (61140 more bytes)"},
	} {
		if got := Cut(c.s, c.n); got != c.want {
			t.Errorf("Cut(%.10q, %d) = %.40q, want %.40q", c.s, c.n, got, c.want)
		}
	}
}

// A burst passes, then one line per period; the held-back lines are
// counted on the next line that passes, and by Flush.
func TestLimiter(t *testing.T) {
	now := time.Unix(0, 0)
	l := New(3, time.Second)
	l.SetClock(func() time.Time { return now })
	passed := 0
	for range 1000 {
		if ok, _ := l.Allow("a"); ok {
			passed++
		}
	}
	if passed != 3 {
		t.Fatalf("%d of a burst of 1000 passed, want 3", passed)
	}
	if ok, _ := l.Allow("b"); !ok {
		t.Fatal("another kind was held back")
	}
	now = now.Add(time.Second)
	ok, n := l.Allow("a")
	if !ok || n != 997 {
		t.Fatalf("after a second: %v, %d suppressed; want true, 997", ok, n)
	}
	l.Allow("a")
	if n := l.Flush("a"); n != 1 {
		t.Fatalf("Flush: %d, want 1", n)
	}
	if ok, _ := l.Allow("a"); !ok {
		t.Fatal("a flushed kind starts with a fresh burst")
	}
}

// Kinds past MaxKeys share one bucket, so that a flood of distinct kinds
// is bounded too.
func TestLimiterKeys(t *testing.T) {
	now := time.Unix(0, 0)
	l := New(2, time.Hour)
	l.SetClock(func() time.Time { return now })
	passed := 0
	for i := range 3 * MaxKeys {
		if ok, _ := l.Allow(fmt.Sprint(i)); ok {
			passed++
		}
	}
	if passed > 2*MaxKeys+2 {
		t.Fatalf("%d lines of %d kinds passed", passed, 3*MaxKeys)
	}
	if len(l.buckets) > MaxKeys+1 {
		t.Fatalf("%d kinds tracked", len(l.buckets))
	}
}
