# Godot 3.2.3: reads DIR/project.godot with ConfigFile (the reader
# ProjectSettings uses for the text file) and prints each key as
# "section/key" (or "key" outside any section), c_escape()d, a tab and its
# value, then "done".
extends SceneTree

func _init():
	var dir = OS.get_cmdline_args()[2]
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
			print(name.c_escape(), "\t", cf.get_value(sec, k))
	print("done")
	quit()
