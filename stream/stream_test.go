package stream

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"errors"
	"io"
	"os"
	"runtime"
	"strings"
	"testing"
	"testing/iotest"

	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/variant"
)

// storeVarFiles reads testdata/store_var.txt: files written by the real
// engines with several store_var calls.
func storeVarFiles(t *testing.T) map[string][]byte {
	t.Helper()
	f, err := os.Open("testdata/store_var.txt")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	files := map[string][]byte{}
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		line := sc.Text()
		if line == "" || line[0] == '#' {
			continue
		}
		fields := strings.Split(line, "\t")
		b, err := hex.DecodeString(fields[2])
		if err != nil {
			t.Fatal(err)
		}
		files[fields[0]+" "+fields[1]] = b
	}
	return files
}

func dict(kv ...variant.Value) *variant.Dictionary {
	d := variant.NewDictionary(len(kv) / 2)
	for i := 0; i < len(kv); i += 2 {
		d.Set(kv[i], kv[i+1])
	}
	return d
}

// The values the scripts in testdata store.
func storedValues(family variant.Family) []variant.Value {
	vals := []variant.Value{
		variant.Int(1),
		variant.String("abc"),
		variant.Vector2{X: 1, Y: 2},
		dict(variant.String("a"), variant.NewArray(variant.Int(1), variant.Float(2.5))),
		variant.PackedByteArray{1, 2, 3},
	}
	if family == variant.Godot4 {
		vals = append(vals, variant.Vector2i{X: 7, Y: -7})
	}
	return vals
}

func decodeAll(t *testing.T, r io.Reader, o Options) []variant.Value {
	t.Helper()
	dec := NewDecoder(r, o)
	var got []variant.Value
	for {
		v, err := dec.ReadValue()
		if err == io.EOF {
			return got
		}
		if err != nil {
			t.Fatalf("value %d: %v", len(got), err)
		}
		got = append(got, v)
	}
}

func TestEngineFiles(t *testing.T) {
	files := storeVarFiles(t)
	if len(files) != 4 {
		t.Fatalf("%d files in testdata", len(files))
	}
	for name, data := range files {
		family := variant.Godot4
		if name[0] == '3' {
			family = variant.Godot3
		}
		o := Options{Kind: frame.Store, Godot: family, BigEndian: strings.HasSuffix(name, "big")}
		want := storedValues(family)
		readers := map[string]io.Reader{
			"whole":    bytes.NewReader(data),
			"one byte": iotest.OneByteReader(bytes.NewReader(data)),
			"halves":   iotest.HalfReader(bytes.NewReader(data)),
		}
		for how, r := range readers {
			got := decodeAll(t, r, o)
			if len(got) != len(want) {
				t.Fatalf("%s, %s: %d values, want %d", name, how, len(got), len(want))
			}
			for i := range want {
				if !variant.Equal(got[i], want[i]) {
					t.Errorf("%s, %s: value %d = %#v, want %#v", name, how, i, got[i], want[i])
				}
			}
		}
		// Writing the same values gives the engine's file, byte for byte.
		var buf bytes.Buffer
		enc := NewEncoder(&buf, o)
		for _, v := range want {
			if err := enc.WriteValue(v); err != nil {
				t.Fatal(err)
			}
		}
		if !bytes.Equal(buf.Bytes(), data) {
			t.Errorf("%s: wrote\n%x\nwant\n%x", name, buf.Bytes(), data)
		}
		if enc.OutputOffset() != int64(len(data)) {
			t.Errorf("%s: OutputOffset %d, want %d", name, enc.OutputOffset(), len(data))
		}
	}
}

func TestBigEndianReadAsLittle(t *testing.T) {
	// The big-endian file's first prefix, 00000008, read little-endian is
	// 128 MiB: refused before any allocation.
	data := storeVarFiles(t)["4 big"]
	_, err := NewDecoder(bytes.NewReader(data), Options{Kind: frame.Store}).ReadValue()
	var fe *frame.Error
	if !errors.As(err, &fe) || !errors.Is(err, frame.ErrTooLarge) || fe.Size != 0x08000000 {
		t.Fatalf("got %v", err)
	}
}

func TestTruncated(t *testing.T) {
	data := storeVarFiles(t)["4 little"]
	// Frames start at 0, 12, 28, 44; cut inside the prefix and inside the
	// payload of the third frame.
	for _, cut := range []int{30, 40} {
		dec := NewDecoder(bytes.NewReader(data[:cut]), Options{Kind: frame.Store})
		n := 0
		var err error
		for ; err == nil; n++ {
			_, err = dec.ReadValue()
		}
		var fe *frame.Error
		if n != 3 || !errors.Is(err, io.ErrUnexpectedEOF) || !errors.As(err, &fe) || fe.Offset != 28 {
			t.Errorf("cut at %d: %d reads, %v", cut, n, err)
		}
		if !IsFramingError(err) {
			t.Errorf("cut at %d: IsFramingError false", cut)
		}
	}
}

