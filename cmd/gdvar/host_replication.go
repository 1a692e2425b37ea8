package main

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// gdvar host's lines for Godot 4's replication packets: SPAWN, DESPAWN,
// SYNC and DELTA decoded (multiplayer.Event.Replication), with node names
// learnt from the SPAWNs seen.

// maxReplNames bounds the names remembered from SPAWNs.
const maxReplNames = 1 << 16

// replNames maps what a peer's SPAWNs named: (sender, net or sync id) →
// the spawned node's name.
type replNames map[replKey]string

type replKey struct {
	from multiplayer.PeerID
	id   uint32
}

// replCommand is the command's name in e's line: DELTA for the reliable
// form of SYNC.
func replCommand(e *multiplayer.Event) string {
	if r := e.Replication; r != nil && r.Sync != nil && r.Sync.Delta {
		return "DELTA"
	}
	return e.Packet.Command.String()
}

func (p *hostPrinter) remember(from multiplayer.PeerID, id uint32, name string) {
	if p.repl == nil || len(p.repl) >= maxReplNames {
		p.repl = replNames{}
	}
	p.repl[replKey{from, id}] = name
}

// syncName names a synchronizer: its path, or the spawned node's name and
// its sync id, or the id alone.
func (p *hostPrinter) syncName(from multiplayer.PeerID, id uint32, path string) string {
	if path != "" {
		return p.cut(path)
	}
	if id&multiplayer.SyncPathID != 0 {
		return "path#" + strconv.FormatUint(uint64(id&^multiplayer.SyncPathID), 10)
	}
	return p.cut(p.repl[replKey{from, id}]) + "#" + strconv.FormatUint(uint64(id), 10)
}

// replication writes the decoded part of a SPAWN, DESPAWN, SYNC or DELTA
// line to b.
func (p *hostPrinter) replication(b *strings.Builder, e *multiplayer.Event) {
	r := e.Replication
	if r == nil {
		return
	}
	p.mu.Lock()
	defer p.mu.Unlock()
	from := e.From
	switch {
	case r.Spawn != nil:
		sp := r.Spawn
		p.remember(from, sp.NetID, sp.Name)
		for _, id := range sp.SyncIDs {
			p.remember(from, id, sp.Name)
		}
		spawner := e.Node
		if spawner == "" {
			spawner = "#" + strconv.FormatUint(uint64(sp.Spawner), 10)
		}
		fmt.Fprintf(b, " %s by %s", p.cut(strconv.Quote(sp.Name)), p.cut(spawner))
		if sp.Scene == multiplayer.SpawnCustom {
			b.WriteString(" custom(" + p.args([]variant.Value{r.Arg}) + ")")
		} else {
			fmt.Fprintf(b, " scene %d", sp.Scene)
		}
		fmt.Fprintf(b, " net #%d", sp.NetID)
		if len(sp.SyncIDs) > 0 {
			ids := make([]string, len(sp.SyncIDs))
			for i, id := range sp.SyncIDs {
				ids[i] = "#" + strconv.FormatUint(uint64(id), 10)
			}
			b.WriteString(" sync " + p.cut(strings.Join(ids, ",")))
		}
		if len(r.Values) == 1 && len(r.Values[0]) > 0 {
			b.WriteString(" state(" + p.args(r.Values[0]) + ")")
		}
	case r.Despawn:
		name := p.repl[replKey{from, r.NetID}]
		delete(p.repl, replKey{from, r.NetID})
		fmt.Fprintf(b, " #%d", r.NetID)
		if name != "" {
			b.WriteString(" " + p.cut(strconv.Quote(name)))
		}
	case r.Sync != nil:
		if !r.Sync.Delta {
			fmt.Fprintf(b, " t=%d", r.Sync.Time)
		}
		var parts strings.Builder
		for i, st := range r.Sync.States {
			parts.WriteString(" " + p.syncName(from, st.ID, r.Paths[i]))
			if r.Sync.Delta {
				parts.WriteString(maskText(st.Mask))
			}
			parts.WriteString("(" + p.args(r.Values[i]) + ")")
		}
		b.WriteString(p.cut(parts.String()))
	}
}

// maskText lists the watched-property indices a DELTA mask names: [0,2].
func maskText(m uint64) string {
	var parts []string
	for i := 0; i < 64; i++ {
		if m&(1<<uint(i)) != 0 {
			parts = append(parts, strconv.Itoa(i))
		}
	}
	return "[" + strings.Join(parts, ",") + "]"
}
