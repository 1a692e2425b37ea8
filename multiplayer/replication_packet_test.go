package multiplayer

import (
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"reflect"
	"strings"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

func mustHex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(strings.ReplaceAll(s, " ", ""))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func TestSpawnRoundTrip(t *testing.T) {
	state, err := AppendState(nil, nil, variant.Vector2{X: 1, Y: 2}, variant.Int(100))
	if err != nil {
		t.Fatal(err)
	}
	arg, _, _, err := AppendArgs(nil, nil, variant.String("x"))
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range []Spawn{
		{Scene: 0, Spawner: 1, NetID: 1, SyncIDs: []uint32{2, 3}, Name: "1234", State: state},
		{Scene: 3, Spawner: 0x01020304, NetID: 9, Name: "Player"},
		{Scene: SpawnCustom, Spawner: 2, NetID: 5, SyncIDs: []uint32{6}, Name: "Bullet", Arg: arg, State: state},
		{Scene: SpawnCustom, Spawner: 2, NetID: 5, Name: "é", Arg: []byte{}},
	} {
		b := AppendSpawn(nil, &s)
		p, err := Parse(variant.Godot4, b)
		if err != nil || p.Command != CmdSpawn {
			t.Fatalf("%x: %v %v", b, p.Command, err)
		}
		got, err := ParseSpawn(b)
		if err != nil {
			t.Fatalf("%x: %v", b, err)
		}
		norm := func(x []byte) []byte {
			if len(x) == 0 {
				return nil
			}
			return x
		}
		got.Arg, got.State, s.Arg, s.State = norm(got.Arg), norm(got.State), norm(s.Arg), norm(s.State)
		if !reflect.DeepEqual(got, s) {
			t.Errorf("%x:\n got %+v\nwant %+v", b, got, s)
		}
	}
}

// The layout, byte by byte, as _make_spawn_packet writes it.
func TestSpawnLayout(t *testing.T) {
	s := Spawn{Scene: 0, Spawner: 1, NetID: 2, SyncIDs: []uint32{3}, Name: "P", State: []byte{0x02, 0x64}}
	want := mustHex(t, "04"+"00"+"01000000"+"02000000"+"01000000"+"02000000"+"03000000"+"5000"+"0264")
	if b := AppendSpawn(nil, &s); !bytes.Equal(b, want) {
		t.Fatalf("got %x\nwant %x", b, want)
	}
	c := Spawn{Scene: SpawnCustom, Spawner: 1, NetID: 2, Name: "P", Arg: []byte{0x02, 0x07}}
	want = mustHex(t, "04ff"+"01000000"+"02000000"+"00000000"+"02000000"+"5000"+"02000000"+"0207")
	if b := AppendSpawn(nil, &c); !bytes.Equal(b, want) {
		t.Fatalf("got %x\nwant %x", b, want)
	}
}

func TestSpawnErrors(t *testing.T) {
	good := AppendSpawn(nil, &Spawn{Spawner: 1, NetID: 2, SyncIDs: []uint32{3}, Name: "P"})
	custom := AppendSpawn(nil, &Spawn{Scene: SpawnCustom, Spawner: 1, NetID: 2, Name: "P", Arg: []byte{2, 7}})
	set32 := func(b []byte, off int, v uint32) []byte {
		b = append([]byte(nil), b...)
		b[off], b[off+1], b[off+2], b[off+3] = byte(v), byte(v>>8), byte(v>>16), byte(v>>24)
		return b
	}
	named := func(name string) []byte {
		b := AppendSpawn(nil, &Spawn{Spawner: 1, NetID: 2, Name: "x"})
		b = b[:spawnHeader]
		b = set32(b, 14, uint32(len(name)+1))
		return append(append(b, name...), 0)
	}
	for _, c := range []struct {
		name string
		b    []byte
		err  error
		off  int
	}{
		{"short", good[:17], ErrTruncated, 17},
		{"sync ids past the end", set32(good, 10, 1<<30), ErrTruncated, 10},
		{"name past the end", set32(good, 14, 100), ErrTruncated, 10},
		{"huge counts", set32(set32(good, 10, 0xFFFFFFFF), 14, 0xFFFFFFFF), ErrTruncated, 10},
		{"empty name", set32(good[:spawnHeader+4], 14, 0), ErrInvalidPacket, 14},
		{"name of a NUL", named(""), ErrInvalidPacket, spawnHeader},
		{"dot", named("a.b"), ErrInvalidPacket, spawnHeader},
		{"at", named("@Node@2"), ErrInvalidPacket, spawnHeader},
		{"slash", named("../x"), ErrInvalidPacket, spawnHeader},
		{"percent", named("%u"), ErrInvalidPacket, spawnHeader},
		{"not utf-8", named("\xff"), ErrInvalidPacket, spawnHeader},
		{"custom without size", custom[:len(custom)-6], ErrTruncated, len(custom) - 6},
		{"custom arg past the end", custom[:len(custom)-1], ErrTruncated, len(custom) - 6},
		{"not SPAWN", append([]byte{5}, good[1:]...), ErrInvalidPacket, 0},
	} {
		_, err := ParseSpawn(c.b)
		var pe *PacketError
		if !errors.As(err, &pe) || !errors.Is(err, c.err) || pe.Offset != c.off || pe.Command != CmdSpawn {
			t.Errorf("%s: %v (want %v at %d)", c.name, err, c.err, c.off)
		}
	}
	if _, err := ParseSpawn(good[:17]); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("truncated: %v does not match io.ErrUnexpectedEOF", err)
	}
	// A name shorter than its length (NUL inside) is read up to the NUL.
	b := set32(good, 14, 2)
	b = append(b[:spawnHeader+4], 'Q', 0)
	if s, err := ParseSpawn(b); err != nil || s.Name != "Q" {
		t.Errorf("%q %v", s.Name, err)
	}
}

