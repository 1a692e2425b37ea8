# Godot 4.6: bytes_to_var of its first argument (base64), then prints
# the code points of every string in it (Strings, PackedStringArray
# elements, Dictionary keys, NodePath text), one string a line, in hex.
extends SceneTree

func _initialize():
	var v = bytes_to_var(Marshalls.base64_to_raw(OS.get_cmdline_user_args()[0]))
	if v == null:
		quit(1)
		return
	walk(v)
	quit(0)

func walk(v):
	match typeof(v):
		TYPE_STRING:
			show(v)
		TYPE_NODE_PATH:
			show(str(v))
		TYPE_PACKED_STRING_ARRAY, TYPE_ARRAY:
			for e in v:
				walk(e)
		TYPE_DICTIONARY:
			for k in v:
				walk(k)
				walk(v[k])

func show(s: String):
	var cps = []
	for i in s.length():
		cps.append("%X" % s.unicode_at(i))
	print(" ".join(cps))
