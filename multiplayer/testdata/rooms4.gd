extends SceneTree
# Godot 4 client for gdvar's rooms interop test (multiplayer/rooms_godot_test.go).
# Arguments: URL
#
# Joins URL (ws://127.0.0.1:PORT/ROOM); calls /root/Relay.chat on every
# other client of its room, through the host's relay; prints each peer it
# learns of and what each says; when the host disconnects it (a drain),
# prints the WebSocket close code and reason and quits(0). A refused
# join prints REFUSED with the close code and reason and quits(0).
# quit(1) after 40 s.

class Relay extends Node:
	signal said(from: int, text: String)

	@rpc("any_peer", "reliable")
	func chat(text: String) -> void:
		said.emit(multiplayer.get_remote_sender_id(), text)

var relay := Relay.new()
var peer := WebSocketMultiplayerPeer.new()
var ws: WebSocketPeer
var deadline := 0

func _initialize() -> void:
	relay.name = "Relay"
	root.add_child(relay)
	relay.said.connect(_on_said)
	var mp := get_multiplayer()
	mp.peer_connected.connect(_on_peer)
	mp.connected_to_server.connect(_on_connected)
	mp.connection_failed.connect(_on_failed)
	mp.server_disconnected.connect(_on_disconnected)
	var args := OS.get_cmdline_user_args()
	if peer.create_client(args[0]) != OK:
		print("FAIL create_client")
		quit(1)
		return
	# The connection to the host, kept to read its close code.
	ws = peer.get_peer(1)
	mp.multiplayer_peer = peer
	deadline = Time.get_ticks_msec() + 40000

func _on_connected() -> void:
	print("OK id ", get_multiplayer().get_unique_id())

func _on_peer(id: int) -> void:
	print("OK peer ", id)
	if id != 1:
		relay.rpc_id(id, "chat", "hi from %d" % get_multiplayer().get_unique_id())

func _on_said(from: int, text: String) -> void:
	print("OK said ", from, " ", text)

func _on_failed() -> void:
	print("REFUSED ", ws.get_close_code(), " ", ws.get_close_reason())
	quit(0)

func _on_disconnected() -> void:
	print("OK disconnected ", ws.get_close_code(), " ", ws.get_close_reason())
	quit(0)

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > deadline:
		print("FAIL timed out")
		quit(1)
	return false
