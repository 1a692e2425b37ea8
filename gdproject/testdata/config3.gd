# Godot 3.2.3: reads DIR/project.godot with ConfigFile (the reader
# ProjectSettings uses for the text file) and prints each setting as
# "section/key" (or "key" outside any section) c_escape()d, a tab,
# var2bytes of its value in hex, a tab and the value as text, c_escape()d;
# then "done".
extends SceneTree

func _init():
	var args = OS.get_cmdline_args()
	var dir = args[args.size() - 1]
	var cf = ConfigFile.new()
	var err = cf.load(dir + "/project.godot")
	if err != OK:
		print("error ", err)
		quit(1)
		return
	for sec in cf.get_sections():
		for k in cf.get_section_keys(sec):
			var name = k
			if sec != "":
				name = sec + "/" + k
			var v = cf.get_value(sec, k)
			print(name.c_escape(), "\t", var2bytes(v).hex_encode(), "\t", str(v).c_escape())
	print("done")
	quit()
