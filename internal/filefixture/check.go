package filefixture

import (
	"bufio"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// Written is a file a test wrote for an engine to read with read3.gd or
// read4.gd.
type Written struct {
	Name   string // file name
	How    string // plain, bigendian, password, key or compressed
	Mode   int    // the compression mode, for compressed
	Values []variant.Value
}

// Spec is the file's argument to read3.gd and read4.gd: NAME:HOW[:MODE].
func (w Written) Spec() string {
	if w.How == "compressed" {
		return fmt.Sprintf("%s:%s:%d", w.Name, w.How, w.Mode)
	}
	return w.Name + ":" + w.How
}

// Script returns the path of testdata/files/read3.gd or read4.gd.
func Script(fam variant.Family) string {
	return filepath.Join(Root(), fmt.Sprintf("read%d.gd", fam))
}

// CheckRead compares what the engine of family fam printed when it read
// the written files (read3.gd or read4.gd output) with the values written,
// fails the test for every difference, and returns a report: one line per
// file.
func CheckRead(t testing.TB, fam variant.Family, written []Written, output string) string {
	t.Helper()
	type line struct {
		File   string   `json:"file"`
		Error  *int     `json:"error"`
		Values []string `json:"values"`
	}
	got := map[string]line{}
	sc := bufio.NewScanner(strings.NewReader(output))
	sc.Buffer(nil, 1<<26)
	for sc.Scan() {
		if !strings.HasPrefix(sc.Text(), "{") {
			continue
		}
		var l line
		if err := json.Unmarshal(sc.Bytes(), &l); err != nil {
			t.Fatalf("engine output: %v: %q", err, sc.Text())
		}
		got[l.File] = l
	}
	dm, err := variant.DecOptions{Family: fam, AllowObjects: true}.DecMode()
	if err != nil {
		t.Fatal(err)
	}
	var report strings.Builder
	for _, w := range written {
		l, ok := got[w.Name]
		switch {
		case !ok:
			t.Errorf("%v did not report on %s", fam, w.Name)
			fmt.Fprintf(&report, "%-40s MISSING\n", w.Spec())
			continue
		case l.Error != nil:
			t.Errorf("%v could not open %s: error %d", fam, w.Name, *l.Error)
			fmt.Fprintf(&report, "%-40s open error %d\n", w.Spec(), *l.Error)
			continue
		case len(l.Values) != len(w.Values):
			t.Errorf("%v read %d values from %s, want %d", fam, len(l.Values), w.Name, len(w.Values))
			fmt.Fprintf(&report, "%-40s %d values, want %d\n", w.Spec(), len(l.Values), len(w.Values))
			continue
		}
		bad := 0
		for i, h := range l.Values {
			b, err := hex.DecodeString(h)
			if err != nil {
				t.Fatal(err)
			}
			v, _, err := dm.Decode(b)
			if err != nil || !variant.Equal(v, w.Values[i]) {
				t.Errorf("%v read value %d of %s differently: %v", fam, i, w.Name, err)
				bad++
			}
		}
		if bad == 0 {
			fmt.Fprintf(&report, "%-40s ok: %d of %d values read back equal\n", w.Spec(), len(w.Values), len(w.Values))
		} else {
			fmt.Fprintf(&report, "%-40s %d of %d values differ\n", w.Spec(), bad, len(w.Values))
		}
	}
	return report.String()
}

// Record writes a check's report to testdata/files/NAME when the
// environment variable GDVAR_RECORD_ENGINE_CHECKS is set, so that a run
// with the engines installed updates the record that is committed.
func Record(t testing.TB, name, header, report string) {
	t.Helper()
	if os.Getenv("GDVAR_RECORD_ENGINE_CHECKS") == "" {
		return
	}
	if err := os.WriteFile(filepath.Join(Root(), name), []byte(header+"\n"+report), 0o644); err != nil {
		t.Fatal(err)
	}
}
