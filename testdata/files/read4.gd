# Reads store_var files with Godot 4's FileAccess, as a game would, and
# prints one JSON line per file: var_to_bytes_with_objects of every value
# get_var(true) returned, or the error of FileAccess.open*.
#
# Each argument is NAME:HOW[:MODE]: the file res://NAME (the test puts it
# beside this script), opened according to HOW: plain, bigendian
# (big_endian), password ("gdvar-secret"), key (the bytes 0 to 31) or
# compressed (MODE is the compression mode). With oracle4/run.sh, which
# takes one input file, pass "input:HOW" and the file as INPUT-FILE: the
# name "input" means /oracle/input.
extends SceneTree

func key() -> PackedByteArray:
	var k = PackedByteArray()
	for i in range(32):
		k.append(i)
	return k

func _initialize():
	for arg in OS.get_cmdline_user_args():
		var spec = arg.split(":")
		if spec.size() < 2:
			continue
		var path = "res://" + spec[0]
		if spec[0] == "input":
			path = "/oracle/input"
		var f: FileAccess
		match spec[1]:
			"password":
				f = FileAccess.open_encrypted_with_pass(path, FileAccess.READ, "gdvar-secret")
			"key":
				f = FileAccess.open_encrypted(path, FileAccess.READ, key())
			"compressed":
				f = FileAccess.open_compressed(path, FileAccess.READ, int(spec[2]))
			_:
				f = FileAccess.open(path, FileAccess.READ)
		if f == null:
			print(JSON.stringify({"file": spec[0], "error": FileAccess.get_open_error()}))
			continue
		f.big_endian = spec[1] == "bigendian"
		var values = []
		while f.get_position() < f.get_length():
			values.append(var_to_bytes_with_objects(f.get_var(true)).hex_encode())
		print(JSON.stringify({"file": spec[0], "values": values}))
	quit()
