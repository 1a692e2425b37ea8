# Writes the Godot 4 fixture files with FileAccess.store_var, in every
# container FileAccess offers, and prints, per file, one JSON line: its name,
# how it was written, var_to_bytes of every value it holds (hex) and the
# whole file (base64). The engine's file system lives in the browser, so the
# files come out through print.
#
#     oracle4/run.sh make4.gd
extends SceneTree

const PASSWORD = "gdvar-secret"

func key() -> PackedByteArray:
	var k = PackedByteArray()
	for i in range(32):
		k.append(i)
	return k

func save_game():
	var levels: Array[int] = [1, 2, 3, 5, 8]
	var stats: Dictionary[String, int] = {"strength": 14, "wisdom": 9}
	return {
		"version": 4,
		"player": {"name": "Ada Lovelace", "level": 12, "hp": 87.5, "pos": Vector2(12.5, -3),
			"cell": Vector2i(3, -4), "inventory": ["sword", "shield", "potion"]},
		"checkpoint": NodePath("/root/World:cp_3"),
		"id": &"player_one",
		"unlocked_levels": levels,
		"stats": stats,
		"flags": PackedByteArray([1, 0, 1, 1]),
		"scores": PackedInt32Array([10, 20, 30]),
		"big_scores": PackedInt64Array([1 << 40, -3]),
		"times": PackedFloat32Array([1.5, 2.25]),
		"precise": PackedFloat64Array([0.1, 1.0 / 3.0]),
		"names": PackedStringArray(["a", "bc", ""]),
		"path": PackedVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]),
		"points": PackedVector3Array([Vector3(1, 2, 3)]),
		"palette": PackedColorArray([Color(1, 0, 0), Color(0, 1, 0, 0.5)]),
		"quads": PackedVector4Array([Vector4(1, 2, 3, 4)]),
		"xform": Transform3D(Basis(Vector3(0, 1, 0), 0.5), Vector3(1, 2, 3)),
		"rot": Quaternion(0, 0.70710677, 0, 0.70710677),
		"t2d": Transform2D(0.25, Vector2(4, 5)),
		"box": AABB(Vector3(0, 0, 0), Vector3(1, 2, 3)),
		"rect": Rect2(1, 2, 3, 4),
		"recti": Rect2i(1, 2, 3, 4),
		"plane": Plane(0, 1, 0, 2),
		"basis": Basis(Vector3(1, 0, 0), 1.0),
		"proj": Projection(Vector4(1, 0, 0, 0), Vector4(0, 2, 0, 0), Vector4(0, 0, 3, 0), Vector4(0, 0, 0, 1)),
		"v4": Vector4(0.5, 1.5, 2.5, 3.5),
		"v4i": Vector4i(1, -2, 3, -4),
		"v3i": Vector3i(7, 8, 9),
		"color": Color(0.2, 0.4, 0.6, 0.8),
		"big": 1 << 40,
		"neg": -7,
		"pi": 3.14159265358979,
		"nothing": null,
		"yes": true,
		"v3": Vector3(1.5, 2.5, 3.5),
		"unicode": "héllo wörld ✓",
	}

# Several values; the byte and int arrays make the data span several
# 4096-byte compression blocks.
func many():
	var bytes = PackedByteArray()
	for i in range(9000):
		bytes.append((i * 7) % 251)
	var ints = PackedInt32Array()
	for i in range(2000):
		ints.append(i * i - 1000)
	return [save_game(), 42, "hello", 0.1, [1, "two", 3.0, [], {}], bytes, ints, {}, -1.5e300]

func write(name, how, values, opts):
	var path = "user://" + name
	var f: FileAccess
	match how:
		"plain":
			f = FileAccess.open(path, FileAccess.WRITE)
		"password":
			f = FileAccess.open_encrypted_with_pass(path, FileAccess.WRITE, PASSWORD)
		"key":
			f = FileAccess.open_encrypted(path, FileAccess.WRITE, key())
		_:
			f = FileAccess.open_compressed(path, FileAccess.WRITE, opts["compression"])
	if f == null:
		printerr("cannot open ", path, ": ", FileAccess.get_open_error())
		quit(1)
		return
	f.big_endian = opts.get("big_endian", false)
	var hexes = []
	for v in values:
		f.store_var(v, opts.get("objects", false))
		if opts.get("objects", false):
			hexes.append(var_to_bytes_with_objects(v).hex_encode())
		else:
			hexes.append(var_to_bytes(v).hex_encode())
	f.close()
	var line = {"file": name, "how": how, "values": hexes}
	for k in opts:
		line[k] = opts[k]
	line["base64"] = Marshalls.raw_to_base64(FileAccess.get_file_as_bytes(path))
	print(JSON.stringify(line, "", false))

func _initialize():
	write("plain-one.sav", "plain", [save_game()], {})
	write("plain-many.sav", "plain", many(), {})
	write("plain-big-endian.sav", "plain", [save_game(), 7, "end"], {"big_endian": true})
	write("encrypted-password.sav", "password", many(), {})
	write("encrypted-key.sav", "key", [save_game(), "second"], {})
	write("encrypted-empty.sav", "password", [], {})
	write("compressed-fastlz.sav", "compressed", many(), {"compression": FileAccess.COMPRESSION_FASTLZ})
	write("compressed-deflate.sav", "compressed", many(), {"compression": FileAccess.COMPRESSION_DEFLATE})
	write("compressed-zstd.sav", "compressed", many(), {"compression": FileAccess.COMPRESSION_ZSTD})
	write("compressed-gzip.sav", "compressed", many(), {"compression": FileAccess.COMPRESSION_GZIP})
	write("compressed-fastlz-small.sav", "compressed", [1], {"compression": FileAccess.COMPRESSION_FASTLZ})
	var res = Resource.new()
	res.resource_name = "potion"
	write("objects.sav", "plain", [res, {"item": res, "count": 3}], {"objects": true})
	quit()
