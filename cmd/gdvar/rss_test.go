//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// gdvar decode stays small on hostile input: a packet that claims 2^31
// elements, and a megabyte of the shape that costs the most memory per
// input byte.
func TestDecodeRSSOnHostileInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "gdvar")
	if out, err := exec.Command("go", "build", "-o", bin, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}
	emptyDicts := []byte{0x1c, 0, 0, 0, 0, 0, 2, 0} // Array of 131072 empty Dictionaries
	for range 131072 {
		emptyDicts = append(emptyDicts, 0x1b, 0, 0, 0, 0, 0, 0, 0)
	}
	cases := []struct {
		name   string
		input  []byte
		ok     bool
		maxRSS int64 // KiB
	}{
		{"claims 2^31 elements", []byte{0x1c, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 0, 0, 0, 0, 0, 0, 0, 0}, false, 32 << 10},
		{"claims a 2 GiB string", []byte{4, 0, 0, 0, 0xff, 0xff, 0xff, 0x7f, 'a', 0, 0, 0}, false, 32 << 10},
		{"1 MiB of empty Dictionaries", emptyDicts, true, 64 << 10},
	}
	for _, c := range cases {
		cmd := exec.Command(bin, "decode")
		cmd.Stdin = bytes.NewReader(c.input)
		var stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = nil, &stderr
		err := cmd.Run()
		if (err == nil) != c.ok {
			t.Errorf("%s: %v %s", c.name, err, stderr.String())
		}
		if !c.ok && (strings.Count(stderr.String(), "\n") != 1 || !strings.HasPrefix(stderr.String(), "gdvar: decode: byte ")) {
			t.Errorf("%s: stderr %q", c.name, stderr.String())
		}
		rss := cmd.ProcessState.SysUsage().(*syscall.Rusage).Maxrss
		t.Logf("%s: %d input bytes, max RSS %d KiB", c.name, len(c.input), rss)
		if rss > c.maxRSS {
			t.Errorf("%s: max RSS %d KiB, want at most %d", c.name, rss, c.maxRSS)
		}
	}
	_ = os.Remove(bin)
}
