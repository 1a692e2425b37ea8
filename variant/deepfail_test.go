package variant

import (
	"errors"
	"runtime"
	"testing"
)

// TestDeepFailureMemory decodes 1,024 nested Arrays whose innermost value
// is bad, or one level too deep: the error's path is built once, not level
// by level, so the decode allocates a small multiple of the input's size.
func TestDeepFailureMemory(t *testing.T) {
	bad := nest(1023)
	bad = append(bad[:len(bad)-4], 0xff, 0, 0, 0) // an unknown type at the bottom
	for name, in := range map[string][]byte{"bad value": bad, "too deep": nest(1025)} {
		_, _, err := Decode(in)
		var e *Error
		if !errors.As(err, &e) {
			t.Fatalf("%s: %v", name, err)
		}
		var before, after runtime.MemStats
		runtime.ReadMemStats(&before)
		const runs = 10
		for range runs {
			Decode(in)
		}
		runtime.ReadMemStats(&after)
		per := float64(after.TotalAlloc-before.TotalAlloc) / runs / float64(len(in))
		t.Logf("%s: %d input bytes, %.1f bytes allocated per input byte", name, len(in), per)
		if per > 32 {
			t.Errorf("%s: %.1f bytes allocated per input byte", name, per)
		}
	}
}