func TestDespawn(t *testing.T) {
	b := AppendDespawn(nil, 0x0A0B0C0D)
	if !bytes.Equal(b, mustHex(t, "050d0c0b0a")) {
		t.Fatalf("%x", b)
	}
	if id, err := ParseDespawn(b); err != nil || id != 0x0A0B0C0D {
		t.Fatal(id, err)
	}
	if _, err := ParseDespawn(b[:4]); !errors.Is(err, ErrTruncated) {
		t.Fatal(err)
	}
	if _, err := ParseDespawn([]byte{4, 0, 0, 0, 0}); !errors.Is(err, ErrInvalidPacket) {
		t.Fatal(err)
	}
}

func TestSyncRoundTrip(t *testing.T) {
	st1, _ := AppendState(nil, nil, variant.Vector2{X: 3, Y: 4})
	st2, _ := AppendState(nil, nil, variant.Int(-5), variant.Bool(true))
	states := []SyncState{{ID: 2, State: st1}, {ID: SyncPathID | 7, State: st2}}
	b := AppendSync(nil, 0xBEEF, states...)
	s, err := ParseSync(b, nil)
	if err != nil || s.Delta || s.Time != 0xBEEF || !reflect.DeepEqual(s.States, states) {
		t.Fatalf("%x: %+v %v", b, s, err)
	}
	vals, n, err := DecodeState(nil, s.States[1].State, 2, nil)
	if err != nil || n != len(st2) || !reflect.DeepEqual(vals, []variant.Value{variant.Int(-5), variant.Bool(true)}) {
		t.Fatalf("%v %d %v", vals, n, err)
	}
	states[0].Mask, states[1].Mask = 1, 6
	d := AppendDelta(nil, states...)
	if d[0] != 0x16 {
		t.Fatalf("%x", d)
	}
	s, err = ParseSync(d, make([]SyncState, 0, 4))
	if err != nil || !s.Delta || !reflect.DeepEqual(s.States, states) {
		t.Fatalf("%x: %+v %v", d, s, err)
	}
	// Reusing the slice allocates nothing.
	buf := make([]SyncState, 0, 4)
	if a := testing.AllocsPerRun(100, func() { ParseSync(d, buf) }); a != 0 {
		t.Errorf("ParseSync allocates %v times", a)
	}
}

func TestSyncErrors(t *testing.T) {
	b := AppendSync(nil, 1, SyncState{ID: 1, State: []byte{2, 5, 2, 6}})
	if _, err := ParseSync(b[:10], nil); !errors.Is(err, ErrTruncated) {
		t.Error(err)
	}
	var pe *PacketError
	_, err := ParseSync(b[:len(b)-1], nil)
	if !errors.As(err, &pe) || pe.Offset != 7 || !errors.Is(err, ErrTruncated) {
		t.Errorf("%v", err)
	}
	d := AppendDelta(nil, SyncState{ID: 1, Mask: 1, State: []byte{2, 5}})
	_, err = ParseSync(d[:len(d)-1], nil)
	if !errors.As(err, &pe) || pe.Offset != 13 || !errors.Is(err, ErrTruncated) {
		t.Errorf("%v", err)
	}
	// Trailing bytes shorter than an entry header are ignored, as the
	// engine ignores them.
	s, err := ParseSync(append(b, 1, 2, 3, 4, 5, 6, 7, 8), nil)
	if err != nil || len(s.States) != 1 {
		t.Errorf("%+v %v", s, err)
	}
	if _, err := ParseSync([]byte{5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}, nil); !errors.Is(err, ErrInvalidPacket) {
		t.Error(err)
	}
}

