extends SceneTree
# A Godot 4 client that is the authority of a MultiplayerSpawner and of
# MultiplayerSynchronizers, for gdvar's replication capture
# (multiplayer/replication_godot4_test.go). Arguments: PORT
#
# Joins ws://127.0.0.1:PORT, then builds (all in code) and owns:
#   /root/Main            Node
#   /root/Main/Players    Node2D, the spawn path
#   /root/Main/Spawner    MultiplayerSpawner, spawn_path ../Players,
#                         spawnable scene 0 = user://player.tscn, and a
#                         spawn_function for custom spawns
#   /root/Main/World      Node2D, with World/Sync (not spawned: named by its
#                         path cache id) syncing .:position always
# The player scene (PackedScene.pack of a Node2D with replication4_player.gd)
# has ServerSync (.:position spawn + always, .:hp spawn + on change,
# .:label on change) and InputSync (.:direction spawn + always).
# Frame by frame (the engine sends replication once per frame):
#   1      spawns P1 at (10, 20) (SPAWN scene 0) and a custom "Bullet"
#          (SPAWN 0xFF, argument {"speed": 3})
#   2..    moves P1 by (1, 0) and World by (0, 2) each frame (SYNC)
#   6      direction = (0.5, -1)
#   8      hp = 99 (DELTA, mask 1)
#   12     label = "moved" (DELTA, mask 2)
#   16     frees P1 and the Bullet (DESPAWN)
#   17..39 moves World only (its SYNC names World/Sync by path cache id
#          once the host confirmed the path)
#   40     prints DONE and quits. quit(1) on a failure or after 20 s.

const PlayerScene = preload("replication4_scene.gd")
const SCENE := PlayerScene.SCENE
var peer := WebSocketMultiplayerPeer.new()
var deadline := 0
var frame := -1
var main: Node
var players: Node2D
var spawner: MultiplayerSpawner
var world: Node2D
var player: Node2D
var bullet: Node

func _initialize() -> void:
	var port := int(OS.get_cmdline_user_args()[0])
	main = Node.new()
	main.name = "Main"
	players = Node2D.new()
	players.name = "Players"
	main.add_child(players)
	spawner = MultiplayerSpawner.new()
	spawner.name = "Spawner"
	main.add_child(spawner)
	world = Node2D.new()
	world.name = "World"
	main.add_child(world)
	var ws := MultiplayerSynchronizer.new()
	ws.name = "Sync"
	ws.root_path = NodePath("..")
	var wc := SceneReplicationConfig.new()
	wc.add_property(NodePath(".:position"))
	wc.property_set_spawn(NodePath(".:position"), false)
	wc.property_set_replication_mode(NodePath(".:position"), SceneReplicationConfig.REPLICATION_MODE_ALWAYS)
	ws.replication_config = wc
	world.add_child(ws)
	get_multiplayer().connected_to_server.connect(_on_connected)
	get_multiplayer().connection_failed.connect(func(): _fail("connection failed"))
	get_multiplayer().server_disconnected.connect(func(): _fail("server disconnected"))
	var err := peer.create_client("ws://127.0.0.1:%d" % port)
	if err != OK:
		_fail("create_client: %d" % err)
		return
	get_multiplayer().multiplayer_peer = peer
	deadline = Time.get_ticks_msec() + 20000

func _fail(why: String) -> void:
	print("FAIL ", why)
	quit(1)

func _spawn_bullet(data: Variant) -> Node:
	var n := Node2D.new()
	n.name = "Bullet"
	n.set_meta("speed", data["speed"])
	return n

func _on_connected() -> void:
	var id := get_multiplayer().get_unique_id()
	print("OK connected id=", id)
	var err := PlayerScene.save()
	if err != OK:
		_fail("player scene: %d" % err)
		return
	root.add_child(main)
	main.set_multiplayer_authority(id)
	spawner.spawn_path = NodePath("../Players")
	spawner.add_spawnable_scene(SCENE)
	spawner.spawn_function = _spawn_bullet
	frame = 0

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > deadline:
		_fail("timed out at frame %d" % frame)
		return false
	if frame < 0:
		return false
	frame += 1
	var id := get_multiplayer().get_unique_id()
	if frame == 1:
		player = (load(SCENE) as PackedScene).instantiate()
		player.name = "P1"
		player.position = Vector2(10, 20)
		player.set_multiplayer_authority(id)
		players.add_child(player)
		bullet = spawner.spawn({"speed": 3})
		if bullet == null:
			_fail("custom spawn")
		print("OK spawned ", player.get_path(), " ", bullet.get_path())
	elif frame < 16:
		player.position += Vector2(1, 0)
		world.position += Vector2(0, 2)
		if frame == 6:
			player.direction = Vector2(0.5, -1)
		if frame == 8:
			player.hp = 99
		if frame == 12:
			player.label = "moved"
	elif frame == 16:
		player.queue_free()
		bullet.queue_free()
		print("OK freed")
	elif frame < 40:
		world.position += Vector2(0, 2)
	else:
		print("DONE world at ", world.position)
		quit(0)
	return false
