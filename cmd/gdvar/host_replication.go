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
// learnt from the SPAWNs seen and, with --project, synchronizer and
// property names from the project's scenes (multiplayer.ReadProject).

// maxReplNames bounds the names remembered from SPAWNs.
const maxReplNames = 1 << 16

// replNames maps what a peer's SPAWNs named: (room, sender, net or sync
// id) → the spawned node and, when the project declares it, the
// synchronizer.
type replNames map[replKey]replName

type replKey struct {
	room string
	from multiplayer.PeerID
	id   uint32
}

type replName struct {
	node string                    // the spawned node's name
	sync *multiplayer.Synchronizer // nil: not known
}

// replCommand is the command's name in e's line: DELTA for the reliable
// form of SYNC.
func replCommand(e *multiplayer.Event) string {
	if r := e.Replication; r != nil && r.Sync != nil && r.Sync.Delta {
		return "DELTA"
	}
	return e.Packet.Command.String()
}

func (p *hostPrinter) remember(k replKey, n replName) {
	if p.repl == nil || len(p.repl) >= maxReplNames {
		p.repl = replNames{}
	}
	p.repl[k] = n
}

// synchronizer names the synchronizer of a SYNC or DELTA state and
// returns its declaration when the project has it: by path, or by the
// spawned node's name, the synchronizer's and its sync id, or by the id
// alone.
func (p *hostPrinter) synchronizer(room string, from multiplayer.PeerID, id uint32, path string) (string, *multiplayer.Synchronizer) {
	if path != "" {
		var s *multiplayer.Synchronizer
		if p.project != nil {
			s = p.project.Synchronizer(path)
		}
		return p.cut(path), s
	}
	if id&multiplayer.SyncPathID != 0 {
		return "path#" + strconv.FormatUint(uint64(id&^multiplayer.SyncPathID), 10), nil
	}
	n := p.repl[replKey{room, from, id}]
	name := p.cut(n.node)
	if n.sync != nil {
		name += "/" + p.cut(n.sync.Name)
	}
	return name + "#" + strconv.FormatUint(uint64(id), 10), n.sync
}

// spawnScene is the declaration of the scene a SPAWN by the spawner at
// path instantiates, when the project has it.
func (p *hostPrinter) spawnScene(path string, sp *multiplayer.Spawn) *multiplayer.Scene {
	if p.project == nil || path == "" {
		return nil
	}
	s := p.project.Spawner(path)
	switch {
	case s == nil:
		return nil
	case sp.Scene == multiplayer.SpawnCustom:
		return s.Custom
	case int(sp.Scene) < len(s.Scenes):
		return &s.Scenes[sp.Scene]
	}
	return nil
}

// replication writes the decoded part of a SPAWN, DESPAWN, SYNC or DELTA
// line to b; room is the room the packet came in.
func (p *hostPrinter) replication(b *strings.Builder, room string, e *multiplayer.Event) {
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
		scene := p.spawnScene(e.Node, sp)
		p.remember(replKey{room, from, sp.NetID}, replName{node: sp.Name})
		known := scene != nil && len(scene.Synchronizers) == len(sp.SyncIDs)
		var names []string // the spawn state's property names, when known
		if known {
			names = []string{}
			for i := range scene.Synchronizers {
				names = append(names, keys(scene.Synchronizers[i].SpawnProperties())...)
			}
		}
		for i, id := range sp.SyncIDs {
			n := replName{node: sp.Name}
			if known {
				n.sync = &scene.Synchronizers[i]
			}
			p.remember(replKey{room, from, id}, n)
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
		if scene != nil && scene.Path != "" {
			b.WriteString(" " + p.cut(scene.Path))
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
			b.WriteString(" state(" + p.named(names, r.Values[0]) + ")")
		}
	case r.Despawn:
		k := replKey{room, from, r.NetID}
		name := p.repl[k].node
		delete(p.repl, k)
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
			name, decl := p.synchronizer(room, from, st.ID, r.Paths[i])
			parts.WriteString(" " + name)
			var names []string
			switch {
			case decl != nil && r.Sync.Delta:
				names = maskKeys(decl.DeltaProperties(), st.Mask)
			case decl != nil:
				names = keys(decl.SyncProperties())
			}
			if r.Sync.Delta && names == nil {
				parts.WriteString(maskText(st.Mask))
			}
			parts.WriteString("(" + p.named(names, r.Values[i]) + ")")
		}
		b.WriteString(p.cut(parts.String()))
	}
}

// named formats values as p.args does, each after its name (name=value)
// when names has as many entries as there are values.
func (p *hostPrinter) named(names []string, values []variant.Value) string {
	if len(names) != len(values) {
		return p.args(values)
	}
	parts := make([]string, len(values))
	for i, v := range values {
		parts[i] = p.cut(names[i]) + "=" + p.args([]variant.Value{v})
	}
	return p.cut(strings.Join(parts, ", "))
}

// keys are the properties' names (SyncProperty.Key).
func keys(ps []multiplayer.SyncProperty) []string {
	out := make([]string, len(ps))
	for i, sp := range ps {
		out[i] = sp.Key()
	}
	return out
}

// maskKeys are the names of the properties a DELTA mask selects, in bit
// order; nil if the mask names a property ps does not have.
func maskKeys(ps []multiplayer.SyncProperty, m uint64) []string {
	out := []string{}
	for i := 0; i < 64; i++ {
		if m&(1<<uint(i)) == 0 {
			continue
		}
		if i >= len(ps) {
			return nil
		}
		out = append(out, ps[i].Key())
	}
	return out
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
