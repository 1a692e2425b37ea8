# Writes the Godot 4 corpus of package resource: every Variant type as
# metadata of a Resource, common resource classes and a scene with an
# instanced sub-scene, groups and signals, each saved by ResourceSaver as
# .tres/.tscn, .res/.scn and compressed .res, printed as "name<TAB>base64".
# Made with: ../shared/oracle4/run.sh resource/testdata/gen4.gd > resource/testdata/godot4.txt
extends SceneTree

func all_types() -> Resource:
	var r := Resource.new()
	r.resource_name = "all types"
	var vals := {
		"nil": null, "bool": true, "int": 7, "int64": 1 << 40, "float": 2.5, "double": 0.1,
		"string": "héllo \"q\"\n", "vector2": Vector2(1.5, -2), "vector2i": Vector2i(3, -4),
		"rect2": Rect2(1, 2, 3, 4), "rect2i": Rect2i(1, 2, 3, 4), "vector3": Vector3(1, 2, 3),
		"vector3i": Vector3i(1, 2, 3), "transform2d": Transform2D(0.5, Vector2(3, 4)),
		"vector4": Vector4(1, 2, 3, 4), "vector4i": Vector4i(1, 2, 3, 4),
		"plane": Plane(0, 1, 0, 2), "quaternion": Quaternion(0, 0, 0.6, 0.8),
		"aabb": AABB(Vector3(1, 2, 3), Vector3(4, 5, 6)), "basis": Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)),
		"transform3d": Transform3D(Basis.IDENTITY, Vector3(1, 2, 3)), "projection": Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16)),
		"color": Color(0.25, 0.5, 0.75, 1), "stringname": &"sn", "nodepath": NodePath("a/b:c"),
		"dictionary": {"a": 1, 2: [3, "x"]}, "array": [1, "two", 3.5, null],
		"typed_array": [1, 2] as Array[int],
		"bytes": PackedByteArray([1, 2, 3]), "int32s": PackedInt32Array([1, -2]), "int64s": PackedInt64Array([1 << 40]),
		"float32s": PackedFloat32Array([1.5]), "float64s": PackedFloat64Array([0.1]), "strings": PackedStringArray(["a", "b"]),
		"vector2s": PackedVector2Array([Vector2(1, 2)]), "vector3s": PackedVector3Array([Vector3(1, 2, 3)]),
		"colors": PackedColorArray([Color(1, 0, 0)]), "vector4s": PackedVector4Array([Vector4(1, 2, 3, 4)]),
	}
	for k in vals:
		r.set_meta(k, vals[k])
	var sub := Resource.new()
	sub.resource_name = "sub"
	r.set_meta("sub", sub)
	r.set_meta("subs", [sub, sub])
	return r

func scripted() -> Resource:
	var s := GDScript.new()
	s.source_code = "extends Resource\n@export var hp: int = 10\n@export var speed: float = 1.5\n@export var tags: Array[String] = []\n@export var curve: Curve\n"
	s.reload()
	ResourceSaver.save(s, "user://stats.gd")
	emit("stats.gd", "user://stats.gd")
	var r := Resource.new()
	r.set_script(load("user://stats.gd"))
	r.set("hp", 99)
	r.set("tags", ["a", "b"] as Array[String])
	r.set("curve", curve())
	return r

func curve() -> Curve:
	var c := Curve.new()
	c.add_point(Vector2(0, 0))
	c.add_point(Vector2(0.5, 1), 0.5, -0.5)
	c.add_point(Vector2(1, 0.25))
	return c

func gradient() -> Gradient:
	var g := Gradient.new()
	g.add_point(0.5, Color(0, 1, 0))
	return g

func theme() -> Theme:
	var t := Theme.new()
	t.set_color("font_color", "Label", Color(1, 0, 0))
	t.set_constant("margin", "Box", 4)
	var sb := StyleBoxFlat.new()
	sb.bg_color = Color(0.1, 0.2, 0.3)
	t.set_stylebox("panel", "Panel", sb)
	return t

func sub_scene() -> PackedScene:
	var root := Node2D.new()
	root.name = "Item"
	var s := Sprite2D.new()
	s.name = "Sprite"
	s.position = Vector2(4, 5)
	root.add_child(s)
	s.owner = root
	var p := PackedScene.new()
	p.pack(root)
	return p

func scene(item: PackedScene) -> PackedScene:
	var root := Node2D.new()
	root.name = "Level"
	var a := Node2D.new()
	a.name = "A"
	a.position = Vector2(1, 2)
	a.add_to_group("enemies", true)
	root.add_child(a)
	a.owner = root
	var b := Timer.new()
	b.name = "B"
	b.wait_time = 2.5
	a.add_child(b)
	b.owner = root
	var inst := item.instantiate()
	inst.name = "Item1"
	inst.position = Vector2(10, 0)
	root.add_child(inst)
	inst.owner = root
	root.set_editable_instance(inst, true)
	inst.get_node("Sprite").position = Vector2(7, 8)
	b.timeout.connect(Callable(a, "queue_free"), CONNECT_PERSIST)
	b.timeout.connect(Callable(root, "set_meta").bind("k", 1), CONNECT_PERSIST)
	var p := PackedScene.new()
	p.pack(root)
	return p

func emit(name: String, path: String):
	var f := FileAccess.open(path, FileAccess.READ)
	print(name, "\t", Marshalls.raw_to_base64(f.get_buffer(f.get_length())))

func save_all(res: Resource, base: String, text_ext: String, bin_ext: String):
	for ext in [text_ext, bin_ext]:
		var path: String = "user://" + base + "." + ext
		var err := ResourceSaver.save(res, path)
		if err != OK:
			printerr("save ", path, ": ", err)
			continue
		emit(base + "." + ext, path)
	var cpath: String = "user://" + base + ".compressed." + bin_ext
	if ResourceSaver.save(res, cpath, ResourceSaver.FLAG_COMPRESS) == OK:
		emit(base + ".compressed." + bin_ext, cpath)

func _initialize():
	save_all(all_types(), "all_types", "tres", "res")
	save_all(curve(), "curve", "tres", "res")
	save_all(gradient(), "gradient", "tres", "res")
	save_all(theme(), "theme", "tres", "res")
	save_all(scripted(), "stats", "tres", "res")
	var item := sub_scene()
	ResourceSaver.save(item, "user://item.tscn")
	item = load("user://item.tscn")
	save_all(item, "item", "tscn", "scn")
	save_all(scene(item), "level", "tscn", "scn")
	# An inherited scene with an instance placeholder, loaded from text.
	var f := FileAccess.open("user://inherited_src.tscn", FileAccess.WRITE)
	f.store_string("[gd_scene format=3]\n\n[ext_resource type=\"PackedScene\" path=\"user://item.tscn\" id=\"1\"]\n\n[node name=\"Item\" instance=ExtResource(\"1\")]\nposition = Vector2(3, 3)\n\n[node name=\"Later\" parent=\".\" instance_placeholder=\"user://item.tscn\"]\n")
	f.close()
	save_all(load("user://inherited_src.tscn"), "inherited", "tscn", "scn")
	quit()
