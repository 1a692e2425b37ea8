package multiplayer

import (
	"bytes"
	"context"
	"io"
	"log/slog"
	"net"
	"sync/atomic"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// FuzzParse: no input makes Parse or DecodeArgs panic, and a call whose
// arguments decode re-encodes to a packet that parses to the same call.
func FuzzParse(f *testing.F) {
	for _, g := range loadCaptures(f) {
		f.Add(byte(g.family), g.data)
	}
	f.Add(byte(4), []byte{7, 3, 0, 0, 0, 0, 3, 'x'})
	f.Add(byte(4), []byte{0x20, 0xff, 0, 0, 0x80, 0})
	f.Add(byte(3), []byte{2, 1, 0, 0, 0, 'A', 0})
	f.Fuzz(func(t *testing.T, fam byte, b []byte) {
		family := variant.Godot4
		dec, enc := defaultDec4, defaultEnc4
		if fam&1 == 1 {
			family = variant.Godot3
			dec, enc = defaultDec3, defaultEnc3
		}
		p, err := Parse(family, b)
		if err != nil {
			return
		}
		if p.Command != CmdRemoteCall {
			return
		}
		args, err := DecodeArgs(dec, &p)
		if err != nil {
			return
		}
		ab, raw, n, err := AppendArgs(nil, enc, args...)
		if err != nil {
			return // e.g. a NodePath the encoder refuses to write
		}
		out := AppendCall(nil, family, Call{NodeID: p.NodeID, Path: string(p.Path), Method: p.Method, Name: string(p.Name), Raw: raw, ArgCount: n, Args: ab})
		q, err := Parse(family, out)
		if err != nil {
			t.Fatalf("re-encoded %x does not parse: %v", out, err)
		}
		args2, err := DecodeArgs(dec, &q)
		if err != nil || len(args2) != len(args) {
			t.Fatalf("re-encoded %x: %d args, %v", out, len(args2), err)
		}
		if q.Method != p.Method || !bytes.Equal(q.Path, p.Path) || !bytes.Equal(q.Name, p.Name) {
			t.Fatalf("re-encoded %x: %+v vs %+v", out, q, p)
		}
	})
}

// memLink is a Link that reads the given frames and discards what is
// written.
type memLink struct {
	frames []Frame
	closed atomic.Bool
}

func (l *memLink) ReadFrame() (Frame, error) {
	if l.closed.Load() || len(l.frames) == 0 {
		return Frame{}, io.EOF
	}
	f := l.frames[0]
	l.frames = l.frames[1:]
	return f, nil
}
func (l *memLink) WriteFrame(Frame) error { return nil }
func (l *memLink) Close() error           { l.closed.Store(true); return nil }
func (l *memLink) RemoteAddr() net.Addr   { return &net.TCPAddr{IP: net.IPv4(127, 0, 0, 1)} }

// FuzzHost: whatever a client sends, the host neither panics nor hangs.
// The input is cut into packets by a length byte before each; for Godot 3
// each packet's first byte also picks the header's target.
var fuzzLog = slog.New(slog.NewTextHandler(io.Discard, &slog.HandlerOptions{Level: slog.LevelDebug}))

func FuzzHost(f *testing.F) {
	for _, g := range loadCaptures(f) {
		if len(g.data) < 256 {
			f.Add(byte(g.family), append([]byte{byte(len(g.data))}, g.data...))
		}
	}
	f.Fuzz(func(t *testing.T, fam byte, in []byte) {
		family := variant.Godot4
		if fam&1 == 1 {
			family = variant.Godot3
		}
		var frames []Frame
		for len(in) > 0 {
			n := min(int(in[0]), len(in)-1)
			frames = append(frames, Frame{Data: in[1 : 1+n], To: PeerID(int8(in[0]))})
			in = in[1+n:]
		}
		// Small path budgets, Observe (which records relayed paths) and
		// debug logging (cut and rate-limited) take every branch.
		h, err := NewHost(HostOptions{Godot: family, Logger: fuzzLog, MaxErrors: -1, MaxPathCache: 8, MaxPathCacheBytes: 2048,
			MaxLogText: 16, Observe: func(*Event) {}},
			lobbyNode(func(ctx context.Context, from PeerID, name string, i8 int8, i16 int16, i32 int32, i64 int64,
				f float64, b bool, v2 variant.Vector2, v3 variant.Vector3, arr []any, dict map[any]any, pba []byte,
				nilv any, color variant.Color, sn string, psa []string) {
			}, func(context.Context, PeerID, []byte) {}, func(context.Context, PeerID) {}))
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		link := &memLink{}
		// The link's id is only known once the host has assigned it: fix
		// the Godot 3 headers as the frames are read.
		wrapped := &idLink{memLink: link}
		link.frames = frames
		h.ServeLink(wrapped)
	})
}

// idLink stamps Godot 3 frames with the id the host assigned.
type idLink struct {
	*memLink
	id atomic.Int32
}

func (l *idLink) WriteFrame(f Frame) error {
	if f.Kind == FrameAssignID {
		l.id.Store(int32(f.Peer))
	}
	return nil
}

func (l *idLink) ReadFrame() (Frame, error) {
	f, err := l.memLink.ReadFrame()
	f.From = PeerID(l.id.Load())
	if f.To == 0 || f.To > 3 {
		f.To = HostID
	}
	return f, err
}

// A lone PackedByteArray goes raw, unless it is empty: in the raw form no
// bytes mean no arguments (a FuzzParse finding).
func TestAppendArgsEmptyBytes(t *testing.T) {
	for _, c := range []struct {
		arg variant.PackedByteArray
		raw bool
	}{{variant.PackedByteArray{1, 2}, true}, {variant.PackedByteArray{}, false}} {
		ab, raw, n, err := AppendArgs(nil, nil, c.arg)
		if err != nil || raw != c.raw || n != 1 {
			t.Fatalf("%v: raw %t, %d args, %v", c.arg, raw, n, err)
		}
		p, err := Parse(variant.Godot4, AppendCall(nil, variant.Godot4, Call{NodeID: 1, Method: 2, Raw: raw, ArgCount: n, Args: ab}))
		if err != nil {
			t.Fatal(err)
		}
		args, err := DecodeArgs(defaultDec4, &p)
		if err != nil || len(args) != 1 || !variant.Equal(args[0], c.arg) {
			t.Errorf("%v read back as %v, %v", c.arg, args, err)
		}
	}
}
