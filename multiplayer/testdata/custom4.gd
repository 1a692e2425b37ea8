extends SceneTree
# A Godot 4 client of a Go host that spawns through a custom spawn
# (multiplayer/replication_model_godot4_test.go). Arguments: PORT
#
# Builds /root/Main with Mobs (Node2D) and Spawner (MultiplayerSpawner,
# spawn_path ../Mobs, spawn_function: a Node2D with a Sync child syncing
# .:position, spawn + always, that remembers arg.kind). Prints:
#   spawned NAME KIND X Y | mob NAME X Y (when it moves) | despawned NAME
# and DONE after the first despawn; quit(1) after 20 s.

var peer := WebSocketMultiplayerPeer.new()
var mobs: Node2D
var seen := {}
var end_at := 0


func _make(arg):
	var mob := Node2D.new()
	mob.set_meta("kind", arg["kind"])
	var sync := MultiplayerSynchronizer.new()
	sync.name = "Sync"
	var cfg := SceneReplicationConfig.new()
	cfg.add_property(NodePath(".:position"))
	sync.replication_config = cfg
	sync.root_path = NodePath("..")
	mob.add_child(sync)
	return mob


func _initialize():
	var main := Node.new()
	main.name = "Main"
	mobs = Node2D.new()
	mobs.name = "Mobs"
	main.add_child(mobs)
	var spawner := MultiplayerSpawner.new()
	spawner.name = "Spawner"
	spawner.spawn_function = _make
	main.add_child(spawner)
	spawner.spawn_path = NodePath("../Mobs")
	spawner.spawned.connect(func(n): print("spawned %s %s %s %s" % [n.name, n.get_meta("kind"), n.position.x, n.position.y]))
	spawner.despawned.connect(_on_despawned)
	root.add_child(main)
	end_at = Time.get_ticks_msec() + 20000
	_join.call_deferred("ws://127.0.0.1:" + OS.get_cmdline_user_args()[0])


func _join(url: String):
	if peer.create_client(url) != OK:
		print("cannot connect")
		quit(1)
		return
	get_multiplayer().multiplayer_peer = peer


func _on_despawned(n):
	print("despawned ", n.name)
	print("DONE")
	peer.close()
	quit(0)


func _process(_delta):
	for m in mobs.get_children():
		if seen.get(m.name) != m.position:
			seen[m.name] = m.position
			print("mob %s %s %s" % [m.name, m.position.x, m.position.y])
	if Time.get_ticks_msec() > end_at:
		print("time is up")
		quit(1)
	return false
