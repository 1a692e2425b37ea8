# classes3.gd: prints, one a line and sorted, every class that this
# Godot 3 engine's ClassDB can instance. See generate.sh.
extends SceneTree


func _init():
	var names = Array(ClassDB.get_class_list())
	names.sort()
	for c in names:
		if ClassDB.can_instance(c):
			print(c)
	quit()
