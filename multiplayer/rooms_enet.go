package multiplayer

import "time"

// ENetPeerStats calls f for each ENet client of the rooms with its
// round-trip time and packet loss (0..1), as ENet estimates them now; for
// metrics. ENet's retransmissions are not counted here.
func (rs *Rooms) ENetPeerStats(f func(rtt time.Duration, loss float64)) {
	rs.mu.Lock()
	var ls []*enetListener
	for _, r := range rs.rooms {
		for _, l := range append([]Listener{r.enet}, r.extra...) {
			if el, ok := l.(*enetListener); ok {
				ls = append(ls, el)
			}
		}
	}
	rs.mu.Unlock()
	for _, l := range ls {
		l.mu.Lock()
		links := make([]*enetLink, 0, len(l.links))
		for _, lk := range l.links {
			links = append(links, lk)
		}
		l.mu.Unlock()
		for _, lk := range links {
			rtt, _ := lk.peer.RoundTripTime()
			f(rtt, lk.peer.PacketLoss())
		}
	}
}
