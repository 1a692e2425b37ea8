extends SceneTree
# Godot 3 client for gdvar's rset interop test (multiplayer/rset_godot3_test.go).
# Arguments: PORT NAME VALUE [enet COMPRESSION_MODE]
#
# Joins ws://127.0.0.1:PORT (or 127.0.0.1:PORT over ENet) with a node
# /root/Game whose variables have rset modes, then:
# 1. rsets on the host: score = VALUE (remote), nick = NAME (master, with
#    rset_unreliable_id) and pos (puppet: the host, the node's master, must
#    refuse it);
# 2. when another client joins (or is there), rsets score = VALUE on every
#    peer with rset (the host and, through its relay, the other client);
# 3. waits until the host has set pos = (5, 6) (puppet: allowed from the
#    master) and hp = 77, and the other client its score; prints each, DONE,
#    and quits. quit(1) after 20 s.

class Game extends Node:
	remote var score = 0 setget set_score
	puppet var pos = Vector2() setget set_pos
	master var nick = ""
	remote var hp = 0 setget set_hp

	func set_score(v):
		score = v
		print("OK score ", v, " from ", get_tree().get_rpc_sender_id())

	func set_pos(v):
		pos = v
		print("OK pos ", v, " from ", get_tree().get_rpc_sender_id())

	func set_hp(v):
		hp = v
		print("OK hp ", v, " from ", get_tree().get_rpc_sender_id())

var game = Game.new()
var client
var deadline = 0
var my_name = ""
var my_value = 0
var other_value = 0

func _init():
	var args = []
	var after = false
	for a in OS.get_cmdline_args():
		if after:
			args.append(a)
		elif a.ends_with(".gd"):
			after = true
	my_name = args[1]
	my_value = int(args[2])
	other_value = 30 - my_value
	game.name = "Game"
	get_root().add_child(game)
	connect("connected_to_server", self, "_on_connected")
	connect("network_peer_connected", self, "_on_peer")
	if args.size() > 4 and args[3] == "enet":
		client = NetworkedMultiplayerENet.new()
		client.compression_mode = int(args[4])
		client.create_client("127.0.0.1", int(args[0]))
	else:
		client = WebSocketClient.new()
		client.connect_to_url("ws://127.0.0.1:%s" % args[0], PoolStringArray(), true)
	network_peer = client
	deadline = OS.get_ticks_msec() + 20000

func _on_connected():
	print("OK connected id=", get_network_unique_id())
	game.rset_id(1, "score", my_value)
	game.rset_unreliable_id(1, "nick", my_name)
	game.rset_id(1, "pos", Vector2(1, 2))

func _on_peer(id):
	if id != 1:
		game.rset("score", my_value)

func _idle(_delta):
	if game.pos == Vector2(5, 6) and game.hp == 77 and game.score == other_value:
		print("DONE")
		quit(0)
	elif OS.get_ticks_msec() > deadline:
		print("FAIL timed out: pos ", game.pos, " hp ", game.hp, " score ", game.score)
		quit(1)
	return false
