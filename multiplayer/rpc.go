package multiplayer

import (
	"context"
	"crypto/md5"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"

	"github.com/gdvar/gdvar"
	"github.com/gdvar/gdvar/internal/gotype"
	"github.com/gdvar/gdvar/variant"
)

// RPCMode says who may call an RPC, as the @rpc annotation's first
// argument (Godot 4) or the remote/master/puppet keywords (Godot 3).
type RPCMode uint8

// The RPC modes.
const (
	// AnyPeer: any peer may call it (Godot 4 "any_peer", Godot 3 "remote"
	// and "remotesync").
	AnyPeer RPCMode = iota + 1
	// Authority: only the node's multiplayer authority may call it
	// (Godot 4 "authority", the default; Godot 3 "puppet" and
	// "puppetsync", which the node's master calls on the others).
	Authority
	// Master: Godot 3 "master" and "mastersync": callable on the node's
	// master, by anyone.
	Master
)

// String returns the mode as @rpc writes it: "any_peer", "authority", "master" (Godot 3) or "disabled".
func (m RPCMode) String() string {
	switch m {
	case AnyPeer:
		return "any_peer"
	case Authority:
		return "authority"
	case Master:
		return "master"
	}
	return "disabled"
}

// Method declares one RPC method of a node.
type Method struct {
	// Name is the method's name.
	Name string
	// Mode says who may call it; 0 means Authority, the engine's default.
	Mode RPCMode
	// Transfer is how calls travel; the zero value is Unreliable, as for
	// @rpc. WebSocket delivers everything reliably and in order anyway.
	Transfer TransferMode
	// CallLocal runs the method locally too when the host calls it
	// (call_local; Godot 3's *sync modes).
	CallLocal bool
	// Channel is the transfer channel.
	Channel int
	// Handler runs when a peer calls the method on the host. It is a
	// function whose first two parameters are a context.Context and the
	// caller's PeerID, and whose other parameters receive the arguments,
	// converted as gdvar.Unmarshal converts values:
	//
	//	func(ctx context.Context, from multiplayer.PeerID, name string, pos variant.Vector2) error
	//
	// It may return nothing or an error. A call with another number of
	// arguments, or arguments that do not convert, is refused (the engine
	// reports a call error). nil: calls are checked and dropped, which
	// suits methods only the host calls on clients.
	Handler any
}

// Node declares a node whose RPCs the host knows: its path relative to the
// multiplayer root (for the main scene usually "Main" or "Main/Player"; the
// engine sends paths relative to /root), and its RPC methods.
type Node struct {
	Path    string
	Methods []Method
	// Authority is the node's multiplayer authority; 0 means the host.
	// OwnerAuthority, for a path with "*" elements (Host.AddNode), means
	// the peer whose id is the element the first "*" matches; in a
	// Scene, the spawned node's owner.
	Authority PeerID
	// Properties are the node's properties peers may set with rset
	// (Godot 3).
	Properties []Property
}

// node is a declared node, ready for dispatch.
type node struct {
	path      string
	authority PeerID
	cacheID   uint32   // the host's path cache id for the node
	names     []string // method names sorted: the index is the method id
	methods   []*method
	props     []*method // rset properties (Godot 3), sorted by name
	checksum  string
	sn        *SceneNode // the scene node it belongs to, if any
	si        *syncInst  // the synchronizer it is, if any
}

type method struct {
	Method
	id     uint16
	fn     reflect.Value
	in     []reflect.Type // parameter types after ctx and from
	reuse  []bool         // the parameter's value may be reused between calls
	ret    bool           // returns an error
	frames sync.Pool      // *callFrame
	// direct calls the handler without reflect.Value.Call when its
	// signature is a common one (directCall); nil otherwise.
	direct func(ctx context.Context, from PeerID, args []reflect.Value) error
}

var (
	ctxType  = reflect.TypeFor[context.Context]()
	peerType = reflect.TypeFor[PeerID]()
	errType  = reflect.TypeFor[error]()
)

func bindHandler(m *method) error {
	if m.Handler == nil {
		return nil
	}
	fn := reflect.ValueOf(m.Handler)
	t := fn.Type()
	if t.Kind() != reflect.Func || t.NumIn() < 2 || t.In(0) != ctxType || t.In(1) != peerType || t.IsVariadic() {
		return fmt.Errorf("multiplayer: handler of %q must be func(context.Context, multiplayer.PeerID, args...) [error], not %v", m.Name, t)
	}
	switch {
	case t.NumOut() == 0:
	case t.NumOut() == 1 && t.Out(0) == errType:
		m.ret = true
	default:
		return fmt.Errorf("multiplayer: handler of %q must return nothing or an error", m.Name)
	}
	if t.NumIn()-2 > maxArgs {
		return fmt.Errorf("multiplayer: handler of %q takes more than 255 arguments", m.Name)
	}
	for i := 2; i < t.NumIn(); i++ {
		m.in = append(m.in, t.In(i))
		m.reuse = append(m.reuse, !gotype.HasPointers(t.In(i)))
	}
	m.fn = fn
	m.direct = directCall(m.Handler)
	m.frames.New = func() any {
		fr := &callFrame{in: make([]reflect.Value, t.NumIn()), ctx: reflect.New(ctxType), from: reflect.New(peerType), holders: make([]reflect.Value, len(m.in))}
		fr.ctxp = fr.ctx.Interface().(*context.Context)
		fr.fromp = fr.from.Interface().(*PeerID)
		for i, pt := range m.in {
			if m.reuse[i] {
				fr.holders[i] = reflect.New(pt)
			}
		}
		return fr
	}
	return nil
}

