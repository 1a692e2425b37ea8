package gdvar_test

import (
	"runtime"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/gdjson"
	"github.com/gdvar/gdvar/gdtext"
	"github.com/gdvar/gdvar/variant"
)

// deepNode is one Dictionary level of the deep workload, as a Go type.
type deepNode struct {
	A []deepNode `gdvar:"a"`
}

// deepLimit is the MaxDepth of the deep workload, the largest the packages
// accept.
const deepLimit = 1 << 16

// deepInput is a value nested levels deep, Arrays and Dictionaries in
// turn ([{"a": [{"a": […[]…]}]}]), in every form the operations take.
type deepInput struct {
	levels int
	value  variant.Value
	data   []byte // the binary encoding
	text   string // var_to_str's text
	json   string // JSON of the same shape
	typed  []deepNode
}

func newDeepInput(tb testing.TB, levels int) *deepInput {
	tb.Helper()
	in := &deepInput{levels: levels}
	v := variant.Value(variant.NewArray())
	for range levels / 2 {
		d := variant.NewDictionary(1)
		d.Set(variant.String("a"), v)
		v = variant.NewArray(d)
	}
	in.value = v
	em, _ := variant.EncOptions{MaxDepth: deepLimit}.EncMode()
	var err error
	if in.data, err = em.Encode(v); err != nil {
		tb.Fatal(err)
	}
	text, err := variant.AppendText(nil, v, variant.TextOptions{})
	if err != nil {
		tb.Fatal(err)
	}
	in.text = string(text)
	in.json = strings.Repeat(`[{"a":`, levels/2) + "[]" + strings.Repeat("}]", levels/2)
	if err := deepDec.Unmarshal(in.data, &in.typed); err != nil {
		tb.Fatal(err)
	}
	return in
}

var (
	deepDec  = mustDec(gdvar.DecOptions{MaxDepth: deepLimit})
	deepEnc  = mustEnc(gdvar.EncOptions{MaxDepth: deepLimit})
	deepVDec = func() *variant.DecMode { m, _ := variant.DecOptions{MaxDepth: deepLimit}.DecMode(); return m }()
	deepVEnc = func() *variant.EncMode { m, _ := variant.EncOptions{MaxDepth: deepLimit}.EncMode(); return m }()
)

// deepOps are the operations that walk a deep value: each returns the
// size of its input, for b.SetBytes, or fails.
var deepOps = []struct {
	name string
	run  func(in *deepInput) (int, error)
}{
	{"variant.Decode", func(in *deepInput) (int, error) { _, _, err := deepVDec.Decode(in.data); return len(in.data), err }},
	{"variant.Encode", func(in *deepInput) (int, error) { _, err := deepVEnc.Encode(in.value); return len(in.data), err }},
	{"variant.AppendText", func(in *deepInput) (int, error) {
		_, err := variant.AppendText(nil, in.value, variant.TextOptions{})
		return len(in.text), err
	}},
	{"variant.String", func(in *deepInput) (int, error) { _ = in.value.(*variant.Array).String(); return len(in.text), nil }},
	{"Unmarshal.any", func(in *deepInput) (int, error) { var a any; return len(in.data), deepDec.Unmarshal(in.data, &a) }},
	{"Unmarshal.slice", func(in *deepInput) (int, error) { var a []any; return len(in.data), deepDec.Unmarshal(in.data, &a) }},
	{"Unmarshal.struct", func(in *deepInput) (int, error) {
		var a []deepNode
		return len(in.data), deepDec.Unmarshal(in.data, &a)
	}},
	{"Unmarshal.Value", func(in *deepInput) (int, error) {
		var a variant.Value
		return len(in.data), deepDec.Unmarshal(in.data, &a)
	}},
	{"Marshal.struct", func(in *deepInput) (int, error) { _, err := deepEnc.Marshal(&in.typed); return len(in.data), err }},
	{"gdtext.Parse", func(in *deepInput) (int, error) {
		_, err := gdtext.Parse(in.text, gdtext.ParseOptions{MaxDepth: deepLimit})
		return len(in.text), err
	}},
	{"gdjson.Parse", func(in *deepInput) (int, error) {
		_, err := gdjson.Parse(in.json, gdjson.ParseOptions{MaxDepth: deepLimit})
		return len(in.json), err
	}},
}

// BenchmarkDeepNesting decodes, encodes, formats and parses values nested
// 1,000 to 60,000 levels deep; ns/level should not grow with the depth.
func BenchmarkDeepNesting(b *testing.B) {
	for _, levels := range []int{1_000, 5_000, 20_000, 60_000} {
		in := newDeepInput(b, levels)
		for _, op := range deepOps {
			b.Run(op.name+"/"+strconv.Itoa(levels), func(b *testing.B) {
				size, err := op.run(in)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(size))
				b.ReportAllocs()
				for b.Loop() {
					if _, err := op.run(in); err != nil {
						b.Fatal(err)
					}
				}
				b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(levels), "ns/level")
			})
		}
	}
}

// deepCost measures one operation on in: bytes allocated and the least
// CPU time (of the whole process, over several runs) per level.
func deepCost(op func(*deepInput) (int, error), in *deepInput, runs int) (bytes, cpu float64, err error) {
	if _, err := op(in); err != nil { // warm up: codecs built, stack grown
		return 0, 0, err
	}
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	best := time.Duration(1<<63 - 1)
	for range runs {
		start := cpuTime()
		if _, err := op(in); err != nil {
			return 0, 0, err
		}
		best = min(best, cpuTime()-start)
	}
	runtime.ReadMemStats(&after)
	n := float64(in.levels)
	return float64(after.TotalAlloc-before.TotalAlloc) / float64(runs) / n, float64(best.Nanoseconds()) / n, nil
}

// TestDeepNestingIsLinear checks that every operation on a deep value
// costs the same per level 40,000 levels deep as 2,000 levels deep, within
// a factor of 4: memory allocated, and the least CPU time of several runs.
func TestDeepNestingIsLinear(t *testing.T) {
	if cpuTime() == 0 {
		t.Skip("no CPU time on this system")
	}
	shallow, deep := newDeepInput(t, 2_000), newDeepInput(t, 40_000)
	for _, op := range deepOps {
		sb, sc, err := deepCost(op.run, shallow, 20)
		if err != nil {
			t.Fatalf("%s, %d levels: %v", op.name, shallow.levels, err)
		}
		db, dc, err := deepCost(op.run, deep, 7)
		if err != nil {
			t.Fatalf("%s, %d levels: %v", op.name, deep.levels, err)
		}
		t.Logf("%-18s %6.1f → %6.1f bytes/level, %6.1f → %6.1f CPU ns/level", op.name, sb, db, sc, dc)
		if db > 4*sb+64 {
			t.Errorf("%s allocates %.1f bytes per level %d levels deep, %.1f %d levels deep", op.name, db, deep.levels, sb, shallow.levels)
		}
		// CPU time: the least of several runs (of the whole process,
		// garbage collection included), with a margin for a busy machine.
		if sc > 0 && dc > 4*sc+500 {
			t.Errorf("%s takes %.0f CPU ns per level %d levels deep, %.0f %d levels deep", op.name, dc, deep.levels, sc, shallow.levels)
		}
	}
}
