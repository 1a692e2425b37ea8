package variant

import (
	"encoding/hex"
	"errors"
	"runtime"
	"strings"
	"testing"
)

// Strict mode takes every encoding the engines wrote, except the few
// where the engine's own decoder normalises what it wrote.
func TestStrictAcceptsEngineOutput(t *testing.T) {
	for _, g := range goldenFamilies {
		refused := 0
		for _, l := range readJSONL[goldenLine](t, g.file+".jsonl") {
			b, _ := hex.DecodeString(l.Hex)
			_, _, err := dmode(t, DecOptions{Family: g.fam, AllowObjects: l.Objects, Strict: true}).Decode(b)
			if err == nil {
				continue
			}
			refused++
			// A leading BOM is dropped by the engine's decoder; Godot 3
			// drops the absolute flag of a path without names.
			if !strings.Contains(l.Expr, `\ufeff`) && l.Expr != `NodePath("/")` {
				t.Errorf("%v %s: %v", g.fam, l.Expr, err)
			}
			if !errors.Is(err, ErrNonCanonical) {
				t.Errorf("%v %s: %v is not ErrNonCanonical", g.fam, l.Expr, err)
			}
		}
		if refused > 2 {
			t.Errorf("%v: %d engine encodings refused", g.fam, refused)
		}
	}
}

// Strict mode refuses everything the engine only tolerates.
func TestStrictRefusesTolerances(t *testing.T) {
	cases := []struct {
		name   string
		fam    Family
		hex    string
		offset int
	}{
		{"trailing bytes", Godot4, "02000000 01000000 ffffffff", 8},
		{"header byte 1", Godot4, "02010000 01000000", 1},
		{"unknown flag", Godot4, "0100f000 01000000", 2},
		{"int wider than needed", Godot4, "02000100 01000000 00000000", 2},
		{"float wider than needed", Godot4, "03000100 00000000 0000f03f", 2},
		{"bool 2", Godot4, "01000000 02000000", 4},
		{"count bit 31", Godot4, "1c000000 00000080", 7},
		{"non-zero string padding", Godot4, "04000000 01000000 61ff0000", 9},
		{"missing byte array padding", Godot4, "1d000000 03000000 010203", 11},
		{"BOM", Godot4, "04000000 04000000 efbbbf61", 4},
		{"NUL inside", Godot4, "04000000 03000000 61006200", 4},
		{"negative string array count", Godot4, "22000000 ffffffff", 4},
		{"string array element without NUL", Godot4, "22000000 01000000 01000000 61000000", 8},
		{"NodePath property flag", Godot4, "16000000 01000080 00000000 02000000 01000000 61000000 01000000 62000000", 8},
		{"repeated key", Godot4, "1b000000 02000000 02000000 01000000 02000000 0a000000 02000000 01000000 02000000 14000000", 4},
		{"typed array element converted", Godot4, "1c000100 02000000 01000000 03000000 00002040", 12},
		{"typed array of Nil", Godot4, "1c000100 00000000 00000000", 2},
		{"object ID 0", Godot4, "18000100 00000000 00000000", 0},
		{"mixed precision", Godot4, "1c000000 02000000 05000100 00000000 0000f03f 00000000 0000f03f 05000000 0000803f 0000803f", 30},
		{"godot3 empty NodePath absolute", Godot3, "0f000000 00000080 00000000 01000000", 12},
		{"godot3 overlong", Godot3, "04000000 03000000 e080af00", 4},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			b := mustHex(t, c.hex)
			if _, _, err := dmode(t, DecOptions{Family: c.fam}).Decode(b); err != nil {
				t.Fatalf("not even tolerated: %v", err)
			}
			_, _, err := dmode(t, DecOptions{Family: c.fam, Strict: true}).Decode(b)
			var e *Error
			if !errors.As(err, &e) || !errors.Is(err, ErrNonCanonical) {
				t.Fatalf("strict: %v", err)
			}
			if e.Offset != c.offset {
				t.Errorf("offset %d, want %d (%v)", e.Offset, c.offset, err)
			}
		})
	}
	// Double precision on its own is canonical (an engine built with it).
	b, _ := mode(t, EncOptions{Precision: Double}).Encode(NewArray(Vector2{0.1, 1}, Vector3{1, 2, 3}))
	if _, _, err := dmode(t, DecOptions{Strict: true}).Decode(b); err != nil {
		t.Errorf("double precision: %v", err)
	}
}

