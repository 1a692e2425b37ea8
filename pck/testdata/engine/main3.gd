# Run by Godot 3.2.3 from a pack that gdvar wrote, given with --main-pack:
# prints the project's name (from the pack's project.binary) and a file of
# the pack.
extends SceneTree

func _init():
	var f = File.new()
	if f.open("res://data/hello.txt", File.READ) != OK:
		print("no data")
		quit(1)
		return
	print("name=", ProjectSettings.get_setting("application/config/name"), " data=", f.get_as_text())
	quit(0)