func TestNewerSyncTime(t *testing.T) {
	for _, c := range []struct {
		t, last uint16
		started bool
		want    bool
	}{
		{5, 9, false, true},
		{10, 9, true, true},
		{9, 9, true, false},
		{8, 9, true, false},
		{0, 65535, true, true},  // wrapped
		{65535, 0, true, true},  // far behind counts as wrapped ahead
		{2, 32768, true, false}, // 32766 behind: old
		{1, 32768, true, true},  // 32767 behind: taken as wrapped
		{32768, 65535, true, true},
	} {
		if got := NewerSyncTime(c.t, c.last, c.started); got != c.want {
			t.Errorf("NewerSyncTime(%d, %d, %v) = %v", c.t, c.last, c.started, got)
		}
	}
}

func TestCheckDeltaMask(t *testing.T) {
	if n, err := CheckDeltaMask(0b101, 3); n != 2 || err != nil {
		t.Error(n, err)
	}
	if n, err := CheckDeltaMask(0b1000, 3); n != 0 || !errors.Is(err, ErrInvalidPacket) {
		t.Error(n, err)
	}
	if n, err := CheckDeltaMask(0b11001, 3); n != 1 || err != nil {
		t.Error(n, err) // bits past the watched properties are ignored
	}
	if n, err := CheckDeltaMask(^uint64(0), 200); n != 64 || err != nil {
		t.Error(n, err)
	}
}

func TestDecodeStateErrors(t *testing.T) {
	st, _ := AppendState(nil, nil, variant.Int(1), variant.String("abc"))
	if _, _, err := DecodeState(nil, st, 3, nil); !errors.Is(err, ErrTruncated) {
		t.Error(err)
	}
	_, _, err := DecodeState(nil, st[:len(st)-1], 2, nil)
	var pe *PacketError
	if !errors.As(err, &pe) || pe.Offset != 2 {
		t.Error(err)
	}
	// A PackedByteArray is a plain Variant in a state, never raw.
	st, _ = AppendState(nil, nil, variant.PackedByteArray{1, 2})
	if st[0] != byte(29) {
		t.Errorf("%x", st)
	}
}

// SyncPacker splits as _send_sync does.
func TestSyncPacker(t *testing.T) {
	var pkts [][]byte
	p := SyncPacker{MTU: 128, Send: func(b []byte) { pkts = append(pkts, append([]byte(nil), b...)) }}
	p.Reset(false, 7)
	big := bytes.Repeat([]byte{0}, 129)
	if err := p.Add(SyncState{ID: 1, State: big}); !errors.Is(err, ErrTooLarge) {
		t.Fatal(err)
	}
	fifty := bytes.Repeat([]byte{1}, 50)
	for id := uint32(1); id <= 5; id++ {
		if err := p.Add(SyncState{ID: id, State: fifty}); err != nil {
			t.Fatal(err)
		}
	}
	p.Add(SyncState{ID: 9}) // empty: skipped
	p.Flush()
	p.Flush()
	// 3 + 58 + 58 = 119 fits; a third would make 177.
	if len(pkts) != 3 || len(pkts[0]) != 119 || len(pkts[1]) != 119 || len(pkts[2]) != 61 {
		for _, b := range pkts {
			t.Logf("%d", len(b))
		}
		t.Fatalf("%d packets", len(pkts))
	}
	for i, b := range pkts {
		s, err := ParseSync(b, nil)
		if err != nil || s.Time != 7 || s.Delta {
			t.Fatalf("%d: %v", i, err)
		}
	}
	// A state of exactly the MTU goes alone, over the MTU by its headers.
	pkts = nil
	p.Reset(true, 0)
	p.Add(SyncState{ID: 1, Mask: 1, State: bytes.Repeat([]byte{1}, 128)})
	p.Flush()
	if len(pkts) != 1 || len(pkts[0]) != 1+16+128 || pkts[0][0] != 0x16 {
		t.Fatalf("%d packets", len(pkts))
	}
	// Steady state: no allocation.
	p.Send = func([]byte) {}
	if a := testing.AllocsPerRun(100, func() {
		p.Reset(false, 1)
		for id := uint32(1); id <= 5; id++ {
			p.Add(SyncState{ID: id, State: fifty})
		}
		p.Flush()
	}); a != 0 {
		t.Errorf("%v allocations", a)
	}
}

