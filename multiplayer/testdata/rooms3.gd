extends SceneTree
# Godot 3 client for gdvar's rooms interop test (multiplayer/rooms_godot_test.go).
# Arguments: PORT
#
# Joins 127.0.0.1:PORT over ENet (NetworkedMultiplayerENet); calls
# /root/Relay.chat on every other client of its room, through the host's
# relay; prints each peer it learns of and what each says; when the host
# disconnects it (a drain), prints "OK disconnected" and quits(0).
# quit(1) after 40 s.

class Relay extends Node:
	signal said(from, text)

	remote func chat(text):
		emit_signal("said", get_tree().get_rpc_sender_id(), text)

var relay = Relay.new()
var client = NetworkedMultiplayerENet.new()
var deadline = 0

func _init():
	var args = []
	var after = false
	for a in OS.get_cmdline_args():
		if after:
			args.append(a)
		elif a.ends_with(".gd"):
			after = true
	relay.name = "Relay"
	get_root().add_child(relay)
	relay.connect("said", self, "_on_said")
	connect("network_peer_connected", self, "_on_peer")
	connect("connected_to_server", self, "_on_connected")
	connect("server_disconnected", self, "_on_disconnected")
	connect("connection_failed", self, "_on_failed")
	client.create_client("127.0.0.1", int(args[0]))
	network_peer = client
	deadline = OS.get_ticks_msec() + 40000

func _on_connected():
	print("OK id ", get_network_unique_id())

func _on_peer(id):
	print("OK peer ", id)
	if id != 1:
		relay.rpc_id(id, "chat", "hi from %d" % get_network_unique_id())

func _on_said(from, text):
	print("OK said ", from, " ", text)

func _on_failed():
	print("REFUSED")
	quit(0)

func _on_disconnected():
	print("OK disconnected")
	quit(0)

func _idle(_delta):
	if OS.get_ticks_msec() > deadline:
		print("FAIL timed out")
		quit(1)
	return false
