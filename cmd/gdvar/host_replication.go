package main

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/gdvar/gdvar/multiplayer"
	"github.com/gdvar/gdvar/variant"
)

// gdvar host's lines for Godot 4's replication packets: SPAWN, DESPAWN,
// SYNC and DELTA decoded, with node names learnt from the SPAWNs seen,
// at most a number of lines per second of each kind.

// replKind is a kind of replication line, for the rate limit.
type replKind int

const (
	kindSpawn replKind = iota
	kindDespawn
	kindSync
	kindDelta
	replKinds
)

var replKindNames = [replKinds]string{"SPAWN", "DESPAWN", "SYNC", "DELTA"}

// maxReplNames bounds the names remembered from SPAWNs.
const maxReplNames = 1 << 16

// replState is the printer's memory of replication: what the SPAWNs
// named, and each kind's rate window. hostPrinter.mu guards it.
type replState struct {
	rate int // lines per second per kind; 0: no limit
	now  func() time.Time
	win  [replKinds]struct {
		start         time.Time
		shown, hidden int
	}
	names map[replKey]string // (sender, net or sync id) → node name
}

type replKey struct {
	from multiplayer.PeerID
	id   uint32
}

func (s *replState) kind(e *multiplayer.Event) replKind {
	r := e.Replication
	switch {
	case r == nil:
		return replKind(-1)
	case r.Spawn != nil:
		return kindSpawn
	case r.Despawn:
		return kindDespawn
	case r.Sync.Delta:
		return kindDelta
	}
	return kindSync
}

// admit says whether a line of kind k may be printed now, and returns
// the note of the lines hidden in the kind's previous window, if any.
func (s *replState) admit(k replKind) (bool, string) {
	if s.rate <= 0 {
		return true, ""
	}
	now := s.now()
	w := &s.win[k]
	note := ""
	if now.Sub(w.start) >= time.Second {
		if w.hidden > 0 {
			note = fmt.Sprintf("… %d %s lines not shown (--max-rate %d)", w.hidden, replKindNames[k], s.rate)
		}
		w.start, w.shown, w.hidden = now, 0, 0
	}
	if w.shown >= s.rate {
		w.hidden++
		return false, note
	}
	w.shown++
	return true, note
}

// flush returns the notes of the lines still hidden.
func (s *replState) flush() []string {
	var out []string
	for k := range s.win {
		if w := &s.win[k]; w.hidden > 0 {
			out = append(out, fmt.Sprintf("… %d %s lines not shown (--max-rate %d)", w.hidden, replKindNames[k], s.rate))
			w.hidden = 0
		}
	}
	return out
}

func (s *replState) remember(from multiplayer.PeerID, id uint32, name string) {
	if s.names == nil || len(s.names) >= maxReplNames {
		s.names = map[replKey]string{}
	}
	s.names[replKey{from, id}] = name
}

// syncName names a synchronizer: its path, or the spawned node's name and
// its sync id, or the id alone.
func (s *replState) syncName(from multiplayer.PeerID, id uint32, path string) string {
	if path != "" {
		return path
	}
	if id&multiplayer.SyncPathID != 0 {
		return "path#" + strconv.FormatUint(uint64(id&^multiplayer.SyncPathID), 10)
	}
	return s.names[replKey{from, id}] + "#" + strconv.FormatUint(uint64(id), 10)
}

// replication writes the decoded part of a replication line to b and
// says whether to print it; note, when set, is printed first. The caller
// holds the printer's lock.
func (p *hostPrinter) replication(b *strings.Builder, e *multiplayer.Event) (show bool, note string) {
	r := e.Replication
	s := &p.repl
	if r == nil {
		return true, ""
	}
	from := e.From
	switch k := s.kind(e); k {
	case kindSpawn:
		sp := r.Spawn
		s.remember(from, sp.NetID, sp.Name)
		for _, id := range sp.SyncIDs {
			s.remember(from, id, sp.Name)
		}
		if show, note = s.admit(k); !show {
			return
		}
		spawner := e.Node
		if spawner == "" {
			spawner = "#" + strconv.FormatUint(uint64(sp.Spawner), 10)
		}
		fmt.Fprintf(b, " %s by %s", strconv.Quote(sp.Name), spawner)
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
			b.WriteString(" sync " + strings.Join(ids, ","))
		}
		if len(r.Values) == 1 && len(r.Values[0]) > 0 {
			b.WriteString(" state(" + p.args(r.Values[0]) + ")")
		}
	case kindDespawn:
		name := s.names[replKey{from, r.NetID}]
		delete(s.names, replKey{from, r.NetID})
		if show, note = s.admit(k); !show {
			return
		}
		fmt.Fprintf(b, " #%d", r.NetID)
		if name != "" {
			b.WriteString(" " + strconv.Quote(name))
		}
	case kindSync, kindDelta:
		if show, note = s.admit(k); !show {
			return
		}
		if k == kindSync {
			fmt.Fprintf(b, " t=%d", r.Sync.Time)
		}
		for i, st := range r.Sync.States {
			b.WriteString(" " + s.syncName(from, st.ID, r.Paths[i]))
			if k == kindDelta {
				b.WriteString(maskText(st.Mask))
			}
			b.WriteString("(" + p.args(r.Values[i]) + ")")
		}
	}
	return
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
