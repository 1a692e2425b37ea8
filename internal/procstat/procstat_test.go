package procstat

import (
	"os"
	"runtime"
	"testing"
	"time"
)

func TestSelf(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("reads /proc: Linux only")
	}
	pid := os.Getpid()
	// Burn CPU until the clock ticks at least once, bounded by work done.
	c0, err := CPU(pid)
	if err != nil {
		t.Fatal(err)
	}
	x := 0
	for i := 0; i < 1<<30; i++ {
		x += i
		if i%(1<<20) == 0 {
			if c, err := CPU(pid); err != nil {
				t.Fatal(err)
			} else if c > c0 {
				break
			}
		}
	}
	c1, _ := CPU(pid)
	if c1 <= c0 || c1%(10*time.Millisecond) != 0 {
		t.Errorf("CPU went from %v to %v (after %d)", c0, c1, x)
	}
	rss, err := RSS(pid)
	if err != nil {
		t.Fatal(err)
	}
	anon, err := RSSAnon(pid)
	if err != nil {
		t.Fatal(err)
	}
	big := make([]byte, 64<<20)
	for i := range big {
		big[i] = 1
	}
	rss2, _ := RSS(pid)
	anon2, _ := RSSAnon(pid)
	if rss <= 0 || rss2-rss < 60<<20 {
		t.Errorf("RSS %d, then %d after touching 64 MiB", rss, rss2)
	}
	if anon <= 0 || anon > rss || anon2-anon < 60<<20 {
		t.Errorf("anonymous RSS %d (of %d), then %d after touching 64 MiB", anon, rss, anon2)
	}
	runtime.KeepAlive(big)
	// Reading a file is system time; the loop above was user time.
	u0, s0, err := Times(pid)
	if err != nil {
		t.Fatal(err)
	}
	for i := 0; i < 1<<20; i++ {
		if _, s1, _ := Times(pid); s1 > s0 {
			break
		}
	}
	u1, s1, _ := Times(pid)
	if s1 <= s0 || u1 < u0 || u0 < c0-s0 {
		t.Errorf("Times went from user %v sys %v to user %v sys %v (CPU before %v)", u0, s0, u1, s1, c0)
	}
	if _, err := CPU(-1); err == nil {
		t.Error("CPU of pid -1: no error")
	}
}

// TestSelfCPU: this process's CPU time grows as it works, and on Linux
// agrees with /proc (to its 10 ms ticks).
func TestSelfCPU(t *testing.T) {
	c0 := Self()
	if c0 <= 0 {
		t.Skipf("no CPU time on %s", runtime.GOOS)
	}
	x := 0
	for i := 0; i < 1<<32 && Self() < c0+20*time.Millisecond; i++ {
		for j := range 1 << 16 {
			x += j
		}
	}
	c1 := Self()
	if c1 < c0+20*time.Millisecond {
		t.Errorf("CPU went from %v to %v (after %d)", c0, c1, x)
	}
	if runtime.GOOS == "linux" {
		p, err := CPU(os.Getpid())
		if err != nil {
			t.Fatal(err)
		}
		if c2 := Self(); p < c1-20*time.Millisecond || p > c2+20*time.Millisecond {
			t.Errorf("/proc says %v, Self %v then %v", p, c1, c2)
		}
	}
}
