# Prints, for each value below, one JSON line with what Godot 4.6 makes of
# it: var_to_bytes (hex), JSON.stringify(value) ("plain"),
# JSON.stringify(JSON.from_native(value)) ("typed") and var_to_bytes of
# JSON.to_native(JSON.parse_string(typed)) ("back"), and the same texts
# indented or with keys in their order ("plain_indent", "plain_unsorted",
# "typed_indent_unsorted"). Then the engine's
# readings of hand-written typed JSON texts ("to_native" lines) and of plain
# JSON texts ("parse" lines).
#
#     oracle4/run.sh json4.gd > json4.jsonl
extends SceneTree

func values():
	var typed_ints: Array[int] = [1, 2, 3]
	var typed_strings: Array[String] = ["a"]
	var typed_dict: Dictionary[String, int] = {"a": 1, "b": 2}
	var typed_vec: Dictionary[Vector2i, Color] = {Vector2i(1, 2): Color(1, 0, 0)}
	var res = Resource.new()
	res.resource_name = "potion"
	return [
		["null", null],
		["true", true],
		["false", false],
		["int 0", 0],
		["int 42", 42],
		["int -7", -7],
		["int max", 9223372036854775807],
		["int min", -9223372036854775807 - 1],
		["int 2^53+1", 9007199254740993],
		["float 0", 0.0],
		["float -0", -0.0],
		["float 1", 1.0],
		["float 2.5", 2.5],
		["float 0.1", 0.1],
		["float 0.1+0.2", 0.1 + 0.2],
		["float 1/3", 1.0 / 3.0],
		["float 1e15", 1e15],
		["float 1e20", 1e20],
		["float 1e300", 1e300],
		["float 1.5e-20", 1.5e-20],
		["float 1e-7", 1e-7],
		["float 123456.789", 123456.789],
		["float -2.5e-5", -2.5e-5],
		["float 5e-324", 5e-324],
		["float big int", 4611686018427387904.0],
		["float inf", INF],
		["float -inf", -INF],
		["float nan", NAN],
		["string empty", ""],
		["string", "hello"],
		["string escapes", "q\"b\\s/t\tn\nr\rb\bf\fv\u000b"],
		["string control", "a\u0001b\u001fc\u007f"],
		["string unicode", "héllo ✓ 😀"],
		["string prefix-like", "i:1"],
		["StringName", &"name"],
		["NodePath", NodePath("/root/a:b")],
		["NodePath empty", NodePath("")],
		["Vector2", Vector2(1, 2.5)],
		["Vector2 0.1", Vector2(0.1, -0.0)],
		["Vector2 tiny", Vector2(1.2345678e-30, 3.4e38)],
		["Vector2 inf", Vector2(INF, -INF)],
		["Vector2i", Vector2i(1, -2)],
		["Rect2", Rect2(1, 2, 3, 4)],
		["Rect2i", Rect2i(1, 2, 3, 4)],
		["Vector3", Vector3(1, 2, 3)],
		["Vector3i", Vector3i(1, 2, 3)],
		["Transform2D", Transform2D(0.5, Vector2(3, 4))],
		["Vector4", Vector4(1, 2, 3, 4)],
		["Vector4i", Vector4i(1, 2, 3, 4)],
		["Plane", Plane(0, 1, 0, 2)],
		["Quaternion", Quaternion(0, 0.70710677, 0, 0.70710677)],
		["AABB", AABB(Vector3(1, 2, 3), Vector3(4, 5, 6))],
		["Basis", Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9))],
		["Transform3D", Transform3D(Basis(Vector3(1, 2, 3), Vector3(4, 5, 6), Vector3(7, 8, 9)), Vector3(10, 11, 12))],
		["Projection", Projection(Vector4(1, 2, 3, 4), Vector4(5, 6, 7, 8), Vector4(9, 10, 11, 12), Vector4(13, 14, 15, 16))],
		["Color", Color(0.2, 0.4, 0.6, 0.8)],
		["Color red", Color(1, 0, 0)],
		["RID", RID()],
		["Callable", Callable()],
		["Signal", Signal()],
		["Array empty", []],
		["Array", [1, "two", 3.5, null, [true]]],
		["Array[int]", typed_ints],
		["Array[String]", typed_strings],
		["Dictionary empty", {}],
		["Dictionary", {"b": 1, "a": [1, 2.5], "c": {"d": null}}],
		["Dictionary keys", {1: "int", 2.5: "float", Vector2(1, 2): "vec", null: "nil", true: "bool", "s": "str", &"sn": "sname"}],
		["Dictionary[String, int]", typed_dict],
		["Dictionary[Vector2i, Color]", typed_vec],
		["PackedByteArray", PackedByteArray([0, 1, 255])],
		["PackedByteArray empty", PackedByteArray()],
		["PackedInt32Array", PackedInt32Array([1, -2, 2147483647])],
		["PackedInt64Array", PackedInt64Array([1, -2, 9007199254740993])],
		["PackedFloat32Array", PackedFloat32Array([0.1, 1, -2.5])],
		["PackedFloat64Array", PackedFloat64Array([0.1, 1.0 / 3.0, 1e300])],
		["PackedStringArray", PackedStringArray(["a", "", "c\n"])],
		["PackedVector2Array", PackedVector2Array([Vector2(1, 2), Vector2(0.5, -3)])],
		["PackedVector3Array", PackedVector3Array([Vector3(1, 2, 3)])],
		["PackedColorArray", PackedColorArray([Color(1, 0, 0), Color(0, 0.5, 1, 0.25)])],
		["PackedVector4Array", PackedVector4Array([Vector4(1, 2, 3, 4)])],
		["nested", {"player": {"name": "Ada", "pos": Vector2(1, 2), "inv": [&"sword", PackedInt32Array([1])]}}],
		["obj:Resource", res],
		["obj:in Dictionary", {"item": res}],
	]

