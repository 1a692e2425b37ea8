//go:build linux

package main

import (
	"encoding/binary"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/gdfile"
)

// The commands that read files stay small on bombs: 5.5 million Nils (44
// MB of data) in a 4756-byte Zstandard file, and 8 MiB of plain Nils.
// Before the bounds, inspect took 5 GB and 52 s on the first and 1.2 GB
// on the second, and migrate 730 MB on the first.
func TestFileCommandsRSSOnBombs(t *testing.T) {
	bin := builtGdvar(t)
	dir := t.TempDir()
	// The files are made by another process: a child's maximum RSS starts
	// from its parent's peak.
	maker := exec.Command(os.Args[0], "-test.run=^$")
	maker.Env = append(os.Environ(), "GDVAR_TEST_BOMBS="+dir)
	if out, err := maker.CombinedOutput(); err != nil {
		t.Fatalf("making the bombs: %v %s", err, out)
	}
	zst := filepath.Join(dir, "bomb.sav")
	plain := filepath.Join(dir, "nils.sav")
	cases := []struct {
		args   []string
		ok     bool
		errHas string
		maxRSS int64 // KiB
	}{
		{[]string{"inspect", "--file", zst}, false, "larger than --max-size", 32 << 10},
		{[]string{"migrate", zst, filepath.Join(dir, "out1.sav")}, false, "exceeds MaxSize 16777216", 32 << 10},
		// Within --max-size 64M, over its budget of 4 Mi values: refused
		// once the data is out, before any value is decoded.
		{[]string{"migrate", "--max-size", "64M", zst, filepath.Join(dir, "out2.sav")}, false, "MaxValues (4194304)", 160 << 10},
		// Streamed: 2 Mi rows, in the memory of a few.
		{[]string{"inspect", "--file", plain}, true, "", 64 << 10},
		{[]string{"migrate", plain, filepath.Join(dir, "out3.sav")}, false, "MaxValues (1048576)", 64 << 10},
		{[]string{"migrate", "--max-size", "20M", plain, filepath.Join(dir, "out6.sav")}, true, "", 160 << 10},
		{[]string{"migrate", "--max-size", "9M", plain, filepath.Join(dir, "out4.sav")}, false, "MaxValues (589824)", 64 << 10},
		{[]string{"migrate", "--max-size", "32M", plain, filepath.Join(dir, "out5.sav")}, true, "", 160 << 10},
		{[]string{"decode", zst}, false, "", 32 << 10},
	}
	// The commands run under testdata/maxrss, whose own small peak is all
	// that the kernel counts in theirs from before they started (run from
	// this test binary, a command's peak would include this binary's).
	launcher, rssFile := filepath.Join(dir, "maxrss"), filepath.Join(dir, "rss")
	if out, err := exec.Command("go", "build", "-o", launcher, "./testdata/maxrss").CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/maxrss: %v\n%s", err, out)
	}
	for _, c := range cases {
		cmd := exec.Command(launcher, append([]string{rssFile, bin}, c.args...)...)
		var stderr strings.Builder
		cmd.Stderr = &stderr
		err := cmd.Run()
		if (err == nil) != c.ok || !strings.Contains(stderr.String(), c.errHas) {
			t.Errorf("%v: %v %q", c.args[:len(c.args)-1], err, stderr.String())
		}
		text, rerr := os.ReadFile(rssFile)
		if rerr != nil {
			t.Fatalf("%v: %v", c.args, rerr)
		}
		rss, rerr := strconv.ParseInt(string(text), 10, 64)
		if rerr != nil {
			t.Fatalf("%v: %v", c.args, rerr)
		}
		t.Logf("%v: max RSS %d KiB", c.args[:2], rss)
		if rss > c.maxRSS {
			t.Errorf("%v: max RSS %d KiB, want at most %d", c.args, rss, c.maxRSS)
		}
	}
}

// writeBombs writes the files of TestFileCommandsRSSOnBombs into dir.
func writeBombs(dir string) error {
	nils := func(n int) []byte {
		b := make([]byte, 8*n)
		for i := range n {
			binary.LittleEndian.PutUint32(b[8*i:], 4)
		}
		return b
	}
	bomb, err := gdfile.Wrap(nils(5_500_000), gdfile.Container{Format: gdfile.Compressed, Compression: gdfile.Zstd, BlockSize: 44_000_000}, gdfile.Options{})
	if err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "bomb.sav"), bomb, 0o644); err != nil {
		return err
	}
	return os.WriteFile(filepath.Join(dir, "nils.sav"), nils(1<<20+1), 0o644)
}

func init() {
	if dir := os.Getenv("GDVAR_TEST_BOMBS"); dir != "" {
		if err := writeBombs(dir); err != nil {
			panic(err)
		}
		os.Exit(0)
	}
}
