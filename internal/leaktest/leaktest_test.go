package leaktest

import (
	"os"
	"testing"
	"time"
)

// fakeTB records a failure instead of stopping the test.
type fakeTB struct {
	testing.TB
	failed bool
}

func (f *fakeTB) Helper() {}
func (f *fakeTB) Fatalf(string, ...any) {
	f.failed = true
}

func TestCheck(t *testing.T) {
	base := Take()
	stop := make(chan struct{})
	go func() { <-stop }()
	f := &fakeTB{TB: t}
	base.Check(f, 20*time.Millisecond)
	if !f.failed {
		t.Error("a goroutine left running passed the check")
	}
	close(stop)
	f = &fakeTB{TB: t}
	base.Check(f, 2*time.Second)
	if f.failed {
		t.Error("the check failed once the goroutine was gone")
	}

	if OpenFiles() == 0 {
		t.Skip("no /proc/self/fd here")
	}
	file, err := os.Open(os.DevNull)
	if err != nil {
		t.Fatal(err)
	}
	f = &fakeTB{TB: t}
	base.Check(f, 20*time.Millisecond)
	if !f.failed {
		t.Error("a file left open passed the check")
	}
	file.Close()
}
