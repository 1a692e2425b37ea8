# Godot 4.6's own save and load times for the shapes of bench_test.go:
# a 20,000-node scene and a resource of a 262,144-vertex
# PackedVector3Array and 10,000 Dictionaries, in both forms.
# Run: GDVAR_GODOT4WEB_ENGINE=internal/godot4web/.cache/godot node internal/godot4web/run.mjs resource/testdata/bench4.gd
extends SceneTree

func scene() -> PackedScene:
	var root := Node2D.new()
	root.name = "Level"
	var parent: Node = root
	for i in range(1, 20000):
		if i % 10 == 1:
			parent = root
		var n := Node2D.new()
		n.name = "N%d" % i
		n.position = Vector2(i, -i / 4.0)
		n.rotation = i / 1000.0
		n.add_to_group("g%d" % (i % 7), true)
		parent.add_child(n)
		n.owner = root
		if i % 10 == 0:
			n.ready.connect(Callable(root, "set_meta").bind(i), CONNECT_PERSIST)
		parent = n
	var p := PackedScene.new()
	p.pack(root)
	return p

func big() -> Resource:
	var verts := PackedVector3Array()
	verts.resize(1 << 18)
	for i in verts.size():
		verts[i] = Vector3(i, 1, i / 2.0)
	var items := []
	for i in 10000:
		items.append({"id": i, "name": "item%d" % i, "pos": Vector2(i, 2)})
	var r := Resource.new()
	r.set_meta("vertices", verts)
	r.set_meta("items", items)
	return r

func time(what: String, res: Resource, path: String):
	var t0 := Time.get_ticks_usec()
	ResourceSaver.save(res, path)
	var t1 := Time.get_ticks_usec()
	var l = ResourceLoader.load(path, "", ResourceLoader.CACHE_MODE_IGNORE)
	var t2 := Time.get_ticks_usec()
	var size := FileAccess.get_file_as_bytes(path).size()
	print("%s\t%d bytes\tsave %.1f ms\tload %.1f ms" % [what, size, (t1 - t0) / 1000.0, (t2 - t1) / 1000.0])

func _initialize():
	var s := scene()
	time("scene20k.tscn", s, "user://s.tscn")
	time("scene20k.scn", s, "user://s.scn")
	var r := big()
	time("big.tres", r, "user://b.tres")
	time("big.res", r, "user://b.res")
	quit()
