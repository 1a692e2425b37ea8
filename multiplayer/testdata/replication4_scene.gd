# The player scene of replication4.gd and replication4_recv.gd, built in
# code and saved to SCENE: a Node2D with replication4_player.gd and two
# MultiplayerSynchronizers with root "..": ServerSync (.:position spawn +
# always, .:hp spawn + on change, .:label on change) and InputSync
# (.:direction spawn + always).

const PlayerScript = preload("replication4_player.gd")
const SCENE := "user://player.tscn"

static func sync_node(name: String, props: Array) -> MultiplayerSynchronizer:
	var s := MultiplayerSynchronizer.new()
	s.name = name
	s.root_path = NodePath("..")
	var c := SceneReplicationConfig.new()
	for p in props:
		var path := NodePath(p[0])
		c.add_property(path)
		c.property_set_spawn(path, p[1])
		c.property_set_replication_mode(path, p[2])
	s.replication_config = c
	return s

# save builds the player scene and saves it to SCENE; an Error.
static func save() -> int:
	var p := Node2D.new()
	p.name = "Player"
	p.set_script(PlayerScript)
	var a := sync_node("ServerSync", [
		[".:position", true, SceneReplicationConfig.REPLICATION_MODE_ALWAYS],
		[".:hp", true, SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE],
		[".:label", false, SceneReplicationConfig.REPLICATION_MODE_ON_CHANGE]])
	var b := sync_node("InputSync", [
		[".:direction", true, SceneReplicationConfig.REPLICATION_MODE_ALWAYS]])
	p.add_child(a)
	p.add_child(b)
	a.owner = p
	b.owner = p
	var packed := PackedScene.new()
	var err := packed.pack(p)
	p.free()
	if err != OK:
		return err
	return ResourceSaver.save(packed, SCENE)
