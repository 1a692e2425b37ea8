//go:build linux

package main

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// gdvar decode stays small on hostile input: a packet that claims 2^31
// elements, and a megabyte of the shape that costs the most memory per
// input byte.
//
// The command runs under testdata/maxrss, a small launcher that reports
// its peak RSS: the kernel counts in a process's peak the memory of the
// process that started it, which for this test binary (under -race
// especially) would be more than the limits.
func TestDecodeRSSOnHostileInput(t *testing.T) {
	if testing.Short() {
		t.Skip("builds the command")
	}
	dir := t.TempDir()
	bin, launcher, rssFile := filepath.Join(dir, "gdvar"), filepath.Join(dir, "maxrss"), filepath.Join(dir, "rss")
	for _, b := range [][2]string{{bin, "."}, {launcher, "./testdata/maxrss"}} {
		if out, err := exec.Command("go", "build", "-o", b[0], b[1]).CombinedOutput(); err != nil {
			t.Fatalf("go build %s: %v\n%s", b[1], err, out)
		}
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
		cmd := exec.Command(launcher, rssFile, bin, "decode")
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
		text, err := os.ReadFile(rssFile)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		rss, err := strconv.ParseInt(string(text), 10, 64)
		if err != nil {
			t.Fatalf("%s: %v", c.name, err)
		}
		t.Logf("%s: %d input bytes, max RSS %d KiB", c.name, len(c.input), rss)
		if rss > c.maxRSS {
			t.Errorf("%s: max RSS %d KiB, want at most %d", c.name, rss, c.maxRSS)
		}
	}
	_ = os.Remove(bin)
}
