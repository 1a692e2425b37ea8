extends SceneTree
# Writes the same values with FileAccess.store_var, little- and big-endian,
# and prints each file as hex. Run with Godot 4.6: from the repository's
# root, node internal/godot4web/run.mjs stream/testdata/store_var4.gd, or
# godot --headless --script store_var4.gd.

func _write(path, big):
	var f = FileAccess.open(path, FileAccess.WRITE)
	f.big_endian = big
	f.store_var(1)
	f.store_var("abc")
	f.store_var(Vector2(1, 2))
	f.store_var({"a": [1, 2.5]})
	f.store_var(PackedByteArray([1, 2, 3]))
	f.store_var(Vector2i(7, -7))
	f.close()
	return FileAccess.get_file_as_bytes(path).hex_encode()

func _initialize():
	print("little\t", _write("user://le.bin", false))
	print("big\t", _write("user://be.bin", true))
	quit()
