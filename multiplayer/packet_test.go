package multiplayer

import (
	"bufio"
	"bytes"
	"context"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/variant"
)

type golden struct {
	family variant.Family
	file   string
	data   []byte
	what   string
}

// loadCaptures reads the packets captured from the real engines.
func loadCaptures(t testing.TB) []golden {
	files, _ := filepath.Glob("testdata/capture/*.txt")
	if len(files) == 0 {
		t.Fatal("no captures in testdata/capture")
	}
	var out []golden
	for _, fn := range files {
		f, err := os.Open(fn)
		if err != nil {
			t.Fatal(err)
		}
		fam := variant.Godot4
		if strings.HasPrefix(filepath.Base(fn), "godot3") {
			fam = variant.Godot3
		}
		sc := bufio.NewScanner(f)
		sc.Buffer(nil, 1<<20)
		for sc.Scan() {
			line := sc.Text()
			if line == "" || line[0] == '#' {
				continue
			}
			hx, what, _ := strings.Cut(line, "\t")
			b, err := hex.DecodeString(hx)
			if err != nil {
				t.Fatalf("%s: %v", fn, err)
			}
			out = append(out, golden{fam, filepath.Base(fn), b, what})
		}
		f.Close()
	}
	return out
}

// Every packet the engines sent parses to the command the capture names,
// and gdvar writes the same bytes for it: argument encoding, id widths,
// inline paths, checksums.
func TestGoldenPackets(t *testing.T) {
	lobby := lobbyNode(nil, nil, nil)
	nd, err := newNode(lobby, 1)
	if err != nil {
		t.Fatal(err)
	}
	for _, g := range loadCaptures(t) {
		p, err := Parse(g.family, g.data)
		if err != nil {
			t.Errorf("%s %x: %v", g.file, g.data, err)
			continue
		}
		cmd, _, _ := strings.Cut(g.what, " ")
		if p.Command.String() != cmd {
			t.Errorf("%s %x: command %v, captured as %q", g.file, g.data, p.Command, g.what)
			continue
		}
		var again []byte
		switch p.Command {
		case CmdRemoteCall:
			dec := defaultDec4
			enc := defaultEnc4
			if g.family == variant.Godot3 {
				dec, enc = defaultDec3, defaultEnc3
			}
			args, err := DecodeArgs(dec, &p)
			if err != nil {
				t.Errorf("%s %x: arguments: %v", g.file, g.data, err)
				continue
			}
			ab, raw, n, err := AppendArgs(nil, enc, args...)
			if err != nil {
				t.Fatal(err)
			}
			again = AppendCall(nil, g.family, Call{NodeID: p.NodeID, Path: string(p.Path), Method: p.Method, Name: string(p.Name), Raw: raw, ArgCount: n, Args: ab})
		case CmdSimplifyPath:
			if g.family == variant.Godot4 && string(p.Path) == "Lobby" && string(p.Checksum) != nd.checksum {
				t.Errorf("the engine's checksum %s, gdvar's %s", p.Checksum, nd.checksum)
			}
			again = AppendSimplifyPath(nil, g.family, string(p.Checksum), p.NodeID, string(p.Path))
		case CmdConfirmPath:
			again = AppendConfirmPath(nil, g.family, p.Valid, p.NodeID, string(p.Path))
			if g.family == variant.Godot4 && len(g.data) != 6 {
				again = append(append([]byte{2, g.data[1]}, p.Path...), 0)
			}
		case CmdRaw:
			again = AppendRaw(nil, g.family, p.Payload)
		case CmdSys:
			again = AppendSys(nil, p.Sys, p.Peer, p.Payload)
		default:
			continue
		}
		if !bytes.Equal(again, g.data) {
			t.Errorf("%s %s:\n engine %x\n gdvar  %x", g.file, g.what, g.data, again)
		}
	}
}

