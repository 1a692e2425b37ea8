package bench

import (
	"bytes"
	"encoding/hex"
	"io"
	"strconv"
	"strings"
	"testing"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/internal/enginetest"
	"github.com/gdvar/gdvar/variant"
)

var godot3Enc, _ = variant.EncOptions{Family: variant.Godot3}.EncMode()

func benchEncode(b *testing.B, v variant.Value, values int) {
	buf, err := godot3Enc.Append(nil, v)
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = godot3Enc.Append(buf[:0], v); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*values), "ns/value")
}

func benchDecode(b *testing.B, v variant.Value, values int, opts variant.DecOptions) {
	buf, err := godot3Enc.Encode(v)
	if err != nil {
		b.Fatal(err)
	}
	opts.Family = variant.Godot3
	m, err := opts.DecMode()
	if err != nil {
		b.Fatal(err)
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if _, _, err := m.Decode(buf); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*values), "ns/value")
}

func BenchmarkA_Encode(b *testing.B) { benchEncode(b, floats(), 1_000_000) }
func BenchmarkA_Decode(b *testing.B) { benchDecode(b, floats(), 1_000_000, variant.DecOptions{}) }
func BenchmarkA_DecodeZeroCopy(b *testing.B) {
	benchDecode(b, floats(), 1_000_000, variant.DecOptions{ZeroCopy: true})
}

// BenchmarkA_DecodeReuse decodes workload A with gdvar.Unmarshal into a
// []float32 that is reused from one call to the next, as a server that
// receives the same kind of message again and again would.
func BenchmarkA_DecodeReuse(b *testing.B) {
	buf, err := godot3Enc.Encode(floats())
	if err != nil {
		b.Fatal(err)
	}
	var fs []float32
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if err := godot3Unmarshal.Unmarshal(buf, &fs); err != nil {
			b.Fatal(err)
		}
	}
	if len(fs) != 1_000_000 || fs[999_999] != 999_999*0.5 {
		b.Fatalf("decoded %d floats", len(fs))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1_000_000), "ns/value")
}

// BenchmarkA_Memcopy copies workload A's 4 MB encoding into a reused
// buffer with copy: the speed of memory on this machine, which encoding A
// and decoding it into a reused slice cannot beat.
func BenchmarkA_Memcopy(b *testing.B) {
	src, err := godot3Enc.Encode(floats())
	if err != nil {
		b.Fatal(err)
	}
	dst := make([]byte, len(src))
	b.SetBytes(int64(len(src)))
	b.ReportAllocs()
	for b.Loop() {
		copy(dst, src)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*1_000_000), "ns/value")
}

func BenchmarkB_Encode(b *testing.B) { benchEncode(b, players(), 100_000) }
func BenchmarkB_Decode(b *testing.B) { benchDecode(b, players(), 100_000, variant.DecOptions{}) }
func BenchmarkC_Encode(b *testing.B) { benchEncode(b, gameState(), 800) }
func BenchmarkC_Decode(b *testing.B) { benchDecode(b, gameState(), 800, variant.DecOptions{}) }

// Workload D: 100,000 small messages through StreamPeer framing (a 4-byte
// length, then the value), in memory, one message at a time.
func messages() []variant.Value {
	msgs := make([]variant.Value, 100_000)
	for i := range msgs {
		msgs[i] = player(i)
	}
	return msgs
}

