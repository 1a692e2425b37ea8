package peer

import (
	"context"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// BenchmarkTCPRoundTrip sends a small value to an echo server and reads
// it back, with the server limits on (the defaults) and off.
func BenchmarkTCPRoundTrip(b *testing.B) {
	for _, bc := range []struct {
		name string
		o    Options
	}{
		{"limits", Options{}},
		{"nolimits", Options{MaxConns: -1, BufferBudget: -1, IdleTimeout: -1, FrameTimeout: -1, WriteTimeout: -1}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			l, err := ListenTCP(context.Background(), "127.0.0.1:0", bc.o)
			if err != nil {
				b.Fatal(err)
			}
			defer l.Close()
			go func() {
				for {
					c, err := l.Accept(context.Background())
					if err != nil {
						return
					}
					go echo(c)
				}
			}()
			c, err := DialTCP(context.Background(), l.Addr().String(), Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer c.Close()
			v := variant.Vector2{X: 1, Y: 2}
			b.ReportAllocs()
			b.SetBytes(16)
			for b.Loop() {
				if err := c.WriteValue(v); err != nil {
					b.Fatal(err)
				}
				if _, err := c.ReadValue(); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
