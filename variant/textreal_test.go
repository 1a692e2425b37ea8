package variant

import (
	"math"
	"strconv"
	"testing"
)

// TestEngineStrtod checks the model of the engines' number reader against
// readings taken from Godot 4.6 and 3.2.3 (both read these alike).
func TestEngineStrtod(t *testing.T) {
	tests := []struct {
		text string
		bits uint64 // what the engine stores
	}{
		{"0.1", 0x3fb999999999999a},
		{"0.9999999999999999", 0x3ff0000000000000},
		{"9007199254740993.0", 0x4340000000000001},
		{"2.2250738585072014e-308", 0},
		{"3.4028234663852886e+38", 0x47efffffe0000001},
		{"947.9818669852673", 0x408d9fdadd13f5f5},
		{"0.00029168565939048186", 0x3f331dac5e27c488},
		{"9.122922057411155e+265", 0x7726a263e727829b},
		{"5.574737216834025e-71", 0x31589fd02c57db3f},
		{"-2.5", 0xc004000000000000},
		{"1e999", 0x7ff0000000000000},
	}
	for _, tt := range tests {
		if got := math.Float64bits(engineStrtod([]byte(tt.text))); got != tt.bits {
			t.Errorf("engineStrtod(%q) = %016x, want %016x", tt.text, got, tt.bits)
		}
	}
}

// TestRealTextIsExact checks, over many doubles, that appendReal always
// writes a text our parser reads back exactly, and that the engine reads
// it exactly whenever Format says it does.
func TestRealTextIsExact(t *testing.T) {
	var bits uint64 = 0x9e3779b97f4a7c15
	for i := range 20000 {
		bits = bits*6364136223846793005 + 1442695040888963407
		f := math.Float64frombits(bits)
		if i%2 == 0 {
			f = float64(int64(bits>>20)%2000000) / 1000
		}
		if f != f || math.IsInf(f, 0) {
			continue
		}
		for _, k := range []realKind{realDouble, realT, realFloat} {
			x := f
			if k == realFloat {
				x = float64(float32(f))
				if math.IsInf(x, 0) {
					continue
				}
			}
			text := appendReal(nil, x, k, k == realDouble, false)
			got, err := strconv.ParseFloat(string(text), k.modelBits())
			if err != nil || math.Float64bits(got) != math.Float64bits(x) {
				t.Fatalf("appendReal(%v, %d) = %q, which reads back as %v, %v", x, k, text, got, err)
			}
			if k != realDouble && !engineReads(text, x, k) {
				t.Errorf("appendReal(%v, %d) = %q, which the engine misreads", x, k, text)
			}
		}
	}
}
