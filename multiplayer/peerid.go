package multiplayer

import "strconv"

// PeerID identifies a peer of a multiplayer session, as the engine's
// multiplayer.get_unique_id() and get_remote_sender_id() do: 1 is the host,
// clients have ids from 2 to 2^31-1. As a target, 0 means every peer and -n
// every peer but n.
type PeerID int32

// The special peer ids.
const (
	HostID    PeerID = 1 // the host (MultiplayerPeer.TARGET_PEER_SERVER)
	Broadcast PeerID = 0 // every peer (TARGET_PEER_BROADCAST)
)

// String returns the id in decimal.
func (p PeerID) String() string { return strconv.Itoa(int(p)) }
