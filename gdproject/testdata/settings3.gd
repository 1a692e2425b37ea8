# Godot 3.2.3: saves the project's settings, with a few more of every kind,
# with ProjectSettings.save_custom as DIR/project.binary and
# DIR/project.godot, and prints "done".
extends SceneTree

func _init():
	var dir = OS.get_cmdline_args()[2]
	ProjectSettings.set_setting("gdvar/values/int", 42)
	ProjectSettings.set_setting("gdvar/values/float", 0.1)
	ProjectSettings.set_setting("gdvar/values/string", "héllo \"q\"\nline")
	ProjectSettings.set_setting("gdvar/values/vector", Vector2(1.5, -2))
	ProjectSettings.set_setting("gdvar/values/color", Color(0.25, 0.5, 1, 1))
	ProjectSettings.set_setting("gdvar/values/array", [1, "two", 3.0])
	ProjectSettings.set_setting("gdvar/values/dict", {"a": 1, "b": [true, null]})
	ProjectSettings.set_setting("gdvar/values/packed", PoolStringArray(["x", "y"]))
	for ext in ["binary", "godot"]:
		var err = ProjectSettings.save_custom(dir + "/project." + ext)
		if err != OK:
			quit(10 + err)
			return
	print("done")
	quit(0)
