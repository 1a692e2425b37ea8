package variant

import (
	"testing"
	"time"
	"github.com/gdvar/gdvar/wire"
)

func deepBytes(n int) []byte {
	var b []byte
	for range n {
		b = wire.AppendU32(b, uint32(TypeArray))
		b = wire.AppendU32(b, 1)
	}
	return wire.AppendU32(b, 0)
}

func TestZZDeep(t *testing.T) {
	m, _ := DecOptions{MaxDepth: 1 << 16}.DecMode()
	em, _ := EncOptions{MaxDepth: 1 << 16}.EncMode()
	for _, n := range []int{5000, 10000, 20000, 40000} {
		b := deepBytes(n)
		s := time.Now()
		v, _, err := m.Decode(b)
		d1 := time.Since(s)
		s = time.Now()
		_, err2 := em.Encode(v)
		d2 := time.Since(s)
		bad := append([]byte{}, b[:len(b)-4]...)
		s = time.Now()
		_, _, err3 := m.Decode(bad)
		d3 := time.Since(s)
		t.Logf("n=%d decode %v enc %v errdecode %v %v %v %T", n, d1, d2, d3, err, err2, err3)
	}
}