func TestLimits(t *testing.T) {
	big, _ := Encode(NewArray(NewArray(Int(1), Int(2)), PackedInt32Array{1, 2, 3}, NodePath{Names: []string{"a"}}))
	cases := []struct {
		opts DecOptions
		ok   bool
	}{
		{DecOptions{MaxElements: 9}, true}, // 3 + 2 + 3 + 1
		{DecOptions{MaxElements: 8}, false},
		{DecOptions{MaxSize: len(big)}, true},
		{DecOptions{MaxSize: len(big) - 1}, false},
		{DecOptions{MaxDepth: 2}, true},
	}
	for _, c := range cases {
		_, _, err := dmode(t, c.opts).Decode(big)
		if (err == nil) != c.ok || err != nil && !errors.Is(err, ErrTooLarge) {
			t.Errorf("%+v: %v", c.opts, err)
		}
	}
	if _, _, err := dmode(t, DecOptions{MaxDepth: 1}).Decode(mustHex(t, "1c000000 01000000 1c000000 01000000 00000000")); !errors.Is(err, ErrTooDeep) {
		t.Errorf("MaxDepth 1: %v", err)
	}
	// A claim of 2^31-1 elements fails on MaxElements before anything else.
	_, _, err := dmode(t, DecOptions{MaxElements: 1000}).Decode(mustHex(t, "1c000000 ffffff7f"))
	if !errors.Is(err, ErrTooLarge) {
		t.Errorf("huge claim: %v", err)
	}
	for _, o := range []DecOptions{{MaxSize: -1}, {MaxElements: -1}} {
		if _, err := o.DecMode(); err == nil {
			t.Errorf("%+v accepted", o)
		}
	}
}

// Decoding allocates at most a small multiple of the input's size, whatever
// shape the input has.
func TestMemoryBound(t *testing.T) {
	const n = 20000
	build := func(header string, count int, elem func(i int) string) []byte {
		var sb strings.Builder
		sb.WriteString(header)
		sb.WriteString(hex.EncodeToString([]byte{byte(count), byte(count >> 8), byte(count >> 16), 0}))
		for i := range count {
			sb.WriteString(elem(i))
		}
		b, err := hex.DecodeString(sb.String())
		if err != nil {
			t.Fatal(err)
		}
		return b
	}
	le := func(i int) string { return hex.EncodeToString([]byte{byte(i), byte(i >> 8), byte(i >> 16), 0}) }
	shapes := map[string][]byte{
		"Array of Nil":             build("1c000000", n, func(int) string { return "00000000" }),
		"Array of empty Arrays":    build("1c000000", n, func(int) string { return "1c00000000000000" }),
		"Array of empty Dicts":     build("1c000000", n, func(int) string { return "1b00000000000000" }),
		"Array of 1-byte Strings":  build("1c000000", n, func(int) string { return "040000000100000061000000" }),
		"Array of empty NodePaths": build("1c000000", n, func(int) string { return "16000000000000800000000000000000" }),
		"Array of Vector2":         build("1c000000", n, func(int) string { return "050000000000803f0000803f" }),
		"Array of ints":            build("1c000000", n, func(i int) string { return "02000000" + le(i+1000) }),
		"Dictionary of int keys":   build("1b000000", n, func(i int) string { return "02000000" + le(i) + "00000000" }),
		"PackedStringArray of ''":  build("22000000", n, func(int) string { return "0100000000000000" }),
	}
	// A NodePath of n names: the count has bit 31 set and is followed by
	// the subname count and the flags.
	np := build("16000000", n, func(int) string { return "0100000061000000" })
	np[7] |= 0x80
	shapes["NodePath of 1-byte names"] = append(append(np[:8:8], 0, 0, 0, 0, 0, 0, 0, 0), np[8:]...)
	for name, b := range shapes {
		if _, _, err := Decode(b); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		for range 3 {
			Decode(b)
		}
		runtime.ReadMemStats(&after)
		allocs := (after.TotalAlloc - before.TotalAlloc) / 3
		ratio := float64(allocs) / float64(len(b))
		t.Logf("%-26s %8d input bytes, %9d allocated (%.1fx)", name, len(b), allocs, ratio)
		if ratio > 16 {
			t.Errorf("%s: %.1f bytes allocated per input byte", name, ratio)
		}
	}
}