func TestBadPayloadCarriesFrameOffset(t *testing.T) {
	var buf bytes.Buffer
	enc := NewEncoder(&buf, Options{})
	enc.WriteValue(variant.Int(1))
	// A Vector2 with one component: the frame is whole, the value is not.
	enc.WritePayload([]byte{5, 0, 0, 0, 0, 0, 0x80, 0x3f})
	enc.WriteValue(variant.String("after"))
	dec := NewDecoder(&buf, Options{})
	if _, err := dec.ReadValue(); err != nil {
		t.Fatal(err)
	}
	_, err := dec.ReadValue()
	var fe *frame.Error
	var ve *variant.Error
	if !errors.As(err, &fe) || !errors.As(err, &ve) || fe.Offset != 12 || fe.Size != 8 || ve.Type != variant.TypeVector2 {
		t.Fatalf("got %v", err)
	}
	if !errors.Is(err, variant.ErrTruncated) || IsFramingError(err) {
		t.Errorf("%v: want a payload error", err)
	}
	want := "frame at byte 12 (8 bytes): decode: byte 0 (Vector2): "
	if !strings.HasPrefix(err.Error(), want) {
		t.Errorf("message %q, want prefix %q", err, want)
	}
	// The stream is still in step.
	if v, err := dec.ReadValue(); err != nil || v != variant.String("after") {
		t.Errorf("after the bad frame: %v, %v", v, err)
	}
}

func TestSizeCap(t *testing.T) {
	// A hostile 2 GiB - 1 claim, with the largest cap allowed: the data is
	// not there, and nothing close to the claim is allocated.
	hostile := []byte{0xff, 0xff, 0xff, 0x7f, 1, 2, 3, 4}
	for _, o := range []Options{{}, {MaxSize: frame.MaxSizeLimit}} {
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		_, err := NewDecoder(bytes.NewReader(hostile), o).ReadValue()
		runtime.ReadMemStats(&after)
		if o.MaxSize == 0 && !errors.Is(err, frame.ErrTooLarge) {
			t.Errorf("default cap: %v", err)
		}
		if o.MaxSize != 0 && !errors.Is(err, io.ErrUnexpectedEOF) {
			t.Errorf("largest cap: %v", err)
		}
		if a := after.TotalAlloc - before.TotalAlloc; a > 1<<20 {
			t.Errorf("%+v: allocated %d bytes", o, a)
		}
	}
	// The encoder refuses to write what the other side would refuse.
	err := NewEncoder(io.Discard, Options{MaxSize: 100}).Encode(make(variant.PackedByteArray, 100))
	if !errors.Is(err, frame.ErrTooLarge) {
		t.Errorf("encoder: %v", err)
	}
}

func TestOptionsErrors(t *testing.T) {
	for _, o := range []Options{{Godot: 5}, {Kind: 9}, {Enc: variant.EncOptions{Family: variant.Godot3, Precision: variant.Double}}} {
		if _, err := NewDecoder(bytes.NewReader(nil), o).ReadValue(); err == nil || err == io.EOF {
			t.Errorf("decoder %+v: %v", o, err)
		}
		if err := NewEncoder(io.Discard, o).Encode(nil); err == nil {
			t.Errorf("encoder %+v accepted", o)
		}
	}
	// Godot fills in both families.
	var buf bytes.Buffer
	NewEncoder(&buf, Options{Godot: variant.Godot3}).Encode(variant.PackedInt32Array{1})
	if hex.EncodeToString(buf.Bytes()) != "0c000000"+"15000000"+"01000000"+"01000000" {
		t.Errorf("Godot 3 PoolIntArray: %x", buf.Bytes())
	}
}

func TestPacketsAndPacketStream(t *testing.T) {
	// PacketPeerStream frames are StreamPeer's, little-endian.
	var a, b bytes.Buffer
	NewEncoder(&a, Options{Kind: frame.PacketStream}).Encode(variant.String("x"))
	NewEncoder(&b, Options{Kind: frame.Stream}).Encode(variant.String("x"))
	if !bytes.Equal(a.Bytes(), b.Bytes()) {
		t.Errorf("PacketStream %x, Stream %x", a.Bytes(), b.Bytes())
	}
	// Packets: no prefix; the reader gets one packet per Read.
	var p bytes.Buffer
	NewEncoder(&p, Options{Kind: frame.Packet}).Encode(variant.Vector2{X: 1, Y: 2})
	if hex.EncodeToString(p.Bytes()) != "050000000000803f00000040" {
		t.Errorf("packet %x", p.Bytes())
	}
	v, err := NewDecoder(&p, Options{Kind: frame.Packet}).ReadValue()
	if err != nil || v != (variant.Vector2{X: 1, Y: 2}) {
		t.Errorf("packet read back: %v %v", v, err)
	}
}

func TestManyValuesLargeAndSmall(t *testing.T) {
	big := make(variant.PackedByteArray, 5<<20)
	for i := range big {
		big[i] = byte(i * 7)
	}
	var buf bytes.Buffer
	enc := NewEncoder(&buf, Options{MaxSize: 6 << 20})
	for i := range 1000 {
		enc.WriteValue(variant.Int(i))
		if i == 500 {
			enc.WriteValue(big)
		}
	}
	dec := NewDecoder(iotest.HalfReader(&buf), Options{MaxSize: 6 << 20})
	for i := range 1000 {
		v, err := dec.ReadValue()
		if err != nil || v != variant.Int(i) {
			t.Fatalf("value %d: %v %v", i, v, err)
		}
		if i == 500 {
			v, err := dec.ReadValue()
			if err != nil || !variant.Equal(v, big) {
				t.Fatalf("big value: %v", err)
			}
		}
	}
	if _, err := dec.ReadValue(); err != io.EOF {
		t.Errorf("end: %v", err)
	}
}
