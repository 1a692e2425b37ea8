extends SceneTree
# A Godot 4 client that receives replication from the host (peer 1, the
# authority of its MultiplayerSpawner and synchronizers), for gdvar's
# replication test (multiplayer/replication_godot4_test.go). Arguments: PORT
#
# Builds the tree of replication4.gd (/root/Main/Players, /root/Main/Spawner
# with scene 0 = user://player.tscn and a spawn_function) with the host as
# authority, joins ws://127.0.0.1:PORT, sends the host raw bytes when
# connected, then prints what the host's packets do: each spawned node
# (name, position, hp, direction), each change of P1's position, direction,
# hp and label, each despawn. Prints DONE when P1 has position (11, 20),
# direction (0.5, -1), hp 99 and label "moved" and the Bullet is gone;
# quit(1) after 20 s.

const PlayerScene = preload("replication4_scene.gd")
const SCENE := PlayerScene.SCENE
var peer := WebSocketMultiplayerPeer.new()
var deadline := 0
var players: Node2D
var spawner: MultiplayerSpawner
var last := ""
var bullet_gone := false

func _initialize() -> void:
	var port := int(OS.get_cmdline_user_args()[0])
	var main := Node.new()
	main.name = "Main"
	players = Node2D.new()
	players.name = "Players"
	main.add_child(players)
	spawner = MultiplayerSpawner.new()
	spawner.name = "Spawner"
	main.add_child(spawner)
	if PlayerScene.save() != OK:
		_fail("player scene")
		return
	root.add_child(main)
	spawner.spawn_path = NodePath("../Players")
	spawner.add_spawnable_scene(SCENE)
	spawner.spawn_function = _spawn_bullet
	spawner.spawned.connect(_on_spawned)
	spawner.despawned.connect(func(n): print("OK despawned ", n.name); bullet_gone = bullet_gone or n.name == "Bullet")
	get_multiplayer().connected_to_server.connect(func(): get_multiplayer().send_bytes(PackedByteArray([1])))
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
	n.set_meta("speed", data["speed"])
	return n

func _on_spawned(n: Node) -> void:
	if n.name == "Bullet":
		print("OK spawned Bullet speed=", n.get_meta("speed"))
	else:
		print("OK spawned ", n.name, " position=", n.position, " hp=", n.hp, " direction=", n.direction)

func _process(_delta: float) -> bool:
	if Time.get_ticks_msec() > deadline:
		_fail("timed out: " + last)
		return false
	var p := players.get_node_or_null("P1")
	if p == null:
		return false
	var now := "P1 position=%s direction=%s hp=%d label=%s" % [p.position, p.direction, p.hp, p.label]
	if now != last:
		print("OK ", now)
		last = now
	if p.position == Vector2(11, 20) and p.direction == Vector2(0.5, -1) and p.hp == 99 and p.label == "moved" and bullet_gone:
		print("DONE")
		quit(0)
	return false