func FuzzReplication(f *testing.F) {
	st, _ := AppendState(nil, nil, variant.Vector2{X: 1, Y: 2}, variant.Int(3))
	f.Add(AppendSpawn(nil, &Spawn{Spawner: 1, NetID: 1, SyncIDs: []uint32{2}, Name: "1", State: st}))
	f.Add(AppendSpawn(nil, &Spawn{Scene: SpawnCustom, Spawner: 1, NetID: 1, Name: "b", Arg: []byte{2, 1}, State: st}))
	f.Add(AppendDespawn(nil, 3))
	f.Add(AppendSync(nil, 4, SyncState{ID: 2, State: st}))
	f.Add(AppendDelta(nil, SyncState{ID: 2, Mask: 3, State: st}))
	for _, g := range loadCaptures(f) {
		if g.family == variant.Godot4 && len(g.data) > 0 && g.data[0]&7 >= 4 && g.data[0]&7 <= 6 {
			f.Add(g.data)
		}
	}
	f.Fuzz(func(t *testing.T, b []byte) {
		if s, err := ParseSpawn(b); err == nil {
			out := AppendSpawn(nil, &s)
			s2, err := ParseSpawn(out)
			if err != nil || s2.Name != s.Name || s2.NetID != s.NetID || !bytes.Equal(s2.State, s.State) || !bytes.Equal(s2.Arg, s.Arg) {
				t.Fatalf("SPAWN %x re-encoded %x: %v", b, out, err)
			}
			DecodeState(nil, s.State, 4, nil)
		}
		if id, err := ParseDespawn(b); err == nil {
			if id2, _ := ParseDespawn(AppendDespawn(nil, id)); id2 != id {
				t.Fatal(id, id2)
			}
		}
		if s, err := ParseSync(b, nil); err == nil {
			var out []byte
			if s.Delta {
				out = AppendDelta(nil, s.States...)
			} else {
				out = AppendSync(nil, s.Time, s.States...)
			}
			var nonEmpty []SyncState
			for _, st := range s.States {
				if len(st.State) > 0 {
					nonEmpty = append(nonEmpty, st)
				}
			}
			s2, err := ParseSync(out, nil)
			if len(nonEmpty) > 0 && (err != nil || !reflect.DeepEqual(s2.States, nonEmpty)) {
				t.Fatalf("SYNC %x re-encoded %x: %v", b, out, err)
			}
			for _, st := range s.States {
				DecodeState(nil, st.State, 3, nil)
			}
		}
	})
}

// BenchmarkSyncPacker builds SYNC packets for 2,000 synchronizers of one
// Vector2 and one int each, as a host does each tick for one peer: each
// state encoded from the node's current values (held as variant.Values)
// and packed. ns/op and B/op are per tick: no allocation in steady state.
func BenchmarkSyncPacker(b *testing.B) {
	const nodes = 2000
	vals := make([][2]variant.Value, nodes)
	for i := range vals {
		vals[i] = [2]variant.Value{variant.Vector2{X: float64(i), Y: 3}, variant.Int(100 + i)}
	}
	var bytesOut, pkts int
	p := SyncPacker{Send: func(pkt []byte) { bytesOut += len(pkt); pkts++ }}
	buf := make([]byte, 0, 64)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		p.Reset(false, uint16(i))
		for id := range vals {
			buf, _ = AppendState(buf[:0], nil, vals[id][:]...)
			p.Add(SyncState{ID: uint32(id + 1), State: buf})
		}
		p.Flush()
	}
	b.ReportMetric(float64(pkts)/float64(b.N), "packets/op")
	b.ReportMetric(float64(b.N*nodes)/b.Elapsed().Seconds(), "states/s")
}

// BenchmarkParseSync reads a full SYNC packet and decodes its states.
func BenchmarkParseSync(b *testing.B) {
	var pkt []byte
	p := SyncPacker{MTU: DefaultSyncMTU, Send: func(x []byte) {
		if pkt == nil {
			pkt = append([]byte(nil), x...)
		}
	}}
	p.Reset(false, 1)
	for id := uint32(1); id <= 200; id++ {
		st, _ := AppendState(nil, nil, variant.Vector2{X: 1, Y: 2}, variant.Int(5))
		p.Add(SyncState{ID: id, State: st})
	}
	p.Flush()
	states := make([]SyncState, 0, 128)
	vals := make([]variant.Value, 0, 4)
	b.SetBytes(int64(len(pkt)))
	b.ReportAllocs()
	for b.Loop() {
		s, err := ParseSync(pkt, states)
		if err != nil {
			b.Fatal(err)
		}
		for _, st := range s.States {
			vals, _, _ = DecodeState(nil, st.State, 2, vals[:0])
		}
	}
}
