package main

import (
	"encoding/hex"
	"testing"

	"github.com/gdvar/gdvar/variant"
)

// TestZeroPaddingWalksFixtures checks the walker behind zeroPadding on
// every golden fixture: it must end exactly at the end of the engine's
// bytes.
func TestZeroPaddingWalksFixtures(t *testing.T) {
	for _, c := range []struct {
		fam  variant.Family
		path string
	}{{variant.Godot4, "../../testdata/golden/godot4.jsonl"}, {variant.Godot3, "../../testdata/golden/godot3.jsonl"}} {
		fixtures, err := load(c.path)
		if err != nil {
			t.Fatal(err)
		}
		if len(fixtures) < 100 {
			t.Fatalf("%s: only %d fixtures", c.path, len(fixtures))
		}
		for _, fx := range fixtures {
			b, err := hex.DecodeString(fx.Hex)
			if err != nil {
				t.Fatal(err)
			}
			z, err := zeroPadding(b, c.fam)
			if err != nil {
				t.Errorf("%v %s: %v", c.fam, fx.Expr, err)
				continue
			}
			if len(z) != len(b) {
				t.Errorf("%v %s: walked %d of %d bytes", c.fam, fx.Expr, len(z), len(b))
			}
		}
	}
}
