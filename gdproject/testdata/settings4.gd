# Godot 4.6: saves the project's settings, with a few more of every kind,
# with ProjectSettings.save_custom as project.binary and as project.godot,
# and prints "binary BASE64" and "text BASE64".
extends SceneTree

func _initialize():
	ProjectSettings.set_setting("gdvar/values/int", 42)
	ProjectSettings.set_setting("gdvar/values/float", 0.1)
	ProjectSettings.set_setting("gdvar/values/string", "héllo \"q\"\nline")
	ProjectSettings.set_setting("gdvar/values/vector", Vector2(1.5, -2))
	ProjectSettings.set_setting("gdvar/values/color", Color(0.25, 0.5, 1, 1))
	ProjectSettings.set_setting("gdvar/values/array", [1, "two", 3.0])
	ProjectSettings.set_setting("gdvar/values/dict", {"a": 1, "b": [true, null]})
	ProjectSettings.set_setting("gdvar/values/packed", PackedStringArray(["x", "y"]))
	for ext in ["binary", "godot"]:
		var err = ProjectSettings.save_custom("user://project." + ext)
		if err != OK:
			quit(10 + err)
			return
		print("binary " if ext == "binary" else "text ", Marshalls.raw_to_base64(FileAccess.get_file_as_bytes("user://project." + ext)))
	quit(0)