func hex(v, objects):
	if objects:
		return var_to_bytes_with_objects(v).hex_encode()
	return var_to_bytes(v).hex_encode()

func _initialize():
	for pair in values():
		var name: String = pair[0]
		var v = pair[1]
		var objects = name.begins_with("obj:")
		var line = {"name": name, "objects": objects, "hex": hex(v, objects)}
		line["plain"] = JSON.stringify(v)
		line["plain_indent"] = JSON.stringify(v, "  ")
		line["plain_unsorted"] = JSON.stringify(v, "", false)
		var typed = JSON.stringify(JSON.from_native(v, objects))
		line["typed"] = typed
		line["typed_indent_unsorted"] = JSON.stringify(JSON.from_native(v, objects), "\t", false)
		line["back"] = hex(JSON.to_native(JSON.parse_string(typed), objects), objects)
		print(JSON.stringify(line, "", false))
	# Typed JSON texts the engine does not write, and what it reads in them.
	for text in [
		'"f:-0.0"', '"f:1e-20"', '"f:nan"', '"f:inf"', '"f:-inf"', '"f:0.30000000000000004"',
		'"f:1.7976931348623157e308"', '"f:5e-324"', '"i:9223372036854775807"', '"i:-9223372036854775808"',
		'{"type":"Vector2","args":["nan",1]}', '{"type":"Vector2","args":[1e99999,-1e99999]}',
		'{"type":"Vector2","args":[null,-0.0]}', '{"type":"Vector2","args":[1.2345678e-30,1]}',
		'{"type":"PackedInt64Array","args":[9007199254740993]}', '{"type":"Vector2i","args":[1.9,-1.9]}',
		'{"type":"PackedByteArray","args":[256,-1]}',
	]:
		var v = JSON.to_native(JSON.parse_string(text))
		print(JSON.stringify({"to_native": text, "hex": hex(v, false)}, "", false))
	for text in ['1', '1.0', '-0', '1e2', '"\\u00e9"', '[1, 2.5]', '{"a": 1}', '"\\v"', '"a\u0001"']:
		var json = JSON.new()
		var err = json.parse(text)
		var v = json.data
		print(JSON.stringify({"parse": text, "error": err, "hex": hex(v, false)}, "", false))
	quit()
