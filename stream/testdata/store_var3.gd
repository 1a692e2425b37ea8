extends SceneTree
# Writes the same values with File.store_var, little- and big-endian
# (endian_swap), and prints each file as hex. Run with Godot 3 headless:
#   godot3-server --path <any empty project> --script store_var3.gd

func _write(path, swap):
	var f = File.new()
	f.open(path, File.WRITE)
	f.endian_swap = swap
	f.store_var(1)
	f.store_var("abc")
	f.store_var(Vector2(1, 2))
	f.store_var({"a": [1, 2.5]})
	f.store_var(PoolByteArray([1, 2, 3]))
	f.close()
	f.open(path, File.READ)
	var b = f.get_buffer(f.get_len())
	f.close()
	return b.hex_encode()

func _init():
	print("little\t", _write("user://le.bin", false))
	print("big\t", _write("user://be.bin", true))
	quit()
