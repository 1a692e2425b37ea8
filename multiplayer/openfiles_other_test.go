//go:build !unix

package multiplayer

import "testing"

// raiseOpenFiles does nothing where there is no open file limit to raise.
func raiseOpenFiles(b *testing.B, n uint64) {}
