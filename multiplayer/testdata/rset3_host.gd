extends SceneTree
# Godot 3 host (WebSocketServer or NetworkedMultiplayerENet) for gdvar's
# rset interop test (multiplayer/rset_godot3_test.go).
# Arguments: PORT [enet COMPRESSION_MODE]
#
# 1. listens on PORT and prints LISTENING;
# 2. when a client connects, rsets pos = (5, 6) on it (puppet: the host is
#    the master) with rset_id, and hp = 77 with rset_unreliable_id;
# 3. prints each property a client sets on /root/Game (its setters), and
#    when nick is set prints pos (a puppet variable, which a client may not
#    set on its master), DONE, and quits; quit(1) after 20 s.

class Game extends Node:
	remote var score = 0 setget set_score
	puppet var pos = Vector2()
	master var nick = "" setget set_nick
	remote var hp = 0

	func set_score(v):
		score = v
		print("OK score ", v, " from ", get_tree().get_rpc_sender_id())

	func set_nick(v):
		nick = v
		print("OK nick ", v, " from ", get_tree().get_rpc_sender_id())
		print("OK pos still ", pos)
		print("DONE")
		get_tree().quit(0)

var game = Game.new()
var server
var deadline = 0

func _init():
	var args = []
	var after = false
	for a in OS.get_cmdline_args():
		if after:
			args.append(a)
		elif a.ends_with(".gd"):
			after = true
	game.name = "Game"
	get_root().add_child(game)
	connect("network_peer_connected", self, "_on_peer")
	var err
	if args.size() > 2 and args[1] == "enet":
		server = NetworkedMultiplayerENet.new()
		server.compression_mode = int(args[2])
		err = server.create_server(int(args[0]))
	else:
		server = WebSocketServer.new()
		err = server.listen(int(args[0]), PoolStringArray(), true)
	if err != OK:
		print("FAIL listen: %d" % err)
		quit(1)
		return
	network_peer = server
	deadline = OS.get_ticks_msec() + 20000
	print("LISTENING")

func _on_peer(id):
	game.rset_id(id, "pos", Vector2(5, 6))
	game.rset_unreliable_id(id, "hp", 77)

func _idle(_delta):
	if OS.get_ticks_msec() > deadline:
		print("FAIL timed out")
		quit(1)
	return false
