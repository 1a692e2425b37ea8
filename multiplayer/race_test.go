//go:build race

package multiplayer

// raceEnabled: the race detector allocates, so allocation counts do not hold.
const raceEnabled = true
