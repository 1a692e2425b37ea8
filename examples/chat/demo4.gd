extends SceneTree
# Runs client4.gd without a game, for trying the server out:
#   godot --headless --script demo4.gd -- [URL] [NAME] [SECONDS]
# (defaults: ws://127.0.0.1:9091/ player4 30). It joins, says hello, moves,
# prints what happens in the lobby, and leaves when another player says
# something, or after SECONDS.

const ChatClient = preload("client4.gd")

var client: Node


func _initialize() -> void:
	var args := OS.get_cmdline_user_args()
	var url: String = args[0] if args.size() > 0 else "ws://127.0.0.1:9091/"
	var player_name: String = args[1] if args.size() > 1 else "player4"
	var seconds := float(args[2]) if args.size() > 2 else 30.0
	client = ChatClient.new()
	root.add_child(client)
	client.joined.connect(_on_joined)
	client.player_joined.connect(func(id, who): print("%s joined (%d)" % [who, id]))
	client.player_left.connect(func(id): print("player %d left" % id))
	client.player_moved.connect(func(id, pos): print("player %d moved to %s" % [id, pos]))
	client.said.connect(_on_said)
	client.server_error.connect(func(message): print("server error: ", message))
	client.disconnected.connect(_on_disconnected)
	var err: Error = client.connect_to_server(url, player_name)
	if err != OK:
		print("cannot connect to %s: error %d" % [url, err])
		quit(1)
		return
	create_timer(seconds).timeout.connect(func():
		print("time is up")
		client.leave())


func _on_joined(id: int, players: Dictionary) -> void:
	var names := []
	for p in players.values():
		names.append(p["name"])
	print("joined as %d; here: %s" % [id, ", ".join(names)])
	client.say("hello from Godot %s" % Engine.get_version_info().string)
	client.move(Vector2(3, 4))


func _on_said(id: int, who: String, text: String) -> void:
	print("%s: %s" % [who, text])
	if id != client.my_id:
		client.leave()


func _on_disconnected(code: int) -> void:
	print("disconnected (%d)" % code)
	quit(0 if client.my_id != 0 else 1)
