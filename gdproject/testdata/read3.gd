# Godot 3.2.3, started with --path on a folder holding only project.binary:
# prints "name<TAB>VALUE" and "int<TAB>VALUE" from the settings it loaded.
extends SceneTree

func _init():
	print("name\t", ProjectSettings.get_setting("application/config/name"))
	print("int\t", ProjectSettings.get_setting("gdvar/values/int"))
	print("vector\t", ProjectSettings.get_setting("gdvar/values/vector"))
	quit(0)
