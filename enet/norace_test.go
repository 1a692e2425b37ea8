//go:build !race

package enet

const raceEnabled = false