func TestAppendCallWidths(t *testing.T) {
	for _, tc := range []struct {
		f    variant.Family
		c    Call
		want string
	}{
		{variant.Godot4, Call{NodeID: 1, Method: 3, Raw: true}, "800103"},
		{variant.Godot4, Call{NodeID: 300, Method: 2, ArgCount: 1, Args: []byte{2, 5}}, "102c0102010205"},
		{variant.Godot4, Call{NodeID: 70000, Method: 300, ArgCount: 0}, "6070110100 2c0100"},
		{variant.Godot4, Call{Path: "A/B", Method: 0, Raw: true}, "a0 06000080 00 412f4200"},
		{variant.Godot3, Call{NodeID: 1, Name: "ping"}, "00 01000000 70696e6700 00"},
		{variant.Godot3, Call{Path: "A", Name: "f", ArgCount: 1, Args: []byte{1, 0, 0, 0, 1, 0, 0, 0}}, "00 10000080 6600 01 0100000001000000 4100"},
	} {
		got := AppendCall(nil, tc.f, tc.c)
		want, _ := hex.DecodeString(strings.ReplaceAll(tc.want, " ", ""))
		if !bytes.Equal(got, want) {
			t.Errorf("%+v: %x, want %x", tc.c, got, want)
			continue
		}
		p, err := Parse(tc.f, got)
		if err != nil {
			t.Errorf("%x: %v", got, err)
			continue
		}
		if string(p.Name) != tc.c.Name || p.Method != tc.c.Method || string(p.Path) != tc.c.Path || (tc.c.Path == "" && p.NodeID != tc.c.NodeID) || p.Raw != tc.c.Raw || !bytes.Equal(p.Args, tc.c.Args) && len(tc.c.Args) > 0 {
			t.Errorf("%x parsed to %+v", got, p)
		}
	}
}

func TestArgs(t *testing.T) {
	for _, tc := range []struct {
		v    variant.Value
		want string
	}{
		{variant.Bool(true), "81"},
		{variant.Bool(false), "01"},
		{variant.Int(-5), "02fb"},
		{variant.Int(1000), "42e803"},
		{variant.Int(-100000), "826079feff"},
		{variant.Int(1 << 40), "c20000000000010000"},
		{variant.String("x"), "040000000100000078000000"},
	} {
		b, _, _, err := AppendArgs(nil, nil, tc.v, variant.Bool(false))
		if err != nil {
			t.Fatal(err)
		}
		got := hex.EncodeToString(b)
		if got != tc.want+"01" {
			t.Errorf("%#v: %s, want %s", tc.v, got, tc.want)
		}
		v, n, err := DecodeArg(nil, b)
		if err != nil || !variant.Equal(v, tc.v) || n != len(b)-1 {
			t.Errorf("%s decoded to %#v %d %v", got, v, n, err)
		}
	}
	// Godot 3 sends plain encodings, never raw.
	b, raw, n, _ := AppendArgs(nil, defaultEnc3, variant.Int(1000), variant.Bool(true))
	if hex.EncodeToString(b) != "02000000e80300000100000001000000" || raw || n != 2 {
		t.Errorf("Godot 3 arguments: %x %v %d", b, raw, n)
	}
	b, raw, n, _ = AppendArgs(nil, defaultEnc3, variant.PackedByteArray{1})
	if hex.EncodeToString(b) != "140000000100000001000000" || raw || n != 1 {
		t.Errorf("Godot 3 PoolByteArray argument: %x %v %d", b, raw, n)
	}
}

func TestParseErrors(t *testing.T) {
	for _, tc := range []struct {
		f    variant.Family
		hex  string
		want error
	}{
		{variant.Godot4, "", ErrTruncated},
		{variant.Godot4, "30", ErrInvalidPacket},           // node id width 3
		{variant.Godot4, "20ff", ErrTruncated},             // u32 node id cut
		{variant.Godot4, "00", ErrTruncated},               // node id missing
		{variant.Godot4, "0001", ErrTruncated},             // method missing
		{variant.Godot4, "000102", ErrTruncated},           // argument count missing
		{variant.Godot4, "20ff00008000", ErrInvalidPacket}, // path offset beyond the end
		{variant.Godot4, "07", ErrTruncated},
		{variant.Godot4, "0709", ErrUnknownCommand},
		{variant.Godot4, "070301", ErrTruncated},
		{variant.Godot4, "070302000000", ErrTruncated}, // relay of nothing
		{variant.Godot4, "03", ErrTruncated},
		{variant.Godot4, "0101", ErrTruncated},
		{variant.Godot4, "0201", ErrTruncated},
		{variant.Godot4, "0201414243", ErrInvalidPacket}, // a path without NUL
		{variant.Godot3, "05", ErrUnknownCommand},
		{variant.Godot3, "03", ErrTruncated},
		{variant.Godot3, "0001000000", ErrTruncated},         // too short
		{variant.Godot3, "000100000070696e67", ErrTruncated}, // name without NUL
		{variant.Godot3, "00ff0000804100", ErrInvalidPacket}, // path offset
		{variant.Godot3, "0201000000", ErrInvalidPacket},
		{variant.Godot3, "08", ErrUnknownCommand},
	} {
		b, _ := hex.DecodeString(tc.hex)
		_, err := Parse(tc.f, b)
		var pe *PacketError
		if !errors.Is(err, tc.want) || !errors.As(err, &pe) {
			t.Errorf("%s: %v, want %v", tc.hex, err, tc.want)
		}
	}
	if _, err := Parse(variant.Godot4, []byte{7}); !errors.Is(err, io.ErrUnexpectedEOF) {
		t.Errorf("ErrTruncated does not match io.ErrUnexpectedEOF: %v", err)
	}
	// Arguments that do not decode.
	p, err := Parse(variant.Godot4, []byte{0, 1, 0, 2, 0x3f, 0})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := DecodeArgs(nil, &p); !errors.Is(err, ErrInvalidArgument) {
		t.Errorf("bad argument type: %v", err)
	}
	p, _ = Parse(variant.Godot4, []byte{0, 1, 0, 3, 2, 1})
	if _, err := DecodeArgs(nil, &p); !errors.Is(err, ErrTruncated) {
		t.Errorf("missing argument: %v", err)
	}
}

