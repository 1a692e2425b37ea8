package multiplayer

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"regexp"
	"sort"
	"strings"

	"github.com/gdvar/gdvar/variant"
)

// Godot 3's rset: REMOTE_SET sets a property of a node on another peer
// (rset, rset_id, rset_unreliable, rset_unreliable_id), checked there
// against the property's rset mode (the remote, master, puppet,
// remotesync, mastersync and puppetsync keywords of a script variable).
// Godot 4 has no rset: its replication is MultiplayerSynchronizer's.

// ErrUnknownProperty: the node declares no rset property of that name, or
// a SceneNode has no replicated property of that name.
var ErrUnknownProperty = errors.New("multiplayer: unknown property")

// Property declares a property of a node that peers may set with rset
// (Godot 3).
type Property struct {
	// Name is the property's name.
	Name string
	// Mode says who may set it, as for a Method: AnyPeer for remote and
	// remotesync, Master for master and mastersync, Authority for puppet
	// and puppetsync; 0 means Authority.
	Mode RPCMode
	// Handler runs when a peer sets the property on the host (or on the
	// client): a function of a context.Context, the sender's PeerID and
	// the value, converted as gdvar.Unmarshal converts values:
	//
	//	func(ctx context.Context, from multiplayer.PeerID, pos variant.Vector2) error
	//
	// It may return nothing or an error. nil: sets are checked and
	// dropped, which suits properties only the host sets on clients.
	Handler any
}

