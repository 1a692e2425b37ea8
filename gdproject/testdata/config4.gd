# Godot 4.6: writes its first argument (base64) to user://project.godot,
# reads it with ConfigFile (the reader ProjectSettings uses for the text
# file) and prints each setting as "section/key" (or "key" outside any
# section) c_escape()d, a tab, var_to_bytes of its value in hex, a tab and
# the value as text, c_escape()d; then "done".
extends SceneTree

func _initialize():
	var text = Marshalls.base64_to_raw(OS.get_cmdline_user_args()[0])
	var f = FileAccess.open("user://project.godot", FileAccess.WRITE)
	f.store_buffer(text)
	f.close()
	var cf = ConfigFile.new()
	var err = cf.load("user://project.godot")
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
			print(name.c_escape(), "\t", var_to_bytes(v).hex_encode(), "\t", str(v).c_escape())
	print("done")
	quit(0)
