package peer

import (
	"bytes"
	"errors"
	"testing"
	"time"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/frame"
	"github.com/gdvar/gdvar/variant"
)

type move struct {
	Player string          `gdvar:"player"`
	To     variant.Vector2 `gdvar:"to"`
	Turn   int             `gdvar:"turn"`
}

// Encode sends what gdvar's Marshal writes for the connection's family;
// the echo comes back into the struct with Decode, on every transport.
func TestEncodeDecodeAllTransports(t *testing.T) {
	for _, family := range []variant.Family{variant.Godot4, variant.Godot3} {
		o := Options{Godot: family}
		em, _ := gdvar.EncOptions{Family: family}.EncMode()
		m := move{Player: "ada", To: variant.Vector2{X: 2, Y: 3}, Turn: 9}
		want, _ := em.Marshal(m)
		for name, dial := range echoServers(t, o) {
			c := dial(t, o)
			c.SetDeadline(time.Now().Add(20 * time.Second))
			if err := c.Encode(m); err != nil {
				t.Fatal(name, err)
			}
			// The echo server decoded and encoded it again as a Variant:
			// the same bytes.
			if err := c.Encode(&m); err != nil {
				t.Fatal(name, err)
			}
			p, err := c.ReadPayload()
			if err != nil || !bytes.Equal(p, want) {
				t.Errorf("%s %v: payload %x, %v; want %x", name, family, p, err, want)
			}
			var got move
			if err := c.Decode(&got); err != nil || got != m {
				t.Errorf("%s %v: Decode %+v, %v", name, family, got, err)
			}
			// A value that does not fit: a *frame.Error wrapping the
			// *gdvar.Error; the connection goes on.
			c.WriteValue(variant.String("not a move"))
			c.Encode(m)
			err = c.Decode(&got)
			var fe *frame.Error
			var ge *gdvar.Error
			if !errors.Is(err, gdvar.ErrTypeMismatch) || !errors.As(err, &fe) || !errors.As(err, &ge) {
				t.Errorf("%s %v: a String into a struct: %v", name, family, err)
			}
			if err := c.Decode(&got); err != nil || got != m {
				t.Errorf("%s %v: after the mismatch: %+v, %v", name, family, got, err)
			}
		}
	}
}

// The connection's limits and knobs apply to Decode and Encode.
func TestDecodeEncodeOptions(t *testing.T) {
	o := Options{Dec: variant.DecOptions{MaxElements: 3}, RejectUnknownFields: true,
		Enc: variant.EncOptions{Version: variant.Version{Major: 4, Minor: 2}}, TypedContainers: true}
	client, server := pair(t, o)
	client.SetDeadline(time.Now().Add(10 * time.Second))
	server.SetDeadline(time.Now().Add(10 * time.Second))
	if err := client.Encode([]int{1, 2}); !errors.Is(err, variant.ErrUnsupported) {
		t.Errorf("typed Array for Godot 4.2: %v", err)
	}
	client.WriteValue(variant.PackedInt32Array{1, 2, 3, 4})
	if err := client.Encode(map[string]any{"player": "x"}); !errors.Is(err, variant.ErrUnsupported) {
		t.Errorf("typed Dictionary for Godot 4.2: %v", err)
	}
	d := variant.NewDictionary(2)
	d.Set(variant.String("player"), variant.String("x"))
	d.Set(variant.String("score"), variant.Int(1))
	client.WriteValue(d)
	var ints []int
	if err := server.Decode(&ints); !errors.Is(err, variant.ErrTooLarge) {
		t.Errorf("4 elements with MaxElements 3: %v", err)
	}
	var m move
	if err := server.Decode(&m); !errors.Is(err, gdvar.ErrUnknownField) {
		t.Errorf("unknown field: %v", err)
	}
}

// PacketConn: DecodeFrom and EncodeTo.
func TestPacketConnStructs(t *testing.T) {
	ctx := testCtx(t)
	o := Options{Godot: variant.Godot3}
	pc, err := ListenUDP(ctx, "127.0.0.1:0", o)
	if err != nil {
		t.Fatal(err)
	}
	defer pc.Close()
	c, err := DialUDP(ctx, pc.LocalAddr().String(), o)
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	pc.SetDeadline(time.Now().Add(10 * time.Second))
	c.SetDeadline(time.Now().Add(10 * time.Second))
	m := move{Player: "ada", Turn: 1}
	if err := c.Encode(m); err != nil {
		t.Fatal(err)
	}
	var got move
	from, err := pc.DecodeFrom(&got)
	if err != nil || got != m {
		t.Fatalf("DecodeFrom: %+v %v", got, err)
	}
	got.Turn++
	if err := pc.EncodeTo(got, from); err != nil {
		t.Fatal(err)
	}
	var back move
	if err := c.Decode(&back); err != nil || back.Turn != 2 {
		t.Errorf("reply: %+v %v", back, err)
	}
}
