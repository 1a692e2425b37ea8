# classes4.gd: prints, one a line and sorted, every class that this
# Godot 4 engine's ClassDB can instantiate. See generate.sh.
extends SceneTree


func _initialize() -> void:
	var names := ClassDB.get_class_list()
	names.sort()
	for c in names:
		if ClassDB.can_instantiate(c):
			print(c)
	quit(0)
