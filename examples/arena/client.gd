extends SceneTree

# An arena client without a game around it: joins the server, walks in one
# direction and prints what it sees, one line per event:
#   id ID | spawned NAME X Y HP | see NAME X Y HP | despawned NAME
#
#   godot --path . --script client.gd -- URL [DX DY] [QUIT_AFTER]
#
# QUIT_AFTER, when given, says when to leave: "players:N" once N players
# were seen at once (then after 2 more seconds), "despawn" once a player
# other than itself despawned, or a number of seconds.

var peer := WebSocketMultiplayerPeer.new()
var main: Node
var players: Node
var direction := Vector2()
var quit_after := ""
var started := 0.0
var done_at := -1.0
var last_print := 0.0
var most := 0
var leaving := false


func _initialize():
	var args := OS.get_cmdline_user_args()
	if args.size() < 1:
		printerr("usage: client.gd -- URL [DX DY] [QUIT_AFTER]")
		quit(2)
		return
	if args.size() >= 3:
		direction = Vector2(args[1].to_float(), args[2].to_float())
		Engine.set_meta("arena_direction", true)
	if args.size() >= 4:
		quit_after = args[3]
	main = load("res://main.tscn").instantiate()
	root.add_child(main)
	players = main.get_node("Players")
	var spawner: MultiplayerSpawner = main.get_node("Spawner")
	spawner.spawned.connect(_on_spawned)
	spawner.despawned.connect(_on_despawned)
	started = _now()
	# The scene enters the tree only once the main loop runs.
	_join.call_deferred(args[0])


func _join(url: String):
	var err := peer.create_client(url)
	if err != OK:
		printerr("cannot connect to ", url, ": ", err)
		quit(3)
		return
	get_multiplayer().multiplayer_peer = peer
	get_multiplayer().connected_to_server.connect(func(): print("id ", get_multiplayer().get_unique_id()))
	get_multiplayer().server_disconnected.connect(_on_server_gone)


func _on_server_gone():
	if not leaving:
		print("server gone")
		quit(4)


func _on_spawned(n: Node):
	print("spawned %s %s %s %d" % [n.name, n.position.x, n.position.y, n.hp])


func _on_despawned(n: Node):
	print("despawned ", n.name)
	if quit_after == "despawn" and str(n.name).to_int() != get_multiplayer().get_unique_id() and done_at < 0:
		done_at = _now() + 0.5


func _now() -> float:
	return Time.get_ticks_msec() / 1000.0


func _process(_delta):
	var me := players.get_node_or_null(str(get_multiplayer().get_unique_id()))
	if me != null and Engine.has_meta("arena_direction"):
		me.direction = direction
	var now := _now()
	if now - last_print >= 0.25:
		last_print = now
		for p in players.get_children():
			print("see %s %s %s %d" % [p.name, p.position.x, p.position.y, p.hp])
	most = max(most, players.get_child_count())
	if done_at < 0:
		if quit_after.begins_with("players:") and most >= quit_after.substr(8).to_int():
			done_at = now + 2.0
		elif quit_after.is_valid_float() and now - started >= quit_after.to_float():
			done_at = now
	if done_at >= 0 and now >= done_at and not leaving:
		leaving = true
		print("leaving")
		peer.close()
		quit(0)
	return false
