extends SceneTree
# Runs lobby4.gd without a game, for trying the server out:
#   godot4 --headless --script demo4.gd -- [URL] [NAME] [SECONDS]
# (defaults: ws://127.0.0.1:9090 player4 30). It joins, says hello, moves,
# prints what happens in the lobby, and leaves when another player says
# something, or after SECONDS.

const Lobby = preload("lobby4.gd")
var lobby
var my_name := ""
var end_at := 0

func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var url: String = args[0] if args.size() > 0 else "ws://127.0.0.1:9090"
	my_name = args[1] if args.size() > 1 else "player4"
	var seconds := float(args[2]) if args.size() > 2 else 30.0
	lobby = Lobby.new()
	lobby.name = "Lobby"
	root.add_child(lobby)
	lobby.roster_received.connect(_on_roster)
	lobby.player_joined.connect(func(id, n): print("joined %d %s" % [id, n]))
	lobby.player_left.connect(func(id): print("left %d" % id))
	lobby.player_said.connect(_on_said)
	lobby.player_moved.connect(func(id, pos): print("moved %d %d %d" % [id, pos.x, pos.y]))
	get_multiplayer().server_disconnected.connect(_on_disconnected)
	end_at = Time.get_ticks_msec() + int(seconds * 1000)
	# The node enters the tree only once the main loop runs.
	_join.call_deferred(url)

func _join(url: String) -> void:
	if lobby.join_server(url, my_name) != OK:
		print("cannot connect to ", url)
		quit(1)

func _on_roster(players: Dictionary) -> void:
	var names := []
	for p in players.values():
		names.append(p["name"])
	print("in as %d; here: %s" % [get_multiplayer().get_unique_id(), ", ".join(names)])
	lobby.chat("hello from Godot %s" % Engine.get_version_info().string)
	lobby.walk(Vector2(3, 4))

func _on_disconnected() -> void:
	print("disconnected")
	quit(1)

func _on_said(id: int, text: String) -> void:
	print("said %d %s" % [id, text])
	if id != get_multiplayer().get_unique_id():
		print("bye")
		quit(0)

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > end_at:
		print("time is up")
		quit(0)
	return false
