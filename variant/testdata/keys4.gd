extends SceneTree

# For each argument, the hex of a Dictionary that holds two entries on the
# wire: prints the number of entries Godot's bytes_to_var makes of it (1
# when the engine takes the two keys for one), or ERROR.
func _initialize():
	for h in OS.get_cmdline_user_args():
		var v = bytes_to_var(h.hex_decode())
		if typeof(v) != TYPE_DICTIONARY:
			print("ERROR")
		else:
			print(v.size())
	quit(0)
