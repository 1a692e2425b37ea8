# Reads store_var files with Godot 3's File, as a game would, and prints one
# JSON line per file: the var2bytes (full objects) of every value get_var
# returned, or the error of File.open*.
#
#     godot3-server --script read3.gd DIR SPEC...
#
# Each SPEC is NAME:HOW[:MODE]: the file DIR/NAME, opened according to HOW:
# plain, bigendian (endian_swap), password ("gdvar-secret"), key (the bytes
# 0 to 31) or compressed (MODE is the compression mode).
extends SceneTree

func key():
	var k = PoolByteArray()
	for i in range(32):
		k.append(i)
	return k

func _init():
	var args = OS.get_cmdline_args()
	var dir = args[2]
	for i in range(3, args.size()):
		var spec = args[i].split(":")
		var path = dir + "/" + spec[0]
		var f = File.new()
		var err
		match spec[1]:
			"password":
				err = f.open_encrypted_with_pass(path, File.READ, "gdvar-secret")
			"key":
				err = f.open_encrypted(path, File.READ, key())
			"compressed":
				err = f.open_compressed(path, File.READ, int(spec[2]))
			_:
				err = f.open(path, File.READ)
		if err != OK:
			print(to_json({"file": spec[0], "error": err}))
			continue
		f.endian_swap = spec[1] == "bigendian"
		var values = []
		while f.get_position() < f.get_len():
			values.append(var2bytes(f.get_var(true), true).hex_encode())
		f.close()
		print(to_json({"file": spec[0], "values": values}))
	quit()
