# Run by Godot 4.6 from a pack that gdvar wrote, given with --main-pack:
# prints the project's name (from the pack's project.binary) and a file of
# the pack.
extends SceneTree

func _initialize():
	var data = FileAccess.get_file_as_string("res://data/hello.txt")
	print("name=", ProjectSettings.get_setting("application/config/name"), " data=", data)
	quit(0)
