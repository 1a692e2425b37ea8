//go:build race

package enet

// raceEnabled: the race detector allocates, so allocation counts do not hold.
const raceEnabled = true
