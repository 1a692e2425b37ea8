// Package peer exchanges Godot Variants over the network with the peers a
// Godot game or tool uses: StreamPeerTCP (TCP), PacketPeerUDP (UDP) and
// WebSocketPeer (WebSocket), for both engine families. Limits: a value is
// at most Options.MaxSize (8 MiB by default); servers cap connections (1024)
// and connections per address (64), idle, frame and write times, and the
// memory of frames being received (64 MiB per listener); TLS comes from your
// own net/http server or net.Conn; WebRTC is not implemented. A Poller,
// which serves many server WebSocket connections from a goroutine per
// core, needs Linux.
//
// Each transport frames values as the engine's peer of the same kind does:
//
//	transport   Godot peer                     one value on the wire
//	TCP         StreamPeerTCP put_var/get_var  i32 length (little-endian unless BigEndian) + payload
//	UDP         PacketPeerUDP put_var/get_var  one datagram = the payload
//	WebSocket   WebSocketPeer put_var/get_var  one binary message = the payload
//
// The payload is the value's var_to_bytes encoding (Godot 3: var2bytes).
// PacketPeerStream over a StreamPeerTCP writes the same bytes as
// StreamPeerTCP.put_var, so it talks to DialTCP and ListenTCP too.
//
// A Conn is one connection: DialTCP, DialUDP and DialWebSocket make one;
// ListenTCP and ListenWebSocket return a Listener whose Accept yields them;
// UpgradeWebSocket turns a request of an existing net/http server into
// one; NewConn wraps any other stream connection (a tls.Conn, for
// StreamPeerTLS). A UDP server uses a PacketConn (ListenUDP), which reads
// and writes values of many peers, each with its address.
//
// # Go values, Variants and payloads
//
// Encode and Decode carry any Go value, as encoding/json's Encoder and
// Decoder do and as gdvar.Marshal and gdvar.Unmarshal map them: a struct
// is a Dictionary keyed by its field names or gdvar tags, a slice an
// Array or packed array, a map a Dictionary, a variant.Value itself.
// They encode for the connection's engine family (Options.Godot), target
// version and precision (Options.Enc), and decode with its limits
// (Options.Dec), so a struct sent on a Godot 3 connection is what a Godot
// 3 game's get_var reads:
//
//	type Move struct {
//		Player string          `gdvar:"player"`
//		To     variant.Vector2 `gdvar:"to"`
//	}
//
//	c, err := peer.DialTCP(ctx, addr, peer.Options{Godot: variant.Godot3})
//	err = c.Encode(Move{Player: "ada", To: variant.Vector2{X: 3, Y: 4}})
//	var m Move
//	err = c.Decode(&m) // the game's put_var({"player": "bo", "to": Vector2(1, 2)})
//
// ReadValue and WriteValue carry variant.Value as it is; ReadPayload and
// WritePayload carry encoded payloads. A PacketConn has the same methods
// with the peer's address (DecodeFrom, EncodeTo, …). A payload that does
// not decode, or whose value does not fit the Go value, is reported as a
// *frame.Error whose Offset is the frame's offset in the connection's
// input and whose Err is the *variant.Error (the *gdvar.Error for Decode);
// the connection stays usable and the next read returns the next value. A frame larger than Options.MaxSize (8 MiB by default,
// the engine's PacketPeer limit) is refused before anything is allocated,
// with a *frame.Error wrapping frame.ErrTooLarge. Over TCP the stream is
// then out of step and every later read fails; a WebSocket connection is
// closed with status 1009 (message too big); over UDP the datagram is
// dropped and the next read goes on.
//
// When the peer closes cleanly, reads return io.EOF; when the connection
// ends inside a frame they return an error matching io.ErrUnexpectedEOF.
//
// # Server limits
//
// A server faces clients it does not control. The connections a Listener
// or an Upgrader accepts are bounded by default (see Options; a negative
// value turns a limit off):
//
//	limit          default        what happens
//	MaxConns       1024           more connections are refused as soon as they are accepted
//	MaxConnsPerIP  64             more from one IP address too, checked before MaxConns
//	IdleTimeout    5 minutes      a read that gets no byte for so long closes the connection (ErrIdleTimeout)
//	FrameTimeout   1 minute       a frame not whole so long after its first byte closes it (ErrFrameTimeout)
//	WriteTimeout   1 minute       a write the peer does not take in so long closes it (ErrWriteTimeout)
//	BufferBudget   64 MiB         frames being received on all connections hold at most this (frame.ErrBudget)
//
// Frame buffers grow with the bytes that arrive, never with the length a
// prefix claims, and are reserved from the budget before they are
// allocated. A connection that meets a limit is closed at once, with a
// WebSocket close frame that says why (status 1008 and the reason: a
// timeout, or "server busy" when the budget is spent), and its read
// returns the error. Dialled connections
// have no idle, frame or write timeout unless Options sets one.
//
// # Concurrency
//
// A Conn or PacketConn supports one reader and any number of writers at
// the same time:
//
//   - ReadValue and ReadPayload (ReadValueFrom and ReadPayloadFrom) must be
//     called from one goroutine at a time. The slice ReadPayload returns is
//     valid until the next read.
//   - WriteValue and WritePayload (WriteValueTo, WritePayloadTo) may be
//     called from several goroutines: writes are serialized and each value
//     goes out whole.
//   - Close, the deadline setters and the address getters may be called at
//     any time from any goroutine. Close unblocks a pending read or write.
//
// # Deadlines and contexts
//
// The Dial and Listen functions and Listener.Accept take a context that
// bounds the wait. Reads and writes follow the deadlines set with
// SetDeadline, SetReadDeadline and SetWriteDeadline, as a net.Conn does;
// an expired deadline gives an error matching os.ErrDeadlineExceeded. Over
// TCP and UDP a read that timed out can be retried after a new deadline is
// set: a frame that was half read is resumed. A WebSocket connection whose
// read timed out is broken, as the underlying library documents.
//
// # WebSocket
//
// The WebSocket side uses github.com/gorilla/websocket. Every value is one
// binary message; text messages are read too (a Godot 3 WebSocketPeer in
// text write mode sends them), but as RFC 6455 requires, a text message
// that is not valid UTF-8 fails the connection with status 1007
// (ErrInvalidUTF8): a value sent in text mode only gets through when its
// encoding happens to be valid UTF-8. Note that Godot's WebSocketPeer has its own
// limits: Godot 4's inbound_buffer_size and outbound_buffer_size default to
// 64 KiB, so a game that exchanges larger values must raise them.
//
// A browser (a game exported for the web) sends an Origin header; by
// default only requests without one (native games) or from the server's
// own host are accepted, and WebSocketOptions.Origins lists more.
package peer
