extends SceneTree
# Godot 4 client for gdvar's relay interop test (multiplayer/godot4_test.go).
# Arguments: PORT
#
# Joins ws://127.0.0.1:PORT; when another client (a Go client) joins,
# calls /root/Relay.chat on it through the host's relay; when that client
# calls chat back, prints what it said, DONE, and quits. quit(1) after 20 s.

class Relay extends Node:
	signal said(from: int, text: String)

	@rpc("any_peer", "reliable")
	func chat(text: String) -> void:
		said.emit(multiplayer.get_remote_sender_id(), text)

var relay := Relay.new()
var peer := WebSocketMultiplayerPeer.new()
var deadline := 0

func _initialize() -> void:
	relay.name = "Relay"
	root.add_child(relay)
	relay.said.connect(_on_said)
	get_multiplayer().peer_connected.connect(_on_peer)
	if peer.create_client("ws://127.0.0.1:%s" % OS.get_cmdline_user_args()[0]) != OK:
		print("FAIL create_client")
		quit(1)
		return
	get_multiplayer().multiplayer_peer = peer
	deadline = Time.get_ticks_msec() + 20000

func _on_peer(id: int) -> void:
	print("OK peer ", id)
	if id != 1:
		relay.rpc_id(id, "chat", "hi from Godot %d" % get_multiplayer().get_unique_id())

func _on_said(from: int, text: String) -> void:
	print("OK said ", from, " ", text)
	print("DONE")
	quit(0)

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > deadline:
		print("FAIL timed out")
		quit(1)
	return false
