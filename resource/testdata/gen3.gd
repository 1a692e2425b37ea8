# Writes the Godot 3 corpus of package resource: every Variant type as
# metadata of a Resource, common resource classes and a scene with an
# instanced sub-scene, groups and signals, each saved by ResourceSaver as
# .tres/.tscn, .res/.scn and compressed .res, printed as "name<TAB>base64".
# Made with: ../shared/oracle3/run.sh resource/testdata/gen3.gd > resource/testdata/godot3.txt
extends SceneTree

func all_types():
	var r = Resource.new()
	r.resource_name = "all types"
	var vals = {
		"bool": true, "int": 7, "int64": 1 << 40, "float": 2.5, "double": 0.1,
		"string": "héllo \"q\"\n", "vector2": Vector2(1.5, -2),
		"rect2": Rect2(1, 2, 3, 4), "vector3": Vector3(1, 2, 3),
		"transform2d": Transform2D(0.5, Vector2(3, 4)),
		"plane": Plane(0, 1, 0, 2), "quat": Quat(0, 0, 0.6, 0.8),
		"aabb": AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), "basis": Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		"transform": Transform(Basis(), Vector3(1, 2, 3)),
		"color": Color(0.25, 0.5, 0.75, 1), "nodepath": NodePath("a/b:c"),
		"dictionary": {"a": 1, 2: [3, "x"]}, "array": [1, "two", 3.5, null],
		"bytes": PoolByteArray([1, 2, 3]), "ints": PoolIntArray([1, -2]),
		"reals": PoolRealArray([1.5]), "strings": PoolStringArray(["a", "b"]),
		"vector2s": PoolVector2Array([Vector2(1, 2)]), "vector3s": PoolVector3Array([Vector3(1, 2, 3)]),
		"colors": PoolColorArray([Color(1, 0, 0)]),
	}
	for k in vals:
		r.set_meta(k, vals[k])
	var sub = Resource.new()
	sub.resource_name = "sub"
	r.set_meta("sub", sub)
	r.set_meta("subs", [sub, sub])
	return r

func scripted():
	var s = GDScript.new()
	s.source_code = "extends Resource\nexport var hp = 10\nexport var speed = 1.5\nexport(Array, String) var tags = []\nexport(Resource) var curve\n"
	s.reload()
	ResourceSaver.save("user://stats.gd", s)
	emit("stats.gd", "user://stats.gd")
	var r = Resource.new()
	r.set_script(load("user://stats.gd"))
	r.set("hp", 99)
	r.set("tags", ["a", "b"])
	r.set("curve", curve())
	return r

func curve():
	var c = Curve.new()
	c.add_point(Vector2(0, 0))
	c.add_point(Vector2(0.5, 1), 0.5, -0.5)
	c.add_point(Vector2(1, 0.25))
	return c

func gradient():
	var g = Gradient.new()
	g.add_point(0.5, Color(0, 1, 0))
	return g

func theme():
	var t = Theme.new()
	t.set_color("font_color", "Label", Color(1, 0, 0))
	t.set_constant("margin", "Box", 4)
	var sb = StyleBoxFlat.new()
	sb.bg_color = Color(0.1, 0.2, 0.3)
	t.set_stylebox("panel", "Panel", sb)
	return t

func sub_scene():
	var root = Node2D.new()
	root.name = "Item"
	var s = Sprite.new()
	s.name = "Sprite"
	s.position = Vector2(4, 5)
	root.add_child(s)
	s.owner = root
	var p = PackedScene.new()
	p.pack(root)
	return p

func scene(item):
	var root = Node2D.new()
	root.name = "Level"
	var a = Node2D.new()
	a.name = "A"
	a.position = Vector2(1, 2)
	a.add_to_group("enemies", true)
	root.add_child(a)
	a.owner = root
	var b = Timer.new()
	b.name = "B"
	b.wait_time = 2.5
	a.add_child(b)
	b.owner = root
	var inst = item.instance()
	inst.name = "Item1"
	inst.position = Vector2(10, 0)
	root.add_child(inst)
	inst.owner = root
	root.set_editable_instance(inst, true)
	inst.get_node("Sprite").position = Vector2(7, 8)
	b.connect("timeout", a, "queue_free", [], CONNECT_PERSIST)
	b.connect("timeout", root, "set_meta", ["k", 1], CONNECT_PERSIST)
	var p = PackedScene.new()
	p.pack(root)
	return p

func emit(name, path):
	var f = File.new()
	f.open(path, File.READ)
	print(name, "\t", Marshalls.raw_to_base64(f.get_buffer(f.get_len())))
	f.close()

func save_all(res, base, text_ext, bin_ext):
	for ext in [text_ext, bin_ext]:
		var path = "user://" + base + "." + ext
		var err = ResourceSaver.save(path, res)
		if err != OK:
			printerr("save ", path, ": ", err)
			continue
		emit(base + "." + ext, path)
	var cpath = "user://" + base + ".compressed." + bin_ext
	if ResourceSaver.save(cpath, res, ResourceSaver.FLAG_COMPRESS) == OK:
		emit(base + ".compressed." + bin_ext, cpath)

func _init():
	save_all(all_types(), "all_types", "tres", "res")
	save_all(curve(), "curve", "tres", "res")
	save_all(gradient(), "gradient", "tres", "res")
	save_all(theme(), "theme", "tres", "res")
	save_all(scripted(), "stats", "tres", "res")
	var item = sub_scene()
	ResourceSaver.save("user://item.tscn", item)
	item = load("user://item.tscn")
	save_all(item, "item", "tscn", "scn")
	save_all(scene(item), "level", "tscn", "scn")
	# An inherited scene with an instance placeholder, loaded from text.
	var f = File.new()
	f.open("user://inherited_src.tscn", File.WRITE)
	f.store_string("[gd_scene load_steps=2 format=2]\n\n[ext_resource path=\"user://item.tscn\" type=\"PackedScene\" id=1]\n\n[node name=\"Item\" instance=ExtResource( 1 )]\nposition = Vector2( 3, 3 )\n\n[node name=\"Later\" parent=\".\" instance_placeholder=\"user://item.tscn\"]\n")
	f.close()
	save_all(load("user://inherited_src.tscn"), "inherited", "tscn", "scn")
	quit()