// MethodsChecksum returns the checksum SIMPLIFY_PATH carries: the MD5, in
// lowercase hex, of the node's RPC method names concatenated in id order.
func MethodsChecksum(names []string) string {
	h := md5.New()
	for _, n := range names {
		h.Write([]byte(n))
	}
	return hex.EncodeToString(h.Sum(nil))
}

func newNode(n Node, cacheID uint32) (*node, error) {
	p := strings.TrimPrefix(n.Path, "/root/")
	if p == "" {
		return nil, errors.New("multiplayer: empty node path")
	}
	nd := &node{path: p, authority: n.Authority, cacheID: cacheID}
	if nd.authority == 0 {
		nd.authority = HostID
	}
	ms := slices.Clone(n.Methods)
	// The engine numbers a node's RPCs by their names in sorted order
	// (SceneRPCInterface::_parse_rpc_config).
	slices.SortFunc(ms, func(a, b Method) int { return strings.Compare(a.Name, b.Name) })
	for i, m := range ms {
		if m.Name == "" {
			return nil, fmt.Errorf("multiplayer: node %q: a method without a name", p)
		}
		if i > 0 && ms[i-1].Name == m.Name {
			return nil, fmt.Errorf("multiplayer: node %q: method %q declared twice", p, m.Name)
		}
		if m.Mode == 0 {
			m.Mode = Authority
		}
		mm := &method{Method: m, id: uint16(i)}
		if err := bindHandler(mm); err != nil {
			return nil, err
		}
		nd.methods = append(nd.methods, mm)
		nd.names = append(nd.names, m.Name)
	}
	if len(nd.methods) > 1<<15 {
		return nil, fmt.Errorf("multiplayer: node %q: too many methods", p)
	}
	nd.checksum = MethodsChecksum(nd.names)
	var err error
	if nd.props, err = newProperties(p, n.Properties); err != nil {
		return nil, err
	}
	return nd, nil
}

// methodBytes is method for a name in a packet, without allocating.
func (n *node) methodBytes(name []byte) *method {
	lo, hi := 0, len(n.names)
	for lo < hi {
		mid := int(uint(lo+hi) >> 1)
		if n.names[mid] < string(name) {
			lo = mid + 1
		} else {
			hi = mid
		}
	}
	if lo < len(n.names) && n.names[lo] == string(name) {
		return n.methods[lo]
	}
	return nil
}

func (n *node) method(name string) *method {
	i, ok := slices.BinarySearch(n.names, name)
	if !ok {
		return nil
	}
	return n.methods[i]
}

// allows reports whether peer from may call m on a node whose authority
// is auth, on the host (self).
func (m *method) allows(from, self, auth PeerID) bool {
	switch m.Mode {
	case AnyPeer:
		return true
	case Authority:
		return from == auth && self != auth
	case Master:
		return self == auth
	}
	return false
}

// CallError says why an incoming RPC was refused or failed.
type CallError struct {
	From   PeerID
	Node   string
	Method string
	Err    error
}

// Error says which call was refused and why.
func (e *CallError) Error() string {
	return fmt.Sprintf("multiplayer: RPC %s.%s from peer %d: %v", e.Node, e.Method, e.From, e.Err)
}

// Unwrap returns the reason (ErrNotAllowed, ErrUnknownMethod, …).
func (e *CallError) Unwrap() error { return e.Err }

// scalarBuf turns a compressed int or bool into its plain Variant encoding,
// so that gdvar converts it like any other value.
func plainScalar(buf *[12]byte, f variant.Family, v int64, isBool bool) []byte {
	if isBool {
		binary.LittleEndian.PutUint32(buf[:], typeBool)
		binary.LittleEndian.PutUint32(buf[4:], uint32(v))
		return buf[:8]
	}
	if v >= -1<<31 && v < 1<<31 {
		binary.LittleEndian.PutUint32(buf[:], typeInt)
		binary.LittleEndian.PutUint32(buf[4:], uint32(v))
		return buf[:8]
	}
	binary.LittleEndian.PutUint32(buf[:], typeInt|1<<16) // ENCODE_FLAG_64
	binary.LittleEndian.PutUint64(buf[4:], uint64(v))
	return buf[:12]
}

