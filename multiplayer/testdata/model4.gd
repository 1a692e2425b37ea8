extends SceneTree
# A Godot 4 client of a Go host that owns a synchronizer of the main scene
# (multiplayer/replication_model_godot4_test.go). Arguments: PORT
#
# Builds /root/Main/World (Node2D) with World/Sync (MultiplayerSynchronizer,
# root .., authority the server: .:position always, .:rotation on change),
# joins ws://127.0.0.1:PORT and prints the world as the host moves it:
#   pos X Y   (when it changes)
#   rot R     (when it changes)
# and "DONE" once x reached 10 and rotation is 1.5; quit(1) after 20 s.

var peer := WebSocketMultiplayerPeer.new()
var world: Node2D
var last_pos := Vector2(-1, -1)
var last_rot := -1.0
var end_at := 0


func _initialize():
	var main := Node.new()
	main.name = "Main"
	world = Node2D.new()
	world.name = "World"
	main.add_child(world)
	var sync := MultiplayerSynchronizer.new()
	sync.name = "Sync"
	var cfg := SceneReplicationConfig.new()
	cfg.add_property(NodePath(".:position"))
	cfg.property_set_spawn(NodePath(".:position"), false)
	cfg.property_set_replication_mode(NodePath(".:position"), SceneReplicationConfig.REPLICATION_MODE_ALWAYS)
	cfg.add_property(NodePath(".:rotation"))
	cfg.property_set_spawn(NodePath(".:rotation"), false)
	cfg.property_set_replication_mode(NodePath(".:rotation"), SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE)
	sync.replication_config = cfg
	sync.root_path = NodePath("..")
	world.add_child(sync)
	root.add_child(main)
	end_at = Time.get_ticks_msec() + 20000
	_join.call_deferred("ws://127.0.0.1:" + OS.get_cmdline_user_args()[0])


func _join(url: String):
	if peer.create_client(url) != OK:
		print("cannot connect")
		quit(1)
		return
	get_multiplayer().multiplayer_peer = peer


func _process(_delta):
	if world.position != last_pos:
		last_pos = world.position
		print("pos %s %s" % [last_pos.x, last_pos.y])
	if world.rotation != last_rot:
		last_rot = world.rotation
		print("rot %s" % last_rot)
	if last_pos.x >= 10 and is_equal_approx(last_rot, 1.5):
		print("DONE")
		peer.close()
		quit(0)
	elif Time.get_ticks_msec() > end_at:
		print("time is up")
		quit(1)
	return false