func BenchmarkD_Encode(b *testing.B) {
	msgs := messages()
	var out bytes.Buffer
	w := frame.NewWriter(&out, frame.Options{Kind: frame.Stream})
	var payload []byte
	run := func() {
		out.Reset()
		for _, m := range msgs {
			var err error
			if payload, err = godot3Enc.Append(payload[:0], m); err != nil {
				b.Fatal(err)
			}
			if err := w.WriteFrame(payload); err != nil {
				b.Fatal(err)
			}
		}
	}
	run()
	b.SetBytes(int64(out.Len()))
	b.ReportAllocs()
	for b.Loop() {
		run()
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/value")
}

func BenchmarkD_Decode(b *testing.B) {
	msgs := messages()
	var stream []byte
	for _, m := range msgs {
		p, _ := godot3Enc.Encode(m)
		stream, _ = frame.Append(stream, p, frame.Options{Kind: frame.Stream})
	}
	dec, _ := variant.DecOptions{Family: variant.Godot3}.DecMode()
	rd := bytes.NewReader(stream)
	b.SetBytes(int64(len(stream)))
	b.ReportAllocs()
	for b.Loop() {
		rd.Reset(stream)
		r := frame.NewReader(rd, frame.Options{Kind: frame.Stream})
		n := 0
		for {
			p, err := r.ReadFrame()
			if err == io.EOF {
				break
			}
			if err != nil {
				b.Fatal(err)
			}
			if _, _, err := dec.Decode(p); err != nil {
				b.Fatal(err)
			}
			n++
		}
		if n != len(msgs) {
			b.Fatalf("%d messages", n)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(msgs)), "ns/value")
}

// The workloads are the same values the engine times: Godot 3.2 encodes
// workload C to exactly the bytes gdvar does.
func TestWorkloadCMatchesGodot3(t *testing.T) {
	out := enginetest.RunGodot3(t, "godot3.gd", "1")
	var engineHex string
	for _, line := range strings.Split(out, "\n") {
		if rest, ok := strings.CutPrefix(line, "BYTES\tC\t"); ok {
			engineHex = strings.TrimSpace(rest)
		}
	}
	ours, err := godot3Enc.Encode(gameState())
	if err != nil {
		t.Fatal(err)
	}
	if engineHex != hex.EncodeToString(ours) {
		t.Fatalf("workload C differs: engine %d bytes, ours %d", len(engineHex)/2, len(ours))
	}
	for _, v := range []variant.Value{floats(), players()} {
		if _, err := godot3Enc.Encode(v); err != nil {
			t.Fatal(err)
		}
	}
}

// Player is workload B's record as a Go struct.
type Player struct {
	ID   int64           `gdvar:"id"`
	Name string          `gdvar:"name"`
	Pos  variant.Vector2 `gdvar:"pos"`
	HP   float64         `gdvar:"hp"`
}

func playerStructs() []Player {
	ps := make([]Player, 100_000)
	for i := range ps {
		ps[i] = Player{ID: int64(i), Name: "player" + strconv.Itoa(i), Pos: variant.Vector2{X: float64(i), Y: float64(-i)}, HP: 99.5}
	}
	return ps
}

var (
	godot3Marshal, _   = gdvar.EncOptions{Family: variant.Godot3}.EncMode()
	godot3Unmarshal, _ = gdvar.DecOptions{Family: variant.Godot3}.DecMode()
)

func BenchmarkB_EncodeStructs(b *testing.B) {
	ps := playerStructs()
	buf, err := godot3Marshal.Append(nil, &ps)
	if err != nil {
		b.Fatal(err)
	}
	if want, _ := godot3Enc.Encode(players()); !bytes.Equal(buf, want) {
		b.Fatal("[]Player does not marshal to workload B's bytes")
	}
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		if buf, err = godot3Marshal.Append(buf[:0], &ps); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*len(ps)), "ns/value")
}

func BenchmarkB_DecodeStructs(b *testing.B) {
	buf, _ := godot3Enc.Encode(players())
	var ps []Player
	b.SetBytes(int64(len(buf)))
	b.ReportAllocs()
	for b.Loop() {
		ps = ps[:0]
		if err := godot3Unmarshal.Unmarshal(buf, &ps); err != nil {
			b.Fatal(err)
		}
	}
	if len(ps) != 100_000 || ps[99_999].Name != "player99999" {
		b.Fatalf("decoded %d players", len(ps))
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*100_000), "ns/value")
}
