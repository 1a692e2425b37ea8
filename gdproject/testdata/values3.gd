# Godot 3.2.3: reads DIR/project.godot with ConfigFile and prints each
# setting as "section/key" (or "key" outside any section), a tab and
# var2bytes of its value in hex, then "done".
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
			print(name, "\t", var2bytes(cf.get_value(sec, k)).hex_encode())
	print("done")
	quit()