// An RPC whose one argument is a PackedByteArray travels raw (Godot 4),
// and reaches a handler as the Go type it asks for.
func TestDispatchRawArgument(t *testing.T) {
	type blob struct {
		got any
	}
	for _, f := range []variant.Family{variant.Godot4, variant.Godot3} {
		var b blob
		var asArray [3]byte
		s, err := newSession(f, false, []Node{{Path: "P", Methods: []Method{
			{Name: "bytes", Mode: AnyPeer, Handler: func(_ context.Context, from PeerID, p []byte) { b.got = p }},
			{Name: "array", Mode: AnyPeer, Handler: func(_ context.Context, from PeerID, p [3]byte) { asArray = p }},
			{Name: "value", Mode: AnyPeer, Handler: func(_ context.Context, from PeerID, p variant.Value) { b.got = p }},
			{Name: "wrong", Mode: AnyPeer, Handler: func(_ context.Context, from PeerID, p string) { b.got = p }},
		}}})
		if err != nil {
			t.Fatal(err)
		}
		nd := s.nodes["P"]
		r := newRemote(&pathBudget{maxPaths: 1 << 30, maxBytes: 1 << 62})
		r.setRecv(nd.cacheID, recvEntry{path: nd.path, node: nd})
		enc := defaultEnc4
		if f == variant.Godot3 {
			enc = defaultEnc3
		}
		ab, raw, n, err := AppendArgs(nil, enc, variant.PackedByteArray{1, 2, 3})
		if err != nil || raw != (f == variant.Godot4) { // Godot 3 has no raw form
			t.Fatalf("%v: raw %v, %v", f, raw, err)
		}
		call := func(method string) error {
			m := nd.method(method)
			pkt := AppendCall(nil, f, Call{NodeID: nd.cacheID, Name: m.Name, Method: m.id, Raw: raw, ArgCount: n, Args: ab})
			e := Event{From: 5}
			if e.Packet, err = Parse(f, pkt); err != nil {
				return err
			}
			nd, m, err := s.resolve(r, &e)
			if err != nil {
				return err
			}
			return s.dispatch(context.Background(), HostID, nd, m, &e)
		}
		if err := call("bytes"); err != nil || !reflect.DeepEqual(b.got, []byte{1, 2, 3}) {
			t.Errorf("%v: into []byte: %v %v", f, b.got, err)
		}
		if err := call("array"); err != nil || asArray != [3]byte{1, 2, 3} {
			t.Errorf("%v: into [3]byte: %v %v", f, asArray, err)
		}
		if err := call("value"); err != nil || !variant.Equal(b.got.(variant.Value), variant.PackedByteArray{1, 2, 3}) {
			t.Errorf("%v: into variant.Value: %v %v", f, b.got, err)
		}
		if err := call("wrong"); !errors.Is(err, gdvar.ErrTypeMismatch) {
			t.Errorf("%v: into string: %v", f, err)
		}
	}
}

// Godot 4.6's CONFIRM_PATH names the cache id: a 6-byte packet whose id's
// high bytes are NULs reads as the id, not as a path of control
// characters; a short path of printable bytes keeps its path reading.
func TestConfirmPathByID(t *testing.T) {
	for _, tc := range []struct {
		data []byte
		id   uint32
		path string
	}{
		{[]byte{2, 1, 1, 0, 0, 0}, 1, ""},
		{[]byte{2, 1, 0x2c, 1, 0, 0}, 300, ""},
		{[]byte{2, 1, 'a', 'b', 'c', 0}, 0x00636261, "abc"},
		{[]byte{2, 0, 'M', 'a', 'i', 'n', 0}, 0, "Main"},
	} {
		p, err := Parse(variant.Godot4, tc.data)
		if err != nil {
			t.Fatalf("%x: %v", tc.data, err)
		}
		if p.NodeID != tc.id || string(p.Path) != tc.path {
			t.Errorf("%x: id %d path %q, want %d %q", tc.data, p.NodeID, p.Path, tc.id, tc.path)
		}
	}
}
