extends SceneTree
# Runs lobby3.gd without a game, for trying the server out:
#   godot3 --no-window --script demo3.gd [URL] [NAME] [SECONDS]
# (or godot3-server --script …; defaults: ws://127.0.0.1:9090 player3 30).
# It joins, says hello, moves, prints what happens in the lobby, and leaves
# when another player says something, or after SECONDS.

const Lobby = preload("lobby3.gd")
var lobby
var end_at = 0
var done = false

func _init():
	var args = []
	var after = false
	for a in OS.get_cmdline_args():
		if after:
			args.append(a)
		elif a.ends_with(".gd"):
			after = true
	var url = args[0] if args.size() > 0 else "ws://127.0.0.1:9090"
	var player_name = args[1] if args.size() > 1 else "player3"
	var seconds = float(args[2]) if args.size() > 2 else 30.0
	lobby = Lobby.new()
	lobby.name = "Lobby"
	get_root().add_child(lobby)
	lobby.connect("roster_received", self, "_on_roster")
	lobby.connect("player_joined", self, "_on_joined")
	lobby.connect("player_left", self, "_on_left")
	lobby.connect("player_said", self, "_on_said")
	lobby.connect("player_moved", self, "_on_moved")
	connect("server_disconnected", self, "_finish", ["disconnected", 1])
	if lobby.join_server(url, player_name) != OK:
		_finish("cannot connect to " + url, 1)
	end_at = OS.get_ticks_msec() + int(seconds * 1000)

func _on_roster(players):
	var names = []
	for p in players.values():
		names.append(p["name"])
	print("in as %d; here: %s" % [get_network_unique_id(), PoolStringArray(names).join(", ")])
	lobby.chat("hello from Godot %s" % Engine.get_version_info().string)
	lobby.walk(Vector2(3, 4))

func _on_joined(id, player_name):
	print("joined %d %s" % [id, player_name])

func _on_left(id):
	print("left %d" % id)

func _on_said(id, text):
	print("said %d %s" % [id, text])
	if id != get_network_unique_id():
		_finish("bye", 0)

func _on_moved(id, pos):
	print("moved %d %d %d" % [id, pos.x, pos.y])

func _finish(why, code):
	if done:
		return
	done = true
	print(why)
	quit(code)

func _idle(_delta):
	if not done and OS.get_ticks_msec() > end_at:
		_finish("time is up", 0)
	return false
