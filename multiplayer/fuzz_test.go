package multiplayer

import (
	"bytes"
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
