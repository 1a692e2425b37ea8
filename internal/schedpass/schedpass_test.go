package schedpass

import "testing"

func TestPacer(t *testing.T) {
	var p Pacer
	ms := int64(1_000_000)
	for i, c := range []struct {
		now  int64
		pass bool
	}{
		{100 * ms, true},   // the first
		{101 * ms, false},  // 1 ms later
		{104 * ms, false},  // 4 ms after the pass
		{105 * ms, true},   // 5 ms after it
		{109 * ms, false},  // 4 ms after that
		{50 * ms, true},    // the clock went back
		{54 * ms, false},   // measured from there
		{1000 * ms, true},  // long after
		{1004 * ms, false}, // and again within Every
	} {
		if got := p.Tick(c.now); got != c.pass {
			t.Errorf("tick %d at %d ms: passed %v, want %v", i, c.now/ms, got, c.pass)
		}
	}
}
