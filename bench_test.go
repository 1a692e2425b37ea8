package gdvar_test

import (
	"strconv"
	"testing"
	"time"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/internal/procstat"
	"github.com/gdvar/gdvar/variant"
)

// Player is an element of workload B.
type Player struct {
	ID   int             `gdvar:"id"`
	Name string          `gdvar:"name"`
	Pos  variant.Vector2 `gdvar:"pos"`
	HP   float64         `gdvar:"hp"`
}

// Workload B: an Array of 100,000 {"id": i, "name": "player<i>",
// "pos": Vector2(i, -i), "hp": 99.5}, as Go structs.
const playerCount = 100_000

func players() []Player {
	ps := make([]Player, playerCount)
	for i := range ps {
		ps[i] = Player{ID: i, Name: "player" + strconv.Itoa(i), Pos: variant.Vector2{X: float64(i), Y: float64(-i)}, HP: 99.5}
	}
	return ps
}

// cpuTime is the CPU time the process has used (all threads, GC
// included): a steadier measure than wall time on a busy machine.
func cpuTime() time.Duration { return procstat.Self() }

// perElement reports, for an n-element workload, wall time and CPU time
// per element, and the fastest iteration's time per element (the steadiest
// figure on a busy machine). Call it before the loop, tick at the end of
// each iteration, and done after the loop.
func perElement(b *testing.B, n int) (tick, done func()) {
	start := cpuTime()
	best := time.Duration(1<<63 - 1)
	last := time.Now()
	tick = func() {
		now := time.Now()
		best = min(best, now.Sub(last))
		last = now
	}
	done = func() {
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/element")
		b.ReportMetric(float64((cpuTime()-start).Nanoseconds())/float64(b.N)/float64(n), "cpu-ns/element")
		b.ReportMetric(float64(best.Nanoseconds())/float64(n), "best-ns/element")
	}
	return tick, done
}

// BenchmarkMarshalPlayers100k encodes workload B from []Player into a
// reused buffer.
func BenchmarkMarshalPlayers100k(b *testing.B) {
	ps := players()
	buf, err := gdvar.Marshal(&ps)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	tick, done := perElement(b, playerCount)
	for b.Loop() {
		if buf, err = gdvar.Append(buf[:0], &ps); err != nil {
			b.Fatal(err)
		}
		tick()
	}
	done()
}

// BenchmarkUnmarshalPlayers100k decodes workload B into a new []Player
// each time: one slice and one string per element are allocated.
func BenchmarkUnmarshalPlayers100k(b *testing.B) {
	ps := players()
	buf, err := gdvar.Marshal(&ps)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	tick, done := perElement(b, playerCount)
	for b.Loop() {
		var out []Player
		if err := gdvar.Unmarshal(buf, &out); err != nil {
			b.Fatal(err)
		}
		tick()
	}
	done()
}

// BenchmarkUnmarshalPlayers100kReuse decodes workload B into the same
// []Player each time: only the name strings are allocated.
func BenchmarkUnmarshalPlayers100kReuse(b *testing.B) {
	ps := players()
	buf, err := gdvar.Marshal(&ps)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	var out []Player
	tick, done := perElement(b, playerCount)
	for b.Loop() {
		if err := gdvar.Unmarshal(buf, &out); err != nil {
			b.Fatal(err)
		}
		tick()
	}
	done()
}

// playersValue is workload B as a dynamic Value, for package variant.
func playersValue() variant.Value {
	a := &variant.Array{Values: make([]variant.Value, playerCount)}
	for i := range a.Values {
		d := variant.NewDictionary(4)
		d.Set(variant.String("id"), variant.Int(i))
		d.Set(variant.String("name"), variant.String("player"+strconv.Itoa(i)))
		d.Set(variant.String("pos"), variant.Vector2{X: float64(i), Y: float64(-i)})
		d.Set(variant.String("hp"), variant.Float(99.5))
		a.Values[i] = d
	}
	return a
}

// BenchmarkVariantEncodePlayers100k is workload B through package
// variant's Value tree, for comparison.
func BenchmarkVariantEncodePlayers100k(b *testing.B) {
	v := playersValue()
	buf, err := variant.Encode(v)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	tick, done := perElement(b, playerCount)
	for b.Loop() {
		if buf, err = variant.Append(buf[:0], v); err != nil {
			b.Fatal(err)
		}
		tick()
	}
	done()
}

// BenchmarkVariantDecodePlayers100k is workload B decoded by package
// variant into a Value tree, for comparison.
func BenchmarkVariantDecodePlayers100k(b *testing.B) {
	buf, err := variant.Encode(playersValue())
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	tick, done := perElement(b, playerCount)
	for b.Loop() {
		if _, _, err := variant.Decode(buf); err != nil {
			b.Fatal(err)
		}
		tick()
	}
	done()
}

// BenchmarkUnmarshalPlayers100kAny decodes workload B into an `any`:
// []any of map[string]any.
func BenchmarkUnmarshalPlayers100kAny(b *testing.B) {
	ps := players()
	buf, err := gdvar.Marshal(&ps)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	tick, done := perElement(b, playerCount)
	for b.Loop() {
		var out any
		if err := gdvar.Unmarshal(buf, &out); err != nil {
			b.Fatal(err)
		}
		tick()
	}
	done()
}

// BenchmarkMarshalPlayer encodes one struct into a reused buffer.
func BenchmarkMarshalPlayer(b *testing.B) {
	p := Player{ID: 12345, Name: "player12345", Pos: variant.Vector2{X: 12345, Y: -12345}, HP: 99.5}
	buf, _ := gdvar.Marshal(&p)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		buf, _ = gdvar.Append(buf[:0], &p)
	}
}

// BenchmarkUnmarshalPlayer decodes one struct.
func BenchmarkUnmarshalPlayer(b *testing.B) {
	p := Player{ID: 12345, Name: "player12345", Pos: variant.Vector2{X: 12345, Y: -12345}, HP: 99.5}
	buf, _ := gdvar.Marshal(&p)
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	var out Player
	for b.Loop() {
		if err := gdvar.Unmarshal(buf, &out); err != nil {
			b.Fatal(err)
		}
	}
}