// newProperties binds a node's rset properties, sorted by name.
func newProperties(path string, ps []Property) ([]*method, error) {
	var out []*method
	for _, p := range ps {
		if p.Name == "" {
			return nil, fmt.Errorf("multiplayer: node %q: a property without a name", path)
		}
		if p.Mode == 0 {
			p.Mode = Authority
		}
		m := &method{Method: Method{Name: p.Name, Mode: p.Mode, Handler: p.Handler}}
		if err := bindHandler(m); err != nil {
			return nil, err
		}
		if m.fn.IsValid() && len(m.in) != 1 {
			return nil, fmt.Errorf("multiplayer: handler of property %q must take one value after the context and the sender", p.Name)
		}
		out = append(out, m)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	for i := 1; i < len(out); i++ {
		if out[i].Name == out[i-1].Name {
			return nil, fmt.Errorf("multiplayer: node %q: property %q declared twice", path, out[i].Name)
		}
	}
	return out, nil
}

// propBytes is the declared property named name, or nil.
func (n *node) propBytes(name []byte) *method {
	i := sort.Search(len(n.props), func(i int) bool { return n.props[i].Name >= string(name) })
	if i < len(n.props) && n.props[i].Name == string(name) {
		return n.props[i]
	}
	return nil
}

// AppendSet appends a Godot 3 REMOTE_SET packet: the node's path cache id
// (or, when path is set, its full path appended, as the engine does for a
// peer that has not confirmed the id), the property's name and value, the
// property's value in its plain Variant encoding (variant.EncMode.Append
// with a Godot 3 EncMode).
func AppendSet(dst []byte, nodeID uint32, path, property string, value []byte) []byte {
	start := len(dst)
	dst = append(dst, byte(dialect3.toWire[CmdRemoteSet]))
	dst = binary.LittleEndian.AppendUint32(dst, nodeID)
	dst = append(append(dst, property...), 0)
	dst = append(dst, value...)
	if path != "" {
		binary.LittleEndian.PutUint32(dst[start+1:], pathFlag|uint32(len(dst)-start))
		dst = append(append(dst, path...), 0)
	}
	return dst
}

// setRequest is an rset ready to send: the node, and the packet without
// its node id.
type setRequest struct {
	nd       *node
	property string
	value    []byte
}

// prepareSet encodes an rset of property on the node at path.
func (s *session) prepareSet(path, property string, value any) (setRequest, error) {
	if !s.d.byName {
		return setRequest{}, errors.New("multiplayer: rset is Godot 3's; Godot 4 replicates with MultiplayerSynchronizer")
	}
	nd := s.nodes[trimRoot(path)]
	if nd == nil {
		return setRequest{}, fmt.Errorf("%w: %q", ErrUnknownNode, path)
	}
	if strings.IndexByte(property, 0) >= 0 || nd.propBytes([]byte(property)) == nil {
		return setRequest{}, fmt.Errorf("%w: %q on %q", ErrUnknownProperty, property, nd.path)
	}
	v, ok := value.(variant.Value)
	if !ok || value == nil {
		b, err := s.enc.Marshal(value)
		if err != nil {
			return setRequest{}, fmt.Errorf("multiplayer: property %q: %w", property, err)
		}
		return setRequest{nd: nd, property: property, value: b}, nil
	}
	b, err := s.venc.Append(nil, v)
	if err != nil {
		return setRequest{}, fmt.Errorf("multiplayer: property %q: %w", property, err)
	}
	return setRequest{nd: nd, property: property, value: b}, nil
}

// setPackets returns the packets that carry an rset to a peer, announcing
// the node first as callPackets does.
func (s *session) setPackets(r *remote, req setRequest) [][]byte {
	var out [][]byte
	confirmed, announced := r.sent[req.nd]
	if !announced {
		out = append(out, AppendSimplifyPath(nil, s.f, req.nd.checksum, req.nd.cacheID, req.nd.path))
		r.setSent(req.nd, false)
	}
	path := ""
	if !confirmed {
		path = req.nd.path
	}
	return append(out, AppendSet(nil, req.nd.cacheID, path, req.property, req.value))
}

// Set sets property on the node at path on peer to (one id, 0 for every
// peer, -n for every peer but n), as Godot 3's rset_id does (reliable);
// value is converted as gdvar.Marshal converts values. The node and the
// property must be declared (Node.Properties); the receiving engine
// checks the property's rset mode: a puppet property accepts it because
// the host is the node's master (unless Node.Authority says otherwise).
// Godot 3 only.
func (h *Host) Set(to PeerID, path, property string, value any) error {
	return h.set(to, path, property, value, Reliable)
}

// SetUnreliable is Set sent unreliably, as rset_unreliable_id.
func (h *Host) SetUnreliable(to PeerID, path, property string, value any) error {
	return h.set(to, path, property, value, Unreliable)
}

func (h *Host) set(to PeerID, path, property string, value any, mode TransferMode) error {
	req, err := h.prepareSet(path, property, value)
	if err != nil {
		return err
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	targets, err := h.targetsLocked(to)
	if err != nil {
		return err
	}
	for _, p := range targets {
		for _, pkt := range h.setPackets(p.remote, req) {
			h.sendLocked(p, pkt, 0, mode)
		}
	}
	return nil
}

// Set sets property on the node at path on peer to (1 for the host, 0 for
// every peer, -n for every peer but n), as Godot 3's rset_id does
// (reliable); sets for other clients go through the host's relay. Godot 3
// only.
func (c *Client) Set(to PeerID, path, property string, value any) error {
	return c.set(to, path, property, value, Reliable)
}

// SetUnreliable is Set sent unreliably, as rset_unreliable_id.
func (c *Client) SetUnreliable(to PeerID, path, property string, value any) error {
	return c.set(to, path, property, value, Unreliable)
}

func (c *Client) set(to PeerID, path, property string, value any, mode TransferMode) error {
	req, err := c.prepareSet(path, property, value)
	if err != nil {
		return err
	}
	c.mu.Lock()
	targets, err := c.targetsLocked(to)
	if err != nil {
		c.mu.Unlock()
		return err
	}
	var pkts [][][]byte
	for _, t := range targets {
		pkts = append(pkts, c.setPackets(c.peers[t], req))
	}
	c.mu.Unlock()
	for i, t := range targets {
		for _, pkt := range pkts[i] {
			if err := c.write(t, pkt, 0, mode); err != nil {
				return err
			}
		}
	}
	return nil
}

// rsetKw3 matches a Godot 3 variable with an rset mode, after any export
// or onready.
var rsetKw3 = regexp.MustCompile(`^\s*(?:(?:export(?:\([^)]*\))?|onready)\s+)*(remote|master|puppet|slave|remotesync|sync|mastersync|puppetsync)\s+(?:onready\s+)?var\s+([A-Za-z_][A-Za-z0-9_]*)`)

// ScriptProperties reads the rset properties a Godot 3 GDScript source
// declares: its variables with the remote, master, puppet (or slave),
// remotesync (or sync), mastersync and puppetsync keywords, with their
// modes. Handlers are left nil. It reads the text only: variables of
// inner classes count as the script's own.
func ScriptProperties(src string) ([]Property, error) {
	var out []Property
	sc := bufio.NewScanner(strings.NewReader(src))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		m := rsetKw3.FindStringSubmatch(sc.Text())
		if m == nil {
			continue
		}
		p := Property{Name: m[2], Mode: Authority}
		switch m[1] {
		case "remote", "remotesync", "sync":
			p.Mode = AnyPeer
		case "master", "mastersync":
			p.Mode = Master
		}
		out = append(out, p)
	}
	return out, sc.Err()
}