// invoke converts the arguments of p and calls the handler.
func (m *method) invoke(ctx context.Context, dec *gdvar.DecMode, f variant.Family, from PeerID, p *Packet) error {
	if !m.fn.IsValid() {
		return nil
	}
	if p.ArgCount != len(m.in) {
		return fmt.Errorf("%w: %d arguments for %d parameters", ErrInvalidArgument, p.ArgCount, len(m.in))
	}
	d := dialectOf(f)
	fr := m.frames.Get().(*callFrame)
	defer func() {
		// Whether the call was made, failed before it or panicked: the
		// frame goes back holding neither the context nor the arguments.
		clear(fr.in)
		*fr.ctxp = nil
		m.frames.Put(fr)
	}()
	if ctx == nil {
		ctx = context.Background()
	}
	*fr.ctxp = ctx
	fr.in[0] = fr.ctx.Elem()
	*fr.fromp = from
	fr.in[1] = fr.from.Elem()
	holder := func(i int) reflect.Value {
		if m.reuse[i] {
			h := fr.holders[i]
			h.Elem().SetZero()
			return h
		}
		// A value holding pointers may be kept by the handler: a new one.
		return reflect.New(m.in[i])
	}
	if p.Raw && p.ArgCount == 1 {
		pv := holder(0)
		pba := variant.PackedByteArray(p.Args)
		if err := dec.UnmarshalValue(pba, pv.Interface()); err != nil {
			return err
		}
		fr.in[2] = pv.Elem()
	} else {
		off := 0
		for i := range m.in {
			if off >= len(p.Args) {
				return perr(off, p.Command, ErrTruncated, fmt.Sprintf("argument %d", i))
			}
			b := p.Args[off:]
			if _, err := ArgType(f, b); err != nil {
				return perr(off, p.Command, err, fmt.Sprintf("argument %d", i))
			}
			v, isBool, n, ok, err := compressedScalar(d, b)
			if err != nil {
				return perr(off, p.Command, err, fmt.Sprintf("argument %d", i))
			}
			pv := holder(i)
			if ok {
				if err := dec.Unmarshal(plainScalar(&fr.sbuf, f, v, isBool), pv.Interface()); err != nil {
					return fmt.Errorf("argument %d: %w", i, err)
				}
			} else {
				n, err = dec.UnmarshalFirst(b, pv.Interface())
				if err != nil {
					return fmt.Errorf("argument %d: %w", i, err)
				}
			}
			fr.in[2+i] = pv.Elem()
			off += n
		}
	}
	var err error
	if m.direct != nil {
		err = m.direct(ctx, from, fr.in[2:])
	} else if out := m.fn.Call(fr.in); m.ret && !out[0].IsNil() {
		err = out[0].Interface().(error)
	}
	return err
}

// directCall returns a call of handler that takes its arguments from the
// decoded values and calls it as a typed function, for handlers of no
// argument or one of a common type: reflect.Value.Call was half of a
// host's handling of such a call (BenchmarkHostReceive). nil for other
// handlers, which invoke calls through reflect.
func directCall(handler any) func(context.Context, PeerID, []reflect.Value) error {
	switch fn := handler.(type) {
	case func(context.Context, PeerID):
		return func(ctx context.Context, from PeerID, _ []reflect.Value) error { fn(ctx, from); return nil }
	case func(context.Context, PeerID) error:
		return func(ctx context.Context, from PeerID, _ []reflect.Value) error { return fn(ctx, from) }
	}
	for _, typed := range [...]func(any) func(context.Context, PeerID, []reflect.Value) error{
		directCall1[bool], directCall1[int], directCall1[int32], directCall1[int64],
		directCall1[float32], directCall1[float64], directCall1[string], directCall1[[]byte],
	} {
		if c := typed(handler); c != nil {
			return c
		}
	}
	return nil
}

// directCall1 is directCall for a handler of one argument of type T.
func directCall1[T any](handler any) func(context.Context, PeerID, []reflect.Value) error {
	switch fn := handler.(type) {
	case func(context.Context, PeerID, T):
		return func(ctx context.Context, from PeerID, args []reflect.Value) error {
			fn(ctx, from, *args[0].Addr().Interface().(*T))
			return nil
		}
	case func(context.Context, PeerID, T) error:
		return func(ctx context.Context, from PeerID, args []reflect.Value) error {
			return fn(ctx, from, *args[0].Addr().Interface().(*T))
		}
	}
	return nil
}

// callFrame holds what a call of a handler needs, reused between calls:
// the argument list and a value for each parameter whose type holds no
// pointers (so that the handler cannot keep a reference to it).
type callFrame struct {
	in      []reflect.Value
	ctx     reflect.Value    // *context.Context
	from    reflect.Value    // *PeerID
	ctxp    *context.Context // ctx's pointer, set without reflect's checks
	fromp   *PeerID          // from's
	holders []reflect.Value
	sbuf    [12]byte
}

// instance returns the node at path p that pattern node n stands for.
func (n *node) instance(p string) *node {
	c := *n
	c.path = p
	c.cacheID = 0
	if n.authority == OwnerAuthority {
		c.authority = ownerFromPath(n.path, p)
	}
	return &c
}
