extends SceneTree
# Godot 3 client for gdvar's relay interop test (multiplayer/godot3_test.go).
# Arguments: PORT NAME [enet COMPRESSION_MODE]
#
# Joins ws://127.0.0.1:PORT (or 127.0.0.1:PORT over ENet); when another client joins (or is already
# there), calls /root/Relay.chat on it (relayed by the host); prints what
# the other client says, DONE, and quits. quit(1) after 20 s.

class Relay extends Node:
	signal said(from, text)

	remote func chat(text):
		emit_signal("said", get_tree().get_rpc_sender_id(), text)

var relay = Relay.new()
var client
var deadline = 0
var my_name = ""
var done = false

func _init():
	var args = []
	var after = false
	for a in OS.get_cmdline_args():
		if after:
			args.append(a)
		elif a.ends_with(".gd"):
			after = true
	my_name = args[1]
	relay.name = "Relay"
	get_root().add_child(relay)
	relay.connect("said", self, "_on_said")
	connect("network_peer_connected", self, "_on_peer")
	if args.size() > 3 and args[2] == "enet":
		client = NetworkedMultiplayerENet.new()
		client.compression_mode = int(args[3])
		client.create_client("127.0.0.1", int(args[0]))
	else:
		client = WebSocketClient.new()
		client.connect_to_url("ws://127.0.0.1:%s" % args[0], PoolStringArray(), true)
	network_peer = client
	deadline = OS.get_ticks_msec() + 20000

func _on_peer(id):
	if id != 1:
		relay.rpc_id(id, "chat", "hi from " + my_name)

func _on_said(from, text):
	print("OK said ", from, " ", text)
	# Stay a moment so that the other side hears us too.
	deadline = OS.get_ticks_msec() + 500
	done = true

func _idle(_delta):
	if OS.get_ticks_msec() > deadline:
		if done:
			print("DONE")
			quit(0)
		else:
			print("FAIL timed out")
			quit(1)
	return false
