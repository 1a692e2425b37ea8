extends SceneTree
# Godot 4 client for gdvar's relay interop test (multiplayer/godot4_test.go).
# Arguments: PORT EXPECT
#
# Joins ws://127.0.0.1:PORT; calls /root/Relay.chat, through the host's
# relay, on every other client there is or that joins later (another Godot
# client, a Go client); prints what each says to it, and once EXPECT
# different clients have spoken, stays half a second (so that the others
# hear it too), prints DONE and quits. quit(1) after 20 s.

class Relay extends Node:
	signal said(from: int, text: String)

	@rpc("any_peer", "reliable")
	func chat(text: String) -> void:
		said.emit(multiplayer.get_remote_sender_id(), text)

var relay := Relay.new()
var peer := WebSocketMultiplayerPeer.new()
var deadline := 0
var expect := 1
var heard := {}
var done := false

func _initialize() -> void:
	relay.name = "Relay"
	root.add_child(relay)
	relay.said.connect(_on_said)
	get_multiplayer().peer_connected.connect(_on_peer)
	var args := OS.get_cmdline_user_args()
	if args.size() > 1:
		expect = int(args[1])
	if peer.create_client("ws://127.0.0.1:%s" % args[0]) != OK:
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
	heard[from] = true
	if heard.size() >= expect and not done:
		done = true
		deadline = Time.get_ticks_msec() + 500

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > deadline:
		if done:
			print("DONE")
			quit(0)
		else:
			print("FAIL timed out")
			quit(1)
	return false
