# Writes the Godot 3 fixture files with File.store_var, in every container
# File offers, and prints one JSON line per file: its name, how it was
# written and var2bytes of every value it holds (hex).
#
#     godot3-server --script make3.gd OUTDIR      (through oracle3/run.sh)
extends SceneTree

const PASSWORD = "gdvar-secret"

func key():
	var k = PoolByteArray()
	for i in range(32):
		k.append(i)
	return k

func save_game():
	return {
		"version": 3,
		"player": {"name": "Ada Lovelace", "level": 12, "hp": 87.5, "pos": Vector2(12.5, -3),
			"inventory": ["sword", "shield", "potion"]},
		"checkpoint": NodePath("/root/World:cp_3"),
		"flags": PoolByteArray([1, 0, 1, 1]),
		"scores": PoolIntArray([10, 20, 30]),
		"times": PoolRealArray([1.5, 2.25]),
		"names": PoolStringArray(["a", "bc", ""]),
		"path": PoolVector2Array([Vector2(1, 2), Vector2(-3, 4.5)]),
		"points": PoolVector3Array([Vector3(1, 2, 3)]),
		"palette": PoolColorArray([Color(1, 0, 0), Color(0, 1, 0, 0.5)]),
		"xform": Transform(Basis(Vector3(0, 1, 0), 0.5), Vector3(1, 2, 3)),
		"rot": Quat(0, 0.70710677, 0, 0.70710677),
		"t2d": Transform2D(0.25, Vector2(4, 5)),
		"box": AABB(Vector3(0, 0, 0), Vector3(1, 2, 3)),
		"rect": Rect2(1, 2, 3, 4),
		"plane": Plane(0, 1, 0, 2),
		"basis": Basis(Vector3(1, 0, 0), 1.0),
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
	var bytes = PoolByteArray()
	for i in range(9000):
		bytes.append((i * 7) % 251)
	var ints = PoolIntArray()
	for i in range(2000):
		ints.append(i * i - 1000)
	return [save_game(), 42, "hello", 0.1, [1, "two", 3.0, [], {}], bytes, ints, {}, -1.5e300]

func hexes(values, objects):
	var out = []
	for v in values:
		out.append(var2bytes(v, objects).hex_encode())
	return out

func write(dir, name, how, values, opts):
	var f = File.new()
	var path = dir + "/" + name
	var err
	match how:
		"plain":
			err = f.open(path, File.WRITE)
		"password":
			err = f.open_encrypted_with_pass(path, File.WRITE, PASSWORD)
		"key":
			err = f.open_encrypted(path, File.WRITE, key())
		_:
			err = f.open_compressed(path, File.WRITE, opts["compression"])
	if err != OK:
		printerr("cannot open ", path, ": ", err)
		quit(1)
		return
	f.endian_swap = opts.get("big_endian", false)
	for v in values:
		f.store_var(v, opts.get("objects", false))
	f.close()
	var line = {"file": name, "how": how, "values": hexes(values, opts.get("objects", false))}
	for k in opts:
		line[k] = opts[k]
	print(to_json(line))

func _init():
	var args = OS.get_cmdline_args()
	var dir = args[args.size() - 1]
	write(dir, "plain-one.sav", "plain", [save_game()], {})
	write(dir, "plain-many.sav", "plain", many(), {})
	write(dir, "plain-big-endian.sav", "plain", [save_game(), 7, "end"], {"big_endian": true})
	write(dir, "encrypted-password.sav", "password", many(), {})
	write(dir, "encrypted-key.sav", "key", [save_game(), "second"], {})
	write(dir, "encrypted-empty.sav", "password", [], {})
	write(dir, "compressed-fastlz.sav", "compressed", many(), {"compression": File.COMPRESSION_FASTLZ})
	write(dir, "compressed-deflate.sav", "compressed", many(), {"compression": File.COMPRESSION_DEFLATE})
	write(dir, "compressed-zstd.sav", "compressed", many(), {"compression": File.COMPRESSION_ZSTD})
	write(dir, "compressed-gzip.sav", "compressed", many(), {"compression": File.COMPRESSION_GZIP})
	write(dir, "compressed-fastlz-small.sav", "compressed", [1], {"compression": File.COMPRESSION_FASTLZ})
	var res = Resource.new()
	res.resource_name = "potion"
	write(dir, "objects.sav", "plain", [res, {"item": res, "count": 3}], {"objects": true})
	var sp = Spatial.new()
	sp.name = "Player"
	write(dir, "objects-renamed.sav", "plain", [sp], {"objects": true})
	sp.free()
	quit()
