extends SceneTree
# Runs client3.gd without a game, for trying the server out:
#   godot3 --no-window --script demo3.gd [HOST] [PORT] [NAME] [SECONDS]
# (or godot3-server --script …; defaults: 127.0.0.1 9090 player3 30). It
# joins, says hello, moves, prints what happens in the lobby, and leaves
# when another player says something, or after SECONDS.

const ChatClient = preload("client3.gd")

var client


func _init():
	# The arguments after the script's name.
	var args = []
	var after_script = false
	for a in OS.get_cmdline_args():
		if after_script:
			args.append(a)
		elif a.ends_with(".gd"):
			after_script = true
	var host = args[0] if args.size() > 0 else "127.0.0.1"
	var port = int(args[1]) if args.size() > 1 else 9090
	var player_name = args[2] if args.size() > 2 else "player3"
	var seconds = float(args[3]) if args.size() > 3 else 30.0
	client = ChatClient.new()
	get_root().add_child(client)
	client.connect("joined", self, "_on_joined")
	client.connect("player_joined", self, "_on_player_joined")
	client.connect("player_left", self, "_on_player_left")
	client.connect("player_moved", self, "_on_player_moved")
	client.connect("said", self, "_on_said")
	client.connect("server_error", self, "_on_server_error")
	client.connect("disconnected", self, "_on_disconnected")
	var err = client.connect_to_server(host, port, player_name)
	if err != OK:
		print("cannot connect to %s:%d: error %d" % [host, port, err])
		quit(1)
		return
	create_timer(seconds).connect("timeout", self, "_on_time_up")


func _on_joined(id, players):
	var names = []
	for p in players.values():
		names.append(p["name"])
	print("joined as %d; here: %s" % [id, PoolStringArray(names).join(", ")])
	client.say("hello from Godot %s" % Engine.get_version_info().string)
	client.move(Vector2(3, 4))


func _on_player_joined(id, who):
	print("%s joined (%d)" % [who, id])


func _on_player_left(id):
	print("player %d left" % id)


func _on_player_moved(id, pos):
	print("player %d moved to %s" % [id, pos])


func _on_said(id, who, text):
	print("%s: %s" % [who, text])
	if id != client.my_id:
		client.leave()


func _on_server_error(message):
	print("server error: ", message)


func _on_disconnected():
	print("disconnected")
	quit(0 if client.my_id != 0 else 1)


func _on_time_up():
	print("time is up")
	client.leave()
